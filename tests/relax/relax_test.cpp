// Branch relaxation end to end: the classes of relax_gen.h (far branches of every opcode,
// forward and backward, just within and just beyond 16 bits, with and without frames) run
// by RelaxMain under -Xverify:all must print what the generator computed:
//   RelaxOffline (ctest relax_offline, label verify): the originals, and the classes that
//     `dragnet instrument` writes with --tool none (byte-identical), icount and branches
//     (every method rewritten, every branch within 16 bits turned into a wide one);
//   RelaxAgent (ctest relax_agent, label agent): under the agent in mode alloc, alloc with
//     bytecodes=on and lifetime, with -XX:+BytecodeVerificationLocal (so that the rewritten
//     JDK classes are verified too); every generated method is in the profile, none failed;
//     only mode lifetime defines its late runtime classes (DragnetLife$Ref).
// Each on JDK 17 and on the newest JDK (relax_offline_newest, relax_agent_newest: without
// one, they print "skipped: no JDK 25" and ctest reports them skipped).
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <map>
#include <mutex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "../agent/oracle_jvms.h"
#include "classfile/class_file.h"
#include "profile/reader.h"
#include "relax_gen.h"

namespace fs = std::filesystem;
namespace cf = dragnet::classfile;
using dragnet::test::readFile;
using dragnet::test::relax::Generated;

