// Method-wide live locals (Routine::liveLocal) and inline patches, on the hard cases whose
// frames are the hardest to keep right: constructors (code before super(), handlers around
// it, `this` uninitialized), nested monitors and finally blocks, and the modern language
// features. Every method gets three live locals (int, long, reference) assigned at entry
// before super(), counters bumped inline before every basic block, and the counters
// reported before every return and on exceptional exit. Under -Xverify:all every frame must
// declare the locals, and per method the counters must add up to the blocks the ordinary
// block probes saw run. In the flushing variant (mode alloc's instruction counts) the int
// counter is also reported and reset before every call, and the exceptional-exit handler
// leaves the calls uncovered (ExitCover::AllButCalls): the sums must still add up.
#include <gtest/gtest.h>

#include <map>

#include "../../e2e_hard/hard_cases.h"
#include "instrument/stack_effect.h"

namespace dragnet::test::hard {
namespace {

using inst::Arg;
using inst::Call;
using Op = cf::Op;

struct LiveIds {
  int32_t ret = 0, retLong = 0, exit = 0, object = 0, flush = 0;
};

// Adds the live-local probes to `r` (Policy::extra); their site ids go to `ids`.
void addLiveLocals(inst::Routine& r, Probes& probes, std::map<std::string, LiveIds>& ids,
                   bool flush) {
  std::optional<uint16_t> i = r.liveLocal("I"), j = r.liveLocal("J"),
                          o = r.liveLocal("Ljava/lang/Object;");
  ASSERT_TRUE(i && j && o);
  const char* obj = "Ljava/lang/Object;";
  inst::Patch entry = r.newPatch();
  entry.add(Op::iconst_0).store("I", *i).pushLong(0).store("J", *j);
  entry.pushString("live").store(obj, *o);
  ASSERT_TRUE(r.atEntry(entry, inst::ConstructorEntry::BeforeSuperCall));
  inst::Patch bump = r.newPatch();
  bump.load("I", *i).add(Op::iconst_1).add(Op::iadd).store("I", *i);
  bump.load("J", *j).add(Op::lconst_1).add(Op::ladd).store("J", *j);
  for (const inst::BasicBlock& b : r.blocks()) ASSERT_TRUE(r.before(b.first, bump));
  LiveIds& id =
      ids[std::string(r.className()) + "." + std::string(r.name()) + std::string(r.descriptor())];
  id.ret = probes.site(r, "live-return");
  id.retLong = probes.site(r, "live-return-long");
  id.exit = probes.site(r, "live-exit");
  id.object = probes.site(r, "live-object");
  id.flush = probes.site(r, "live-flush");
  inst::Patch ret = r.newPatch();
  ret.load("I", *i).pushInt(id.ret).invokeStatic(kProbe, "val", "(II)V");
  ret.load("J", *j).pushInt(id.retLong).invokeStatic(kProbe, "val", "(JI)V");
  bool returns = r.beforeReturns(ret);
  if (returns) {
    ASSERT_TRUE(r.beforeReturns(
        Call{std::string(kProbe), "val", {Arg::local(*o, obj), Arg::i(id.object)}}));
  }
  inst::Patch exit = r.newPatch();
  exit.load("I", *i).pushInt(id.exit).invokeStatic(kProbe, "val", "(II)V");
  if (!flush) {
    ASSERT_TRUE(r.onExceptionalExit(exit));
    return;
  }
  ASSERT_TRUE(r.onExceptionalExit(exit, inst::ExitCover::AllButCalls));
  inst::Patch before = r.newPatch();
  before.load("I", *i).pushInt(id.flush).invokeStatic(kProbe, "val", "(II)V");
  before.add(Op::iconst_0).store("I", *i);
  for (const inst::Instruction& in : r.instructions()) {
    if (inst::isInvoke(in.op)) {
      ASSERT_TRUE(r.before(in.index, before));
    }
  }
}

// `version49`: as a class of version 49 (no frames; the JVM infers the types).
void checkProgram(const std::string& dir, const std::string& want, bool version49 = false,
                  bool flush = false) {
  std::vector<SourceFile> src = sourcesIn(dir);
  std::string why;
  // Release 8 for version 49: no invokedynamic for string concatenation.
  std::string classes =
      compileJava(jdk17(), src, version49 ? "--release 8 -g" : "--release 17 -g", &why);
  ASSERT_FALSE(classes.empty()) << why;
  ScratchDir scratch("live-" + dir);
  Probes probes(90000);
  std::map<std::string, LiveIds> ids;
  Policy policy;
  policy.extra = [&](inst::Routine& r, Probes& p) { addLiveLocals(r, p, ids, flush); };
  auto old = [&](std::vector<Editable>& all) {
    for (Editable& e : all) toVersion49(e.cls);
  };
  Comparison c = instrumentAndRun(
      jdk17(), readClasses(classes), "Main", probes, scratch, "live-" + dir, policy,
      version49 ? std::function<void(std::vector<Editable>&)>(old) : nullptr);
  ASSERT_TRUE(c.ok);
  ASSERT_TRUE(sameRun(c, want));
  const RunResult& run = c.instrumented;
  int64_t total = 0, flushed = 0;
  for (const auto& [method, id] : ids) {
    SCOPED_TRACE(method);
    const Site& s = probes.at(id.ret);
    ASSERT_TRUE(s.live);
    int64_t blocks = 0;
    for (const Site& b : probes.sites()) {
      if (b.kind == "block" && b.cls == s.cls && b.method == s.method) blocks += run.count(b.id);
    }
    EXPECT_EQ(run.taken(id.ret) + run.taken(id.exit) + run.taken(id.flush), blocks);
    if (!flush) {
      EXPECT_EQ(run.taken(id.retLong), run.taken(id.ret));
    }
    EXPECT_EQ(run.count(id.object), run.count(id.ret));
    if (run.count(id.object) > 0) {
      EXPECT_EQ(run.exceptions(id.object), "java.lang.String");
    }
    total += blocks;
    flushed += run.taken(id.flush);
  }
  EXPECT_GT(total, 50);  // the counters really ran
  if (flush) {
    EXPECT_GT(flushed, 0);
  }
}

// The expected outputs are those of the other hard-case tests of the same programs.
TEST(HardCaseLiveLocals, Constructors) {
  HARD_REQUIRE_JAVA(runtime);
  checkProgram("ctors",
               "6\n4\n410\n10\n10 6 -1\nabc\ncaught null tag\ncaught AIOOBE\n105 105\n1 2\n"
               "6002 1999\n9 5007 2007\n6 -1 32 -1\nmany:0,-1,2,-3,4,\nfew:0,\n");
}

TEST(HardCaseLiveLocals, NestedMonitors) {
  HARD_REQUIRE_JAVA(runtime);
  checkProgram("monitors",
               "mode 0: 10111 false false false\nmode 1: -10011 false false false\n"
               "mode 2: 1011 false false false\nmode 3: UnsupportedOperationException false "
               "false false\n3 4 4 1\nk5 rejected k7 false false false false\n304\n");
}

TEST(HardCaseLiveLocals, NestedMonitorsVersion49) {
  HARD_REQUIRE_JAVA(runtime);
  checkProgram("monitors",
               "mode 0: 10111 false false false\nmode 1: -10011 false false false\n"
               "mode 2: 1011 false false false\nmode 3: UnsupportedOperationException false "
               "false false\n3 4 4 1\nk5 rejected k7 false false false false\n304\n",
               true);
}

// The counters flushed before every call, the calls outside the exceptional-exit handler:
// exceptions from callees (finally blocks, monitors, rethrows) still add up.
TEST(HardCaseLiveLocals, FlushedBeforeCallsConstructors) {
  HARD_REQUIRE_JAVA(runtime);
  checkProgram("ctors",
               "6\n4\n410\n10\n10 6 -1\nabc\ncaught null tag\ncaught AIOOBE\n105 105\n1 2\n"
               "6002 1999\n9 5007 2007\n6 -1 32 -1\nmany:0,-1,2,-3,4,\nfew:0,\n",
               false, true);
}

TEST(HardCaseLiveLocals, FlushedBeforeCallsNestedMonitors) {
  HARD_REQUIRE_JAVA(runtime);
  checkProgram("monitors",
               "mode 0: 10111 false false false\nmode 1: -10011 false false false\n"
               "mode 2: 1011 false false false\nmode 3: UnsupportedOperationException false "
               "false false\n3 4 4 1\nk5 rejected k7 false false false false\n304\n",
               false, true);
}

// A live local that no entry patch assigns would make every frame name an unassigned
// local: the method is left unchanged, with the reason.
TEST(HardCaseLiveLocals, UnassignedLiveLocalIsRefused) {
  HARD_REQUIRE_JAVA(runtime);
  std::string why;
  std::string classes = compileJava(jdk17(), sourcesIn("monitors"), "--release 17 -g", &why);
  ASSERT_FALSE(classes.empty()) << why;
  std::vector<Editable> all = parseAll(readClasses(classes));
  ASSERT_FALSE(all.empty());
  inst::ClassInstrumenter ci(all[0].cls);
  size_t refused = 0;
  for (inst::Routine& r : ci.routines()) {
    if (!r.hasCode()) continue;
    std::optional<uint16_t> i = r.liveLocal("I");
    ASSERT_TRUE(i);
    inst::Patch use = r.newPatch();
    use.load("I", *i).add(Op::pop);
    r.beforeReturns(use);
    inst::Patch entry = r.newPatch();
    entry.add(Op::iconst_0).add(Op::pop);  // an entry patch, but no store to the local
    ASSERT_TRUE(r.atEntry(entry));
    inst::EditOutcome o = r.commit();
    EXPECT_FALSE(o.changed);
    EXPECT_NE(o.reason.find("is not assigned by an entry patch"), std::string::npos) << o.reason;
    ++refused;
  }
  EXPECT_GT(refused, 0u);
}

}  // namespace
}  // namespace dragnet::test::hard
