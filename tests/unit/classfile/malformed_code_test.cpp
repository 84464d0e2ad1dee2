// Malformed Code attributes: lengths, branches, switches, opcodes, operands, handlers and
// the label-carrying attributes inside Code. Offsets must point at the culprit.
#include <gtest/gtest.h>

#include <climits>
#include <functional>

#include "../support/class_builder.h"

namespace dragnet::test {
namespace {

bool has(const cf::Error& e, const std::string& text) {
  return e.toString().find(text) != std::string::npos;
}
#define EXPECT_MENTIONS(e, text) EXPECT_TRUE(has(e, text)) << (e).toString()

Bytes be2(int v) { return B({(v >> 8) & 0xFF, v & 0xFF}); }
Bytes be4(int64_t v) {
  auto u = static_cast<uint32_t>(v);
  return B({static_cast<int>(u >> 24), static_cast<int>(u >> 16 & 0xFF),
            static_cast<int>(u >> 8 & 0xFF), static_cast<int>(u & 0xFF)});
}

// Parses a class whose method "m" has `code`; expects failure; *codeAt gets code[0]'s offset.
cf::Error codeError(const Bytes& code, size_t* codeAt, uint16_t major = 52,
                    std::function<void(ClassBuilder&)> extra = {}) {
  ClassBuilder b("T", major);
  if (extra) extra(b);
  b.addCodeMethod("m", code, "(I)V", 4, 4);
  Layout layout;
  Bytes bytes = b.build(&layout);
  *codeAt = layout.code("m");
  return parseError(bytes);
}

TEST(MalformedCodeTest, CodeLengthZero) {
  ClassBuilder b;
  b.addCodeMethod("m", {});
  Layout layout;
  cf::Error e = parseError(b.build(&layout));
  // Reported at the start of the Code attribute's contents (max_stack).
  EXPECT_EQ(e.offset, layout.attrBody("m"));
  EXPECT_MENTIONS(e, "code_length 0 is not in 1..65535");
  EXPECT_EQ(e.className, "Test");
}

TEST(MalformedCodeTest, CodeLongerThan65535) {
  // code_length 70000 with all 70000 bytes present and a consistent attribute length.
  ClassBuilder b;
  Bytes code(69999, 0x00);
  code.push_back(0xB1);
  b.addCodeMethod("m", code);
  Layout layout;
  cf::Error e = parseError(b.build(&layout));
  EXPECT_EQ(e.offset, layout.attrBody("m"));
  EXPECT_MENTIONS(e, "code_length 70000 is not in 1..65535");

  // And a code_length field of 70000 with just one byte of code behind it.
  ClassBuilder b2;
  b2.addMethod(0x9, "m", "()V", {b2.codeAttr(B({0xB1}), 1, 1, {}, {}, "m", 70000)});
  cf::Error e2 = parseError(b2.build(&layout));
  EXPECT_MENTIONS(e2, "code_length 70000");
}

TEST(MalformedCodeTest, BranchIntoTheMiddleOfAnInstruction) {
  size_t at;
  // 0 nop  1 goto +2 (-> 3, the middle of the goto)  4 return
  cf::Error e = codeError(B({0x00, 0xA7, 0x00, 0x02, 0xB1}), &at);
  EXPECT_EQ(e.offset, at + 1);
  EXPECT_MENTIONS(e, "code offset 3 is inside an instruction");
  // A backward branch into a sipush's operand.
  cf::Error e2 = codeError(B({0x11, 0x00, 0x01, 0x99, 0xFF, 0xFE, 0xB1}), &at);  // ifeq -> 1
  EXPECT_EQ(e2.offset, at + 3);
  EXPECT_MENTIONS(e2, "code offset 1 is inside an instruction");
  // A switch target inside an instruction.
  Bytes sw = {0x1A, 0xAB, 0, 0};
  append(sw, be4(19));  // default -> return
  append(sw, be4(1));
  append(sw, be4(0));
  append(sw, be4(2));  // -> offset 3: padding of the switch itself
  sw.push_back(0xB1);
  cf::Error e3 = codeError(sw, &at);
  EXPECT_EQ(e3.offset, at + 1);
  EXPECT_MENTIONS(e3, "code offset 3 is inside an instruction");
}

TEST(MalformedCodeTest, BranchOutsideTheCode) {
  size_t at;
  struct Case {
    Bytes code;
    size_t insnAt;
    const char* message;
  };
  const Case cases[] = {
      {B({0x00, 0xA7, 0x00, 0x64, 0xB1}), 1, "branch target 101 outside the code (length 5)"},
      {B({0x00, 0xA7, 0x00, 0x04, 0xB1}), 1, "branch target 5 outside the code (length 5)"},
      {B({0x00, 0xA7, 0xFF, 0xFE, 0xB1}), 1, "branch target -1 outside the code"},
      {B({0xC8, 0x80, 0x00, 0x00, 0x00, 0xB1}), 0, "outside the code (length 6)"},
      {B({0x00, 0xC6, 0x7F, 0xFF, 0xB1}), 1, "outside the code"},
  };
  for (const Case& k : cases) {
    SCOPED_TRACE(k.message);
    cf::Error e = codeError(k.code, &at);
    EXPECT_EQ(e.offset, at + k.insnAt);
    EXPECT_MENTIONS(e, k.message);
  }
}

TEST(MalformedCodeTest, TableswitchHighBelowLow) {
  size_t at;
  Bytes code = {0x1A, 0xAA, 0, 0};
  append(code, be4(15));
  append(code, be4(1));  // low
  append(code, be4(0));  // high
  code.push_back(0xB1);
  cf::Error e = codeError(code, &at);
  EXPECT_EQ(e.offset, at + 1);
  EXPECT_MENTIONS(e, "tableswitch high 0 < low 1");
}

TEST(MalformedCodeTest, LookupswitchNegativeNpairs) {
  size_t at;
  Bytes code = {0x1A, 0xAB, 0, 0};
  append(code, be4(11));
  append(code, be4(-1));
  code.push_back(0xB1);
  cf::Error e = codeError(code, &at);
  EXPECT_EQ(e.offset, at + 1);
  EXPECT_MENTIONS(e, "lookupswitch npairs -1 < 0");
  append(code, B({0, 0, 0}));
  code[8] = 0x80;  // npairs INT_MIN
  code[9] = code[10] = code[11] = 0;
  cf::Error e2 = codeError(code, &at);
  EXPECT_MENTIONS(e2, "npairs -2147483648 < 0");
}

TEST(MalformedCodeTest, HugeSwitchesFailWithoutAllocating) {
  size_t at;
  // tableswitch over the whole int range: 2^32 targets announced, none present.
  Bytes table = {0x1A, 0xAA, 0, 0};
  append(table, be4(15));
  append(table, be4(INT_MIN));
  append(table, be4(INT_MAX));
  table.push_back(0xB1);
  cf::Error e = codeError(table, &at);
  EXPECT_EQ(e.offset, at + 16);  // where the targets would start
  EXPECT_MENTIONS(e, "count 4294967296 exceeds the 1 bytes left");
  // lookupswitch with INT_MAX pairs.
  Bytes lookup = {0x1A, 0xAB, 0, 0};
  append(lookup, be4(11));
  append(lookup, be4(INT_MAX));
  lookup.push_back(0xB1);
  cf::Error e2 = codeError(lookup, &at);
  EXPECT_EQ(e2.offset, at + 12);
  EXPECT_MENTIONS(e2, "count 2147483647 exceeds");
}

TEST(MalformedCodeTest, InvalidOpcodes) {
  for (int op : {0xCA, 0xCB, 0xE0, 0xFE, 0xFF}) {
    SCOPED_TRACE(op);
    size_t at;
    cf::Error e = codeError(B({0x00, 0x00, op, 0xB1}), &at);
    EXPECT_EQ(e.offset, at + 2);
    EXPECT_MENTIONS(e, str("invalid opcode ", op, " at code offset 2"));
  }
}

TEST(MalformedCodeTest, WideBeforeANonWidenableOpcode) {
  struct Case {
    int op;
    const char* name;
  };
  for (Case k : {Case{0x00, "nop"}, Case{0xC4, "wide"}, Case{0xA7, "goto"}, Case{0x1A, "iload_0"},
                 Case{0x10, "bipush"}, Case{0xFF, "<invalid>"}}) {
    SCOPED_TRACE(k.name);
    size_t at;
    cf::Error e = codeError(B({0x00, 0xC4, k.op, 0, 0, 0, 0, 0xB1}), &at);
    EXPECT_EQ(e.offset, at + 1);
    EXPECT_MENTIONS(e, str("wide applied to ", k.name, " at code offset 1"));
  }
}

TEST(MalformedCodeTest, InstructionTruncatedByTheCodeEnd) {
  struct Case {
    Bytes code;
    size_t failAt;  // offset in code of the read that runs out
  };
  const Case cases[] = {
      {B({0x00, 0x11, 0x01}), 2},              // sipush with one operand byte
      {B({0x00, 0xC4}), 2},                    // wide with nothing after it
      {B({0x00, 0xC4, 0x15, 0x01}), 3},        // wide iload with one index byte
      {B({0xC4, 0x84, 0x00, 0x01, 0xFF}), 4},  // wide iinc missing a byte
      {B({0xB9, 0x00, 0x06, 0x01}), 4},        // invokeinterface without its zero byte
      {B({0x1A, 0xAA, 0x00}), 3},              // tableswitch cut in its padding
  };
  for (const Case& k : cases) {
    SCOPED_TRACE(hex(k.code));
    size_t at;
    cf::Error e = codeError(k.code, &at, 52, [](ClassBuilder& b) {
      b.pool.interfaceMethodref("I", "m", "()V");  // #1..#6 hold the interface method ref
    });
    EXPECT_MENTIONS(e, "truncated");
    EXPECT_EQ(e.offset, at + k.failAt);
  }
}

TEST(MalformedCodeTest, WrongPoolEntryForAnOperand) {
  struct Case {
    const char* what;
    std::function<uint16_t(PoolBuilder&)> entry;
    int op;
    const char* message;
  };
  const Case cases[] = {
      {"invokevirtual Fieldref", [](PoolBuilder& p) { return p.fieldref("A", "f", "I"); }, 0xB6,
       "expected Methodref, found Fieldref"},
      {"invokevirtual InterfaceMethodref",
       [](PoolBuilder& p) { return p.interfaceMethodref("A", "m", "()V"); }, 0xB6,
       "expected Methodref, found InterfaceMethodref"},
      {"getfield Methodref", [](PoolBuilder& p) { return p.methodref("A", "m", "()V"); }, 0xB4,
       "expected Fieldref, found Methodref"},
      {"invokeinterface Methodref", [](PoolBuilder& p) { return p.methodref("A", "m", "()V"); },
       0xB9, "expected InterfaceMethodref, found Methodref"},
      {"new Utf8", [](PoolBuilder& p) { return p.utf8("A"); }, 0xBB, "expected Class, found Utf8"},
      {"checkcast String", [](PoolBuilder& p) { return p.string("A"); }, 0xC0,
       "expected Class, found String"},
      {"ldc_w Long", [](PoolBuilder& p) { return p.longValue(1); }, 0x13, "found Long"},
      {"ldc2_w Integer", [](PoolBuilder& p) { return p.integer(1); }, 0x14,
       "expected Long or Double or Dynamic, found Integer"},
      {"ldc_w Utf8", [](PoolBuilder& p) { return p.utf8("x"); }, 0x13, "found Utf8"},
      {"invokedynamic Methodref", [](PoolBuilder& p) { return p.methodref("A", "m", "()V"); },
       0xBA, "expected InvokeDynamic, found Methodref"},
      {"anewarray index 0", [](PoolBuilder&) -> uint16_t { return 0; }, 0xBD,
       "invalid constant-pool index"},
      {"instanceof out of range", [](PoolBuilder&) -> uint16_t { return 0x7777; }, 0xC1,
       "invalid constant-pool index"},
      {"getstatic second Long slot",
       [](PoolBuilder& p) -> uint16_t { return p.longValue(3) + 1; }, 0xB2,
       "invalid constant-pool index"},
  };
  for (const Case& k : cases) {
    SCOPED_TRACE(k.what);
    // A fresh pool hands out the same indices as the class's (empty) pool will.
    PoolBuilder probe;
    uint16_t index = k.entry(probe);
    size_t at;
    Bytes code = B({0x00, k.op});  // nop; <op> operand...
    append(code, be2(index));
    if (k.op == 0xB9 || k.op == 0xBA) append(code, B({1, 0}));
    code.push_back(0xB1);
    cf::Error e = codeError(code, &at, 52, [&](ClassBuilder& b) { k.entry(b.pool); });
    EXPECT_EQ(e.offset, at + 1);
    EXPECT_EQ(e.cpIndex, index);
    EXPECT_MENTIONS(e, k.message);
    EXPECT_EQ(e.toString().rfind(str("T: offset ", at + 1, ": constant pool #", index, ": "), 0),
              0u)
        << e.toString();
  }
  // ldc (u1 index) of a Long.
  size_t at;
  uint16_t l = 0;
  auto addLong = [&](ClassBuilder& b) { l = b.pool.longValue(1); };
  cf::Error e = codeError(B({0x12, 1, 0xB1}), &at, 52, addLong);
  EXPECT_EQ(l, 1);
  EXPECT_EQ(e.cpIndex, 1);
  EXPECT_EQ(e.offset, at);
  EXPECT_MENTIONS(e, "found Long");
}

// ---- exception handlers and attributes inside Code ----------------------------------------

TEST(MalformedCodeTest, ExceptionHandlerRanges) {
  // 0 iconst_0  1 sipush 2  4 pop  5 return   (length 6)
  const Bytes code = B({0x03, 0x11, 0x00, 0x02, 0x57, 0xB1});
  struct Case {
    HandlerSpec h;
    size_t fieldAt;  // which u2 of the entry is reported (0 start, 2 end, 4 handler, 6 type)
    const char* message;
  };
  const Case cases[] = {
      {{2, 5, 5, 0}, 0, "code offset 2 is inside an instruction"},
      {{0, 3, 5, 0}, 2, "code offset 3 is inside an instruction"},
      {{0, 7, 5, 0}, 2, "code offset 7 is outside the code (length 6)"},
      {{0, 5, 6, 0}, 4, "code offset 6 is outside the code"},
      {{6, 6, 5, 0}, 0, "code offset 6 is outside the code"},
      {{4, 4, 5, 0}, 0, "exception handler range is empty or reversed"},
      {{4, 1, 5, 0}, 0, "exception handler range is empty or reversed"},
  };
  for (const Case& k : cases) {
    SCOPED_TRACE(k.message);
    ClassBuilder b;
    b.addCodeMethod("m", code, "()V", 2, 0, {k.h});
    Layout layout;
    Bytes bytes = b.build(&layout);
    cf::Error e = parseError(bytes);
    size_t entryAt = layout.code("m") + code.size() + 2;
    EXPECT_EQ(e.offset, entryAt + k.fieldAt);
    EXPECT_MENTIONS(e, k.message);
  }
  // The whole code as the range, ending at code_length, is fine.
  ClassBuilder ok;
  ok.addCodeMethod("m", code, "()V", 2, 0, {{0, 6, 5, 0}});
  EXPECT_TRUE(RoundTrips(ok.build()));
  // The catch type must be a Class.
  ClassBuilder bad;
  uint16_t s = bad.pool.string("java/lang/Exception");
  bad.addCodeMethod("m", code, "()V", 2, 0, {{0, 5, 5, s}});
  Layout layout;
  Bytes bytes = bad.build(&layout);
  cf::Error e = parseError(bytes);
  EXPECT_EQ(e.offset, layout.code("m") + code.size() + 2 + 6);
  EXPECT_EQ(e.cpIndex, s);
  EXPECT_MENTIONS(e, "expected Class, found String");
}

TEST(MalformedCodeTest, LabelAttributesMustPointAtInstructions) {
  // 0 iconst_0  1 sipush 2  4 pop  5 return   (length 6)
  const Bytes code = B({0x03, 0x11, 0x00, 0x02, 0x57, 0xB1});
  struct Case {
    const char* attr;
    Bytes body;
    size_t badAt;  // offset in the body of the bad u2
    const char* message;
  };
  const Case cases[] = {
      {"LineNumberTable", B({0, 2, 0, 0, 0, 1, 0, 2, 0, 2}), 6, "code offset 2 is inside"},
      {"LineNumberTable", B({0, 1, 0, 6, 0, 1}), 2, "code offset 6 is outside"},
      // start 4, length 3 -> end 7 > 6.
      {"LocalVariableTable", B({0, 1, 0, 4, 0, 3, 0, 1, 0, 1, 0, 0}), 4, "code offset 7 is outside"},
      {"LocalVariableTable", B({0, 1, 0, 0, 0, 2, 0, 1, 0, 1, 0, 0}), 4, "code offset 2 is inside"},
      // The second entry's name (index 0) and descriptor (index 300): reported at their u2.
      {"LocalVariableTable", B({0, 2, 0, 0, 0, 6, 0, 1, 0, 1, 0, 0, 0, 0, 0, 6, 0, 0, 0, 1, 0, 0}),
       16, "invalid constant-pool index"},
      {"LocalVariableTable", B({0, 2, 0, 0, 0, 6, 0, 1, 0, 1, 0, 0, 0, 0, 0, 6, 0, 1, 1, 44, 0, 0}),
       18, "invalid constant-pool index"},
      {"LocalVariableTypeTable", B({0, 1, 0, 4, 0, 3, 0, 1, 0, 1, 0, 0}), 4, "code offset 7 is outside"},
      // A table whose count promises more entries than the attribute holds.
      {"LineNumberTable", B({0, 3, 0, 0, 0, 1}), 2, "count 3 exceeds"},
      // same_frame at delta 2: inside sipush.
      {"StackMapTable", B({0, 1, 2}), 2, "code offset 2 is inside"},
      // full_frame with an unknown verification type 9.
      {"StackMapTable", B({0, 1, 255, 0, 1, 0, 1, 9, 0, 0}), 7, "unknown verification type tag 9"},
      // reserved frame type 128.
      {"StackMapTable", B({0, 1, 128}), 3, "reserved stack-map frame type 128"},
  };
  for (const Case& k : cases) {
    SCOPED_TRACE(str(k.attr, ": ", k.message));
    ClassBuilder b;
    b.pool.utf8("n");  // #1 (name for LocalVariableTable entries)
    AttrSpec a = b.attr(k.attr, k.body, "a");
    b.addCodeMethod("m", code, "()V", 2, 1, {}, {a});
    Layout layout;
    cf::Error e = parseError(b.build(&layout));
    EXPECT_EQ(e.offset, layout.attrBody("a") + k.badAt);
    EXPECT_MENTIONS(e, k.message);
  }
}

}  // namespace
}  // namespace dragnet::test
