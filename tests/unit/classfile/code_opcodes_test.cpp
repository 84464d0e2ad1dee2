// Every opcode 0x00-0xC9 (and every wide form): decoded operands, branch targets resolved
// through labels, and a byte-identical write. Operand layouts come from an independent
// table transcribed from JVMS 6.5, not from the library's opcodes.cpp.
#include <gtest/gtest.h>

#include <sstream>

#include "../support/class_builder.h"

namespace dragnet::test {
namespace {

using cf::Op;

constexpr const char* kMnemonics =
    "nop aconst_null iconst_m1 iconst_0 iconst_1 iconst_2 iconst_3 iconst_4 iconst_5 lconst_0 "
    "lconst_1 fconst_0 fconst_1 fconst_2 dconst_0 dconst_1 bipush sipush ldc ldc_w ldc2_w iload "
    "lload fload dload aload iload_0 iload_1 iload_2 iload_3 lload_0 lload_1 lload_2 lload_3 "
    "fload_0 fload_1 fload_2 fload_3 dload_0 dload_1 dload_2 dload_3 aload_0 aload_1 aload_2 "
    "aload_3 iaload laload faload daload aaload baload caload saload istore lstore fstore dstore "
    "astore istore_0 istore_1 istore_2 istore_3 lstore_0 lstore_1 lstore_2 lstore_3 fstore_0 "
    "fstore_1 fstore_2 fstore_3 dstore_0 dstore_1 dstore_2 dstore_3 astore_0 astore_1 astore_2 "
    "astore_3 iastore lastore fastore dastore aastore bastore castore sastore pop pop2 dup dup_x1 "
    "dup_x2 dup2 dup2_x1 dup2_x2 swap iadd ladd fadd dadd isub lsub fsub dsub imul lmul fmul dmul "
    "idiv ldiv fdiv ddiv irem lrem frem drem ineg lneg fneg dneg ishl lshl ishr lshr iushr lushr "
    "iand land ior lor ixor lxor iinc i2l i2f i2d l2i l2f l2d f2i f2l f2d d2i d2l d2f i2b i2c i2s "
    "lcmp fcmpl fcmpg dcmpl dcmpg ifeq ifne iflt ifge ifgt ifle if_icmpeq if_icmpne if_icmplt "
    "if_icmpge if_icmpgt if_icmple if_acmpeq if_acmpne goto jsr ret tableswitch lookupswitch "
    "ireturn lreturn freturn dreturn areturn return getstatic putstatic getfield putfield "
    "invokevirtual invokespecial invokestatic invokeinterface invokedynamic new newarray "
    "anewarray arraylength athrow checkcast instanceof monitorenter monitorexit wide "
    "multianewarray ifnull ifnonnull goto_w jsr_w";

std::vector<std::string> mnemonics() {
  std::istringstream in(kMnemonics);
  std::vector<std::string> v;
  for (std::string s; in >> s;) v.push_back(s);
  return v;
}

// Operand layouts per JVMS 6.5.
enum class F { None, S1, S2, Cp1, Cp2, Local, Iinc, Br2, Br4, Table, Lookup, Iface, Indy, NewArr, Multi, Wide };
F jvmsFormat(uint8_t op) {
  if (op == 0x10) return F::S1;
  if (op == 0x11) return F::S2;
  if (op == 0x12) return F::Cp1;
  if ((op >= 0x15 && op <= 0x19) || (op >= 0x36 && op <= 0x3a) || op == 0xa9) return F::Local;
  if (op == 0x84) return F::Iinc;
  if ((op >= 0x99 && op <= 0xa8) || op == 0xc6 || op == 0xc7) return F::Br2;
  if (op == 0xc8 || op == 0xc9) return F::Br4;
  if (op == 0xaa) return F::Table;
  if (op == 0xab) return F::Lookup;
  if (op == 0x13 || op == 0x14 || (op >= 0xb2 && op <= 0xb8) || op == 0xbb || op == 0xbd ||
      op == 0xc0 || op == 0xc1) {
    return F::Cp2;
  }
  if (op == 0xb9) return F::Iface;
  if (op == 0xba) return F::Indy;
  if (op == 0xbc) return F::NewArr;
  if (op == 0xc4) return F::Wide;
  if (op == 0xc5) return F::Multi;
  return F::None;
}

int jvmsLength(F f) {
  switch (f) {
    case F::None: return 1;
    case F::S1: case F::Cp1: case F::Local: case F::NewArr: return 2;
    case F::S2: case F::Cp2: case F::Iinc: case F::Br2: return 3;
    case F::Multi: return 4;
    case F::Br4: case F::Iface: case F::Indy: return 5;
    default: return 0;
  }
}

TEST(OpcodeTableTest, NamesAndLengthsMatchJvms) {
  auto names = mnemonics();
  ASSERT_EQ(names.size(), 202u);
  for (int op = 0; op < 202; ++op) {
    SCOPED_TRACE(names[op]);
    EXPECT_EQ(cf::opInfo(static_cast<uint8_t>(op)).name, names[op]);
    F f = jvmsFormat(static_cast<uint8_t>(op));
    cf::Format lib = cf::opInfo(static_cast<uint8_t>(op)).format;
    if (f != F::Table && f != F::Lookup && f != F::Wide) {
      EXPECT_EQ(cf::fixedLength(lib, false), jvmsLength(f));
    }
    bool widenable = f == F::Local || f == F::Iinc;
    EXPECT_EQ(cf::isWidenable(static_cast<Op>(op)), widenable);
    if (f == F::Local) {
      EXPECT_EQ(cf::fixedLength(lib, true), 4);
    }
    if (f == F::Iinc) {
      EXPECT_EQ(cf::fixedLength(lib, true), 6);
    }
  }
  for (int op = 202; op < 256; ++op) {
    EXPECT_EQ(cf::opInfo(static_cast<uint8_t>(op)).format, cf::Format::Invalid) << op;
  }
}

// A version-55 class whose pool has an entry of every kind an instruction can name.
struct OpcodePool {
  ClassBuilder b{"T", 55};
  uint16_t intC, floatC, str, clsC, mtype, mh, dynI, longC, doubleC, dynJ, fref, mref, imref,
      indy, arr;
  OpcodePool() {
    intC = b.pool.integer(100000);
    floatC = b.pool.floatBits(0x3FC00000);
    str = b.pool.string("s");
    clsC = b.pool.cls("java/lang/String");
    mtype = b.pool.methodType("()V");
    mh = b.pool.methodHandle(6, b.pool.methodref("T", "bsm", "()Ljava/lang/Object;"));
    dynI = b.pool.dynamic(0, "d", "I");
    longC = b.pool.longValue(-5);
    doubleC = b.pool.doubleBits(0x4000000000000000ull);
    dynJ = b.pool.dynamic(0, "dj", "J");
    fref = b.pool.fieldref("T", "f", "I");
    mref = b.pool.methodref("T", "m", "()V");
    imref = b.pool.interfaceMethodref("I", "im", "()V");
    indy = b.pool.invokeDynamic(0, "run", "()V");
    arr = b.pool.cls("[[I");
    b.attributes.push_back(b.attr("BootstrapMethods", B({0, 1, mh >> 8, mh & 0xFF, 0, 0})));
  }
  uint16_t cp2For(uint8_t op) const {
    if (op == 0x13) return str;
    if (op == 0x14) return longC;
    if (op >= 0xb2 && op <= 0xb5) return fref;
    if (op >= 0xb6 && op <= 0xb8) return mref;
    return clsC;  // new, anewarray, checkcast, instanceof
  }
};

struct Expected {
  Bytes bytes;  // the whole instruction
  int32_t a = 0, b = 0;
  bool wide = false;
  std::vector<int32_t> targets;  // branch/switch targets as code offsets (default first)
  int32_t low = 0;
  std::vector<int32_t> keys;
};

Bytes be2(int v) { return B({(v >> 8) & 0xFF, v & 0xFF}); }
Bytes be4(int64_t v) {
  auto u = static_cast<uint32_t>(v);
  return B({static_cast<int>(u >> 24), static_cast<int>(u >> 16 & 0xFF),
            static_cast<int>(u >> 8 & 0xFF), static_cast<int>(u & 0xFF)});
}

// The instruction `op` at code offset `pc`, with its branch targets at `target`.
Expected encode(const OpcodePool& p, uint8_t op, uint32_t pc, uint32_t target) {
  Expected e;
  e.bytes = {op};
  int32_t rel = static_cast<int32_t>(target) - static_cast<int32_t>(pc);
  auto add = [&](const Bytes& b) { append(e.bytes, b); };
  switch (jvmsFormat(op)) {
    case F::None: break;
    case F::S1: add(B({0x80})); e.a = -128; break;
    case F::S2: add(be2(0x8001)); e.a = -32767; break;
    case F::Cp1: add(B({p.intC})); e.a = p.intC; break;
    case F::Cp2: add(be2(p.cp2For(op))); e.a = p.cp2For(op); break;
    case F::Local: add(B({0xFE})); e.a = 0xFE; break;
    case F::Iinc: add(B({0x07, 0xFB})); e.a = 7; e.b = -5; break;
    case F::Br2: add(be2(rel)); e.targets = {static_cast<int32_t>(target)}; break;
    case F::Br4: add(be4(rel)); e.targets = {static_cast<int32_t>(target)}; break;
    case F::Iface: add(be2(p.imref)); add(B({3, 0})); e.a = p.imref; e.b = 3; break;
    case F::Indy: add(be2(p.indy)); add(B({0, 0})); e.a = p.indy; break;
    case F::NewArr: add(B({10})); e.a = 10; break;
    case F::Multi: add(be2(p.arr)); add(B({2})); e.a = p.arr; e.b = 2; break;
    case F::Table:
    case F::Lookup: {
      uint32_t pad = (4 - (pc + 1) % 4) % 4;
      for (uint32_t i = 0; i < pad; ++i) e.bytes.push_back(0);
      add(be4(rel));  // default
      if (op == 0xaa) {
        add(be4(-1));
        add(be4(1));
        add(be4(rel));
        add(be4(rel));
        add(be4(rel));
        e.low = -1;
        e.targets.assign(4, static_cast<int32_t>(target));
      } else {
        add(be4(2));
        add(be4(-7));
        add(be4(rel));
        add(be4(1000000));
        add(be4(rel));
        e.keys = {-7, 1000000};
        e.targets.assign(3, static_cast<int32_t>(target));
      }
      break;
    }
    case F::Wide: ADD_FAILURE() << "wide is a prefix"; break;
  }
  return e;
}

// Checks insn (at index i of code) against e; offsets maps a code offset to an index.
void expectInsn(const cf::Code& code, size_t i, uint8_t op, const Expected& e,
                const std::map<int32_t, uint32_t>& indexAt) {
  const cf::Insn& in = code.insns.at(i);
  EXPECT_EQ(static_cast<int>(in.op), op);
  EXPECT_EQ(in.wide, e.wide);
  F f = jvmsFormat(op);
  auto indexOf = [&](int32_t offset) {
    auto it = indexAt.find(offset);
    return it == indexAt.end() ? ~0u : it->second;
  };
  if (f == F::Br2 || f == F::Br4) {
    ASSERT_LT(static_cast<uint32_t>(in.a), code.labels.size());
    EXPECT_EQ(code.position(in.target()), indexOf(e.targets[0]));
  } else if (f == F::Table || f == F::Lookup) {
    ASSERT_LT(static_cast<size_t>(in.a), code.switches.size());
    const cf::Switch& sw = code.switches[static_cast<size_t>(in.a)];
    EXPECT_EQ(code.position(sw.defaultTarget), indexOf(e.targets[0]));
    ASSERT_EQ(sw.targets.size(), e.targets.size() - 1);
    for (size_t k = 0; k < sw.targets.size(); ++k) {
      EXPECT_EQ(code.position(sw.targets[k]), indexOf(e.targets[k + 1]));
    }
    if (f == F::Table) {
      EXPECT_EQ(sw.low, e.low);
    } else {
      EXPECT_EQ(sw.keys, e.keys);
    }
  } else {
    EXPECT_EQ(in.a, e.a);
    EXPECT_EQ(in.b, e.b);
  }
}

// nop; <op>; return -- branches go forward to the return or back to the nop.
void checkSingle(uint8_t op, bool backward) {
  OpcodePool p;
  Expected probe = encode(p, op, 1, 0);
  uint32_t returnAt = 1 + static_cast<uint32_t>(probe.bytes.size());
  Expected e = encode(p, op, 1, backward ? 0 : returnAt);
  Bytes code = {0x00};
  append(code, e.bytes);
  code.push_back(0xB1);
  p.b.addCodeMethod("m", code);
  Layout layout;
  Bytes bytes = p.b.build(&layout);
  auto parsed = cf::parseClass(bytes);
  ASSERT_TRUE(parsed.ok()) << parsed.error().toString();
  const cf::CodeAttr* attr = parsed.value().methods.at(0).code();
  ASSERT_NE(attr, nullptr);
  ASSERT_EQ(attr->code.insns.size(), 3u);
  EXPECT_EQ(attr->code.insns[0].op, Op::nop);
  EXPECT_EQ(attr->code.insns[2].op, Op::return_);
  expectInsn(attr->code, 1, op, e, {{0, 0}, {1, 1}, {static_cast<int32_t>(returnAt), 2}});
  auto offsets = cf::computeOffsets(attr->code);
  EXPECT_EQ(offsets, (std::vector<uint32_t>{0, 1, returnAt, returnAt + 1}));
  EXPECT_TRUE(RoundTrips(bytes));
}

TEST(OpcodeRoundTripTest, EveryOpcodeAlone) {
  auto names = mnemonics();
  for (int op = 0; op <= 0xC9; ++op) {
    if (op == 0xC4) continue;  // wide: below
    SCOPED_TRACE(names[op]);
    checkSingle(static_cast<uint8_t>(op), false);
    F f = jvmsFormat(static_cast<uint8_t>(op));
    if (f == F::Br2 || f == F::Br4 || f == F::Table || f == F::Lookup) {
      SCOPED_TRACE("backward");
      checkSingle(static_cast<uint8_t>(op), true);
    }
  }
}

TEST(OpcodeRoundTripTest, EveryOpcodeInOneMethod) {
  OpcodePool p;
  Bytes code = {0x00};
  std::vector<std::pair<uint8_t, Expected>> list;
  std::map<int32_t, uint32_t> indexAt{{0, 0}};
  for (int op = 0; op <= 0xC9; ++op) {
    if (op == 0xC4) continue;
    auto pc = static_cast<uint32_t>(code.size());
    indexAt[static_cast<int32_t>(pc)] = static_cast<uint32_t>(list.size() + 1);
    Expected e = encode(p, static_cast<uint8_t>(op), pc, op % 2 ? 0 : pc);  // back, or to self
    append(code, e.bytes);
    list.emplace_back(static_cast<uint8_t>(op), std::move(e));
  }
  code.push_back(0xB1);
  p.b.addCodeMethod("m", code);
  Bytes bytes = p.b.build();
  auto parsed = cf::parseClass(bytes);
  ASSERT_TRUE(parsed.ok()) << parsed.error().toString();
  const cf::Code& c = parsed.value().methods.at(0).code()->code;
  ASSERT_EQ(c.insns.size(), list.size() + 2);
  auto names = mnemonics();
  for (size_t i = 0; i < list.size(); ++i) {
    SCOPED_TRACE(names[list[i].first]);
    expectInsn(c, i + 1, list[i].first, list[i].second, indexAt);
  }
  auto offsets = cf::computeOffsets(c);
  EXPECT_EQ(offsets.back(), code.size());
  for (auto [offset, index] : indexAt) EXPECT_EQ(offsets[index], static_cast<uint32_t>(offset));
  EXPECT_TRUE(RoundTrips(bytes));
}

TEST(OpcodeRoundTripTest, WideForms) {
  // wide iload..aload, istore..astore, ret: u2 index; a small index keeps its wide form.
  const uint8_t ops[] = {0x15, 0x16, 0x17, 0x18, 0x19, 0x36, 0x37, 0x38, 0x39, 0x3a, 0xa9};
  for (uint8_t op : ops) {
    for (int index : {0x1234, 5, 0xFFFF}) {
      SCOPED_TRACE(std::string(cf::opInfo(op).name) + " " + std::to_string(index));
      ClassBuilder b;
      Bytes code = {0xC4, op};
      append(code, be2(index));
      code.push_back(0xB1);
      b.addCodeMethod("m", code, "()V", 4, 0xFFFF);
      Bytes bytes = b.build();
      cf::ClassFile c = parseOk(bytes);
      const cf::Code& k = c.methods.at(0).code()->code;
      ASSERT_EQ(k.insns.size(), 2u);
      EXPECT_EQ(static_cast<int>(k.insns[0].op), op);
      EXPECT_TRUE(k.insns[0].wide);
      EXPECT_EQ(k.insns[0].a, index);
      EXPECT_EQ(cf::computeOffsets(k), (std::vector<uint32_t>{0, 4, 5}));
      EXPECT_TRUE(RoundTrips(bytes));
    }
  }
}

TEST(OpcodeRoundTripTest, WideIincWithNegativeIncrement) {
  for (int delta : {-300, -32768, 32767, -1}) {
    SCOPED_TRACE(delta);
    ClassBuilder b;
    Bytes code = {0xC4, 0x84, 0x01, 0x02};
    append(code, be2(delta));
    code.push_back(0xB1);
    b.addCodeMethod("m", code, "()V", 4, 300);
    Bytes bytes = b.build();
    cf::ClassFile c = parseOk(bytes);
    const cf::Insn& in = c.methods.at(0).code()->code.insns.at(0);
    EXPECT_EQ(in.op, Op::iinc);
    EXPECT_TRUE(in.wide);
    EXPECT_EQ(in.a, 0x0102);
    EXPECT_EQ(in.b, delta);
    EXPECT_TRUE(RoundTrips(bytes));
  }
}

TEST(OpcodeRoundTripTest, LdcAcceptsEveryLoadableKind) {
  OpcodePool p;
  Bytes code;
  for (uint16_t i : {p.intC, p.floatC, p.str, p.clsC, p.mtype, p.mh, p.dynI}) {
    append(code, B({0x12, i}));           // ldc
    append(code, B({0x13, 0, i}));        // ldc_w
  }
  for (uint16_t i : {p.longC, p.doubleC, p.dynJ}) append(code, B({0x14, 0, i}));  // ldc2_w
  code.push_back(0xB1);
  p.b.addCodeMethod("m", code);
  Bytes bytes = p.b.build();
  cf::ClassFile c = parseOk(bytes);
  const cf::Code& k = c.methods.at(0).code()->code;
  ASSERT_EQ(k.insns.size(), 18u);
  EXPECT_EQ(c.pool.tag(k.insns[10].cp()), cf::Tag::MethodHandle);
  EXPECT_EQ(c.pool.tag(k.insns[12].cp()), cf::Tag::Dynamic);
  EXPECT_EQ(c.pool.tag(k.insns[15].cp()), cf::Tag::Double);
  EXPECT_TRUE(RoundTrips(bytes));
}

TEST(OpcodeRoundTripTest, InvokeSpecialAndStaticAcceptInterfaceMethodref) {
  OpcodePool p;
  Bytes code = B({0xB7, 0, p.imref, 0xB8, 0, p.imref, 0xB1});
  p.b.addCodeMethod("m", code);
  Bytes bytes = p.b.build();
  cf::ClassFile c = parseOk(bytes);
  EXPECT_EQ(c.pool.memberRef(c.methods[0].code()->code.insns[1].cp()).owner, "I");
  EXPECT_TRUE(RoundTrips(bytes));
}

TEST(OpcodeRoundTripTest, UnusualReservedBytesArePreserved) {
  OpcodePool p;
  // invokeinterface with count 9 and a nonzero 4th byte; invokedynamic with nonzero zeros.
  Bytes code = B({0xB9, 0, p.imref, 9, 0x42, 0xBA, 0, p.indy, 0x12, 0x34, 0xB1});
  p.b.addCodeMethod("m", code);
  Bytes bytes = p.b.build();
  cf::ClassFile c = parseOk(bytes);
  const cf::Code& k = c.methods.at(0).code()->code;
  EXPECT_EQ(k.insns[0].b, 9 | 0x42 << 8);
  EXPECT_EQ(k.insns[1].b, 0x1234);
  EXPECT_TRUE(RoundTrips(bytes));
}

}  // namespace
}  // namespace dragnet::test
