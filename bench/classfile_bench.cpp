// Throughput of the class-file library over a real corpus: every class of an extracted JDK
// modules image, held in memory, processed single-threaded.
//
//   BM_Parse              parseClass
//   BM_ParseWrite         parseClass + writeClass
//   BM_ParseWriteCompare  parseClass + writeClass + comparison with the input
//
// One iteration processes the whole corpus. bytes_per_second counts class-file input bytes;
// the `classes/s` counter counts classes.
//
// Corpus: the directory in DRAGNET_BENCH_CLASSES (searched recursively for *.class), else
// ${DRAGNET_BINARY_DIR}/bench-classes, which is created on first use by running
// `jimage extract` on the running JDK's lib/modules (JAVA_HOME, else the `java` on PATH).
// scripts/bench.sh builds the release configuration and runs this with repetitions.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "classfile/class_file.h"

namespace fs = std::filesystem;
using dragnet::classfile::parseClass;
using dragnet::classfile::writeClass;

namespace {

struct Corpus {
  std::string dir;
  std::vector<std::vector<uint8_t>> classes;  // only those that parse
  size_t bytes = 0;
  size_t rejected = 0;  // class files that failed to parse (left out)
};

Corpus& corpus() {
  static Corpus c;
  return c;
}

std::string shellQuote(const std::string& s) {
  std::string q = "'";
  for (char ch : s) {
    if (ch == '\'') {
      q += "'\\''";
    } else {
      q += ch;
    }
  }
  return q + "'";
}

// Extracts the running JDK's modules image into `dir` (via a temporary sibling, so an
// interrupted extraction never leaves a partial corpus behind).
bool extractJdkModules(const fs::path& dir) {
  const char* javaHome = std::getenv("JAVA_HOME");
  std::string home;
  if (javaHome && *javaHome && fs::exists(fs::path(javaHome) / "lib" / "modules")) {
    home = shellQuote(javaHome);
  } else {
    home = "\"$(dirname \"$(dirname \"$(readlink -f \"$(command -v java)\")\")\")\"";
  }
  fs::path tmp = dir;
  tmp += ".tmp";
  std::error_code ec;
  fs::remove_all(tmp, ec);
  std::string cmd = "j=" + home + "; \"$j/bin/jimage\" extract --dir " + shellQuote(tmp.string()) +
                    " \"$j/lib/modules\"";
  std::fprintf(stderr, "extracting JDK classes: %s\n", cmd.c_str());
  if (std::system(cmd.c_str()) != 0) return false;
  fs::rename(tmp, dir, ec);
  return !ec;
}

bool loadCorpus() {
  Corpus& c = corpus();
  if (const char* env = std::getenv("DRAGNET_BENCH_CLASSES"); env && *env) {
    c.dir = env;
  } else {
    c.dir = (fs::path(DRAGNET_BINARY_DIR) / "bench-classes").string();
    if (!fs::exists(c.dir) && !extractJdkModules(c.dir)) {
      std::fprintf(stderr, "cannot extract the JDK modules; set DRAGNET_BENCH_CLASSES\n");
      return false;
    }
  }
  std::vector<fs::path> files;
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(c.dir, ec); !ec && it != fs::end(it);
       it.increment(ec)) {
    if (it->is_regular_file() && it->path().extension() == ".class") files.push_back(it->path());
  }
  if (ec) {
    std::fprintf(stderr, "cannot read %s: %s\n", c.dir.c_str(), ec.message().c_str());
    return false;
  }
  std::sort(files.begin(), files.end());
  for (const fs::path& p : files) {
    std::ifstream in(p, std::ios::binary);
    std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    auto parsed = parseClass(bytes);
    if (!parsed) {
      if (++c.rejected <= 5) {
        std::fprintf(stderr, "left out %s: %s\n", p.c_str(), parsed.error().toString().c_str());
      }
      continue;
    }
    c.bytes += bytes.size();
    c.classes.push_back(std::move(bytes));
  }
  if (c.classes.empty()) {
    std::fprintf(stderr, "no class files under %s\n", c.dir.c_str());
    return false;
  }
  return true;
}

void report(benchmark::State& state) {
  const Corpus& c = corpus();
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) * static_cast<int64_t>(c.bytes));
  state.counters["classes/s"] = benchmark::Counter(
      static_cast<double>(state.iterations()) * static_cast<double>(c.classes.size()),
      benchmark::Counter::kIsRate);
  state.counters["classes"] = static_cast<double>(c.classes.size());
}

// What one pass over the corpus does with each class.
enum class Pass { Parse, ParseWrite, ParseWriteCompare };

void run(benchmark::State& state, Pass pass) {
  const Corpus& c = corpus();
  for (auto _ : state) {
    for (const auto& bytes : c.classes) {
      auto parsed = parseClass(bytes);
      if (!parsed) {
        state.SkipWithError("parse failed");
        return;
      }
      if (pass == Pass::Parse) {
        benchmark::DoNotOptimize(parsed.value().methods.data());
        continue;
      }
      auto written = writeClass(parsed.value());
      if (!written) {
        state.SkipWithError("write failed");
        return;
      }
      if (pass == Pass::ParseWriteCompare && written.value() != bytes) {
        state.SkipWithError("round trip is not byte-identical");
        return;
      }
      benchmark::DoNotOptimize(written.value().data());
    }
  }
  report(state);
}

void BM_Parse(benchmark::State& state) { run(state, Pass::Parse); }
void BM_ParseWrite(benchmark::State& state) { run(state, Pass::ParseWrite); }
void BM_ParseWriteCompare(benchmark::State& state) { run(state, Pass::ParseWriteCompare); }

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  if (!loadCorpus()) return 1;
  const Corpus& c = corpus();
  benchmark::AddCustomContext("corpus", c.dir);
  benchmark::AddCustomContext("corpus_classes", std::to_string(c.classes.size()));
  benchmark::AddCustomContext("corpus_bytes", std::to_string(c.bytes));
  benchmark::AddCustomContext("corpus_rejected", std::to_string(c.rejected));
  for (auto* b : {benchmark::RegisterBenchmark("BM_Parse", BM_Parse),
                  benchmark::RegisterBenchmark("BM_ParseWrite", BM_ParseWrite),
                  benchmark::RegisterBenchmark("BM_ParseWriteCompare", BM_ParseWriteCompare)}) {
    b->Unit(benchmark::kMillisecond);
  }
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
