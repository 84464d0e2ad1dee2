// The writer: frame types re-chosen after edits, limits it enforces, and models it must
// refuse rather than silently encode as something else.
#include <gtest/gtest.h>

#include <functional>

#include "../support/class_builder.h"

namespace dragnet::test {
namespace {

using cf::Op;

const cf::Code& codeOf(const cf::ClassFile& c, size_t method = 0) {
  return c.methods.at(method).code()->code;
}

void insertNops(cf::Code& k, uint32_t at, uint32_t n) {
  k.insns.insert(k.insns.begin() + at, n, insn(Op::nop));
  for (uint32_t& pos : k.labels) {
    if (pos >= at) pos += n;
  }
}
void eraseInsn(cf::Code& k, uint32_t at) {
  k.insns.erase(k.insns.begin() + at);
  for (uint32_t& pos : k.labels) {
    if (pos > at) --pos;
  }
}

// 0 iconst_0  1 ifeq -> 63  4..62 nops  63 return; one frame at 63 of the given type/body.
Bytes frameClass(const Bytes& frame) {
  ClassBuilder b("T", 52);
  Bytes code = B({0x03, 0x99, 0x00, 62});
  code.insert(code.end(), 59, 0x00);
  code.push_back(0xB1);
  AttrSpec smt = b.attr("StackMapTable", B({0, 1}) + frame);
  b.addCodeMethod("m", code, "()V", 2, 1, {}, {smt});
  return b.build();
}

const cf::Frame& onlyFrame(const cf::ClassFile& c) {
  auto* smt = cf::findAttr<cf::StackMapTableAttr>(c.methods.at(0).code()->attributes);
  EXPECT_NE(smt, nullptr);
  EXPECT_EQ(smt->frames.size(), 1u);
  return smt->frames.at(0);
}

TEST(WriterTest, CompactFramesBecomeExtendedWhenTheirDeltaGrows) {
  struct Case {
    Bytes frame;
    uint8_t before, after;
  };
  const Case cases[] = {
      {B({63}), 63, 251},        // same_frame -> same_frame_extended
      {B({127, 1}), 127, 247},   // same_locals_1_stack_item (Integer) -> its extended form
  };
  for (const Case& k : cases) {
    SCOPED_TRACE(int{k.before});
    Bytes bytes = frameClass(k.frame);
    ASSERT_TRUE(RoundTrips(bytes));
    cf::ClassFile c = parseOk(bytes);
    EXPECT_EQ(onlyFrame(c).type, k.before);
    insertNops(c.methods[0].code()->code, 0, 1);
    Bytes edited = writeOk(c);
    cf::ClassFile again = parseOk(edited);
    const cf::Frame& f = onlyFrame(again);
    EXPECT_EQ(f.type, k.after);
    EXPECT_EQ(codeOf(again).insns.at(codeOf(again).position(f.at)).op, Op::return_);
    EXPECT_EQ(codeOf(again).position(f.at), 62u);
    if (k.after == 247) {
      ASSERT_EQ(f.stack.size(), 1u);
      EXPECT_EQ(f.stack[0].kind, 1);
    }
    // And back: removing the nop again keeps the extended form (still valid).
    eraseInsn(again.methods[0].code()->code, 0);
    cf::ClassFile back = parseOk(writeOk(again));
    EXPECT_EQ(onlyFrame(back).type, k.after);
    EXPECT_EQ(codeOf(back).position(onlyFrame(back).at), 61u);
  }
}

TEST(WriterTest, ExtendedAndChopAppendFramesKeepTheirType) {
  // same_frame_extended at delta 63; chop 1 / append 1 frames elsewhere behave the same.
  for (Bytes frame : {B({251, 0, 63}), B({250, 0, 63}), B({252, 0, 63, 1})}) {
    SCOPED_TRACE(int{frame[0]});
    Bytes bytes = frameClass(frame);
    EXPECT_TRUE(RoundTrips(bytes));
    cf::ClassFile c = parseOk(bytes);
    insertNops(c.methods[0].code()->code, 2, 3);
    cf::ClassFile again = parseOk(writeOk(c));
    EXPECT_EQ(onlyFrame(again).type, frame[0]);
    EXPECT_EQ(codeOf(again).position(onlyFrame(again).at), 64u);
  }
}

TEST(WriterTest, WideOperandsAndLdcWWithLargeIndicesAreFine) {
  ModelBuilder m;
  for (int i = 0; i < 300; ++i) m.cls.pool.addInteger(1000 + i);
  cf::CpIndex big = m.cls.pool.addInteger(123456);
  ASSERT_GT(cf::raw(big), 255);
  cf::CodeAttr& attr = m.addCode(m.addMethod(0x9, "m", "()V"), 1, 301);
  attr.code.insns = {insn(Op::ldc_w, cf::raw(big)), insn(Op::istore, 300, 0, true),
                     insn(Op::iinc, 300, -1000, true), insn(Op::return_)};
  cf::ClassFile c = parseOk(writeOk(m.cls));
  const cf::Code& k = codeOf(c);
  EXPECT_EQ(c.pool.integer(k.insns[0].cp()), 123456);
  EXPECT_EQ(k.insns[1].a, 300);
  EXPECT_EQ(k.insns[2].b, -1000);
}

TEST(WriterTest, Utf8LongerThan65535BytesIsRefused) {
  ModelBuilder m;
  uint16_t count = m.cls.pool.count();
  EXPECT_THROW(m.cls.pool.addUtf8(std::string(65536, 'a')), cf::ParseFailure);
  EXPECT_EQ(m.cls.pool.count(), count);
  EXPECT_EQ(m.cls.pool.utf8(m.cls.pool.addUtf8(std::string(65535, 'a'))).size(), 65535u);
}

// Regression (found by these tests; fixed in 852efc8): the writer used to truncate
// operands that do not fit their encoding, emitting a class that means something else --
// e.g. `ldc` of pool index 305 was written as ldc #49 and loaded another constant. It must
// refuse the model, naming the instruction.
TEST(WriterTest, OperandsThatDoNotFitAreRefusedNotTruncated) {
  struct Case {
    const char* what;
    cf::Insn in;
    const char* name;
  };
  const Case cases[] = {
      {"ldc #305", insn(Op::ldc, 305), "ldc"},
      {"ldc #0", insn(Op::ldc, 0), "ldc"},
      {"iload 300 without wide", insn(Op::iload, 300), "iload"},
      {"iload -1", insn(Op::iload, -1), "iload"},
      {"bipush 200", insn(Op::bipush, 200), "bipush"},
      {"bipush -129", insn(Op::bipush, -129), "bipush"},
      {"sipush 40000", insn(Op::sipush, 40000), "sipush"},
      {"iinc 1 by 1000 without wide", insn(Op::iinc, 1, 1000), "iinc"},
      {"iinc 1 by 40000 with wide", insn(Op::iinc, 1, 40000, true), "iinc, wide"},
      {"newarray 300", insn(Op::newarray, 300), "newarray"},
      {"wide nop", insn(Op::nop, 0, 0, true), "nop, wide"},
      {"opcode 0xCA", insn(static_cast<Op>(0xCA)), "<invalid>"},
  };
  for (const Case& k : cases) {
    SCOPED_TRACE(k.what);
    ModelBuilder m;
    for (int i = 0; i < 310; ++i) m.cls.pool.addInteger(1000 + i);
    cf::CodeAttr& attr = m.addCode(m.addMethod(0x9, "m", "()V"), 2, 400);
    attr.code.insns = {insn(Op::nop), k.in, insn(Op::return_)};
    auto w = m.write();
    ASSERT_FALSE(w.ok()) << "written; the operand would have been truncated";
    std::string e = w.error().toString();
    EXPECT_NE(e.find(str("instruction 1 (", k.name, ")")), std::string::npos) << e;
    EXPECT_EQ(w.error().className, "Model");
  }
  // The boundary values themselves are fine.
  ModelBuilder m;
  cf::CodeAttr& attr = m.addCode(m.addMethod(0x9, "m", "()V"), 2, 400);
  attr.code.insns = {insn(Op::bipush, -128), insn(Op::bipush, 127), insn(Op::sipush, -32768),
                     insn(Op::iload, 255), insn(Op::iinc, 255, -128), insn(Op::iinc, 1, 127),
                     insn(Op::iinc, 0xFFFF, -32768, true), insn(Op::return_)};
  auto w = m.write();
  ASSERT_TRUE(w.ok()) << w.error().toString();
  cf::ClassFile c = parseOk(w.value());
  const cf::Code& k = codeOf(c);
  for (size_t i = 0; i < attr.code.insns.size(); ++i) {
    EXPECT_EQ(k.insns[i].a, attr.code.insns[i].a) << i;
    EXPECT_EQ(k.insns[i].b, attr.code.insns[i].b) << i;
  }
}

// Regression (found by these tests; fixed in 852efc8): in the 45.0-45.2 layout max_stack
// and max_locals are u1; the writer used to truncate larger values (300 -> 44).
TEST(WriterTest, OldCodeLayoutRefusesMaxStackAbove255) {
  ModelBuilder m("T", 45);
  cf::CodeAttr& attr = m.addCode(m.addMethod(0x9, "m", "()V"), 300, 260);
  attr.code.insns = {insn(Op::return_)};
  auto w = m.write();
  ASSERT_FALSE(w.ok());
  EXPECT_NE(w.error().toString().find("max_stack 300 or max_locals 260 does not fit"),
            std::string::npos)
      << w.error().toString();
  attr.maxStack = 7;
  EXPECT_FALSE(m.write().ok());  // max_locals 260 alone is still too big
  // Within the u1 range the old layout is written faithfully.
  attr.maxStack = 255;
  attr.maxLocals = 7;
  cf::ClassFile c = parseOk(writeOk(m.cls));
  EXPECT_EQ(c.methods.at(0).code()->maxStack, 255);
  EXPECT_EQ(c.methods.at(0).code()->maxLocals, 7);
  // The same values are fine in 45.3, whose Code layout has u2 fields.
  m.cls.minor = 3;
  attr.maxStack = 300;
  attr.maxLocals = 260;
  cf::ClassFile c3 = parseOk(writeOk(m.cls));
  EXPECT_EQ(c3.methods.at(0).code()->maxStack, 300);
  EXPECT_EQ(c3.methods.at(0).code()->maxLocals, 260);
}

TEST(WriterTest, WriterRejectsUnreachableBranchesAndOversizedCode) {
  {
    ModelBuilder m;
    cf::CodeAttr& attr = m.addCode(m.addMethod(0x9, "m", "()V"));
    cf::Label end = attr.code.newLabel(40001);
    attr.code.insns.push_back(branch(Op::goto_, end));
    attr.code.insns.insert(attr.code.insns.end(), 40000, insn(Op::nop));
    attr.code.insns.push_back(insn(Op::return_));
    auto r = m.write();
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.error().toString().find("16-bit branch"), std::string::npos)
        << r.error().toString();
    EXPECT_EQ(r.error().className, "Model");
    // The same jump as goto_w is fine.
    attr.code.insns[0].op = Op::goto_w;
    auto ok = m.write();
    ASSERT_TRUE(ok.ok()) << ok.error().toString();
    cf::ClassFile c = parseOk(ok.value());
    EXPECT_EQ(codeOf(c).position(codeOf(c).insns[0].target()), 40001u);
  }
  {
    ModelBuilder m;
    cf::CodeAttr& attr = m.addCode(m.addMethod(0x9, "m", "()V"));
    attr.code.insns.assign(65536, insn(Op::nop));
    auto r = m.write();
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.error().toString().find("65536"), std::string::npos) << r.error().toString();
    attr.code.insns.pop_back();
    EXPECT_TRUE(m.write().ok());
  }
  {
    ModelBuilder m;
    m.addCode(m.addMethod(0x9, "m", "()V"));  // no instructions
    EXPECT_FALSE(m.write().ok());
  }
}

