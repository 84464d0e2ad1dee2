// Hard case: nested try/finally with monitors (tests/e2e_hard/monitors). javac's handlers
// that release a monitor cover themselves, finally bodies are copied onto every path, and
// exceptions leave through two monitors and two finally blocks at once; synchronized methods
// release their monitor when our exceptional-exit handler rethrows. After instrumentation
// the program must print the same (including that no monitor is still held) and every
// handler must have seen exactly the exceptions that pass through it.
#include <gtest/gtest.h>

#include <sstream>

#include "../../e2e_hard/hard_cases.h"

namespace dragnet::test::hard {
namespace {

TEST(HardCaseMonitors, NestedTryFinallyWithMonitors) {
  HARD_REQUIRE_JAVA(runtime);
  std::vector<SourceFile> src = sourcesIn("monitors");
  std::string why;
  std::string dir = compileJava(jdk17(), src, "--release 17 -g", &why);
  ASSERT_FALSE(dir.empty()) << why;
  ScratchDir scratch("monitors");
  Probes probes(70000);  // ids past sipush: pushed with ldc, and ldc_w once the pool is big
  Policy policy;
  policy.values = true;
  Comparison c =
      instrumentAndRun(jdk17(), readClasses(dir), "Main", probes, scratch, "monitors", policy);
  ASSERT_TRUE(c.ok);
  const std::string want =
      "mode 0: 10111 false false false\n"
      "mode 1: -10011 false false false\n"
      "mode 2: 1011 false false false\n"
      "mode 3: UnsupportedOperationException false false false\n"
      "3 4 4 1\n"
      "k5 rejected k7 false false false false\n"
      "304\n";
  ASSERT_TRUE(sameRun(c, want));

  const RunResult& run = c.instrumented;
  auto line = [&](const char* marker) { return lineOf(src, "Main.java", marker); };
  const char* ise = "java.lang.IllegalStateException";
  const char* uoe = "java.lang.UnsupportedOperationException";
  const char* iae = "java.lang.IllegalArgumentException";

  EXPECT_EQ(run.count(probes.one("entry", "Main", "nested").id), 4);
  EXPECT_EQ(run.count(probes.one("return", "Main", "nested", line("@earlyReturn")).id), 1);
  const Site& throwInner = probes.one("branch", "Main", "nested", line("@throwInner"));
  EXPECT_EQ(run.count(throwInner.id), 4);
  EXPECT_EQ(run.taken(throwInner.id), 3);  // if_icmpne: mode != 1
  const Site& early = probes.one("branch", "Main", "nested", line("@earlyReturn"));
  EXPECT_EQ(run.count(early.id), 3);  // not reached by mode 1
  EXPECT_EQ(run.taken(early.id), 2);
  // The outer finally is copied three times (normal, return and exception paths); each
  // mode passes one copy of its test.
  auto finallyTests = probes.find("branch", "Main", "nested", line("@throwFinally"));
  EXPECT_EQ(finallyTests.size(), 3u);
  EXPECT_EQ(run.sum(finallyTests), 4);
  int64_t taken = 0;
  for (const Site* s : finallyTests) taken += run.taken(s->id);
  EXPECT_EQ(taken, 3);

  // mode 1: the IllegalStateException passes B's monitor handler, the outer finally's
  // handler, A's monitor handler and is caught. mode 3: the exception thrown by the finally
  // passes A's monitor handler and the last finally's handler, then leaves the method.
  const Site& caught = probes.one("handler", "Main", "nested", line("@catch"));
  EXPECT_EQ(run.count(caught.id), 1);
  EXPECT_EQ(run.exceptions(caught.id), ise);
  // Six handler entries in all: four with the first exception, two with the second; A's
  // monitor handler sees both.
  auto handlers = probes.find("handler", "Main", "nested");
  EXPECT_EQ(run.sum(handlers), 6);
  int64_t byIse = 0, byUoe = 0;
  for (const Site* s : handlers) {
    std::string e = run.exceptions(s->id);
    int64_t n = run.count(s->id);
    if (e == ise) {
      byIse += n;
    } else if (e == uoe) {
      byUoe += n;
    } else if (n > 0) {
      EXPECT_EQ(e, std::string(ise) + " " + uoe) << "handler at offset " << s->offset;
      EXPECT_EQ(n, 2) << "handler at offset " << s->offset;
      ++byIse;
      ++byUoe;
    }
  }
  EXPECT_EQ(byIse, 4);
  EXPECT_EQ(byUoe, 2);
  const Site& exit = probes.one("exit", "Main", "nested");
  EXPECT_EQ(run.count(exit.id), 1);
  EXPECT_EQ(run.exceptions(exit.id), uoe);

  // The values nested returned: 10111, -10011 and 1011 (mode 3 threw).
  auto values = probes.find("value", "Main", "nested");
  EXPECT_EQ(run.sum(values), 3);
  int64_t total = 0;
  for (const Site* s : values) total += run.taken(s->id);
  EXPECT_EQ(total, 10111 - 10011 + 1011);

  // The synchronized method: one call throws, and leaves through our handler.
  EXPECT_EQ(run.count(probes.one("entry", "Main", "bump").id), 3);
  const Site& bumpExit = probes.one("exit", "Main", "bump");
  EXPECT_EQ(run.count(bumpExit.id), 1);
  EXPECT_EQ(run.exceptions(bumpExit.id), iae);
  EXPECT_EQ(run.count(probes.one("return", "Main", "bump").id), 2);
  EXPECT_EQ(run.taken(probes.one("value", "Main", "bump").id), 5 + 7);
  EXPECT_EQ(run.exceptions(probes.find("field-object", "Main", "bump")[0]->id), "Main");
  // The static synchronized method catches it.
  const Site& bothCatch = probes.one("handler", "Main", "both", line("@bothCatch"));
  EXPECT_EQ(run.count(bothCatch.id), 1);
  EXPECT_EQ(run.exceptions(bothCatch.id), iae);
  EXPECT_EQ(run.sum(probes.find("handler", "Main", "both")), 1);
  EXPECT_EQ(run.count(probes.one("exit", "Main", "both").id), 0);
  EXPECT_EQ(run.sum(probes.find("return", "Main", "both")), 3);

  // main: the exception from mode 3 is caught once.
  const Site& mainCatch = probes.one("handler", "Main", "main");
  EXPECT_EQ(run.count(mainCatch.id), 1);
  EXPECT_EQ(run.exceptions(mainCatch.id), uoe);
}

// C1 gives a method up when a handler covers a throwing instruction of its own entry block
// ("exception handler covers itself"): javac's monitor-release handlers cover themselves,
// and a probe at their entry is a call. The editor splits such an entry with a goto, so C1
// (-Xcomp at tier 1: every method compiled before it runs) compiles every method of the
// program, instrumented as uninstrumented, and the program prints the same.
TEST(HardCaseMonitors, C1CompilesHandlersThatCoverThemselves) {
  HARD_REQUIRE_JAVA(runtime);
  std::vector<SourceFile> src = sourcesIn("monitors");
  std::string why;
  std::string dir = compileJava(jdk17(), src, "--release 17 -g", &why);
  ASSERT_FALSE(dir.empty()) << why;
  ScratchDir scratch("monitors-c1");
  Probes probes;
  RunOptions options;
  options.jvmArgs = {"-Xcomp", "-XX:+PrintCompilation"};
  Comparison c = instrumentAndRun(jdk17(), readClasses(dir), "Main", probes, scratch, "monitors-c1",
                                  Policy{}, {}, options);
  ASSERT_TRUE(c.ok);
  ASSERT_EQ(c.original.exitCode, 0) << c.original.err;
  ASSERT_EQ(c.instrumented.exitCode, 0) << c.instrumented.err;
  auto programLines = [](const std::string& out) {
    std::string kept;
    std::istringstream in(out);
    for (std::string l; std::getline(in, l);) {
      if (l.find("::") == std::string::npos && l.find("COMPILE SKIPPED") == std::string::npos)
        kept += l + "\n";
    }
    return kept;
  };
  EXPECT_EQ(programLines(c.instrumented.out), programLines(c.original.out));
  EXPECT_NE(c.original.out.find("Main::nested"), std::string::npos) << "no compilation listed";
  EXPECT_EQ(c.original.out.find("covers itself"), std::string::npos);
  std::istringstream in(c.instrumented.out);
  for (std::string l; std::getline(in, l);) {
    EXPECT_EQ(l.find("covers itself"), std::string::npos) << l;
  }
  // Every method of Main was compiled by C1, none skipped.
  for (const char* m : {"Main::nested", "Main::bump", "Main::both", "Main::main"}) {
    EXPECT_NE(c.instrumented.out.find(m), std::string::npos) << m;
  }
  EXPECT_EQ(c.instrumented.out.find("COMPILE SKIPPED"), std::string::npos);
}

}  // namespace
}  // namespace dragnet::test::hard
