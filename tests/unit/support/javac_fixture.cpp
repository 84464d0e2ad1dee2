#include "javac_fixture.h"

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "../../e2e_hard/hard_cases.h"

namespace dragnet::test {

namespace fs = std::filesystem;

namespace {

const fs::path kSources = fs::path(DRAGNET_SOURCE_DIR) / "tests" / "data" / "java";

std::vector<fs::path> sourceFiles() {
  std::vector<fs::path> files;
  if (!fs::is_directory(kSources)) return files;
  for (const auto& e : fs::recursive_directory_iterator(kSources)) {
    if (e.is_regular_file() && e.path().extension() == ".java") files.push_back(e.path());
  }
  std::sort(files.begin(), files.end());
  return files;
}

// FNV-1a over the relative names and contents.
std::string sourceHash(const std::vector<fs::path>& files) {
  uint64_t h = 1469598103934665603ull;
  auto mix = [&h](const std::string& s) {
    for (unsigned char c : s) {
      h ^= c;
      h *= 1099511628211ull;
    }
    h ^= 0xFF;
    h *= 1099511628211ull;
  };
  for (const fs::path& f : files) {
    mix(fs::relative(f, kSources).string());
    Bytes b = readFile(f.string());
    mix(std::string(b.begin(), b.end()));
  }
  return str(std::hex, h);
}

std::string quote(const std::string& s) { return "'" + s + "'"; }

// Compiles into a fresh directory, then renames it into place (atomic; a concurrent test
// process that got there first wins and ours is discarded).
bool compile(const std::vector<fs::path>& files, const fs::path& out, std::string* why) {
  fs::path tmp = out;
  tmp += str(".tmp-", ::getpid());
  std::error_code ec;
  fs::remove_all(tmp, ec);
  fs::create_directories(tmp);
  fs::path args = tmp / "sources.txt";
  {
    std::ofstream a(args);
    for (const fs::path& f : files) a << '"' << f.string() << "\"\n";
  }
  fs::path classes = tmp / "classes";
  fs::path log = tmp / "javac.log";
  std::string cmd = "javac --release 17 -g -parameters -encoding UTF-8 -nowarn -d " +
                    quote(classes.string()) + " @" + quote(args.string()) + " > " +
                    quote(log.string()) + " 2>&1";
  if (std::system(cmd.c_str()) != 0) {
    Bytes l = readFile(log.string());
    *why = "javac failed: " + std::string(l.begin(), l.end());
    fs::remove_all(tmp, ec);
    return false;
  }
  std::ofstream(tmp / "ok") << "ok\n";
  fs::rename(tmp, out, ec);
  if (ec) fs::remove_all(tmp, ec);  // someone else's copy is in place
  return fs::exists(out / "ok");
}

}  // namespace

const std::vector<CompiledClass>& javacClasses(std::string* why) {
  static std::vector<CompiledClass> classes;
  static std::string failure;
  static bool done = false;
  if (done) {
    *why = failure;
    return classes;
  }
  done = true;
  if (std::system("javac -version > /dev/null 2>&1") != 0) {
    failure = "javac not found on PATH";
  } else {
    auto files = sourceFiles();
    if (files.empty()) {
      failure = "no sources in " + kSources.string();
    } else {
      fs::path out = fs::path(DRAGNET_BINARY_DIR) / "tests" / ("javac-" + sourceHash(files));
      if (fs::exists(out / "ok") || compile(files, out, &failure)) {
        fs::path dir = out / "classes";
        for (const auto& e : fs::recursive_directory_iterator(dir)) {
          if (e.is_regular_file() && e.path().extension() == ".class") {
            classes.push_back({fs::relative(e.path(), dir).string(), readFile(e.path().string())});
          }
        }
        std::sort(classes.begin(), classes.end(),
                  [](const CompiledClass& a, const CompiledClass& b) { return a.path < b.path; });
        if (classes.empty()) failure = "javac produced no classes in " + dir.string();
      } else if (failure.empty()) {
        failure = "could not compile into " + out.string();
      }
    }
  }
  *why = failure;
  return classes;
}

std::string javaSource(const std::string& relative) {
  Bytes b = readFile((kSources / relative).string());
  return std::string(b.begin(), b.end());
}

int sourceLine(const std::string& relative, const std::string& marker) {
  return hard::lineOf(javaSource(relative), marker);
}

void JavacTest::SetUp() {
  std::string why;
  const auto& classes = javacClasses(&why);
  if (classes.empty()) {
    // Missing javac is a legitimate skip; a javac that fails on our sources is a test bug.
    if (why == "javac not found on PATH") GTEST_SKIP() << why;
    FAIL() << why;
  }
}

const cf::ClassFile& JavacTest::cls(const std::string& name) {
  auto it = parsed_.find(name);
  if (it != parsed_.end()) return it->second;
  std::string why;
  for (const CompiledClass& c : javacClasses(&why)) {
    if (c.path == name + ".class") {
      auto r = cf::parseClass(c.bytes);
      EXPECT_TRUE(r.ok()) << c.path << ": " << r.error().toString();
      if (!r.ok()) break;
      return parsed_.emplace(name, std::move(r).value()).first->second;
    }
  }
  ADD_FAILURE() << "no compiled class " << name;
  return parsed_.emplace(name, cf::ClassFile{}).first->second;
}

const cf::Member& JavacTest::method(const cf::ClassFile& c, std::string_view name) {
  for (const cf::Member& m : c.methods) {
    if (c.memberName(m) == name) return m;
  }
  ADD_FAILURE() << "no method " << name;
  static const cf::Member none;
  return none;
}

const cf::Member& JavacTest::field(const cf::ClassFile& c, std::string_view name) {
  for (const cf::Member& m : c.fields) {
    if (c.memberName(m) == name) return m;
  }
  ADD_FAILURE() << "no field " << name;
  static const cf::Member none;
  return none;
}

const cf::CodeAttr& JavacTest::code(const cf::ClassFile& c, std::string_view methodName) {
  const cf::CodeAttr* a = method(c, methodName).code();
  if (!a) {
    ADD_FAILURE() << "no Code in " << methodName;
    static const cf::CodeAttr none;
    return none;
  }
  return *a;
}

}  // namespace dragnet::test
