// Mode alloc's instrumenter (src/contexts/probes.h) without a JVM to run
// it, on classes javac compiles at test time (JDK 17): which probes it inserts where
// (whole instruction listings of the rewritten methods), the site and method tables it
// returns, leaves, handlers, bytecodes=on's block counts. The rewritten classes are linked
// by HotSpot's verifier (tests/verify/VerifyHarness.java), which checks the probes' calls
// and frames without loading java/lang/DragnetRt or DragnetState.
// (alloc_model_test.cpp: classes made with the class-file library.)
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <iterator>
#include <map>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "alloc_test_support.h"
#include "instrument/frame_state.h"

namespace dragnet::test::hard::alloc_case {
namespace {

// Method ids follow the order of the methods (all have code); site keys are
// 0x80000000 | index << 4 | element kind, indices counting from 1 in code order.
constexpr const char* kAllocCases = R"(public class AllocCases implements Cloneable {
  int[] data;

  AllocCases(int n) {
    this(new int[n]); // ctor-array
  }

  AllocCases(int[] data) {
    this.data = data;
  }

  static int sum(int a, int b) {
    return a + b;
  }

  static int loop(int n) {
    int s = 0;
    for (int i = 0; i < n; i++) s += i;
    return s;
  }

  static Object object() {
    return new Object(); // new-object
  }

  static String[] strings(int n) {
    return new String[n]; // anewarray
  }

  static int[][] grid(int n) {
    return new int[n][n]; // multianewarray
  }

  static int[] copy(int[] a) {
    return a.clone(); // array-clone
  }

  @Override
  protected Object clone() throws CloneNotSupportedException {
    return super.clone(); // super-clone
  }

  static int guarded(Object o) {
    try {
      return o.hashCode();
    } catch (RuntimeException e) {
      return -1;
    }
  }
}
)";

// The negative control of the verifier run: its frames are stripped after instrumenting.
constexpr const char* kControl = R"(class Control {
  static Object pick(boolean b) {
    return b ? new Object() : null;
  }
}
)";

class AllocInstrumenterTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (jdk17().javac.empty()) GTEST_SKIP() << "JDK 17 (javac) not found";
    std::string why;
    std::string dir =
        compileJava(jdk17(), {{"AllocCases.java", kAllocCases}, {"Control.java", kControl}},
                    "--release 17", &why);
    ASSERT_FALSE(dir.empty()) << why;
    for (ClassBytes& c : readClasses(dir)) classes_[c.path] = std::move(c.bytes);
    ASSERT_EQ(classes_.size(), 2u);
  }
  const Bytes& bytes(const std::string& path) { return classes_.at(path); }
  int line(const std::string& marker) { return lineOf(kAllocCases, marker); }

  std::map<std::string, Bytes> classes_;
};

TEST_F(AllocInstrumenterTest, SiteAndMethodTables) {
  alloc::IdSource ids;
  auto r = rewrite(bytes("AllocCases.class"), ids);
  const alloc::ClassResult& res = r->result;
  EXPECT_TRUE(res.changed);
  EXPECT_TRUE(res.failures.empty());
  Lines sites;
  for (const profile::SiteDef& s : res.sites) sites.push_back(siteLine(s));
  EXPECT_EQ(
      sites,
      (Lines{
          siteLine(0x80000016, 1, 2, line("ctor-array"), SiteKind::NewArray, "[I"),
          siteLine(0x80000020, 5, 0, line("new-object"), SiteKind::New, "java/lang/Object"),
          siteLine(0x80000031, 6, 1, line("anewarray"), SiteKind::ANewArray, "[Ljava/lang/String;"),
          // One site per allocated dimension: the outer array, then its rows.
          siteLine(0x80000041, 7, 2, line("multianewarray"), SiteKind::MultiANewArray, "[[I"),
          siteLine(0x80000056, 7, 2, line("multianewarray"), SiteKind::MultiANewArray, "[I"),
          siteLine(0x80000066, 8, 1, line("array-clone"), SiteKind::Clone, "[I"),
          // super.clone(): typed by the copy's runtime class.
          siteLine(0x80000070, 9, 1, line("super-clone"), SiteKind::Clone, ""),
      }));
  Lines methods;
  for (const profile::MethodDef& m : res.methods) {
    methods.push_back(str(m.id, " ", m.cls, ".", m.name, m.descriptor, " ", m.source));
  }
  EXPECT_EQ(methods, (Lines{
                         "1 AllocCases.<init>(I)V AllocCases.java",
                         "2 AllocCases.<init>([I)V AllocCases.java",
                         "3 AllocCases.sum(II)I AllocCases.java",
                         "4 AllocCases.loop(I)I AllocCases.java",
                         "5 AllocCases.object()Ljava/lang/Object; AllocCases.java",
                         "6 AllocCases.strings(I)[Ljava/lang/String; AllocCases.java",
                         "7 AllocCases.grid(I)[[I AllocCases.java",
                         "8 AllocCases.copy([I)[I AllocCases.java",
                         "9 AllocCases.clone()Ljava/lang/Object; AllocCases.java",
                         "10 AllocCases.guarded(Ljava/lang/Object;)I AllocCases.java",
                     }));
  // The native calls whose result a probe counts, at their offsets in the rewritten code
  // (after the 13 bytes of the entry: bipush, invokestatic, dup, astore, getfield, iconst_1,
  // isub, istore), so that the agent ignores the JVM's events for them.
  Lines probed;
  for (const auto& p : res.probedCalls) probed.push_back(str(p.method, p.descriptor, " ", p.bci));
  EXPECT_EQ(probed, (Lines{"copy([I)[I 14", "clone()Ljava/lang/Object; 14"}));
  EXPECT_EQ(ids.nextMethod.load(), 11u);
  EXPECT_EQ(ids.nextSite.load(), 8u);
}

