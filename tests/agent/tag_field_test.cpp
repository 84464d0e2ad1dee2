// The object-tag field on a real JVM (tests/agent/tag_field_agent: the field alone, added
// to every root class from java/lang/Object on, and the reflection filter rewritten).
// TagFieldOracle prints what reflection and serialization show of plain classes, a
// subclass, a record, an enum, a Throwable subclass, ArrayList, Thread (which also has the
// agent core's dragnet$ fields), String and Integer, their default serialVersionUIDs and a
// serialized stream: byte-identical with and without the agent, on JDK 17 and the newest
// JDK, with and without -Xverify:all (boot classes verified too), with the deny list and
// with the field on every class but Object. (The agent core rewrites the filter in every
// rewriting mode; without it the program sees the fields: tests/unit/flow/tag_field_test.cpp.)
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <regex>
#include <string>
#include <vector>

#include "newest_jdk.h"
#include "oracle_jvms.h"

namespace fs = std::filesystem;

namespace {

using dragnet::test::readFile;

struct JvmRun {
  int status = -1;
  std::string out, err;
};

class TagFieldAgent : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    if (GetParam() == "newest") {
      dragnet::test::JdkHome newest = dragnet::test::newestJdk();
      if (newest.home.empty()) GTEST_SKIP() << dragnet::test::noNewestJdk();
      java_ = newest.java();
      major_ = newest.major;
    }
  }

  // `main` (TagFieldOracle) with `flags` and, unless `agentOptions` is empty, the tagfield
  // agent.
  JvmRun run(const std::string& flags, const std::string& agentOptions,
             const std::string& main = "TagFieldOracle",
             const std::string& library = DRAGNET_TAG_FIELD_AGENT) {
    fs::path work = fs::path(DRAGNET_BINARY_DIR) / "tests" / "alloc-oracle";
    std::string tag = std::to_string(::getpid()) + "-" +
                      std::to_string(std::hash<std::string>{}(java_ + flags + agentOptions + main));
    fs::path out = work / ("tagfield-" + tag + ".out"), err = work / ("tagfield-" + tag + ".err");
    fs::path prof = work / ("tagfield-" + tag + ".dragnet");
    std::string agent;
    if (!agentOptions.empty()) {
      agent = " -agentpath:'" + library + "'=" + agentOptions + ",out='" + prof.string() + "'";
    }
    // A crash report goes with the test's files, not into the working directory.
    std::string errorFile = " -XX:ErrorFile='" + (work / "tagfield-hs_err_%p.log").string() + "'";
    std::string cmd = dragnet::test::killAfterTimeout() + "'" + java_ + "' " + flags + errorFile +
                      agent + " -cp '" + (work / "classes").string() + "' " + main + " > '" +
                      out.string() + "' 2> '" + err.string() + "'";
    JvmRun r;
    r.status = std::system(cmd.c_str());
    r.out = readFile(out);
    r.err = readFile(err);
    for (const fs::path& p : {out, err, prof}) fs::remove(p);
    return r;
  }

  std::string java_ = "java";
  int major_ = 17;
};

// The agent's closing line: how many classes got the field; the filter was rewritten.
uint64_t tagFields(const std::string& err) {
  std::smatch m;
  std::regex line(
      R"(\((?:\d+) bytes, (\d+) tag fields, reflection filter rewritten, 0 failures\))");
  return std::regex_search(err, m, line) ? std::stoull(m[1]) : 0;
}

TEST_P(TagFieldAgent, ProgramSeesTheClassesAsTheyWere) {
  JvmRun base = run("", "");
  ASSERT_EQ(base.status, 0) << base.err;
  ASSERT_NE(base.out.find("TagFieldOracle$Node serialVersionUID"), std::string::npos);
  for (const char* flags : {"", "-Xverify:all"}) {
    for (const char* deny : {"deny=list", "deny=object"}) {
      SCOPED_TRACE(std::string(flags) + " " + deny);
      JvmRun agent = run(flags, deny);
      EXPECT_EQ(agent.status, 0) << agent.err;
      EXPECT_EQ(agent.out, base.out);
      // Hello-world-sized programs load some hundreds of classes; most are roots.
      EXPECT_GT(tagFields(agent.err), 100u) << agent.err;
    }
  }
}

// The same under the real agent's mode copy, whose probes also set the tags: the program
// sees its classes, and serializes them, as without the agent.
TEST_P(TagFieldAgent, ModeCopyShowsTheClassesAsTheyWere) {
  JvmRun base = run("", "");
  ASSERT_EQ(base.status, 0) << base.err;
  for (const char* flags : {"", "-Xverify:all"}) {
    SCOPED_TRACE(flags);
    JvmRun copy = run(flags, "mode=copy,quiet=on", "TagFieldOracle", DRAGNET_AGENT);
    EXPECT_EQ(copy.status, 0) << copy.err;
    EXPECT_EQ(copy.out, base.out);
  }
}

// The classes whose layout the collectors plan (references, gap fillers, stack chunks of
// virtual threads) under every collector, with the heap verified before and after each
// collection: with the field on every class but Object, compact object headers (JDK 24+)
// make the gap fillers larger than the gaps and G1's heap unparsable.
TEST_P(TagFieldAgent, HeapStaysParsableUnderEveryCollector) {
  JvmRun base = run("", "", "TagFieldGcOracle");
  ASSERT_EQ(base.status, 0) << base.err;
  ASSERT_EQ(base.out, "sum 4001578960\nvirtual threads 247500\n");
  std::vector<std::string> collectors{"-XX:+UseG1GC", "-XX:+UseSerialGC", "-XX:+UseParallelGC"};
  if (major_ >= 24) {
    for (const char* gc : {"-XX:+UseG1GC", "-XX:+UseSerialGC", "-XX:+UseParallelGC"}) {
      collectors.push_back(std::string("-XX:+UseCompactObjectHeaders ") + gc);
    }
  }
  for (const std::string& gc : collectors) {
    SCOPED_TRACE(gc);
    JvmRun agent =
        run("-Xmx256m -XX:+UnlockDiagnosticVMOptions -XX:+VerifyBeforeGC "
            "-XX:+VerifyAfterGC " +
                gc,
            "deny=list", "TagFieldGcOracle");
    EXPECT_EQ(agent.status, 0) << agent.err.substr(0, 2000);
    EXPECT_EQ(agent.out, base.out);
  }
}

INSTANTIATE_TEST_SUITE_P(Jvms, TagFieldAgent, ::testing::Values("jdk17", "newest"),
                         [](const auto& info) { return info.param; });

}  // namespace
