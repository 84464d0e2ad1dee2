// Hard case: tableswitch and lookupswitch at every alignment. A switch's padding (0-3 bytes
// to the next multiple of 4) depends on its offset, which probes inserted in front of it
// change. Switches.java (generated) has switches at all four offsets mod 4, and each is
// instrumented with 0-3 extra bytes mod 4 in front of it, so every (old, new) alignment
// pair occurs for both kinds; every switch must still dispatch each key to its case.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>
#include <sstream>

#include "../../e2e_hard/hard_cases.h"

namespace dragnet::test::hard {
namespace {

using cf::Op;

const std::vector<int> kTableKeys = {0, 1, 2, 3, 4, 5};
const std::vector<int> kLookupKeys = {-1000, 7, 300, 50000, 1048576};
// The keys main passes to each method (hits, repeats and misses).
const std::vector<int> kTableCalls = {-1, 0, 1, 2, 3, 4, 5, 6, 3, 3, 100};
const std::vector<int> kLookupCalls = {-1000, 7, 300, 50000, 1048576, 8, 0, 7, 300, 300};

// Ids of the padding probes: a bipush id (5-byte call) and a sipush id (6 bytes).
constexpr int32_t kPad5 = 100, kPad6 = 200;

std::string methodName(bool table, int prefix, int pad) {
  return str(table ? "t" : "l", prefix, "_", pad);
}

// The value method (table, prefix) returns for key k.
int expected(bool table, int prefix, int k) {
  const std::vector<int>& keys = table ? kTableKeys : kLookupKeys;
  int r = 1 + prefix;
  for (size_t j = 0; j < keys.size(); ++j) {
    if (keys[j] == k) return r + 10 + static_cast<int>(j);
  }
  return -r;
}

std::string source() {
  std::ostringstream s;
  s << "public class Switches {\n";
  for (bool table : {true, false}) {
    const std::vector<int>& keys = table ? kTableKeys : kLookupKeys;
    for (int prefix = 0; prefix < 4; ++prefix) {
      for (int pad = 0; pad < 4; ++pad) {
        std::string m = methodName(table, prefix, pad);
        s << "  static int " << m << "(int k) {  // @start " << m << "\n";
        // r = 1 (2 bytes) and `prefix` times iinc (3 bytes), iload_0: the switch is at
        // 3 + 3 * prefix, i.e. 3, 2, 1, 0 mod 4.
        s << "    int r = 1;\n";
        for (int p = 0; p < prefix; ++p) s << "    r += 1;\n";
        s << "    switch (k) {\n";
        for (size_t j = 0; j < keys.size(); ++j) {
          s << "      case " << keys[j] << ": r += " << 10 + j << "; break;  // @case " << m << " "
            << j << "\n";
        }
        s << "      default: r = -r;  // @default " << m << "\n";
        s << "    }\n    return r;\n  }\n";
      }
    }
  }
  s << "  static final int[] T = {";
  for (int k : kTableCalls) s << k << ", ";
  s << "};\n  static final int[] L = {";
  for (int k : kLookupCalls) s << k << ", ";
  s << "};\n";
  s << "  public static void main(String[] args) {\n";
  for (bool table : {true, false}) {
    s << "    for (int k : " << (table ? "T" : "L") << ") {\n";
    for (int prefix = 0; prefix < 4; ++prefix) {
      for (int pad = 0; pad < 4; ++pad) {
        s << "      System.out.println(" << methodName(table, prefix, pad) << "(k));\n";
      }
    }
    s << "    }\n";
  }
  s << "  }\n}\n";
  return s.str();
}

std::string expectedOutput() {
  std::string out;
  for (bool table : {true, false}) {
    for (int k : table ? kTableCalls : kLookupCalls) {
      for (int prefix = 0; prefix < 4; ++prefix) {
        for (int pad = 0; pad < 4; ++pad) out += str(expected(table, prefix, k), "\n");
      }
    }
  }
  return out;
}

// The (first) switch of `method`: its offset and opcode.
std::pair<uint32_t, Op> switchOf(const cf::ClassFile& cls, const std::string& method) {
  Layout l = layoutOf(cls, method);
  for (size_t i = 0; i < l.insns.size(); ++i) {
    if (l.insns[i].op == Op::tableswitch || l.insns[i].op == Op::lookupswitch) {
      return {l.offsets[i], l.insns[i].op};
    }
  }
  ADD_FAILURE() << "no switch in " << method;
  return {0, Op::nop};
}

TEST(HardCaseSwitches, EveryAlignmentBeforeAndAfter) {
  HARD_REQUIRE_JAVA(runtime);
  std::string text = source();
  std::string why;
  std::string dir = compileJava(jdk17(), {{"Switches.java", text}}, "--release 17 -g", &why);
  ASSERT_FALSE(dir.empty()) << why;
  ScratchDir scratch("switches");
  Probes probes;
  Policy policy;
  // Padding in front of the switch: none, 5, 6 or 11 bytes (0, 1, 2, 3 mod 4).
  policy.extra = [](inst::Routine& r, Probes& p) {
    std::string name(r.name());
    if (name.size() != 4 || (name[0] != 't' && name[0] != 'l')) return;
    int pad = name[3] - '0';
    if (pad & 1) r.atEntry(Probes::hit(p.site(r, "pad", -1, kPad5)));
    if (pad & 2) r.atEntry(Probes::hit(p.site(r, "pad", -1, kPad6)));
  };
  Comparison c =
      instrumentAndRun(jdk17(), readClasses(dir), "Switches", probes, scratch, "switches", policy);
  ASSERT_TRUE(c.ok);
  ASSERT_EQ(c.original.exitCode, 0) << c.original.err;
  EXPECT_EQ(c.original.out, expectedOutput());
  EXPECT_EQ(describeUnchanged(c.outcomes), "");

  // Every (old alignment, new alignment) pair, for both kinds of switch.
  cf::ClassFile orig = parseOk(c.originalClasses[0].bytes);
  cf::ClassFile written = parseWritten(c, "Switches.class");
  std::set<std::pair<uint32_t, uint32_t>> pairs[2];
  for (bool table : {true, false}) {
    for (int prefix = 0; prefix < 4; ++prefix) {
      for (int pad = 0; pad < 4; ++pad) {
        std::string m = methodName(table, prefix, pad);
        auto [before, op] = switchOf(orig, m);
        auto [after, op2] = switchOf(written, m);
        EXPECT_EQ(op, table ? Op::tableswitch : Op::lookupswitch) << m;
        EXPECT_EQ(op2, op) << m;
        EXPECT_EQ(before % 4, (3 + 3 * static_cast<uint32_t>(prefix)) % 4) << m;
        pairs[table].insert({before % 4, after % 4});
      }
    }
  }
  for (bool table : {true, false}) {
    EXPECT_EQ(pairs[table].size(), 16u) << (table ? "tableswitch" : "lookupswitch") << ": "
                                        << ::testing::PrintToString(pairs[table]);
  }

  EXPECT_EQ(c.instrumented.exitCode, 0) << c.instrumented.err;
  EXPECT_EQ(c.instrumented.err, "");
  EXPECT_EQ(c.instrumented.out, c.original.out);

  // Each case block ran once per call with its key, the default once per miss.
  for (bool table : {true, false}) {
    const std::vector<int>& keys = table ? kTableKeys : kLookupKeys;
    const std::vector<int>& calls = table ? kTableCalls : kLookupCalls;
    for (int prefix = 0; prefix < 4; ++prefix) {
      for (int pad = 0; pad < 4; ++pad) {
        std::string m = methodName(table, prefix, pad);
        SCOPED_TRACE(m);
        int64_t misses = static_cast<int64_t>(calls.size());
        for (size_t j = 0; j < keys.size(); ++j) {
          int64_t n = std::count(calls.begin(), calls.end(), keys[j]);
          misses -= n;
          int line = lineOf(text, str("// @case ", m, " ", j));
          EXPECT_EQ(c.instrumented.count(probes.one("block", "Switches", m, line).id), n)
              << "case " << keys[j];
        }
        int line = lineOf(text, "// @default " + m);
        EXPECT_EQ(c.instrumented.count(probes.one("block", "Switches", m, line).id), misses);
        auto n = static_cast<int64_t>(calls.size());
        EXPECT_EQ(c.instrumented.count(probes.one("entry", "Switches", m).id), n);
        EXPECT_EQ(c.instrumented.count(probes.one("return", "Switches", m).id), n);
        // The first block (up to the switch) and the join after it run on every call.
        auto blocks = probes.find("block", "Switches", m);
        ASSERT_FALSE(blocks.empty());
        EXPECT_EQ(c.instrumented.count(blocks.front()->id), n);
        EXPECT_EQ(c.instrumented.count(blocks.back()->id), n);
      }
    }
  }
  // Each padding probe is in 2 of the 4 pad variants of each of the 4 prefixes, per kind;
  // it runs once per call.
  int64_t calls = static_cast<int64_t>(kTableCalls.size() + kLookupCalls.size()) * 4 * 2;
  EXPECT_EQ(c.instrumented.count(kPad5), calls);
  EXPECT_EQ(c.instrumented.count(kPad6), calls);
}

}  // namespace
}  // namespace dragnet::test::hard