TEST_F(AllocInstrumenterTest, ProbesAtEntrySitesAndReturns) {
  alloc::IdSource ids;
  auto r = rewrite(bytes("AllocCases.class"), ids);
  const cf::ClassFile& c = r->cls;
  const std::string state = "Ljava/lang/DragnetState;";
  // A constructor enters before this(...): the array passed to it is allocated in the
  // constructor's context. The live locals come after the parameters (slots 2 and 3).
  EXPECT_EQ(
      listing(c, "<init>", "(I)V"),
      join({enter(1, 2, 3),
            {"aload_0", "iload_1", "dup", "aload_2", ldc(0x80000016), rt("array(I" + state + "I)V"),
             "newarray 10", "invokespecial AllocCases.<init>([I)V"},
            exitCode(2, 3),
            {"return"}}));
  EXPECT_EQ(listing(c, "<init>", "([I)V"),
            join({enter(2, 2, 3),
                  {"aload_0", "invokespecial java/lang/Object.<init>()V", "aload_0", "aload_1",
                   "putfield AllocCases.data:[I"},
                  exitCode(2, 3),
                  {"return"}}));
  EXPECT_EQ(listing(c, "object"),
            join({enter(5, 0, 1),
                  {"aload_0", ldc(0x80000020), rt("alloc(" + state + "I)V"), "new java/lang/Object",
                   "dup", "invokespecial java/lang/Object.<init>()V"},
                  exitCode(0, 1),
                  {"areturn"}}));
  EXPECT_EQ(listing(c, "strings"),
            join({enter(6, 1, 2),
                  {"iload_0", "dup", "aload_1", ldc(0x80000031), rt("array(I" + state + "I)V"),
                   "anewarray java/lang/String"},
                  exitCode(1, 2),
                  {"areturn"}}));
  // multi(array, dimensions, key of the outer dimension, element kind of the last: Int).
  EXPECT_EQ(listing(c, "grid"),
            join({enter(7, 1, 2),
                  {"iload_0", "iload_0", "multianewarray [[I 2", "dup", "iconst_2", ldc(0x80000041),
                   "bipush 6", rt("multi(Ljava/lang/Object;III)V")},
                  exitCode(1, 2),
                  {"areturn"}}));
  EXPECT_EQ(listing(c, "copy"),
            join({enter(8, 1, 2),
                  {"aload_0", "invokevirtual [I.clone()Ljava/lang/Object;", "dup", ldc(0x80000066),
                   rt("cloned(Ljava/lang/Object;I)V"), "checkcast [I"},
                  exitCode(1, 2),
                  {"areturn"}}));
  EXPECT_EQ(listing(c, "clone"),
            join({enter(9, 1, 2),
                  {"aload_0", "invokespecial java/lang/Object.clone()Ljava/lang/Object;", "dup",
                   ldc(0x80000070), rt("dyn(Ljava/lang/Object;I)V")},
                  exitCode(1, 2),
                  {"areturn"}}));
  EXPECT_EQ(codeOf(c, "object").maxLocals, 2);  // S and D
  EXPECT_EQ(codeOf(c, "grid").maxLocals, 3);
}