namespace {

fs::path work() {
  return fs::path(DRAGNET_BINARY_DIR) / "tests" / "relax" / ("run-" + std::to_string(::getpid()));
}

// The generated classes, written once per process to work()/orig.
const Generated& generated() {
  static const Generated g = [] {
    Generated out = dragnet::test::relax::generate();
    std::string error;
    if (!dragnet::test::relax::writeGenerated(out, work() / "orig", error)) {
      ADD_FAILURE() << error;
    }
    return out;
  }();
  return g;
}

// The JVMs: JDK 17 (`java` on PATH) and the newest JDK present (absent: an empty java).
struct Jdk {
  std::string name, java;
};
void PrintTo(const Jdk& jdk, std::ostream* os) { *os << jdk.name << " (" << jdk.java << ")"; }
std::vector<Jdk> jdks() {
  std::vector<Jdk> v{{"jdk17", "java"}, {"newest", ""}};
  for (const dragnet::test::Jvm& j : dragnet::test::oracleJvms()) {
    if (!j.name.starts_with("jdk17")) v[1].java = j.java;
  }
  return v;
}

// Lines that differ between the expected and the actual output (the first few), or "".
std::string differences(const std::string& expected, const std::string& actual) {
  std::istringstream e(expected), a(actual);
  std::string le, la, out;
  int shown = 0, differing = 0, line = 0;
  for (;;) {
    bool me = static_cast<bool>(std::getline(e, le)), ma = static_cast<bool>(std::getline(a, la));
    if (!me && !ma) break;
    ++line;
    if (me && ma && le == la) continue;
    ++differing;
    if (shown++ < 8) {
      out += "line " + std::to_string(line) + ": expected '" + (me ? le : "<none>") + "', got '" +
             (ma ? la : "<none>") + "'\n";
    }
  }
  if (differing > 0) out += std::to_string(differing) + " lines differ\n";
  return out;
}

// Runs RelaxMain on the generated classes from `classPath` (before the main class) with
// `flags`; checks the exit status and that the output is the expected one.
void runMain(const Jdk& jdk, const std::string& flags, const fs::path& classPath,
             const std::string& tag) {
  fs::path out = work() / (tag + "-" + jdk.name + ".out");
  fs::path err = work() / (tag + "-" + jdk.name + ".err");
  std::string cmd = dragnet::test::killAfterTimeout() + "'" + jdk.java + "' -Xverify:all " + flags +
                    " -cp '" + classPath.string() + ":" + DRAGNET_RELAX_MAIN_DIR + "' RelaxMain '" +
                    (work() / "orig" / "classes.txt").string() + "' > '" + out.string() + "' 2> '" +
                    err.string() + "'";
  ASSERT_EQ(std::system(cmd.c_str()), 0) << cmd << "\n" << readFile(err);
  std::string diff = differences(generated().expected, readFile(out));
  EXPECT_TRUE(diff.empty()) << cmd << "\n" << diff;
}

// Removes the run's files at the end unless a test failed (they show what went wrong).
class CleanUp : public ::testing::Environment {
 public:
  void TearDown() override {
    if (::testing::UnitTest::GetInstance()->Passed()) fs::remove_all(work());
  }
};
[[maybe_unused]] const auto* const kCleanUp = ::testing::AddGlobalTestEnvironment(new CleanUp);

bool skipWithoutJdk(const Jdk& jdk) {
  if (!jdk.java.empty()) return false;
  std::printf("skipped: no JDK 25\n");
  return true;
}

// ---- offline ----------------------------------------------------------------------------

class RelaxOffline : public ::testing::TestWithParam<Jdk> {
 protected:
  // `dragnet instrument --tool <tool>` of the generated classes, once per process.
  static fs::path instrumented(const std::string& tool) {
    static std::mutex mu;
    static std::map<std::string, fs::path> done;
    std::lock_guard lock(mu);
    if (auto it = done.find(tool); it != done.end()) return it->second;
    generated();
    fs::path dir = work() / tool, log = work() / (tool + ".log");
    std::string cmd = std::string("'") + DRAGNET_CLI + "' instrument --tool " + tool + " '" +
                      (work() / "orig").string() + "' -o '" + dir.string() + "' > '" +
                      log.string() + "' 2>&1";
    EXPECT_EQ(std::system(cmd.c_str()), 0) << cmd << "\n" << readFile(log);
    // Every method is rewritten (none left unchanged because a frame could not be made).
    if (tool != "none") {
      EXPECT_NE(readFile(log).find("methods unchanged: 0\n"), std::string::npos) << readFile(log);
    }
    return done[tool] = dir;
  }
};

// Goto_w and jsr_w instructions in method `name` of the class file `bytes`.
int wideBranches(const std::vector<uint8_t>& bytes, const std::string& name) {
  auto cls = cf::parseClass(bytes);
  if (!cls) {
    ADD_FAILURE() << cls.error().message;
    return -1;
  }
  for (const cf::Member& m : cls.value().methods) {
    if (cls.value().memberName(m) != name) continue;
    int n = 0;
    for (const cf::Insn& in : m.code()->code.insns)
      n += in.op == cf::Op::goto_w || in.op == cf::Op::jsr_w;
    return n;
  }
  ADD_FAILURE() << "no method " << name;
  return -1;
}

// The near branches (within 16 bits in the original) are wide after `tool`: the test does
// exercise relaxation.
void expectRelaxed(const fs::path& dir) {
  std::map<std::string, std::vector<uint8_t>> bytes;
  int checked = 0;
  for (const auto& near : generated().near) {
    auto& b = bytes[near.cls];
    if (b.empty()) b = dragnet::test::relax::readBytes(dir / (near.cls + ".class"));
    EXPECT_GT(wideBranches(b, near.method), 0) << near.cls << "." << near.method;
    ++checked;
  }
  EXPECT_GT(checked, 100);
}

TEST_P(RelaxOffline, Original) {
  if (skipWithoutJdk(GetParam())) GTEST_SKIP() << "no JDK 25";
  generated();
  runMain(GetParam(), "", work() / "orig", "orig");
}

TEST_P(RelaxOffline, ToolNoneIsIdentity) {
  if (skipWithoutJdk(GetParam())) GTEST_SKIP() << "no JDK 25";
  fs::path dir = instrumented("none");
  for (const auto& c : generated().classes) {
    EXPECT_EQ(dragnet::test::relax::readBytes(dir / (c.name + ".class")), c.bytes) << c.name;
  }
  runMain(GetParam(), "", dir, "none");
}

TEST_P(RelaxOffline, ToolIcount) {
  if (skipWithoutJdk(GetParam())) GTEST_SKIP() << "no JDK 25";
  fs::path dir = instrumented("icount");
  expectRelaxed(dir);
  runMain(GetParam(), "-Ddragnet.report='" + (work() / "icount.report").string() + "'", dir,
          "icount");
}

TEST_P(RelaxOffline, ToolBranches) {
  if (skipWithoutJdk(GetParam())) GTEST_SKIP() << "no JDK 25";
  fs::path dir = instrumented("branches");
  expectRelaxed(dir);
  runMain(GetParam(), "-Ddragnet.report='" + (work() / "branches.report").string() + "'", dir,
          "branches");
}

INSTANTIATE_TEST_SUITE_P(Jdks, RelaxOffline, ::testing::ValuesIn(jdks()),
                         [](const auto& info) { return info.param.name; });

// ---- the agent ---------------------------------------------------------------------------

class RelaxAgent : public ::testing::TestWithParam<Jdk> {
 protected:
  void runAgent(const std::string& options, const std::string& tag) {
    const Jdk& jdk = GetParam();
    generated();
    fs::path prof = work() / (tag + "-" + jdk.name + ".dragnet");
    fs::path log = work() / (tag + "-" + jdk.name + ".classes");
    runMain(jdk,
            "-XX:+UnlockDiagnosticVMOptions -XX:+BytecodeVerificationLocal "
            "-Xlog:class+load=info,class+init=info:file='" +
                log.string() + "' -agentpath:'" + std::string(DRAGNET_AGENT) + "'=quiet=on," +
                options + ",out='" + prof.string() + "'",
            work() / "orig", tag);
    classLog_ = readFile(log);
    dragnet::profile::Profile p;
    std::string error;
    ASSERT_TRUE(dragnet::profile::readProfile(prof.string(), p, error)) << error;
    EXPECT_TRUE(p.complete);
    // Every generated method was rewritten, none left unchanged or rewritten partly.
    std::set<std::string> classes, rewritten;
    for (const auto& c : generated().classes) classes.insert(c.name);
    for (const auto& [id, m] : p.methods) {
      if (classes.contains(m.cls)) rewritten.insert(m.cls + "." + m.name);
    }
    EXPECT_EQ(rewritten.size(), generated().methods);
    for (const auto& f : p.failures) {
      EXPECT_FALSE(classes.contains(f.cls)) << f.cls << "." << f.method << ": " << f.reason;
    }
  }

