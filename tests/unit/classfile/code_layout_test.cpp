// Code layout: switch padding at every alignment, 32-bit branches, jsr/ret, offsets, and
// code edited through the model (labels follow their instructions; offsets re-encode).
#include <gtest/gtest.h>

#include <climits>

#include "../support/class_builder.h"

namespace dragnet::test {
namespace {

using cf::Op;

Bytes be2(int v) { return B({(v >> 8) & 0xFF, v & 0xFF}); }
Bytes be4(int64_t v) {
  auto u = static_cast<uint32_t>(v);
  return B({static_cast<int>(u >> 24), static_cast<int>(u >> 16 & 0xFF),
            static_cast<int>(u >> 8 & 0xFF), static_cast<int>(u & 0xFF)});
}

const cf::Code& codeOf(const cf::ClassFile& c, size_t method = 0) {
  return c.methods.at(method).code()->code;
}

// `nops` nops, then iload_0 and a switch on it whose targets are the two returns after it.
// Returns the code; *switchAt is the switch's offset, *returnAt the first return's.
Bytes switchCode(bool table, int nops, Bytes padding, uint32_t* switchAt, uint32_t* returnAt) {
  Bytes code(static_cast<size_t>(nops), 0x00);
  code.push_back(0x1A);  // iload_0
  uint32_t pc = static_cast<uint32_t>(code.size());
  *switchAt = pc;
  uint32_t pad = (4 - (pc + 1) % 4) % 4;
  EXPECT_EQ(padding.size(), pad);
  code.push_back(table ? 0xAA : 0xAB);
  append(code, padding);
  uint32_t length = 1 + pad + (table ? 12 + 3 * 4 : 8 + 2 * 8);
  int32_t r0 = static_cast<int32_t>(length), r1 = r0 + 1;  // relative to pc
  append(code, be4(r1));                                      // default
  if (table) {
    append(code, be4(10));  // low
    append(code, be4(12));  // high
    append(code, be4(r0));
    append(code, be4(r1));
    append(code, be4(r0));
  } else {
    append(code, be4(2));
    append(code, be4(-3));
    append(code, be4(r0));
    append(code, be4(99));
    append(code, be4(r1));
  }
  *returnAt = pc + length;
  code.push_back(0xB1);
  code.push_back(0xB1);
  return code;
}

TEST(SwitchLayoutTest, EveryAlignmentPadsCorrectly) {
  for (bool table : {true, false}) {
    for (int nops = 0; nops < 4; ++nops) {
      SCOPED_TRACE(std::string(table ? "tableswitch" : "lookupswitch") + " after " +
                   std::to_string(nops) + " nops");
      uint32_t switchAt = 0, returnAt = 0;
      size_t pad = (4 - (static_cast<size_t>(nops) + 2) % 4) % 4;
      Bytes code = switchCode(table, nops, Bytes(pad, 0), &switchAt, &returnAt);
      ClassBuilder b;
      b.addCodeMethod("m", code, "(I)V", 1, 1);
      Bytes bytes = b.build();
      cf::ClassFile c = parseOk(bytes);
      const cf::Code& k = codeOf(c);
      size_t si = static_cast<size_t>(nops) + 1;
      ASSERT_EQ(k.insns.size(), si + 3);
      ASSERT_EQ(k.insns[si].op, table ? Op::tableswitch : Op::lookupswitch);
      const cf::Switch& sw = k.switches.at(static_cast<size_t>(k.insns[si].a));
      EXPECT_EQ(sw.padding, 0u);
      EXPECT_EQ(k.position(sw.defaultTarget), si + 2);
      if (table) {
        EXPECT_EQ(sw.low, 10);
        EXPECT_TRUE(sw.keys.empty());
        ASSERT_EQ(sw.targets.size(), 3u);
        EXPECT_EQ(k.position(sw.targets[0]), si + 1);
        EXPECT_EQ(k.position(sw.targets[1]), si + 2);
        EXPECT_EQ(k.position(sw.targets[2]), si + 1);
      } else {
        EXPECT_EQ(sw.keys, (std::vector<int32_t>{-3, 99}));
        ASSERT_EQ(sw.targets.size(), 2u);
        EXPECT_EQ(k.position(sw.targets[0]), si + 1);
        EXPECT_EQ(k.position(sw.targets[1]), si + 2);
      }
      auto offsets = cf::computeOffsets(k);
      EXPECT_EQ(offsets[si], switchAt);
      EXPECT_EQ(offsets[si + 1], returnAt);
      EXPECT_EQ(cf::encodedLength(k, k.insns[si], switchAt), returnAt - switchAt);
      EXPECT_EQ((offsets[si] + 1 + pad) % 4, 0u);
      EXPECT_TRUE(RoundTrips(bytes));
    }
  }
}

TEST(SwitchLayoutTest, NonzeroPaddingIsPreservedInVersion50) {
  // n nops put the switch at offset n+1: 3 nops need 3 padding bytes, 0 need 2, 1 needs 1.
  const int nops[] = {3, 0, 1};
  const Bytes paddings[] = {B({0xAA, 0xBB, 0xCC}), B({0x01, 0x02}), B({0xFF})};
  const uint32_t expected[] = {0xAABBCC, 0x0102, 0xFF};
  for (int i = 0; i < 3; ++i) {
    for (bool table : {true, false}) {
      SCOPED_TRACE(i);
      uint32_t switchAt = 0, returnAt = 0;
      Bytes code = switchCode(table, nops[i], paddings[i], &switchAt, &returnAt);
      ClassBuilder b("T", 50);
      b.addCodeMethod("m", code, "(I)V", 1, 1);
      Bytes bytes = b.build();
      cf::ClassFile c = parseOk(bytes);
      const cf::Code& k = codeOf(c);
      EXPECT_EQ(k.switches.at(0).padding, expected[i]);
      EXPECT_TRUE(RoundTrips(bytes));
    }
  }
}

TEST(SwitchLayoutTest, ExtremeKeys) {
  struct Case {
    int32_t low, high;
  };
  for (Case k : {Case{INT_MIN, INT_MIN + 1}, Case{-1, 0}, Case{INT_MAX - 2, INT_MAX - 1}}) {
    SCOPED_TRACE(k.low);
    Bytes code = {0x1A, 0xAA, 0, 0};  // the switch at 1: 2 padding bytes; 23 bytes long
    append(code, be4(23));  // default: the return after the switch
    append(code, be4(k.low));
    append(code, be4(k.high));
    append(code, be4(23));
    append(code, be4(23));
    code.push_back(0xB1);
    ClassBuilder b;
    b.addCodeMethod("m", code, "(I)V", 1, 1);
    Bytes bytes = b.build();
    cf::ClassFile c = parseOk(bytes);
    EXPECT_EQ(codeOf(c).switches.at(0).low, k.low);
    EXPECT_EQ(codeOf(c).switches.at(0).targets.size(), 2u);
    EXPECT_TRUE(RoundTrips(bytes));
  }
  // lookupswitch with no pairs at all.
  Bytes code = {0x1A, 0xAB, 0, 0};
  append(code, be4(11));
  append(code, be4(0));
  code.push_back(0xB1);
  ClassBuilder b;
  b.addCodeMethod("m", code, "(I)V", 1, 1);
  Bytes bytes = b.build();
  cf::ClassFile c = parseOk(bytes);
  EXPECT_TRUE(codeOf(c).switches.at(0).targets.empty());
  EXPECT_TRUE(RoundTrips(bytes));
}

// Regression for a library bug found by this test: a tableswitch whose single key is
// INT_MAX (low == high == 2147483647, valid per JVMS) made the writer compute high as
// `low + size - 1` in int32, a signed overflow (UBSan aborts). Fixed in code_io.cpp by
// computing high in uint32.
TEST(SwitchLayoutTest, TableswitchWithSingleKeyIntMax) {
  Bytes code = {0x1A, 0xAA, 0, 0};  // 19 bytes long
  append(code, be4(19));
  append(code, be4(INT_MAX));
  append(code, be4(INT_MAX));
  append(code, be4(19));
  code.push_back(0xB1);
  ClassBuilder b;
  b.addCodeMethod("m", code, "(I)V", 1, 1);
  Bytes bytes = b.build();
  EXPECT_TRUE(RoundTrips(bytes));
}

TEST(BranchLayoutTest, GotoWAndJsrWSpanMoreThan32K) {
  // goto_w over 40000 nops to a return; at the end, goto_w back to the start.
  // Then jsr_w forward to a subroutine (astore_1; ret 1), in a version-49 class.
  const uint32_t gap = 40000;
  Bytes code = {0xC8};
  append(code, be4(5 + gap));  // goto_w -> offset 5 + gap
  code.insert(code.end(), gap, 0x00);
  uint32_t jsrAt = static_cast<uint32_t>(code.size());
  ASSERT_EQ(jsrAt, 5 + gap);
  code.push_back(0xC9);
  append(code, be4(6));  // jsr_w -> the astore_1 after the return
  code.push_back(0xB1);  // return at jsrAt + 5
  code.push_back(0x4C);  // astore_1 at jsrAt + 6
  append(code, B({0xA9, 0x01}));  // ret 1
  uint32_t backAt = static_cast<uint32_t>(code.size());
  code.push_back(0xC8);
  append(code, be4(-static_cast<int64_t>(backAt)));  // goto_w -> 0 (unreachable, but legal)
  ClassBuilder b("T", 49);
  b.addCodeMethod("m", code, "()V", 1, 2);
  Bytes bytes = b.build();
  cf::ClassFile c = parseOk(bytes);
  const cf::Code& k = codeOf(c);
  ASSERT_EQ(k.insns.size(), gap + 6);
  EXPECT_EQ(k.insns[0].op, Op::goto_w);
  EXPECT_EQ(k.position(k.insns[0].target()), gap + 1);
  EXPECT_EQ(k.insns[gap + 1].op, Op::jsr_w);
  EXPECT_EQ(k.position(k.insns[gap + 1].target()), gap + 3);
  EXPECT_EQ(k.insns[gap + 4].op, Op::ret);
  EXPECT_EQ(k.insns[gap + 4].a, 1);
  EXPECT_EQ(k.position(k.insns[gap + 5].target()), 0u);
  EXPECT_TRUE(RoundTrips(bytes));
}

TEST(BranchLayoutTest, JsrAndRetInVersion49) {
  // try { return; } finally { nop } compiled the old way:
  //  0: jsr 4   3: return   4: astore_1   5: nop   6: ret 1
  Bytes code = B({0xA8, 0x00, 0x04, 0xB1, 0x4C, 0x00, 0xA9, 0x01});
  ClassBuilder b("T", 49);
  b.addCodeMethod("m", code, "()V", 1, 2);
  Bytes bytes = b.build();
  cf::ClassFile c = parseOk(bytes);
  const cf::Code& k = codeOf(c);
  ASSERT_EQ(k.insns.size(), 5u);
  EXPECT_EQ(k.insns[0].op, Op::jsr);
  EXPECT_EQ(k.position(k.insns[0].target()), 2u);
  EXPECT_EQ(k.insns[4].op, Op::ret);
  EXPECT_EQ(k.insns[4].a, 1);
  EXPECT_FALSE(k.insns[4].wide);
  EXPECT_TRUE(RoundTrips(bytes));
}

// A method with backward and forward branches, both switches, a handler and line numbers.
//  0 iload_0  1 ifeq ->L_ret  4 iload_0  5 tableswitch(0..1 -> A, B; default ret)
//  A: iinc 0 -1; goto ->0   B: iload_0; lookupswitch(5 -> A; default ret)   ret: return
//  handler: athrow
Bytes editableClass() {
  ClassBuilder b;
  uint16_t lnt = b.pool.utf8("LineNumberTable");
  Bytes code;
  auto at = [&] { return static_cast<int32_t>(code.size()); };
  code.push_back(0x1A);                                        // 0 iload_0
  size_t ifeqAt = code.size();
  append(code, B({0x99, 0, 0}));                               // 1 ifeq (patched)
  code.push_back(0x1A);                                        // 4 iload_0
  int32_t ts = at();                                           // 5
  append(code, B({0xAA, 0, 0}));                               // pad to 8
  size_t tsDefault = code.size();
  append(code, be4(0));
  append(code, be4(0));
  append(code, be4(1));
  size_t tsTargets = code.size();
  append(code, be4(0));
  append(code, be4(0));
  int32_t a = at();                                            // 28
  append(code, B({0x84, 0x00, 0xFF}));                         // iinc 0 -1
  append(code, be2(-(at())));
  code.insert(code.end() - 2, 0xA7);                           // goto -> 0
  int32_t bb = at();                                           // 34
  code.push_back(0x1A);
  int32_t ls = at();                                           // 35
  code.push_back(0xAB);                                        // pad to 36 (0 bytes)
  size_t lsDefault = code.size();
  append(code, be4(0));
  append(code, be4(1));
  append(code, be4(5));
  size_t lsTarget = code.size();
  append(code, be4(a - ls));
  int32_t ret = at();
  code.push_back(0xB1);
  int32_t handler = at();
  code.push_back(0xBF);
  auto patch4 = [&](size_t p, int32_t v) {
    Bytes x = be4(v);
    std::copy(x.begin(), x.end(), code.begin() + static_cast<ptrdiff_t>(p));
  };
  code[ifeqAt + 1] = static_cast<uint8_t>((ret - 1) >> 8);
  code[ifeqAt + 2] = static_cast<uint8_t>(ret - 1);
  patch4(tsDefault, ret - ts);
  patch4(tsTargets, a - ts);
  patch4(tsTargets + 4, bb - ts);
  patch4(lsDefault, ret - ls);
  (void)lsTarget;
  Bytes lines = B({0, 3, 0, 0, 0, 10, 0, static_cast<int>(a), 0, 11, 0, static_cast<int>(ret),
                   0, 12});
  AttrSpec lineAttr;
  lineAttr.name = lnt;
  lineAttr.body = lines;
  b.addCodeMethod("m", code, "(I)V", 2, 1,
                  {{0, static_cast<uint16_t>(ret), static_cast<uint16_t>(handler), 0}},
                  {lineAttr});
  return b.build();
}

// Snapshot of where every reference in a Code points, as instruction indices.
struct Targets {
  std::vector<std::pair<size_t, uint32_t>> branches;  // insn index -> target index
  std::vector<std::vector<uint32_t>> switches;        // default first
  std::vector<uint32_t> handler;                      // start, end, handler
  std::vector<uint32_t> lines;
};
Targets targetsOf(const cf::CodeAttr& attr) {
  const cf::Code& k = attr.code;
  Targets t;
  for (size_t i = 0; i < k.insns.size(); ++i) {
    cf::Format f = cf::opInfo(k.insns[i].op).format;
    if (f == cf::Format::Branch2 || f == cf::Format::Branch4) {
      t.branches.emplace_back(i, k.position(k.insns[i].target()));
    } else if (f == cf::Format::TableSwitch || f == cf::Format::LookupSwitch) {
      const cf::Switch& sw = k.switches.at(static_cast<size_t>(k.insns[i].a));
      std::vector<uint32_t> v{k.position(sw.defaultTarget)};
      for (cf::Label l : sw.targets) v.push_back(k.position(l));
      t.switches.push_back(v);
    }
  }
  for (const cf::ExceptionHandler& h : attr.handlers) {
    t.handler = {k.position(h.start), k.position(h.end), k.position(h.handler)};
  }
  if (auto* lnt = cf::findAttr<cf::LineNumberTableAttr>(attr.attributes)) {
    for (auto& e : lnt->lines) t.lines.push_back(k.position(e.start));
  }
  return t;
}

TEST(CodeEditTest, EditableClassDecodesAsDesigned) {
  Bytes bytes = editableClass();
  cf::ClassFile c = parseOk(bytes);
  Targets t = targetsOf(*c.methods.at(0).code());
  // insns: 0 iload 1 ifeq 2 iload 3 tableswitch 4 iinc 5 goto 6 iload 7 lookupswitch
  //        8 return 9 athrow
  using P = std::pair<size_t, uint32_t>;
  EXPECT_EQ(t.branches, (std::vector<P>{{1, 8}, {5, 0}}));
  ASSERT_EQ(t.switches.size(), 2u);
  EXPECT_EQ(t.switches[0], (std::vector<uint32_t>{8, 4, 6}));
  EXPECT_EQ(t.switches[1], (std::vector<uint32_t>{8, 4}));
  EXPECT_EQ(t.handler, (std::vector<uint32_t>{0, 8, 9}));
  EXPECT_EQ(t.lines, (std::vector<uint32_t>{0, 4, 8}));
  EXPECT_TRUE(RoundTrips(bytes));
}

// Inserts `n` nops before instruction `at`; labels at or after `at` move with their
// instructions.
void insertNops(cf::Code& k, uint32_t at, uint32_t n) {
  k.insns.insert(k.insns.begin() + at, n, insn(Op::nop));
  for (uint32_t& pos : k.labels) {
    if (pos >= at) pos += n;
  }
}

TEST(CodeEditTest, NopsInsertedAtTheStartKeepEveryTarget) {
  Bytes original = editableClass();
  cf::ClassFile before = parseOk(original);
  Targets t0 = targetsOf(*before.methods.at(0).code());
  for (uint32_t n = 1; n <= 5; ++n) {
    SCOPED_TRACE(n);
    cf::ClassFile c = parseOk(original);
    cf::CodeAttr& attr = *c.methods.at(0).code();
    insertNops(attr.code, 0, n);
    Bytes edited = writeOk(c);
    cf::ClassFile again = parseOk(edited);
    const cf::CodeAttr& a2 = *again.methods.at(0).code();
    ASSERT_EQ(a2.code.insns.size(), 10 + n);
    for (uint32_t i = 0; i < n; ++i) EXPECT_EQ(a2.code.insns[i].op, Op::nop);
    Targets t = targetsOf(a2);
    ASSERT_EQ(t.branches.size(), t0.branches.size());
    for (size_t i = 0; i < t.branches.size(); ++i) {
      EXPECT_EQ(t.branches[i].first, t0.branches[i].first + n);
      EXPECT_EQ(t.branches[i].second, t0.branches[i].second + n);
      EXPECT_EQ(a2.code.insns[t.branches[i].second].op,
                before.methods[0].code()->code.insns[t0.branches[i].second].op);
    }
    ASSERT_EQ(t.switches.size(), 2u);
    for (size_t s = 0; s < 2; ++s) {
      for (size_t j = 0; j < t.switches[s].size(); ++j) {
        EXPECT_EQ(t.switches[s][j], t0.switches[s][j] + n);
      }
    }
    for (size_t j = 0; j < 3; ++j) EXPECT_EQ(t.handler[j], t0.handler[j] + n);
    for (size_t j = 0; j < 3; ++j) EXPECT_EQ(t.lines[j], t0.lines[j] + n);

    // The switch padding was recomputed for the new offsets and written as zeros.
    auto offsets = cf::computeOffsets(a2.code);
    const cf::Switch& sw = a2.code.switches.at(0);
    EXPECT_EQ(sw.padding, 0u);
    uint32_t tsAt = offsets[3 + n];
    EXPECT_EQ(a2.code.insns[3 + n].op, Op::tableswitch);
    EXPECT_EQ(offsets[4 + n] - tsAt, 1 + (4 - (tsAt + 1) % 4) % 4 + 12 + 2 * 4);
    // Writing the edited model again is stable.
    EXPECT_TRUE(RoundTrips(edited));
  }
}

TEST(CodeEditTest, NopsInsertedInTheMiddleMoveOnlyLaterTargets) {
  Bytes original = editableClass();
  cf::ClassFile c = parseOk(original);
  cf::CodeAttr& attr = *c.methods.at(0).code();
  // Before instruction 4 (iinc, the target of both switches); the goto at 5 jumps back to 0.
  insertNops(attr.code, 4, 3);
  Bytes edited = writeOk(c);
  cf::ClassFile again = parseOk(edited);
  Targets t = targetsOf(*again.methods.at(0).code());
  using P = std::pair<size_t, uint32_t>;
  EXPECT_EQ(t.branches, (std::vector<P>{{1, 11}, {8, 0}}));
  EXPECT_EQ(t.switches[0], (std::vector<uint32_t>{11, 7, 9}));
  EXPECT_EQ(t.switches[1], (std::vector<uint32_t>{11, 7}));
  EXPECT_EQ(t.handler, (std::vector<uint32_t>{0, 11, 12}));
  EXPECT_EQ(t.lines, (std::vector<uint32_t>{0, 7, 11}));
  EXPECT_EQ(again.methods[0].code()->code.insns[7].op, Op::iinc);
}

TEST(CodeEditTest, NonzeroPaddingAfterAnEdit) {
  // A version-50 switch with padding bytes 01 02 moved by one byte: the writer must still
  // emit exactly the padding the new offset needs, and the result must parse.
  uint32_t switchAt = 0, returnAt = 0;
  Bytes code = switchCode(true, 0, B({0x01, 0x02}), &switchAt, &returnAt);
  ClassBuilder b("T", 50);
  b.addCodeMethod("m", code, "(I)V", 1, 1);
  Bytes bytes = b.build();
  cf::ClassFile c = parseOk(bytes);
  insertNops(c.methods[0].code()->code, 0, 1);
  Bytes edited = writeOk(c);
  // nop, iload_0, tableswitch at 2 (1 padding byte, 26 bytes), return, return
  EXPECT_EQ(edited.size(), bytes.size() - 1 + 1);  // one padding byte less, one nop more
  cf::ClassFile again = parseOk(edited);
  const cf::Code& k = codeOf(again);
  ASSERT_EQ(k.insns.size(), 5u);
  auto offsets = cf::computeOffsets(k);
  EXPECT_EQ(offsets[2], 2u);
  EXPECT_EQ(offsets[3] - offsets[2], 1u + 1u + 12u + 12u);
  EXPECT_EQ(k.position(k.switches.at(0).targets[0]), 3u);
  EXPECT_EQ(k.position(k.switches.at(0).targets[1]), 4u);
  EXPECT_EQ(k.position(k.switches.at(0).defaultTarget), 4u);
}

TEST(CodeModelTest, BuildFromScratchWithLabels) {
  ModelBuilder m;
  cf::Member& meth = m.addMethod(0x9, "loop", "(I)I");
  cf::CodeAttr& attr = m.addCode(meth, 2, 2);
  cf::Code& k = attr.code;
  // 0 iconst_0; 1 istore_1; 2 iload_1; 3 iload_0; 4 if_icmpge ->8; 5 iinc 1 1; 6 goto ->2;
  // 7 (unreachable) nop; 8 iload_1; 9 ireturn
  cf::Label loop = k.newLabel(2), done = k.newLabel(8);
  k.insns = {insn(Op::iconst_0), insn(Op::istore_1), insn(Op::iload_1), insn(Op::iload_0),
             branch(Op::if_icmpge, done), insn(Op::iinc, 1, 1), branch(Op::goto_, loop),
             insn(Op::nop), insn(Op::iload_1), insn(Op::ireturn)};
  EXPECT_EQ(cf::computeOffsets(k),
            (std::vector<uint32_t>{0, 1, 2, 3, 4, 7, 10, 13, 14, 15, 16}));
  auto written = m.write();
  ASSERT_TRUE(written.ok()) << written.error().toString();
  Bytes bytes = written.value();
  cf::ClassFile c = parseOk(bytes);
  const cf::Code& p = codeOf(c);
  ASSERT_EQ(p.insns.size(), 10u);
  EXPECT_EQ(p.position(p.insns[4].target()), 8u);
  EXPECT_EQ(p.position(p.insns[6].target()), 2u);
  EXPECT_EQ(p.insns[5].a, 1);
  EXPECT_EQ(p.insns[5].b, 1);
  EXPECT_EQ(c.methods[0].code()->maxStack, 2);
  EXPECT_TRUE(RoundTrips(bytes));
}

TEST(CodeModelTest, ComputeOffsetsWithSwitchesAndWide) {
  cf::Code k;
  cf::Switch ts;
  ts.low = 0;
  ts.defaultTarget = k.newLabel(0);
  ts.targets = {k.newLabel(0), k.newLabel(0)};
  cf::Switch ls;
  ls.defaultTarget = k.newLabel(0);
  ls.keys = {1};
  ls.targets = {k.newLabel(0)};
  k.switches = {ts, ls};
  k.insns = {insn(Op::iload, 300, 0, true), insn(Op::tableswitch, 0), insn(Op::iinc, 1, -1000, true),
             insn(Op::lookupswitch, 1), insn(Op::goto_w, 0), insn(Op::return_)};
  // 0: wide iload (4); 4: tableswitch at 4 -> pad 3, 1+3+12+8 = 24; 28: wide iinc (6);
  // 34: lookupswitch at 34 -> pad 1, 1+1+8+8 = 18; 52: goto_w (5); 57: return
  EXPECT_EQ(cf::computeOffsets(k), (std::vector<uint32_t>{0, 4, 28, 34, 52, 57, 58}));
  EXPECT_EQ(cf::encodedLength(k, k.insns[1], 3), 1u + 0 + 12 + 8);
  EXPECT_EQ(cf::encodedLength(k, k.insns[1], 5), 1u + 2 + 12 + 8);
  EXPECT_EQ(cf::encodedLength(k, k.insns[3], 0), 1u + 3 + 8 + 8);
  EXPECT_EQ(cf::encodedLength(k, k.insns[0], 7), 4u);
  EXPECT_EQ(cf::computeOffsets(cf::Code{}), (std::vector<uint32_t>{0}));
}

}  // namespace
}  // namespace dragnet::test