namespace dragnet::test::hard {
namespace {

// Before version 51 the JVMS lets switch padding bytes be nonzero. A hand-assembled version
// 49 class with a tableswitch and a lookupswitch whose padding is nonzero, instrumented so
// that both paddings change length; the class must still run. HotSpot's verifiers reject
// nonzero padding in every version, so such classes only load unverified: the class and the
// probe runtime go on the boot class path, which is not verified by default.
TEST(HardCaseSwitches, Version49NonzeroPadding) {
  HARD_REQUIRE_JAVA(runtime);
  ClassBuilder cb("OldSwitch", 49);
  PoolBuilder& p = cb.pool;
  const uint16_t sysOut = p.fieldref("java/lang/System", "out", "Ljava/io/PrintStream;");
  const uint16_t printI = p.methodref("java/io/PrintStream", "println", "(I)V");
  const uint16_t sw = p.methodref("OldSwitch", "sw", "(I)I");

  Asm a;
  int c0 = a.newLabel(), c1 = a.newLabel(), c2 = a.newLabel(), d = a.newLabel();
  int l1 = a.newLabel(), l2 = a.newLabel(), e = a.newLabel();
  a.op(Op::iload_0);
  uint32_t table = a.pc();  // 1: two padding bytes
  a.op(Op::tableswitch).u1(0xCA).u1(0xFE).offset4(d, table).u4(0).u4(2);
  a.offset4(c0, table).offset4(c1, table).offset4(c2, table);
  a.bind(c0).op(Op::bipush, 10).op(Op::ireturn);
  a.bind(c1).op(Op::bipush, 11).op(Op::ireturn);
  a.bind(c2).op(Op::bipush, 12).op(Op::ireturn);
  a.bind(d).op(Op::iload_0);
  while (a.pc() % 4 != 0) a.op(Op::nop);
  uint32_t lookup = a.pc();  // three padding bytes
  a.op(Op::lookupswitch).u1(0x11).u1(0x22).u1(0x33).offset4(e, lookup).u4(2);
  a.u4(-5).offset4(l1, lookup).u4(100).offset4(l2, lookup);
  a.bind(l1).op(Op::bipush, 20).op(Op::ireturn);
  a.bind(l2).op(Op::bipush, 21).op(Op::ireturn);
  a.bind(e).op(Op::iconst_m1).op(Op::ireturn);
  cb.addCodeMethod("sw", a.finish(), "(I)I", 1, 1);

  Asm m;
  for (int k : {-5, -1, 0, 1, 2, 3, 100}) {
    m.cp(Op::getstatic, sysOut).op(Op::bipush, k & 0xFF).cp(Op::invokestatic, sw);
    m.cp(Op::invokevirtual, printI);
  }
  m.op(Op::return_);
  cb.addCodeMethod("main", m.finish(), "([Ljava/lang/String;)V", 2, 1);
  Bytes bytes = cb.build();
  ASSERT_TRUE(RoundTrips(bytes));
  {
    cf::ClassFile orig = parseOk(bytes);
    const cf::CodeAttr* code = findMethod(orig, "sw")->code();
    ASSERT_EQ(code->code.switches.size(), 2u);
    EXPECT_EQ(code->code.switches[0].padding, 0xCAFEu);
    EXPECT_EQ(code->code.switches[1].padding, 0x112233u);
  }

  ScratchDir scratch("oldswitch");
  Probes probes;
  RunOptions unverified;
  unverified.bootUnverified = true;
  Policy policy;  // one more 5-byte probe at entry, so that both paddings change
  policy.extra = [](inst::Routine& r, Probes& p) {
    if (r.name() == "sw") r.atEntry(Probes::hit(p.site(r, "pad", -1, kPad5)));
  };
  Comparison c = instrumentAndRun(jdk17(), {{"OldSwitch.class", bytes}}, "OldSwitch", probes,
                                  scratch, "old", policy, {}, unverified);
  ASSERT_TRUE(c.ok);
  const std::string want = "20\n-1\n10\n11\n12\n-1\n21\n";
  ASSERT_EQ(c.original.exitCode, 0) << c.original.err;
  EXPECT_EQ(c.original.out, want);
  EXPECT_EQ(describeUnchanged(c.outcomes), "");
  cf::ClassFile written = parseWritten(c, "OldSwitch.class");
  EXPECT_TRUE(RoundTrips(c.written[0].bytes));
  // Both paddings changed length (2 -> 1 and 3 -> 1 bytes), keeping their low bytes.
  Layout l = layoutOf(written, "sw");
  std::vector<uint32_t> pads;
  for (size_t i = 0; i < l.insns.size(); ++i) {
    if (l.insns[i].op == Op::tableswitch || l.insns[i].op == Op::lookupswitch) {
      pads.push_back((4 - (l.offsets[i] + 1) % 4) % 4);
    }
  }
  EXPECT_EQ(pads, (std::vector<uint32_t>{1, 1}));
  const cf::CodeAttr* code = findMethod(written, "sw")->code();
  EXPECT_EQ(code->code.switches[0].padding & 0xFF, 0xFEu);
  EXPECT_EQ(c.instrumented.exitCode, 0) << c.instrumented.err;
  EXPECT_EQ(c.instrumented.err, "");
  EXPECT_EQ(c.instrumented.out, want);

  const RunResult& run = c.instrumented;
  std::map<uint32_t, int64_t> byOffset;
  for (const Site* s : probes.find("block", "OldSwitch", "sw"))
    byOffset[s->offset] = run.count(s->id);
  EXPECT_EQ(byOffset[0], 7);
  EXPECT_EQ(byOffset[a.labelPc(c0)], 1);
  EXPECT_EQ(byOffset[a.labelPc(c1)], 1);
  EXPECT_EQ(byOffset[a.labelPc(c2)], 1);
  EXPECT_EQ(byOffset[a.labelPc(d)], 4);  // -5, -1, 3, 100
  EXPECT_EQ(byOffset[a.labelPc(l1)], 1);
  EXPECT_EQ(byOffset[a.labelPc(l2)], 1);
  EXPECT_EQ(byOffset[a.labelPc(e)], 2);
  EXPECT_EQ(run.sum(probes.find("return", "OldSwitch", "sw")), 7);
  EXPECT_EQ(run.count(kPad5), 7);
}

}  // namespace
}  // namespace dragnet::test::hard
