// The BIT icount task done with dragnet, compared with ASM 9.4 doing the same
// (AsmICount.java next to this file; scripts/bench-asm.sh runs both, docs/PERFORMANCE.md
// has the figures).
//
//   dragnet_icount_bench [--warmup W] [--iterations K] [--dump DIR] [--task T] JAR|DIR...
//
// Reads every *.class entry of the jars (jar order, then central-directory order: the
// order AsmICount reads them in, so both assign the same method ids; a directory argument:
// every *.class file under it, in path order) into memory, then per
// iteration, single-threaded: a fresh icount tool (ids from 0), and for every class
// parseClass -> BitTool::instrument (ICount.block(methodId, blockSize) before every basic
// block of every method) -> writeClass. W untimed iterations, then K timed ones; prints
// "RESULT dragnet ..." with MB/s of input class-file bytes (10^6 bytes per second), by wall
// clock and by process CPU time.
//
// After timing, one untimed pass counts the probes in the output (invokestatic
// dragnet/tools/ICount.block) and, with --dump DIR, writes each output class to
// DIR/<jar file name>/<entry name> for AsmICount's compare and verify modes.
//
// --task parse | parse-write | icount (default) times only a prefix of the work, to see
// where the time goes: parseClass alone, parseClass + writeClass, or the whole task.
#include <zip.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "classfile/class_file.h"
#include "tools/bit_tools.h"

namespace fs = std::filesystem;
using namespace dragnet;

namespace {

struct Entry {
  std::string jar, name;
  std::vector<uint8_t> bytes;
};

bool readJar(const std::string& path, std::vector<Entry>& out) {
  int err = 0;
  zip_t* za = zip_open(path.c_str(), ZIP_RDONLY, &err);
  if (!za) {
    std::fprintf(stderr, "cannot open %s (libzip error %d)\n", path.c_str(), err);
    return false;
  }
  std::string base = fs::path(path).filename().string();
  zip_int64_t n = zip_get_num_entries(za, 0);
  for (zip_int64_t i = 0; i < n; ++i) {
    zip_stat_t st;
    zip_stat_init(&st);
    if (zip_stat_index(za, static_cast<zip_uint64_t>(i), 0, &st) != 0) continue;
    std::string_view name = st.name;
    if (!name.ends_with(".class") || name.ends_with("/")) continue;
    Entry e{base, std::string(name), std::vector<uint8_t>(st.size)};
    zip_file_t* f = zip_fopen_index(za, static_cast<zip_uint64_t>(i), 0);
    if (!f) {
      std::fprintf(stderr, "cannot read %s!%s\n", path.c_str(), st.name);
      zip_close(za);
      return false;
    }
    zip_int64_t got = e.bytes.empty() ? 0 : zip_fread(f, e.bytes.data(), e.bytes.size());
    zip_fclose(f);
    if (got != static_cast<zip_int64_t>(e.bytes.size())) {
      std::fprintf(stderr, "short read %s!%s\n", path.c_str(), st.name);
      zip_close(za);
      return false;
    }
    out.push_back(std::move(e));
  }
  zip_close(za);
  return true;
}

double cpuSeconds() {
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

struct RunResult {
  size_t outBytes = 0;
  size_t failed = 0;
  size_t sites = 0;
  size_t unchangedMethods = 0;
};

enum class Task { Parse, ParseWrite, ICount };

// One run of the task over all classes: what the timed loop measures.
RunResult runOnce(const std::vector<Entry>& entries, Task task) {
  RunResult r;
  std::unique_ptr<tools::BitTool> tool = tools::makeICount(0);
  for (const Entry& e : entries) {
    auto parsed = classfile::parseClass(e.bytes);
    if (!parsed) {
      ++r.failed;
      continue;
    }
    if (task == Task::Parse) {
      r.outBytes += parsed.value().methods.size();
      continue;
    }
    try {
      if (task == Task::ICount) tool->instrument(parsed.value());
    } catch (const classfile::ParseFailure&) {
      // The constant pool is full: the class stays as it was (as `dragnet instrument`).
    }
    auto out = classfile::writeClass(parsed.value());
    if (!out) {
      ++r.failed;
      continue;
    }
    r.outBytes += out.value().size();
  }
  r.sites = tool->sites();
  r.unchangedMethods = tool->unchangedMethods().size();
  return r;
}

size_t countProbes(const std::vector<uint8_t>& bytes) {
  auto parsed = classfile::parseClass(bytes);
  if (!parsed) return 0;
  const classfile::ClassFile& cls = parsed.value();
  size_t n = 0;
  for (const classfile::Member& m : cls.methods) {
    const classfile::CodeAttr* code = m.code();
    if (!code) continue;
    for (const classfile::Insn& insn : code->code.insns) {
      if (insn.op != classfile::Op::invokestatic) continue;
      auto ref = cls.pool.memberRef(insn.cp());
      if (ref.owner == "dragnet/tools/ICount" && ref.name == "block") ++n;
    }
  }
  return n;
}

// Untimed: the same run, keeping the output to count probes (and dump it).
size_t checkPass(const std::vector<Entry>& entries, const std::string& dumpDir) {
  std::unique_ptr<tools::BitTool> tool = tools::makeICount(0);
  size_t probes = 0, shown = 0;
  for (const Entry& e : entries) {
    auto parsed = classfile::parseClass(e.bytes, classfile::ParseOptions{e.name});
    if (!parsed) {
      if (++shown <= 10) {
        std::printf("dragnet failed: %s!%s: %s\n", e.jar.c_str(), e.name.c_str(),
                    parsed.error().toString().c_str());
      }
      continue;
    }
    try {
      tool->instrument(parsed.value());
    } catch (const classfile::ParseFailure&) {
    }
    auto out = classfile::writeClass(parsed.value());
    if (!out) {
      if (++shown <= 10) {
        std::printf("dragnet failed to write %s!%s: %s\n", e.jar.c_str(), e.name.c_str(),
                    out.error().toString().c_str());
      }
      continue;
    }
    probes += countProbes(out.value());
    if (!dumpDir.empty()) {
      fs::path p = fs::path(dumpDir) / e.jar / e.name;
      fs::create_directories(p.parent_path());
      std::ofstream f(p, std::ios::binary);
      f.write(reinterpret_cast<const char*>(out.value().data()),
              static_cast<std::streamsize>(out.value().size()));
    }
  }
  for (size_t i = 0; i < tool->unchangedMethods().size() && i < 10; ++i) {
    std::printf("dragnet left unchanged: %s\n", tool->unchangedMethods()[i].c_str());
  }
  return probes;
}

// A directory instead of a jar: every *.class file under it, in path order (e.g. a JDK
// module image extracted with `jimage extract`, the build's training set for PGO).
bool readDir(const std::string& path, std::vector<Entry>& out) {
  std::vector<fs::path> files;
  std::error_code ec;
  for (fs::recursive_directory_iterator it(path, ec), end; !ec && it != end; it.increment(ec)) {
    if (it->is_regular_file() && it->path().extension() == ".class") files.push_back(it->path());
  }
  if (ec) {
    std::fprintf(stderr, "cannot list %s: %s\n", path.c_str(), ec.message().c_str());
    return false;
  }
  std::sort(files.begin(), files.end());
  std::string base = fs::path(path).filename().string();
  for (const fs::path& f : files) {
    std::ifstream in(f, std::ios::binary);
    std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)), {});
    if (!in.good() && !in.eof()) {
      std::fprintf(stderr, "cannot read %s\n", f.c_str());
      return false;
    }
    out.push_back({base, fs::relative(f, path).string(), std::move(bytes)});
  }
  return true;
}