// A handler restores the frame's depth (S.sp = D + 1) before its own code; the exception
// table still sends the exception there, and the handler's frame declares S and D.
TEST_F(AllocInstrumenterTest, HandlerEntryRestoresTheDepth) {
  alloc::IdSource ids;
  auto r = rewrite(bytes("AllocCases.class"), ids);
  const cf::ClassFile& c = r->cls;
  Lines caught = {"aload_2", "iload_3", "iconst_1", "iadd", "putfield " + kSp};
  Lines want = join({enter(10, 2, 3),
                     {"aload_0", "invokevirtual java/lang/Object.hashCode()I"},
                     exitCode(2, 3),
                     {"ireturn"},
                     caught,
                     {"astore_1", "iconst_m1"},
                     exitCode(2, 3),
                     {"ireturn"}});
  ASSERT_EQ(listing(c, "guarded"), want);
  const cf::CodeAttr& code = codeOf(c, "guarded");
  const uint32_t handler = 14;  // the first instruction of `caught`
  ASSERT_EQ(code.handlers.size(), 1u);
  EXPECT_EQ(code.code.position(code.handlers[0].handler), handler);
  EXPECT_EQ(c.pool.className(code.handlers[0].catchType), "java/lang/RuntimeException");
  EXPECT_EQ(code.code.position(code.handlers[0].start), 8u);  // after the entry
  const cf::Member* m = findMethod(c, "guarded");
  std::optional<inst::FrameState> init = inst::initialState(r->cls, *m);
  ASSERT_TRUE(init);
  auto* smt = cf::findAttr<cf::StackMapTableAttr>(code.attributes);
  ASSERT_NE(smt, nullptr);
  auto frames = inst::decodeFrames(*init, *smt);
  ASSERT_TRUE(frames);
  ASSERT_EQ(frames->size(), 1u);
  EXPECT_EQ(code.code.position((*frames)[0].at), handler);
  const std::vector<cf::VType>& locals = (*frames)[0].state.locals;
  ASSERT_EQ(locals.size(), 4u);
  EXPECT_EQ(c.pool.className(locals[2].cls), "java/lang/DragnetState");
  EXPECT_EQ(locals[3].kind, inst::vtype::integer().kind);
}

// A method that can make no context under it (no invoke, no allocation) only counts its
// call: DragnetRt.leaf(id), no locals, no exit code.
TEST_F(AllocInstrumenterTest, LeafMethodsOnlyCountTheirCall) {
  alloc::IdSource ids;
  cf::ClassFile original = parseOk(bytes("AllocCases.class"));
  auto r = rewrite(bytes("AllocCases.class"), ids);
  EXPECT_EQ(listing(r->cls, "sum"),
            (Lines{"iconst_3", rt("leaf(I)V"), "iload_0", "iload_1", "iadd", "ireturn"}));
  // The branches keep their targets, two instructions further on.
  EXPECT_EQ(listing(r->cls, "loop"),
            (Lines{"iconst_4", rt("leaf(I)V"), "iconst_0", "istore_1", "iconst_0", "istore_2",
                   "iload_2", "iload_0", "if_icmpge ->15", "iload_1", "iload_2", "iadd", "istore_1",
                   "iinc 2 1", "goto ->6", "iload_1", "ireturn"}));
  for (std::string_view name : {"sum", "loop"}) {
    EXPECT_EQ(codeOf(r->cls, name).maxLocals, codeOf(original, name).maxLocals) << name;
    EXPECT_EQ(codeOf(r->cls, name).handlers.size(), 0u) << name;
  }
}

