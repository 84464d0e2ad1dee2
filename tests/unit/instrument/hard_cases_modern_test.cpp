// Hard cases: invokedynamic, dynamic constants, records, sealed classes and nest mates.
//   tests/e2e_hard/modern   javac 17: lambdas, method references, indy string concatenation,
//                           records (ObjectMethods bootstrap, compact constructor), a sealed
//                           interface with a nested permitted record, private access
//                           between nest mates
//   Condy (hand-assembled)  version 55: ldc/ldc2_w of CONSTANT_Dynamic with a custom static
//                           bootstrap (one with a static argument) and
//                           ConstantBootstraps.nullConstant, in a loop (stack-map frame)
// Everything is instrumented; the classes must keep their attributes, verify and count.
#include <gtest/gtest.h>

#include "../../e2e_hard/hard_cases.h"

namespace dragnet::test::hard {
namespace {

using cf::Op;

template <class T>
bool has(const cf::ClassFile& cls) {
  return cf::findAttr<T>(cls.attributes) != nullptr;
}

TEST(HardCaseModern, IndyRecordsSealedAndNestMates) {
  HARD_REQUIRE_JAVA(runtime);
  std::vector<SourceFile> src = sourcesIn("modern");
  std::string why;
  std::string dir = compileJava(jdk17(), src, "--release 17 -g", &why);
  ASSERT_FALSE(dir.empty()) << why;
  ScratchDir scratch("modern");
  Probes probes(70000);  // ids past sipush: pushed with ldc, and ldc_w once the pool is big
  Policy policy;
  policy.values = true;
  Comparison c =
      instrumentAndRun(jdk17(), readClasses(dir), "Main", probes, scratch, "modern", policy);
  ASSERT_TRUE(c.ok);
  const std::string want =
      "[v5:0, v6:1, v7:4, v8:9]\n"
      "v5:0,v6:1,v7:4,v8:9\n"
      "total 2003\n"
      "rejected radius -1\n"
      "true [Circle, Square, Empty]\n"
      "Point[x=1, y=2] Point[x=3, y=6] true false true\n"
      "true 2\n"
      "26 36\n"
      "Outer 3 true\n";
  ASSERT_TRUE(sameRun(c, want));

  // The attributes the JVM checks are still there.
  cf::ClassFile shape = parseWritten(c, "Shape.class");
  EXPECT_TRUE(has<cf::PermittedSubclassesAttr>(shape));
  EXPECT_TRUE(has<cf::NestMembersAttr>(shape));  // Shape$Empty
  cf::ClassFile point = parseWritten(c, "Point.class");
  EXPECT_TRUE(has<cf::RecordAttr>(point));
  EXPECT_TRUE(has<cf::BootstrapMethodsAttr>(point));
  EXPECT_TRUE(has<cf::NestMembersAttr>(parseWritten(c, "Outer.class")));
  EXPECT_TRUE(has<cf::NestHostAttr>(parseWritten(c, "Outer$Inner.class")));
  cf::ClassFile mainCls = parseWritten(c, "Main.class");
  EXPECT_TRUE(has<cf::BootstrapMethodsAttr>(mainCls));
  EXPECT_GE(countOps(mainCls, "main", Op::invokedynamic), 6);
  // Probe ids past sipush are Integer constants: pushed with ldc in classes with small pools,
  // with ldc_w where they land past pool index 255 (Main).
  int ldc = 0, ldcW = 0;
  for (const ClassBytes& b : c.written) {
    cf::ClassFile cls = parseWritten(c, b.path);
    for (const cf::Member& m : cls.methods) {
      if (!m.code()) continue;
      for (const cf::Insn& i : m.code()->code.insns) {
        if (i.op != Op::ldc && i.op != Op::ldc_w) continue;
        if (cls.pool.tag(i.cp()) != cf::Tag::Integer) continue;
        EXPECT_GE(cls.pool.integer(i.cp()), 70000);
        (i.op == Op::ldc ? ldc : ldcW)++;
      }
    }
  }
  EXPECT_GT(ldc, 0);
  EXPECT_GT(ldcW, 0);

  const RunResult& run = c.instrumented;
  auto line = [&](const char* marker) { return lineOf(src, "Main.java", marker); };
  auto entries = [&](const char* cls, const char* method) {
    return run.count(probes.one("entry", cls, method).id);
  };
  // Lambda bodies (private static synthetic methods of Main, called through indy).
  EXPECT_EQ(entries("Main", "lambda$main$0"), 4);  // x -> x + base
  EXPECT_EQ(entries("Main", "lambda$main$1"), 4);  // (a, b) -> a * b
  const Site& loop = probes.one("block", "Main", "main", line("@loop"));
  EXPECT_EQ(run.count(loop.id), 4);
  // Record methods made by the ObjectMethods bootstrap: toString twice, equals twice,
  // hashCode twice.
  EXPECT_EQ(entries("Point", "toString"), 2);
  EXPECT_EQ(entries("Point", "equals"), 2);
  EXPECT_EQ(entries("Point", "hashCode"), 2);
  EXPECT_EQ(entries("Point", "scaled"), 1);
  // The compact constructor: three Circles, one rejected.
  EXPECT_EQ(entries("Circle", "<init>"), 3);
  const Site& check = probes.one("branch", "Circle", "<init>", line("@circleCheck"));
  EXPECT_EQ(run.count(check.id), 3);
  EXPECT_EQ(run.taken(check.id), 2);  // ifge
  const Site& circleExit = probes.one("exit", "Circle", "<init>");
  EXPECT_EQ(run.count(circleExit.id), 1);
  EXPECT_EQ(run.exceptions(circleExit.id), "java.lang.IllegalArgumentException");
  // Pattern matching over the sealed hierarchy.
  EXPECT_EQ(run.count(probes.one("return", "Main", "describe", line("@isCircle")).id), 2);
  EXPECT_EQ(run.count(probes.one("return", "Main", "describe", line("@isSquare")).id), 1);
  EXPECT_EQ(run.count(probes.one("return", "Main", "describe", line("@isOther")).id), 1);
  EXPECT_EQ(entries("Circle", "area"), 2);
  EXPECT_EQ(entries("Square", "area"), 1);
  EXPECT_EQ(entries("Shape$Empty", "<init>"), 1);
  // Nest mates: private members used directly across classes of the nest.
  EXPECT_EQ(entries("Outer", "hidden"), 2);
  EXPECT_EQ(entries("Outer$Inner", "peek"), 2);
  EXPECT_EQ(entries("Outer$Nested", "<init>"), 2);
  EXPECT_EQ(entries("Outer", "readNested"), 2);

  // Returned values: describe 2012 + (-9) + 0 + 0 over three returns, hidden 6 twice, the
  // record's hashCode twice (the same value), equals true once.
  int64_t described = 0;
  for (const Site* s : probes.find("value", "Main", "describe")) described += run.taken(s->id);
  EXPECT_EQ(described, 2003);
  EXPECT_EQ(run.sum(probes.find("value", "Main", "describe")), 4);
  EXPECT_EQ(run.taken(probes.one("value", "Outer", "hidden").id), 12);
  EXPECT_EQ(run.taken(probes.one("value", "Point", "equals").id), 1);
  EXPECT_EQ(run.count(probes.one("value", "Point", "hashCode").id), 2);
  EXPECT_EQ(run.exceptions(probes.one("value", "Point", "toString").id), "java.lang.String");
  // A nest mate's private field read through the other class's object.
  auto nestedRead = probes.find("field-object", "Outer", "readNested");
  ASSERT_FALSE(nestedRead.empty());
  EXPECT_EQ(run.exceptions(nestedRead[0]->id), "Outer$Nested");
}

// Condy: main loops three times over ldc "answer" (int), ldc2_w "big" (long, static
// argument 7) and ldc "none" (ConstantBootstraps.nullConstant, a String); each constant is
// resolved once.
Bytes condyClass() {
  ClassBuilder cb("Condy", 55);
  PoolBuilder& p = cb.pool;
  const char* bsmDesc =
      "(Ljava/lang/invoke/MethodHandles$Lookup;Ljava/lang/String;Ljava/lang/Class;)"
      "Ljava/lang/Object;";
  const uint16_t answerMh = p.methodHandle(6, p.methodref("CondyBsm", "answer", bsmDesc));
  const uint16_t bigMh =
      p.methodHandle(6, p.methodref("CondyBsm", "big",
                                    "(Ljava/lang/invoke/MethodHandles$Lookup;Ljava/lang/String;"
                                    "Ljava/lang/Class;J)Ljava/lang/Object;"));
  const uint16_t nullMh = p.methodHandle(
      6, p.methodref("java/lang/invoke/ConstantBootstraps", "nullConstant", bsmDesc));
  const uint16_t seven = p.longValue(7);
  const uint16_t answer = p.dynamic(0, "answer", "I");
  const uint16_t big = p.dynamic(1, "big", "J");
  const uint16_t none = p.dynamic(2, "none", "Ljava/lang/String;");
  const uint16_t showI = p.methodref("CondyBsm", "show", "(I)V");
  const uint16_t showJ = p.methodref("CondyBsm", "show", "(J)V");
  const uint16_t showO = p.methodref("CondyBsm", "show", "(Ljava/lang/Object;)V");
  const uint16_t report = p.methodref("CondyBsm", "report", "()V");
  const uint16_t smt = p.utf8("StackMapTable");

  ByteWriter bsms;
  bsms.u2(3);
  bsms.u2(answerMh).u2(0);
  bsms.u2(bigMh).u2(1).u2(seven);
  bsms.u2(nullMh).u2(0);
  cb.attributes.push_back(cb.attr("BootstrapMethods", bsms.take()));

  Asm a;
  int loop = a.newLabel();
  a.op(Op::iconst_0).op(Op::istore_1);
  a.bind(loop);
  a.op(Op::ldc, answer).cp(Op::invokestatic, showI);
  a.cp(Op::ldc2_w, big).cp(Op::invokestatic, showJ);
  a.op(Op::ldc, none).cp(Op::invokestatic, showO);
  a.op(Op::iinc, 1).u1(1).op(Op::iload_1).op(Op::iconst_3).jump(Op::if_icmplt, loop);
  a.cp(Op::invokestatic, report).op(Op::return_);
  Bytes code = a.finish();
  EXPECT_LT(answer, 256);
  EXPECT_LT(none, 256);
  // append_frame (one int local) at the loop head.
  AttrSpec frames;
  frames.name = smt;
  frames.body = B({0, 1, 252, 0, static_cast<int>(a.labelPc(loop)), 1});
  cb.addMethod(0x0009, "main", "([Ljava/lang/String;)V", {cb.codeAttr(code, 2, 2, {}, {frames})});
  return cb.build();
}

TEST(HardCaseModern, DynamicConstants) {
  HARD_REQUIRE_JAVA(runtime);
  std::vector<SourceFile> src = sourcesIn("condy");
  std::string why;
  std::string dir = compileJava(jdk17(), src, "--release 17 -g", &why);
  ASSERT_FALSE(dir.empty()) << why;
  Bytes condy = condyClass();
  ASSERT_TRUE(RoundTrips(condy));
  std::vector<ClassBytes> classes = readClasses(dir);
  classes.push_back({"Condy.class", condy});
  ScratchDir scratch("condy");
  Probes probes;
  Comparison c = instrumentAndRun(jdk17(), classes, "Condy", probes, scratch, "condy");
  ASSERT_TRUE(c.ok);
  std::string round = "int 42\nlong 7003\nobject null\n";
  const std::string want = round + round + round + "bootstrap calls 2\n";
  ASSERT_TRUE(sameRun(c, want));

  // The dynamic-constant loads are unchanged.
  cf::ClassFile written = parseWritten(c, "Condy.class");
  EXPECT_EQ(written.major, 55);
  EXPECT_TRUE(has<cf::BootstrapMethodsAttr>(written));
  Layout l = layoutOf(written, "main");
  int condyLoads = 0;
  for (const cf::Insn& i : l.insns) {
    if ((i.op == Op::ldc || i.op == Op::ldc_w || i.op == Op::ldc2_w) &&
        written.pool.tag(i.cp()) == cf::Tag::Dynamic) {
      ++condyLoads;
    }
  }
  EXPECT_EQ(condyLoads, 3);

  const RunResult& run = c.instrumented;
  EXPECT_EQ(run.count(probes.one("entry", "Condy", "main").id), 1);
  auto blocks = probes.find("block", "Condy", "main");
  ASSERT_EQ(blocks.size(), 3u);  // before the loop, the loop, after it
  EXPECT_EQ(run.count(blocks[0]->id), 1);
  EXPECT_EQ(run.count(blocks[1]->id), 3);
  EXPECT_EQ(run.count(blocks[2]->id), 1);
  const Site& back = probes.one("branch", "Condy", "main");
  EXPECT_EQ(run.count(back.id), 3);
  EXPECT_EQ(run.taken(back.id), 2);
  // Each bootstrap ran once; the printers once per round.
  EXPECT_EQ(run.count(probes.one("entry", "CondyBsm", "answer").id), 1);
  EXPECT_EQ(run.count(probes.one("entry", "CondyBsm", "big").id), 1);
  EXPECT_EQ(run.count(probes.one("entry", "CondyBsm", "show(I)V").id), 3);
  EXPECT_EQ(run.count(probes.one("entry", "CondyBsm", "show(J)V").id), 3);
  EXPECT_EQ(run.count(probes.one("entry", "CondyBsm", "show(Ljava/lang/Object;)V").id), 3);
}

}  // namespace
}  // namespace dragnet::test::hard
