// Corpus test: every class of every JDK image on this machine round-trips byte-identically
// through parseClass/writeClass. The images are extracted once with each JDK's own
// `jimage extract` into the build tree and reused.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "classfile/bytes.h"
#include "classfile/class_file.h"
#include "jdk_image.h"

namespace fs = std::filesystem;
using namespace dragnet::classfile;

namespace {

std::vector<fs::path> jdkHomes() {
  std::set<fs::path> seen;
  std::vector<fs::path> homes;
  auto consider = [&](const fs::path& home) {
    std::error_code ec;
    if (!fs::exists(home / "lib" / "modules", ec) || !fs::exists(home / "bin" / "jimage", ec)) {
      return;
    }
    fs::path real = fs::canonical(home, ec);
    if (!ec && seen.insert(real).second) homes.push_back(real);
  };
  if (const char* jh = std::getenv("JAVA_HOME")) consider(jh);
  std::error_code ec;
  for (const auto& e : fs::directory_iterator("/usr/lib/jvm", ec)) consider(e.path());
  return homes;
}

std::vector<uint8_t> readFile(const fs::path& p) {
  std::ifstream f(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(f), {}};
}

struct Tally {
  size_t classes = 0, bytes = 0, methodsWithCode = 0, insns = 0;
  std::map<uint16_t, size_t> majors;
  std::vector<std::string> problems;
};

void roundTrip(const fs::path& file, Tally& t) {
  std::vector<uint8_t> in = readFile(file);
  ++t.classes;
  t.bytes += in.size();
  std::string name = file.string();
  auto parsed = parseClass(in, {name});
  if (!parsed) {
    t.problems.push_back("parse: " + parsed.error().toString());
    return;
  }
  const ClassFile& c = parsed.value();
  ++t.majors[c.major];
  for (const Member& m : c.methods) {
    if (const CodeAttr* code = m.code()) {
      ++t.methodsWithCode;
      t.insns += code->code.insns.size();
    }
  }
  auto out = writeClass(c);
  if (!out) {
    t.problems.push_back("write: " + out.error().toString());
  } else if (out.value() != in) {
    t.problems.push_back("differs: " + name);
  }
  // write() copies the parsed pool entries; their encoding from the model must match too.
  std::vector<uint8_t> pool;
  {
    Writer w(pool);
    c.pool.writeEncoded(w);
  }
  if (pool.size() > in.size() - 8 || !std::equal(pool.begin(), pool.end(), in.begin() + 8)) {
    t.problems.push_back("pool encoding differs: " + name);
  }
}

}  // namespace

TEST(JdkModulesCorpus, EveryClassRoundTripsByteIdentical) {
  auto homes = jdkHomes();
  if (homes.empty()) GTEST_SKIP() << "no JDK with lib/modules found";
  for (const fs::path& home : homes) {
    SCOPED_TRACE(home.string());
    fs::path dir = dragnet::testing::extractedJdkImage(home);
    ASSERT_FALSE(dir.empty()) << "jimage extract failed for " << home;
    Tally t;
    for (const auto& e : fs::recursive_directory_iterator(dir)) {
      if (e.is_regular_file() && e.path().extension() == ".class") roundTrip(e.path(), t);
    }
    std::cout << home.string() << ": " << t.classes << " classes, " << t.bytes << " bytes, "
              << t.methodsWithCode << " methods with code, " << t.insns << " instructions, "
              << t.problems.size() << " problems; class-file versions:";
    for (auto [major, n] : t.majors) std::cout << " " << major << "x" << n;
    std::cout << "\n";
    // A JDK image holds well over 20,000 classes; fewer means extraction went wrong.
    EXPECT_GT(t.classes, 20000u);
    EXPECT_GT(t.insns, 1000000u);
    for (size_t i = 0; i < t.problems.size() && i < 20; ++i) ADD_FAILURE() << t.problems[i];
    EXPECT_EQ(t.problems.size(), 0u);
  }
}
