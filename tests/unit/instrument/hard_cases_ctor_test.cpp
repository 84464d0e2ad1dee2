// Hard cases: constructors with code before super()/this(), and `new` inside conditional
// expressions (stack-map frames holding UninitializedThis and Uninitialized(offset)).
// Every block, branch, entry (before and after super()), return, handler and exceptional
// exit is probed; the classes must verify (-Xverify:all) and count exactly.
//   tests/e2e_hard/ctors     javac 17: conditionals and switch expressions (one with a
//                            loop) in super(...) and this(...) arguments, this$0 stored
//                            before super(), new in conditionals, nested, as a branch
//                            target, and with a loop in its argument
//   tests/e2e_hard/ctors25   javac 25: statements, a loop and a throw before super()
//                            (flexible constructor bodies; skipped without JDK 25)
//   hand-assembled           version 52: a loop and a putfield before super(), with frames
//                            holding UninitializedThis
#include <gtest/gtest.h>

#include "../../agent/newest_jdk.h"
#include "../../e2e_hard/hard_cases.h"

namespace dragnet::test::hard {
namespace {

using cf::Op;

TEST(HardCaseConstructors, CodeBeforeSuperAndUninitializedNew) {
  HARD_REQUIRE_JAVA(runtime);
  std::vector<SourceFile> src = sourcesIn("ctors");
  std::string why;
  std::string dir = compileJava(jdk17(), src, "--release 17 -g", &why);
  ASSERT_FALSE(dir.empty()) << why;
  ScratchDir scratch("ctors");
  Probes probes;
  Policy policy;
  policy.values = true;
  Comparison c =
      instrumentAndRun(jdk17(), readClasses(dir), "Main", probes, scratch, "ctors", policy);
  ASSERT_TRUE(c.ok);
  const std::string want =
      "6\n4\n410\n10\n10 6 -1\nabc\ncaught null tag\ncaught AIOOBE\n105 105\n1 2\n"
      "6002 1999\n9 5007 2007\n6 -1 32 -1\nmany:0,-1,2,-3,4,\nfew:0,\n";
  ASSERT_TRUE(sameRun(c, want));

  const RunResult& run = c.instrumented;
  auto line = [&](const char* marker) { return lineOf(src, "Main.java", marker); };
  auto count = [&](const char* kind, const char* cls, const char* method, int l = -1) {
    return run.count(probes.one(kind, cls, method, l).id);
  };
  auto blocks = [&](const char* cls, const char* method, int l) {
    std::vector<int64_t> v;
    for (const Site* s : probes.find("block", cls, method, l)) v.push_back(run.count(s->id));
    return v;
  };
  using V = std::vector<int64_t>;

  // Derived(int): twice directly, twice through this(...).
  EXPECT_EQ(count("entry-before-super", "Derived", "<init>(I)V"), 4);
  EXPECT_EQ(count("entry", "Derived", "<init>(I)V"), 4);
  EXPECT_EQ(blocks("Derived", "<init>(I)V", line("@pos")), V{3});
  EXPECT_EQ(blocks("Derived", "<init>(I)V", line("@neg")), V{1});
  const Site& superCond = probes.one("branch", "Derived", "<init>(I)V");  // ifle: x <= 0
  EXPECT_EQ(run.count(superCond.id), 4);
  EXPECT_EQ(run.taken(superCond.id), 1);
  // Derived(int, int): the this(...) call's argument has a branch and a call.
  EXPECT_EQ(count("entry-before-super", "Derived", "<init>(II)V"), 2);
  EXPECT_EQ(count("entry", "Derived", "<init>(II)V"), 2);
  const Site& delegate = probes.one("branch", "Derived", "<init>(II)V", line("@delegate"));
  EXPECT_EQ(run.count(delegate.id), 2);
  EXPECT_EQ(run.taken(delegate.id), 1);  // if_icmpge: 7 >= 5
  // After the static call in the this(...) argument (once), after this(...) (twice).
  auto afterCalls = [&](const char* cls, const char* method) {
    V v;
    for (const Site* s : probes.find("after-call", cls, method)) v.push_back(run.count(s->id));
    return v;
  };
  EXPECT_EQ(afterCalls("Derived", "<init>(II)V"), (V{1, 2}));
  // Derived(long): a switch expression in super(...), one call per arm.
  EXPECT_EQ(count("entry-before-super", "Derived", "<init>(J)V"), 3);
  EXPECT_EQ(blocks("Derived", "<init>(J)V", line("@case1")), V{1});
  EXPECT_EQ(blocks("Derived", "<init>(J)V", line("@case2")), V{1});
  EXPECT_EQ(blocks("Derived", "<init>(J)V", line("@caseDefault")), V{1});
  // Derived(String): throws after super(), through the exceptional-exit handler.
  EXPECT_EQ(count("entry", "Derived", "<init>(Ljava/lang/String;)V"), 2);
  const Site& exitS = probes.one("exit", "Derived", "<init>(Ljava/lang/String;)V");
  EXPECT_EQ(run.count(exitS.id), 1);
  EXPECT_EQ(run.exceptions(exitS.id), "java.lang.IllegalArgumentException");
  EXPECT_EQ(count("return", "Derived", "<init>(Ljava/lang/String;)V"), 1);
  // Derived(int[]): throws before super(): with an entry patch before super(), a second
  // catch-all (its frame keeps `this` uninitialized) runs the exit patch.
  EXPECT_EQ(count("entry-before-super", "Derived", "<init>([I)V"), 1);
  EXPECT_EQ(count("entry", "Derived", "<init>([I)V"), 0);
  EXPECT_EQ(count("exit", "Derived", "<init>([I)V"), 1);
  EXPECT_EQ(count("return", "Derived", "<init>([I)V"), 0);
  // Outer.Inner: this$0 is stored before super(), and the argument has a branch.
  EXPECT_EQ(count("entry-before-super", "Outer$Inner", "<init>"), 2);
  EXPECT_EQ(count("entry", "Outer$Inner", "<init>"), 2);
  EXPECT_EQ(count("branch", "Outer$Inner", "<init>", line("@inner")), 2);
  EXPECT_EQ(afterCalls("Outer$Inner", "<init>"), V{2});  // after super(...)
  EXPECT_EQ(afterCalls("Derived", "<init>([I)V"), V{0});

  // Loops inside switch expressions in super(...) and new Box(...) arguments.
  EXPECT_EQ(count("block", "Looping", "<init>", line("@ctorLoop")), 4);
  EXPECT_EQ(count("entry-before-super", "Looping", "<init>"), 2);
  EXPECT_EQ(count("entry", "Looping", "<init>"), 2);
  EXPECT_EQ(count("block", "Main", "loopArg", line("@argLoop")), 5);
  EXPECT_EQ(count("entry", "Main", "loopArg"), 2);

  // new in conditional expressions.
  const Site& pick = probes.one("branch", "Main", "pick", line("@pick"));  // ifeq: !c
  EXPECT_EQ(run.count(pick.id), 2);
  EXPECT_EQ(run.taken(pick.id), 1);
  const Site& outer = probes.one("branch", "Main", "nested", line("@nestedOuter"));
  EXPECT_EQ(run.count(outer.id), 2);
  EXPECT_EQ(run.taken(outer.id), 0);  // if_icmple: 6 > 3, 2 > 0
  const Site& inner = probes.one("branch", "Main", "nested", line("@nestedInner"));
  EXPECT_EQ(run.count(inner.id), 2);
  EXPECT_EQ(run.taken(inner.id), 1);  // ifeq: b == 0 once
  // either: test, then-part (new Box), join; else-part: new Box, new Box, x > 5 ? 5 : x.
  EXPECT_EQ(blocks("Main", "either", line("@eitherThen")), (V{3, 1, 3}));
  EXPECT_EQ(blocks("Main", "either", line("@eitherElse")), (V{2, 1, 1, 2}));
  const Site& loopNew = probes.one("branch", "Main", "text", line("@loopNew"));
  EXPECT_EQ(run.count(loopNew.id), 6);  // 5 + 1 iterations
  EXPECT_EQ(run.taken(loopNew.id), 2);  // ifne: odd i (1, 3)
  const Site& sb = probes.one("branch", "Main", "text", line("@sb"));
  EXPECT_EQ(run.count(sb.id), 2);
  EXPECT_EQ(run.taken(sb.id), 1);  // if_icmple: n = 1

  // Values: returned ints and references, field and array objects (not the uninitialized
  // `this` whose this$0 is assigned before super(): that probe is refused).
  const Site& picked = probes.one("value", "Derived", "pick");
  EXPECT_EQ(run.count(picked.id), 1);
  EXPECT_EQ(run.taken(picked.id), 205);
  const Site& boxes = probes.one("value", "Main", "pick");
  EXPECT_EQ(run.count(boxes.id), 2);
  EXPECT_EQ(run.exceptions(boxes.id), "Box");
  EXPECT_EQ(run.exceptions(probes.one("value", "Main", "text").id), "java.lang.String");
  const Site& array = probes.one("array-object", "Derived", "<init>([I)V");
  EXPECT_EQ(run.count(array.id), 1);
  EXPECT_EQ(run.exceptions(array.id), "[I");
  auto innerFields = probes.find("field-object", "Outer$Inner", "<init>");
  EXPECT_EQ(run.sum(innerFields), 2);  // getfield base (d > 0 and d <= 0)
  for (const Site* s : innerFields) EXPECT_EQ(run.exceptions(s->id), "Outer");
  int refused = 0;
  for (const Site& s : probes.sites()) {
    refused += !s.live && s.kind == "field-object" && s.cls == "Outer$Inner";
  }
  EXPECT_EQ(refused, 1);  // putfield this$0
  EXPECT_EQ(run.exceptions(probes.one("field-object", "Derived", "<init>(Ljava/lang/String;)V").id),
            "Derived");

  // main caught two exceptions, and nothing left it exceptionally.
  auto handlers = probes.find("handler", "Main", "main");
  ASSERT_EQ(handlers.size(), 2u);
  EXPECT_EQ(run.count(handlers[0]->id), 1);
  EXPECT_EQ(run.count(handlers[1]->id), 1);
  EXPECT_EQ(run.exceptions(handlers[0]->id) + " " + run.exceptions(handlers[1]->id),
            "java.lang.IllegalArgumentException java.lang.ArrayIndexOutOfBoundsException");
  EXPECT_EQ(count("exit", "Main", "main"), 0);
  EXPECT_EQ(count("entry", "Main", "main"), 1);
}

// Statements, a loop and a throw before super() (Java 25). Runs on JDK 25.
TEST(HardCaseConstructors, FlexibleConstructorBodiesJdk25) {
  HARD_REQUIRE_JAVA(runtime);
  if (jdk25().javac.empty()) GTEST_SKIP() << dragnet::test::noNewestJdk(25);
  std::vector<SourceFile> src = sourcesIn("ctors25");
  std::string why;
  std::string dir = compileJava(jdk25(), src, "--release 25 -g", &why);
  ASSERT_FALSE(dir.empty()) << why;
  ScratchDir scratch("ctors25");
  Probes probes;
  Comparison c = instrumentAndRun(jdk25(), readClasses(dir), "Main", probes, scratch, "ctors25");
  ASSERT_TRUE(c.ok);
  const std::string want = "after super 10 3\n10\nafter super 28 0\n28\ncaught negative\n";
  ASSERT_EQ(c.original.exitCode, 0) << c.original.err;
  EXPECT_EQ(c.original.out, want);
  EXPECT_EQ(describeUnchanged(c.outcomes), "");
  EXPECT_EQ(parseWritten(c, "Prologue.class").major, 69);
  EXPECT_EQ(c.instrumented.exitCode, 0) << c.instrumented.err;
  EXPECT_EQ(c.instrumented.err, "");
  EXPECT_EQ(c.instrumented.out, want);

  const RunResult& run = c.instrumented;
  auto line = [&](const char* marker) { return lineOf(src, "Main.java", marker); };
  const char* one = "<init>(I)V";
  // new Prologue(4), this(7) from Prologue(2, 9), new Prologue(-1) which throws early.
  EXPECT_EQ(run.count(probes.one("entry-before-super", "Prologue", one).id), 3);
  EXPECT_EQ(run.count(probes.one("entry", "Prologue", one).id), 2);
  const Site& check = probes.one("branch", "Prologue", one, line("@check"));  // ifge
  EXPECT_EQ(run.count(check.id), 3);
  EXPECT_EQ(run.taken(check.id), 2);
  EXPECT_EQ(run.count(probes.one("block", "Prologue", one, line("@loop")).id), 4 + 7);
  EXPECT_EQ(run.count(probes.one("block", "Prologue", one, line("@early")).id), 2);
  // The exception before super() leaves through the pre-super catch-all.
  EXPECT_EQ(run.count(probes.one("exit", "Prologue", one).id), 1);
  EXPECT_EQ(run.count(probes.one("return", "Prologue", one).id), 2);
  const Site& delegate = probes.one("branch", "Prologue", "<init>(II)V", line("@delegate"));
  EXPECT_EQ(run.count(delegate.id), 1);
  EXPECT_EQ(run.taken(delegate.id), 1);  // if_icmple: 2 <= 9
  EXPECT_EQ(run.count(probes.one("entry", "Prologue", "<init>(II)V").id), 1);
}

// A hand-assembled version 52 class whose constructor loops and assigns a field of its own
// before super(), with stack-map frames that hold UninitializedThis:
//   Pre(int x) { int y = 0; for (int i = x; i > 0; i--) y += i; this.f = y; super(); }
TEST(HardCaseConstructors, HandAssembledLoopBeforeSuper) {
  HARD_REQUIRE_JAVA(runtime);
  ClassBuilder cb("Pre", 52);
  PoolBuilder& p = cb.pool;
  const uint16_t field = p.fieldref("Pre", "f", "I");
  const uint16_t objInit = p.methodref("java/lang/Object", "<init>", "()V");
  const uint16_t preInit = p.methodref("Pre", "<init>", "(I)V");
  const uint16_t pre = p.cls("Pre");
  const uint16_t sysOut = p.fieldref("java/lang/System", "out", "Ljava/io/PrintStream;");
  const uint16_t printI = p.methodref("java/io/PrintStream", "println", "(I)V");
  const uint16_t smt = p.utf8("StackMapTable");
  cb.addField(0x0010, "f", "I");

  Asm a;
  int loop = a.newLabel(), end = a.newLabel();
  a.op(Op::iconst_0).op(Op::istore_2).op(Op::iload_1).op(Op::istore_3);
  a.bind(loop).op(Op::iload_3).jump(Op::ifle, end);
  a.op(Op::iload_2).op(Op::iload_3).op(Op::iadd).op(Op::istore_2).op(Op::iinc, 3).u1(0xFF);
  a.jump(Op::goto_, loop);
  a.bind(end).op(Op::aload_0).op(Op::iload_2).cp(Op::putfield, field);
  a.op(Op::aload_0).cp(Op::invokespecial, objInit).op(Op::return_);
  Bytes code = a.finish();
  // Frames: full_frame at the loop {UninitializedThis, int, int, int}, same_frame at end.
  uint32_t loopPc = a.labelPc(loop), endPc = a.labelPc(end);
  Bytes frames = B({0, 2, 255, 0, static_cast<int>(loopPc), 0, 4, 6, 1, 1, 1, 0, 0,
                    static_cast<int>(endPc - loopPc - 1)});
  AttrSpec table;
  table.name = smt;
  table.body = frames;
  cb.addMethod(0x0001, "<init>", "(I)V", {cb.codeAttr(code, 2, 4, {}, {table})});

  Asm m;  // main: print(new Pre(4).f); print(new Pre(0).f)
  for (int x : {4, 0}) {
    m.cp(Op::getstatic, sysOut).cp(Op::new_, pre).op(Op::dup).op(Op::bipush, x);
    m.cp(Op::invokespecial, preInit).cp(Op::getfield, field).cp(Op::invokevirtual, printI);
  }
  m.op(Op::return_);
  cb.addCodeMethod("main", m.finish(), "([Ljava/lang/String;)V", 4, 1);
  Bytes bytes = cb.build();
  ASSERT_TRUE(RoundTrips(bytes));

  ScratchDir scratch("pre");
  Probes probes;
  Comparison c = instrumentAndRun(jdk17(), {{"Pre.class", bytes}}, "Pre", probes, scratch, "pre");
  ASSERT_TRUE(c.ok);
  ASSERT_EQ(c.original.exitCode, 0) << c.original.err;
  EXPECT_EQ(c.original.out, "10\n0\n");
  EXPECT_EQ(describeUnchanged(c.outcomes), "");
  EXPECT_EQ(c.instrumented.exitCode, 0) << c.instrumented.err;
  EXPECT_EQ(c.instrumented.err, "");
  EXPECT_EQ(c.instrumented.out, "10\n0\n");

  const RunResult& run = c.instrumented;
  EXPECT_EQ(run.count(probes.one("entry-before-super", "Pre", "<init>").id), 2);
  EXPECT_EQ(run.count(probes.one("entry", "Pre", "<init>").id), 2);
  const Site& test = probes.one("branch", "Pre", "<init>");  // ifle: taken when i reaches 0
  EXPECT_EQ(run.count(test.id), 4 + 1 + 1);
  EXPECT_EQ(run.taken(test.id), 2);
  for (const Site* s : probes.find("block", "Pre", "<init>")) {
    int64_t want = s->offset == loopPc ? 6 : s->offset == endPc ? 2 : s->offset == 0 ? 2 : 4;
    EXPECT_EQ(run.count(s->id), want) << "block at " << s->offset;
  }
}

}  // namespace
}  // namespace dragnet::test::hard