TEST(WriterTest, WriterRejectsInconsistentModels) {
  auto writeError = [](const std::function<void(cf::Code&)>& edit) {
    ModelBuilder m;
    cf::CodeAttr& attr = m.addCode(m.addMethod(0x9, "m", "(I)V"));
    attr.code.insns = {insn(Op::iload_0), insn(Op::return_)};
    edit(attr.code);
    auto r = m.write();
    return r.ok() ? std::string("<ok>") : r.error().toString();
  };
  // A branch to a label id that was never created.
  std::string e1 = writeError(
      [](cf::Code& k) { k.insns.insert(k.insns.begin(), branch(Op::goto_, cf::Label{7})); });
  EXPECT_NE(e1.find("label 7 is not bound"), std::string::npos) << e1;
  // A label bound past the end of the code.
  std::string e2 = writeError([](cf::Code& k) {
    k.insns.insert(k.insns.begin(), branch(Op::goto_, k.newLabel(10)));
  });
  EXPECT_NE(e2.find("not bound to an instruction"), std::string::npos) << e2;
  // A switch instruction without its table, an empty tableswitch, mismatched lookupswitch.
  std::string e3 = writeError(
      [](cf::Code& k) { k.insns.insert(k.insns.begin() + 1, insn(Op::tableswitch, 3)); });
  EXPECT_NE(e3.find("missing switch table 3"), std::string::npos) << e3;
  std::string e4 = writeError([](cf::Code& k) {
    cf::Switch sw;
    sw.defaultTarget = k.newLabel(2);
    k.switches.push_back(sw);
    k.insns.insert(k.insns.begin() + 1, insn(Op::tableswitch, 0));
  });
  EXPECT_NE(e4.find("tableswitch with inconsistent targets"), std::string::npos) << e4;
  std::string e5 = writeError([](cf::Code& k) {
    cf::Switch sw;
    sw.defaultTarget = k.newLabel(2);
    sw.keys = {1, 2};
    sw.targets = {k.newLabel(2)};
    k.switches.push_back(sw);
    k.insns.insert(k.insns.begin() + 1, insn(Op::lookupswitch, 0));
  });
  EXPECT_NE(e5.find("lookupswitch with inconsistent targets"), std::string::npos) << e5;
  // The unedited model writes fine.
  EXPECT_EQ(writeError([](cf::Code&) {}), "<ok>");
}

}  // namespace
}  // namespace dragnet::test