int usage() {
  std::fprintf(stderr,
               "usage: dragnet_icount_bench [--warmup W] [--iterations K] [--dump DIR]\n"
               "                            [--task parse|parse-write|icount] JAR|DIR...\n");
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  int warmup = 1, iterations = 5;
  std::string dumpDir, taskName = "icount";
  std::vector<std::string> jars;
  for (int i = 1; i < argc; ++i) {
    std::string_view a = argv[i];
    if ((a == "--warmup" || a == "--iterations" || a == "--dump" || a == "--task") &&
        i + 1 < argc) {
      std::string v = argv[++i];
      if (a == "--warmup") {
        warmup = std::atoi(v.c_str());
      } else if (a == "--iterations") {
        iterations = std::atoi(v.c_str());
      } else if (a == "--task") {
        taskName = v;
      } else {
        dumpDir = v;
      }
    } else if (a.starts_with("--")) {
      return usage();
    } else {
      jars.emplace_back(a);
    }
  }
  if (jars.empty() || iterations < 1) return usage();
  Task task = Task::ICount;
  if (taskName == "parse") {
    task = Task::Parse;
  } else if (taskName == "parse-write") {
    task = Task::ParseWrite;
  } else if (taskName != "icount") {
    return usage();
  }

  std::vector<Entry> entries;
  for (const std::string& j : jars) {
    if (!(fs::is_directory(j) ? readDir(j, entries) : readJar(j, entries))) return 1;
  }
  size_t bytes = 0;
  for (const Entry& e : entries) bytes += e.bytes.size();
  std::printf("dragnet: %zu classes, %zu bytes (%.1f MB) from %zu jars; task %s\n",
              entries.size(), bytes, static_cast<double>(bytes) / 1e6, jars.size(),
              taskName.c_str());
  const double mb = static_cast<double>(bytes) / 1e6;

  for (int w = 0; w < warmup; ++w) {
    auto t0 = std::chrono::steady_clock::now();
    runOnce(entries, task);
    double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::printf("dragnet warm-up %d: %.3f s, %.1f MB/s\n", w + 1, s, mb / s);
  }
  RunResult last;
  double total = 0, cpuTotal = 0;
  for (int k = 0; k < iterations; ++k) {
    double c0 = cpuSeconds();
    auto t0 = std::chrono::steady_clock::now();
    last = runOnce(entries, task);
    double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    double c = cpuSeconds() - c0;
    total += s;
    cpuTotal += c;
    std::printf("dragnet iteration %d: %.3f s, %.1f MB/s (process CPU %.3f s)\n", k + 1, s,
                mb / s, c);
  }
  std::fflush(stdout);
  size_t probes = task == Task::ICount ? checkPass(entries, dumpDir) : 0;
  std::printf(
      "RESULT dragnet task=%s mbps=%.2f cpu_mbps=%.2f seconds=%.4f cpu_seconds=%.4f iterations=%d "
      "bytes=%zu classes=%zu methods=%zu probes=%zu unchanged=%zu failed=%zu outbytes=%zu\n",
      taskName.c_str(), mb * iterations / total, mb * iterations / cpuTotal, total, cpuTotal, iterations, bytes,
      entries.size(), last.sites, probes, last.unchangedMethods, last.failed, last.outBytes);
  return 0;
}