// bytecodes=on: N and C join S and D; each block adds its size to C; C is flushed into
// S.insns[N] before every call, at every return and on exceptional exit, through a
// catch-all handler that leaves the calls uncovered.
TEST_F(AllocInstrumenterTest, BytecodesOnCountsBlocks) {
  alloc::IdSource ids;
  auto r = rewrite(bytes("AllocCases.class"), ids, true);
  const cf::ClassFile& c = r->cls;
  Lines exit = join({flush(0, 2, 3), exitCode(0, 1)});
  Lines want = join({enterCounting(5, 0, 1, 2, 3),
                     blockCount(3, 4),
                     {"aload_0", ldc(0x80000020), rt("alloc(Ljava/lang/DragnetState;I)V"),
                      "new java/lang/Object", "dup"},
                     flush(0, 2, 3),
                     {"lconst_0", "lstore_3", "invokespecial java/lang/Object.<init>()V"},
                     exit,
                     {"areturn"},
                     exit,
                     {"athrow"}});
  ASSERT_EQ(listing(c, "object"), want);
  const cf::CodeAttr& code = codeOf(c, "object");
  EXPECT_EQ(code.maxLocals, 5);  // S, D, N, C (a long)
  // The catch-all handler after the areturn covers the code after the entry but the
  // invokespecial (the count is flushed before it).
  const size_t handler = want.size() - exit.size() - 1;
  const size_t call = 32;
  ASSERT_EQ(want[call], "invokespecial java/lang/Object.<init>()V");
  std::vector<std::string> ranges;
  for (const cf::ExceptionHandler& h : code.handlers) {
    ranges.push_back(str(code.code.position(h.start), "-", code.code.position(h.end), "->",
                         code.code.position(h.handler), " catch ", cf::raw(h.catchType)));
  }
  EXPECT_EQ(ranges, (Lines{str("13-", call, "->", handler, " catch 0"),
                           str(call + 1, "-", handler, "->", handler, " catch 0")}));
  // A leaf of one block that never loops: one call counts both its call and its block.
  EXPECT_EQ(listing(c, "sum"), (Lines{"iconst_3", "iconst_4", rt("leafBlock(II)V"), "iload_0",
                                      "iload_1", "iadd", "ireturn"}));
  // A leaf with a loop gets a frame; blocks of 4, 3, 6 and 2 instructions.
  Lines loop = listing(c, "loop");
  Lines counts;
  for (size_t i = 0; i + 1 < loop.size(); ++i) {
    if (loop[i].starts_with("ldc2_w") && loop[i + 1] == "ladd") counts.push_back(loop[i]);
  }
  EXPECT_EQ(counts, (Lines{"ldc2_w 4", "ldc2_w 3", "ldc2_w 6", "ldc2_w 2"}));
  ASSERT_GE(loop.size(), 13u);
  EXPECT_EQ(Lines(loop.begin(), loop.begin() + 13), enterCounting(4, 3, 4, 5, 6));
}

// ---- the verifier ------------------------------------------------------------------------------

std::string quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

// Binary name -> "OK" or the error, for every class in `dir`, from HotSpot's verifier.
std::map<std::string, std::string> verifyDir(const std::string& dir, std::string* why) {
  std::ifstream src(std::string(DRAGNET_SOURCE_DIR) + "/tests/verify/VerifyHarness.java");
  std::string text((std::istreambuf_iterator<char>(src)), {});
  std::string harness = compileJava(jdk17(), {{"VerifyHarness.java", text}}, "-nowarn", why);
  std::map<std::string, std::string> out;
  if (harness.empty()) return out;
  std::string log = dir + ".verify.txt";
  std::string cmd = quote(jdk17().java) + " -Xshare:auto -cp " + quote(harness) +
                    " VerifyHarness " + quote(dir) + " > " + quote(log) + " 2>&1";
  if (std::system(cmd.c_str()) != 0) *why = "failed: " + cmd;
  std::ifstream in(log);
  for (std::string line; std::getline(in, line);) {
    size_t tab = line.find('\t');
    if (tab != std::string::npos) out[line.substr(0, tab)] = line.substr(tab + 1);
  }
  return out;
}

// The rewritten classes link under HotSpot's verifier, with and without bytecodes=on (the
// live locals in every frame, the catch-all handler's frame). The control, rewritten and
// then stripped of its frames, must fail: the harness really verifies.
TEST_F(AllocInstrumenterTest, RewrittenClassesVerify) {
  ScratchDir scratch("alloc-verify");
  for (bool bytecodes : {false, true}) {
    SCOPED_TRACE(bytecodes ? "bytecodes=on" : "bytecodes=off");
    alloc::IdSource ids;
    auto cases = rewrite(bytes("AllocCases.class"), ids, bytecodes);
    auto dyn = rewrite(dynCases(), ids, bytecodes);
    auto control = rewrite(bytes("Control.class"), ids, bytecodes);
    EXPECT_EQ(control->result.sites.size(), 1u);
    cf::ClassFile broken = parseOk(control->bytes);
    for (cf::Member& m : broken.methods) {
      cf::CodeAttr* code = m.code();
      ASSERT_NE(code, nullptr);
      std::erase_if(code->attributes, [](const cf::Attribute& a) {
        return std::holds_alternative<cf::StackMapTableAttr>(a.body);
      });
    }
    std::string dir = scratch.sub(bytecodes ? "on" : "off");
    writeClasses(dir, {{"AllocCases.class", cases->bytes},
                       {"DynCases.class", dyn->bytes},
                       {"Control.class", writeOk(broken)}});
    std::string why;
    std::map<std::string, std::string> verdict = verifyDir(dir, &why);
    ASSERT_TRUE(why.empty()) << why;
    EXPECT_EQ(verdict["AllocCases"], "OK");
    EXPECT_EQ(verdict["DynCases"], "OK");
    EXPECT_TRUE(verdict["Control"].starts_with("java.lang.VerifyError")) << verdict["Control"];
  }
}

}  // namespace
}  // namespace dragnet::test::hard::alloc_case
