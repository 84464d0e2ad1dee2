// What the agent's class hook costs per class, outside the JVM: every .class file under
// the given directories is parsed, rewritten by one mode's instrumenter and written back,
// as src/agent/agent.cpp's onClassFileLoad does (without the JVMTI copy). Prints the
// classes, the megabytes and the milliseconds of the fastest of N passes, per mode.
//
//   agent_rewrite_bench [--passes N] [--modes alloc,bytecodes,lifetime,sampled] DIR...
//
// bench/agent-rewrite prepares DIR from a workload: the classes a run of it loads
// (-Xlog:class+load), taken from the JDK's image and the workload's jars.
#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "analyses/lifetime/probes/instrumenter.h"
#include "analyses/lifetime/probes/sampled_instrumenter.h"
#include "classfile/class_file.h"
#include "contexts/probes.h"

namespace {

using namespace dragnet;

constexpr std::array<std::string_view, 4> kModes{"alloc", "bytecodes", "lifetime", "sampled"};

struct Input {
  std::string name;
  std::vector<uint8_t> bytes;
};

std::vector<Input> readClasses(const std::vector<std::string>& dirs) {
  std::vector<Input> out;
  for (const std::string& dir : dirs) {
    for (const auto& e : std::filesystem::recursive_directory_iterator(dir)) {
      if (!e.is_regular_file() || e.path().extension() != ".class") continue;
      std::ifstream in(e.path(), std::ios::binary);
      out.push_back({e.path().string(), {std::istreambuf_iterator<char>(in), {}}});
    }
  }
  std::sort(out.begin(), out.end(), [](const Input& a, const Input& b) { return a.name < b.name; });
  return out;
}

// One class through one mode; false if it failed to parse or to write.
bool rewrite(const Input& in, const std::string& mode, contexts::IdSource& ids, size_t& written) {
  auto parsed = classfile::parseClass(in.bytes, {in.name});
  if (!parsed) return false;
  classfile::ClassFile& cls = parsed.value();
  bool changed = false;
  if (mode == "sampled") {
    changed = analyses::lifetime::instrumentSampled(cls).changed;
  } else if (mode == "lifetime") {
    changed = analyses::lifetime::instrumentClass(cls, ids, {false}).changed;
  } else {
    contexts::Options o;
    o.bytecodes = mode == "bytecodes";
    changed = contexts::instrumentClass(cls, ids, o).changed;
  }
  if (!changed) return true;
  auto out = classfile::writeClass(cls);
  if (!out) return false;
  written += out.value().size();
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  int passes = 5;
  std::vector<std::string> modes(kModes.begin(), kModes.end()), dirs;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--passes" && i + 1 < argc) {
      passes = std::max(1, std::atoi(argv[++i]));
    } else if (a == "--modes" && i + 1 < argc) {
      modes.clear();
      std::stringstream ss(argv[++i]);
      for (std::string m; std::getline(ss, m, ',');) modes.push_back(m);
    } else if (a.starts_with("-")) {
      std::fprintf(stderr,
                   "usage: %s [--passes N] [--modes alloc,bytecodes,lifetime,sampled] DIR...\n",
                   argv[0]);
      return 2;
    } else {
      dirs.push_back(a);
    }
  }
  for (const std::string& m : modes) {
    if (std::find(kModes.begin(), kModes.end(), m) == kModes.end()) {
      std::fprintf(stderr, "agent_rewrite_bench: unknown mode '%s'\n", m.c_str());
      return 2;
    }
  }
  if (dirs.empty()) {
    std::fprintf(stderr, "agent_rewrite_bench: no directory of classes given\n");
    return 2;
  }
  std::vector<Input> classes = readClasses(dirs);
  size_t bytes = 0;
  for (const Input& c : classes) bytes += c.bytes.size();
  std::printf("%zu classes, %.1f MB\n", classes.size(), static_cast<double>(bytes) / 1e6);
  std::printf("%-10s %10s %10s %12s %12s\n", "mode", "best ms", "median ms", "us/class", "out MB");
  for (const std::string& mode : modes) {
    std::vector<double> ms;
    size_t written = 0, failed = 0;
    for (int p = 0; p < passes; ++p) {
      contexts::IdSource ids;
      written = failed = 0;
      auto t0 = std::chrono::steady_clock::now();
      for (const Input& c : classes) failed += rewrite(c, mode, ids, written) ? 0 : 1;
      std::chrono::duration<double, std::milli> d = std::chrono::steady_clock::now() - t0;
      ms.push_back(d.count());
    }
    std::sort(ms.begin(), ms.end());
    std::printf("%-10s %10.1f %10.1f %12.1f %12.1f%s\n", mode.c_str(), ms.front(),
                ms[ms.size() / 2], 1000.0 * ms.front() / static_cast<double>(classes.size()),
                static_cast<double>(written) / 1e6,
                failed ? (" (" + std::to_string(failed) + " failed)").c_str() : "");
  }
  return 0;
}