  // Whether the JVM's class log (-Xlog:class+load,class+init) of the last run has a line
  // with `text`, followed by the line's end or a space.
  bool logged(const std::string& text) const {
    std::istringstream lines(classLog_);
    for (std::string line; std::getline(lines, line);) {
      size_t at = line.find(text);
      if (at == std::string::npos) continue;
      size_t end = at + text.size();
      if (end == line.size() || line[end] == ' ') return true;
    }
    return false;
  }

  // The runtime helper classes a mode defines itself after VM start (ModeInfo::lateClasses):
  // only that mode has them. DragnetLife is defined in every rewriting mode and, under the
  // flags above, verified when DragnetRt's probes first read DragnetLife.on; its phantom
  // reference class (and the probe class that tells whether boot classes are verified) is
  // mode lifetime's own: no other mode defines it, and nothing there resolves it.
  void expectReferenceClasses(bool defined) const {
    EXPECT_TRUE(logged("End class verification for: java.lang.DragnetLife")) << classLog_;
    EXPECT_EQ(logged("[class,load] java.lang.DragnetLife$Ref"), defined);
    EXPECT_EQ(logged("[class,load] java.lang.DragnetLife$VerifyProbe"), defined);
  }

  std::string classLog_;
};

TEST_P(RelaxAgent, Alloc) {
  if (skipWithoutJdk(GetParam())) GTEST_SKIP() << "no JDK 25";
  runAgent("mode=alloc", "alloc");
  expectReferenceClasses(false);
}

TEST_P(RelaxAgent, AllocBytecodes) {
  if (skipWithoutJdk(GetParam())) GTEST_SKIP() << "no JDK 25";
  runAgent("mode=alloc,bytecodes=on", "bytecodes");
  expectReferenceClasses(false);
}

TEST_P(RelaxAgent, Lifetime) {
  if (skipWithoutJdk(GetParam())) GTEST_SKIP() << "no JDK 25";
  runAgent("mode=lifetime", "lifetime");
  expectReferenceClasses(true);
}

INSTANTIATE_TEST_SUITE_P(Jdks, RelaxAgent, ::testing::ValuesIn(jdks()),
                         [](const auto& info) { return info.param.name; });

}  // namespace
