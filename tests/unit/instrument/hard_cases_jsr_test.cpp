// Hard case: jsr/ret subroutines in a version 49 class (hand-assembled; javac has not
// emitted jsr since Java 6), instrumented everywhere and run by the JVM's old (type
// inferencing) verifier:
//   f(I)I  try/finally through a subroutine, called on the normal and the exceptional path
//   g(I)I  a subroutine called in a loop and once more after it with jsr_w; it changes a
//          local of its caller
//   h(I)I  a jsr whose subroutine is ~18 KB away: after instrumentation it needs jsr_w,
//          and the loop's backward if_icmplt needs to be inverted around a goto_w
#include <gtest/gtest.h>

#include "../../e2e_hard/hard_cases.h"

namespace dragnet::test::hard {
namespace {

using cf::Op;

constexpr int kUnits = 1400;  // blocks pairs in h's loop (13 bytes each)

struct JsrClass {
  Bytes bytes;
  // Original offsets of interesting instructions.
  uint32_t fFinally = 0, fHandler = 0, gSub = 0, hSub = 0, hJsrFar = 0;
  std::vector<uint32_t> hThen;  // h: the start of each unit's then-block
};

JsrClass build() {
  JsrClass out;
  ClassBuilder cb("Jsr", 49);
  PoolBuilder& p = cb.pool;
  const uint16_t sysOut = p.fieldref("java/lang/System", "out", "Ljava/io/PrintStream;");
  const uint16_t printI = p.methodref("java/io/PrintStream", "println", "(I)V");
  const uint16_t printS = p.methodref("java/io/PrintStream", "println", "(Ljava/lang/String;)V");
  const uint16_t ise = p.cls("java/lang/IllegalStateException");
  const uint16_t iseInit = p.methodref("java/lang/IllegalStateException", "<init>", "()V");
  const uint16_t counter = p.fieldref("Jsr", "counter", "I");
  const uint16_t f = p.methodref("Jsr", "f", "(I)I");
  const uint16_t g = p.methodref("Jsr", "g", "(I)I");
  const uint16_t h = p.methodref("Jsr", "h", "(I)I");
  const uint16_t iseText = p.string("ISE");
  cb.addField(0x0008, "counter", "I");

  {  // static int f(int x) { try { if (x < 0) throw new ISE(); r = x * 2; } finally { counter++; }
     // return r; }
    Asm a;
    int ok = a.newLabel(), tryEnd = a.newLabel(), handler = a.newLabel(), fin = a.newLabel();
    a.op(Op::iload_0).jump(Op::ifge, ok);
    a.cp(Op::new_, ise).op(Op::dup).cp(Op::invokespecial, iseInit).op(Op::athrow);
    a.bind(ok).op(Op::iload_0).op(Op::iconst_2).op(Op::imul).op(Op::istore_1);
    a.bind(tryEnd).jump(Op::jsr, fin).op(Op::iload_1).op(Op::ireturn);
    a.bind(handler).op(Op::astore_2).jump(Op::jsr, fin).op(Op::aload_2).op(Op::athrow);
    a.bind(fin).op(Op::astore_3);
    a.cp(Op::getstatic, counter).op(Op::iconst_1).op(Op::iadd).cp(Op::putstatic, counter);
    a.op(Op::ret, 3);
    Bytes code = a.finish();
    out.fFinally = a.labelPc(fin);
    out.fHandler = a.labelPc(handler);
    auto tEnd = static_cast<uint16_t>(a.labelPc(tryEnd));
    auto hPc = static_cast<uint16_t>(a.labelPc(handler));
    cb.addCodeMethod("f", code, "(I)I", 2, 4, {{0, tEnd, hPc, 0}});
  }
  {  // static int g(int n): s += 5 in a subroutine, n times in a loop and once after it
    Asm a;
    int loop = a.newLabel(), end = a.newLabel(), add = a.newLabel();
    a.op(Op::iconst_0).op(Op::istore_1).op(Op::iconst_0).op(Op::istore_2);
    a.bind(loop).op(Op::iload_2).op(Op::iload_0).jump(Op::if_icmpge, end);
    a.jump(Op::jsr, add).op(Op::iinc, 2).u1(1).jump(Op::goto_, loop);
    a.bind(end).jumpW(Op::jsr_w, add).op(Op::iload_1).op(Op::ireturn);
    a.bind(add).op(Op::astore_3).op(Op::iinc, 1).u1(5).op(Op::ret, 3);
    Bytes code = a.finish();
    out.gSub = a.labelPc(add);
    cb.addCodeMethod("g", code, "(I)I", 2, 4);
  }
  {  // static int h(int n): jsr far; n loop rounds over kUnits if-blocks; jsr near; return
    Asm a;
    int loop = a.newLabel(), sub = a.newLabel();
    a.op(Op::iconst_0).op(Op::istore_1).op(Op::iconst_0).op(Op::istore_2);
    out.hJsrFar = a.pc();
    a.jump(Op::jsr, sub);
    a.bind(loop);
    for (int k = 0; k < kUnits; ++k) {  // if ((i & 1) != 0) s++; s = s + 0;
      int next = a.newLabel();
      a.op(Op::iload_2).op(Op::iconst_1).op(Op::iand).jump(Op::ifeq, next);
      out.hThen.push_back(a.pc());
      a.op(Op::iinc, 1).u1(1);
      a.bind(next).op(Op::iload_1).op(Op::iconst_0).op(Op::iadd).op(Op::istore_1);
    }
    a.op(Op::iinc, 2).u1(1).op(Op::iload_2).op(Op::iload_0).jump(Op::if_icmplt, loop);
    a.jump(Op::jsr, sub).op(Op::iload_1).op(Op::ireturn);
    a.bind(sub).op(Op::astore_3).op(Op::iinc, 1).u1(100).op(Op::ret, 3);
    Bytes code = a.finish();
    out.hSub = a.labelPc(sub);
    cb.addCodeMethod("h", code, "(I)I", 2, 4);
  }
  {  // main: f(3), f(-1) caught, f(5), counter, g(4), h(3)
    Asm a;
    int tryStart = a.newLabel(), tryEnd = a.newLabel(), caught = a.newLabel(), after = a.newLabel();
    auto print = [&](auto&& push) {
      a.cp(Op::getstatic, sysOut);
      push();
      a.cp(Op::invokevirtual, printI);
    };
    print([&] { a.op(Op::iconst_3).cp(Op::invokestatic, f); });
    a.bind(tryStart);
    print([&] { a.op(Op::iconst_m1).cp(Op::invokestatic, f); });
    a.bind(tryEnd).jump(Op::goto_, after);
    a.bind(caught)
        .op(Op::pop)
        .cp(Op::getstatic, sysOut)
        .op(Op::ldc, iseText)
        .cp(Op::invokevirtual, printS);
    a.bind(after);
    print([&] { a.op(Op::iconst_5).cp(Op::invokestatic, f); });
    print([&] { a.cp(Op::getstatic, counter); });
    print([&] { a.op(Op::iconst_4).cp(Op::invokestatic, g); });
    print([&] { a.op(Op::iconst_3).cp(Op::invokestatic, h); });
    a.op(Op::return_);
    Bytes code = a.finish();
    cb.addCodeMethod(
        "main", code, "([Ljava/lang/String;)V", 3, 1,
        {{static_cast<uint16_t>(a.labelPc(tryStart)), static_cast<uint16_t>(a.labelPc(tryEnd)),
          static_cast<uint16_t>(a.labelPc(caught)), ise}});
  }
  out.bytes = cb.build();
  return out;
}

const Site* blockAt(const Probes& probes, std::string_view method, uint32_t offset,
                    std::string_view kind = "block") {
  for (const Site& s : probes.sites()) {
    if (s.live && s.kind == kind && s.cls == "Jsr" &&
        std::string_view(s.method).substr(0, s.method.find('(')) == method && s.offset == offset) {
      return &s;
    }
  }
  ADD_FAILURE() << "no " << kind << " site in " << method << " at offset " << offset;
  return nullptr;
}

TEST(HardCaseJsr, SubroutinesInstrumentedAndRunning) {
  HARD_REQUIRE_JAVA(runtime);
  JsrClass jsr = build();
  ASSERT_TRUE(RoundTrips(jsr.bytes));
  ScratchDir scratch("jsr");
  Probes probes;
  Policy policy;
  // After each jsr: runs when the subroutine returns there with ret.
  policy.extra = [](inst::Routine& r, Probes& p) {
    for (const inst::Instruction& in : r.instructions()) {
      if (in.op == Op::jsr || in.op == Op::jsr_w) {
        EXPECT_TRUE(r.after(in.index, Probes::hit(p.site(r, "after-jsr", in.index))));
      }
    }
  };
  Comparison c =
      instrumentAndRun(jdk17(), {{"Jsr.class", jsr.bytes}}, "Jsr", probes, scratch, "jsr", policy);
  ASSERT_TRUE(c.ok);
  const std::string want = str("6\nISE\n10\n3\n25\n", kUnits + 200, "\n");
  ASSERT_EQ(c.original.exitCode, 0) << c.original.err;
  EXPECT_EQ(c.original.out, want);
  EXPECT_EQ(describeUnchanged(c.outcomes), "");

  cf::ClassFile written = parseWritten(c, "Jsr.class");
  EXPECT_EQ(written.major, 49);
  // h: the first jsr reaches past the instrumented loop now; the second one stays short.
  EXPECT_EQ(countOps(written, "h", Op::jsr_w), 1);
  EXPECT_EQ(countOps(written, "h", Op::jsr), 1);
  EXPECT_GT(layoutOf(written, "h").offsets.back(), 40000u);
  // The backward if_icmplt became if_icmpge over a goto_w.
  EXPECT_EQ(countOps(written, "h", Op::if_icmplt), 0);
  EXPECT_EQ(countOps(written, "h", Op::if_icmpge), 1);
  EXPECT_EQ(countOps(written, "h", Op::goto_w), 1);
  // g keeps its original jsr_w.
  EXPECT_EQ(countOps(written, "g", Op::jsr_w), 1);

  EXPECT_EQ(c.instrumented.exitCode, 0) << c.instrumented.err;
  EXPECT_EQ(c.instrumented.err, "");
  EXPECT_EQ(c.instrumented.out, want);
  const RunResult& run = c.instrumented;

  // f: called 3 times; the finally subroutine runs on every path, the handler once.
  EXPECT_EQ(run.count(probes.one("entry", "Jsr", "f").id), 3);
  EXPECT_EQ(run.count(blockAt(probes, "f", jsr.fFinally)->id), 3);
  EXPECT_EQ(run.count(blockAt(probes, "f", jsr.fHandler)->id), 1);
  const Site* handler = blockAt(probes, "f", jsr.fHandler, "handler");
  EXPECT_EQ(run.count(handler->id), 1);
  EXPECT_EQ(run.exceptions(handler->id), "java.lang.IllegalStateException");
  const Site& fExit = probes.one("exit", "Jsr", "f");
  EXPECT_EQ(run.count(fExit.id), 1);
  EXPECT_EQ(run.exceptions(fExit.id), "java.lang.IllegalStateException");
  EXPECT_EQ(run.count(probes.one("return", "Jsr", "f").id), 2);
  const Site& fBranch = probes.one("branch", "Jsr", "f");  // ifge: taken for 3 and 5
  EXPECT_EQ(run.count(fBranch.id), 3);
  EXPECT_EQ(run.taken(fBranch.id), 2);

  // g(4): the subroutine runs 5 times, the loop test 5 times (taken at the end).
  EXPECT_EQ(run.count(blockAt(probes, "g", jsr.gSub)->id), 5);
  const Site& gBranch = probes.one("branch", "Jsr", "g");
  EXPECT_EQ(run.count(gBranch.id), 5);
  EXPECT_EQ(run.taken(gBranch.id), 1);

  // h(3): each unit's test runs 3 times, its then-block once (i == 1); the far subroutine
  // twice; the loop's back branch 3 times, taken twice.
  EXPECT_EQ(run.count(blockAt(probes, "h", jsr.hSub)->id), 2);
  int bad = 0;
  for (size_t k = 0; k < jsr.hThen.size() && bad < 5; ++k) {
    const Site* then = blockAt(probes, "h", jsr.hThen[k]);
    if (!then || run.count(then->id) != 1) {
      ++bad;
      ADD_FAILURE() << "unit " << k << ": then-block ran " << (then ? run.count(then->id) : -1);
    }
  }
  auto hBranches = probes.find("branch", "Jsr", "h");
  ASSERT_EQ(hBranches.size(), static_cast<size_t>(kUnits) + 1);
  for (size_t k = 0; k < hBranches.size() && bad < 5; ++k) {
    // Each unit's ifeq is taken for i = 0 and 2; the loop's if_icmplt (the last) for i = 1, 2.
    if (run.count(hBranches[k]->id) != 3 || run.taken(hBranches[k]->id) != 2) {
      ++bad;
      ADD_FAILURE() << "branch " << k << ": " << run.count(hBranches[k]->id) << "/"
                    << run.taken(hBranches[k]->id);
    }
  }
  // Returns from the subroutines to each call site.
  auto afterJsr = [&](const char* method) {
    std::vector<int64_t> v;
    for (const Site* s : probes.find("after-jsr", "Jsr", method)) v.push_back(run.count(s->id));
    return v;
  };
  using V = std::vector<int64_t>;
  EXPECT_EQ(afterJsr("f"), (V{2, 1}));  // normal path (x = 3, 5), handler path (x = -1)
  EXPECT_EQ(afterJsr("g"), (V{4, 1}));  // in the loop, then the jsr_w after it
  EXPECT_EQ(afterJsr("h"), (V{1, 1}));  // the far one (now jsr_w) and the near one
  // main: the catch handler ran once.
  const Site& mainHandler = probes.one("handler", "Jsr", "main");
  EXPECT_EQ(run.count(mainHandler.id), 1);
  EXPECT_EQ(run.exceptions(mainHandler.id), "java.lang.IllegalStateException");
  EXPECT_EQ(run.count(probes.one("exit", "Jsr", "main").id), 0);
}

}  // namespace
}  // namespace dragnet::test::hard
