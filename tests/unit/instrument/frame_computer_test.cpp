// Frame computation (src/instrument/frame_computer.h) for small methods built through the
// class-file library, compared with the frames expected by hand.
#include "instrument/frame_computer.h"

#include <gtest/gtest.h>

#include <string>

namespace dragnet::instrument {
namespace {

namespace cf = classfile;
using cf::Label;
using cf::Op;
using cf::VType;

class FramesTest : public ::testing::Test {
 protected:
  FramesTest() : hierarchy([](std::string_view) { return std::nullopt; }) {
    cls.major = 52;
    cls.access = 0x21;
    cls.thisClass = cls.pool.addClass("p/C");
    cls.superClass = cls.pool.addClass("java/lang/Object");
    for (auto [name, super] : {std::pair{"java/lang/String", "java/lang/Object"},
                               {"java/lang/Number", "java/lang/Object"},
                               {"java/lang/Integer", "java/lang/Number"},
                               {"java/lang/Long", "java/lang/Number"},
                               {"java/lang/Throwable", "java/lang/Object"},
                               {"java/lang/Exception", "java/lang/Throwable"},
                               {"java/lang/RuntimeException", "java/lang/Exception"},
                               {"java/io/IOException", "java/lang/Exception"},
                               {"p/C", "java/lang/Object"}}) {
      hierarchy.define(name, super, false);
    }
    hierarchy.define("java/lang/Comparable", "java/lang/Object", true);
  }

  // Starts a method; instructions go to its code until the next method().
  void method(uint16_t access, std::string_view name, std::string_view desc,
              uint16_t maxLocals = 4) {
    cf::Member m;
    m.access = access;
    m.name = cls.pool.addUtf8(name);
    m.descriptor = cls.pool.addUtf8(desc);
    cf::CodeAttr c;
    c.maxLocals = maxLocals;
    m.attributes.push_back({cls.pool.addUtf8("Code"), std::move(c)});
    cls.methods.push_back(std::move(m));
  }
  cf::CodeAttr& attr() { return *cls.methods.back().code(); }
  cf::Code& code() { return attr().code; }
  Label label() { return code().newLabel(0xFFFFFFFF); }  // bound later
  void bind(Label l) { code().labels[static_cast<uint32_t>(l)] = code().insns.size(); }
  Label here() { return code().newLabel(static_cast<uint32_t>(code().insns.size())); }
  void emit(Op op, int32_t a = 0, int32_t b = 0) { code().insns.push_back({op, false, a, b}); }
  void jump(Op op, Label l) { emit(op, static_cast<int32_t>(l)); }
  int klass(std::string_view n) { return cf::raw(cls.pool.addClass(n)); }
  int string(std::string_view s) { return cf::raw(cls.pool.addString(s)); }
  int staticMethod(std::string_view owner, std::string_view name, std::string_view desc) {
    return cf::raw(cls.pool.addMethodref(owner, name, desc));
  }
  void handler(Label start, Label end, Label target, std::string_view type) {
    cf::CpIndex t = type.empty() ? cf::CpIndex::None : cls.pool.addClass(type);
    attr().handlers.push_back({start, end, target, t});
  }

  FrameComputation compute() {
    FrameComputation r = computeFrames(cls, cls.methods.back(), hierarchy);
    for (const std::string& e : r.errors) ADD_FAILURE() << e;
    return r;
  }

  std::string show(const VType& t) {
    static const char* kNames[] = {"T", "I", "F", "D", "J", "N", "UT"};
    if (t.kind == vtype::kObject) return std::string(cls.pool.className(t.cls));
    if (t.kind == vtype::kUninitialized) {
      return std::string("U@").append(std::to_string(code().position(t.newInsn)));
    }
    return kNames[t.kind];
  }
  std::string show(const std::vector<VType>& list) {
    std::string out;
    for (const VType& t : list) {
      if (!out.empty()) out += ' ';
      out += show(t);
    }
    return out;
  }
  // "at:type L[locals as written] S[stack]; ..." with `at` as an instruction index.
  std::string frames() {
    const auto* table = cf::findAttr<cf::StackMapTableAttr>(attr().attributes);
    if (!table) return "";
    std::string out;
    for (const cf::Frame& f : table->frames) {
      if (!out.empty()) out += "; ";
      out.append(std::to_string(code().position(f.at))).append(":");
      // Same frames as 0 and same_locals_1_stack_item as 64, whatever the delta encoding.
      int type = f.type < 64 || f.type == 251 ? 0 : f.type < 128 || f.type == 247 ? 64 : f.type;
      out.append(std::to_string(type)).append(" L[").append(show(f.locals));
      out.append("] S[").append(show(f.stack)).append("]");
    }
    return out;
  }

  cf::ClassFile cls;
  ClassHierarchy hierarchy;
};

TEST_F(FramesTest, DiamondMergesStringAndIntegerToObject) {
  method(0x0008, "m", "(Z)Ljava/lang/Object;");
  Label other = label(), join = label();
  emit(Op::iload_0);
  jump(Op::ifeq, other);
  emit(Op::ldc, string("s"));
  jump(Op::goto_, join);
  bind(other);
  emit(Op::iconst_1);
  emit(Op::invokestatic, staticMethod("java/lang/Integer", "valueOf", "(I)Ljava/lang/Integer;"));
  bind(join);
  emit(Op::areturn);
  FrameComputation r = compute();
  EXPECT_EQ(frames(), "4:0 L[] S[]; 6:64 L[] S[java/lang/Object]");
  EXPECT_EQ(r.maxStack, 1);
  EXPECT_EQ(attr().maxStack, 1);
  EXPECT_FALSE(r.approximate);
}

TEST_F(FramesTest, LocalsMergeToCommonSuperclassOrTop) {
  method(0x0008, "m", "(Z)V", 4);
  Label other = label(), join = label();
  emit(Op::iload_0);
  jump(Op::ifeq, other);
  emit(Op::iconst_1);
  emit(Op::invokestatic, staticMethod("java/lang/Integer", "valueOf", "(I)Ljava/lang/Integer;"));
  emit(Op::astore_1);
  emit(Op::iconst_1);
  emit(Op::istore_2);
  emit(Op::lconst_0);
  emit(Op::lstore_3);  // slots 3-4: max_locals grows to 5
  jump(Op::goto_, join);
  bind(other);
  emit(Op::lconst_1);
  emit(Op::invokestatic, staticMethod("java/lang/Long", "valueOf", "(J)Ljava/lang/Long;"));
  emit(Op::astore_1);
  emit(Op::aconst_null);
  emit(Op::astore_2);
  emit(Op::lconst_0);
  emit(Op::lstore_3);
  bind(join);
  emit(Op::return_);
  FrameComputation r = compute();
  EXPECT_EQ(frames(), "10:0 L[] S[]; 17:254 L[java/lang/Number T J] S[]");
  EXPECT_EQ(r.maxLocals, 5);
  EXPECT_EQ(attr().maxLocals, 5);
}

TEST_F(FramesTest, InterfacesAndArraysMerge) {
  method(0x0008, "m", "(ZLjava/lang/Comparable;[Ljava/lang/String;[Ljava/lang/Integer;[I)V", 6);
  Label other = label(), join = label();
  emit(Op::iload_0);
  jump(Op::ifeq, other);
  emit(Op::aload_1);
  emit(Op::aload_2);
  emit(Op::aload, 4);
  jump(Op::goto_, join);
  bind(other);
  emit(Op::ldc, string("s"));  // String + Comparable -> Object
  emit(Op::aload_3);           // [String + [Integer -> [Object
  emit(Op::aload_2);           // [I + [String -> Object
  bind(join);
  emit(Op::pop);
  emit(Op::pop);
  emit(Op::pop);
  emit(Op::return_);
  compute();
  EXPECT_EQ(frames(),
            "6:0 L[] S[]; 9:255 L[I java/lang/Comparable [Ljava/lang/String; "
            "[Ljava/lang/Integer; [I] S[java/lang/Object [Ljava/lang/Object; java/lang/Object]");
}

TEST_F(FramesTest, LoopGetsAppendThenSame) {
  method(0x0008, "sum", "(I)I", 3);
  Label head = label(), end = label();
  emit(Op::iconst_0);
  emit(Op::istore_1);
  emit(Op::iconst_0);
  emit(Op::istore_2);
  bind(head);
  emit(Op::iload_2);
  emit(Op::iload_0);
  jump(Op::if_icmpge, end);
  emit(Op::iload_1);
  emit(Op::iload_2);
  emit(Op::iadd);
  emit(Op::istore_1);
  emit(Op::iinc, 2, 1);
  jump(Op::goto_, head);
  bind(end);
  emit(Op::iload_1);
  emit(Op::ireturn);
  FrameComputation r = compute();
  EXPECT_EQ(frames(), "4:253 L[I I] S[]; 13:0 L[] S[]");
  EXPECT_EQ(r.maxStack, 2);
}

TEST_F(FramesTest, LoopWidensATypeUntilFixpoint) {
  // x = "s"; while (c) x = Integer.valueOf(1); return x;  -> the loop head holds Object.
  method(0x0008, "m", "(Z)Ljava/lang/Object;", 2);
  Label head = label(), end = label();
  emit(Op::ldc, string("s"));
  emit(Op::astore_1);
  bind(head);
  emit(Op::iload_0);
  jump(Op::ifeq, end);
  emit(Op::iconst_1);
  emit(Op::invokestatic, staticMethod("java/lang/Integer", "valueOf", "(I)Ljava/lang/Integer;"));
  emit(Op::astore_1);
  jump(Op::goto_, head);
  bind(end);
  emit(Op::aload_1);
  emit(Op::areturn);
  compute();
  EXPECT_EQ(frames(), "2:252 L[java/lang/Object] S[]; 8:0 L[] S[]");
}

TEST_F(FramesTest, TryCatchWithTwoHandlerTypes) {
  method(0x0008, "m", "()Ljava/lang/Object;", 1);
  Label start = here();
  emit(Op::invokestatic, staticMethod("p/C", "f", "()V"));
  Label end = here();
  emit(Op::aconst_null);
  emit(Op::areturn);
  Label h1 = here(), join = label();
  emit(Op::astore_0);
  jump(Op::goto_, join);
  Label h2 = here();
  emit(Op::astore_0);
  jump(Op::goto_, join);
  bind(join);
  emit(Op::aload_0);
  emit(Op::areturn);
  handler(start, end, h1, "java/io/IOException");
  handler(start, end, h2, "java/lang/RuntimeException");
  compute();
  EXPECT_EQ(frames(),
            "3:64 L[] S[java/io/IOException]; 5:64 L[] S[java/lang/RuntimeException]; "
            "7:252 L[java/lang/Exception] S[]");
}

TEST_F(FramesTest, HandlerEntryCountsTowardsMaxStack) {
  // try { f(); } catch (Exception e) {}: no instruction leaves anything on the stack, but
  // the handler's frame holds the exception.
  method(0x0008, "m", "()V", 1);
  Label start = here();
  emit(Op::invokestatic, staticMethod("p/C", "f", "()V"));
  Label end = here();
  emit(Op::return_);
  Label h = here();
  emit(Op::astore_0);
  emit(Op::return_);
  handler(start, end, h, "java/lang/Exception");
  FrameComputation r = compute();
  EXPECT_EQ(frames(), "2:64 L[] S[java/lang/Exception]");
  EXPECT_EQ(r.maxStack, 1);
  EXPECT_EQ(attr().maxStack, 1);
}

TEST_F(FramesTest, HandlerSeesLocalsBeforeStoresAndAfterOtherInstructions) {
  // Slot 0 is a String before the try and an int inside it: the catch-all handler sees
  // both (String before the istore, int after the iinc), so the slot is Top there.
  method(0x0008, "m", "()V", 1);
  emit(Op::ldc, string("s"));
  emit(Op::astore_0);
  Label start = here();
  emit(Op::iconst_0);
  emit(Op::istore_0);
  emit(Op::iinc, 0, 1);
  Label end = here();
  emit(Op::return_);
  Label h = here();
  emit(Op::athrow);
  handler(start, end, h, "");
  compute();
  EXPECT_EQ(frames(), "6:64 L[] S[java/lang/Throwable]");
}

TEST_F(FramesTest, ConstructorWithAConditionalBeforeSuper) {
  method(0, "<init>", "(Z)V", 2);
  Label other = label(), join = label();
  emit(Op::aload_0);
  emit(Op::iload_1);
  jump(Op::ifeq, other);
  emit(Op::ldc, string("a"));
  jump(Op::goto_, join);
  bind(other);
  emit(Op::iconst_1);
  emit(Op::invokestatic, staticMethod("java/lang/Integer", "valueOf", "(I)Ljava/lang/Integer;"));
  bind(join);
  emit(Op::pop);
  emit(Op::invokespecial, staticMethod("java/lang/Object", "<init>", "()V"));
  Label after = label();
  emit(Op::iload_1);
  jump(Op::ifeq, after);
  emit(Op::nop);
  bind(after);
  emit(Op::return_);
  compute();
  EXPECT_EQ(frames(),
            "5:64 L[] S[UT]; 7:255 L[UT I] S[UT java/lang/Object]; "
            "12:255 L[p/C I] S[]");
}

TEST_F(FramesTest, UninitializedAcrossABranch) {
  // new StringBuilder(c ? 1 : 2): the `new` result stays uninitialized across the join.
  method(0x0008, "m", "(Z)Ljava/lang/Object;", 1);
  Label other = label(), join = label();
  emit(Op::new_, klass("java/lang/StringBuilder"));
  emit(Op::dup);
  emit(Op::iload_0);
  jump(Op::ifeq, other);
  emit(Op::iconst_1);
  jump(Op::goto_, join);
  bind(other);
  emit(Op::iconst_2);
  bind(join);
  emit(Op::invokespecial, staticMethod("java/lang/StringBuilder", "<init>", "(I)V"));
  emit(Op::areturn);
  FrameComputation r = compute();
  EXPECT_EQ(frames(), "6:255 L[I] S[U@0 U@0]; 7:255 L[I] S[U@0 U@0 I]");
  EXPECT_EQ(r.maxStack, 3);
  ASSERT_TRUE(writeClass(cls).ok());
}

TEST_F(FramesTest, SwitchTargetsGetFrames) {
  method(0x0008, "m", "(I)I", 1);
  Label a = label(), b = label(), dflt = label();
  emit(Op::iload_0);
  cf::Switch sw;
  sw.low = 0;
  sw.defaultTarget = dflt;
  sw.targets = {a, b, a};
  code().switches.push_back(sw);
  emit(Op::tableswitch, 0);
  bind(a);
  emit(Op::iconst_1);
  emit(Op::ireturn);
  bind(b);
  emit(Op::iconst_2);
  emit(Op::ireturn);
  bind(dflt);
  emit(Op::iconst_0);
  emit(Op::ireturn);
  compute();
  EXPECT_EQ(frames(), "2:0 L[] S[]; 4:0 L[] S[]; 6:0 L[] S[]");
}

TEST_F(FramesTest, DeadCodeBecomesNopAthrowAndLeavesHandlerRanges) {
  method(0x0008, "m", "()V", 0);
  Label start = here(), live = label();
  jump(Op::goto_, live);
  emit(Op::iconst_1);  // unreachable
  emit(Op::iadd);      // unreachable (and would underflow)
  bind(live);
  Label end = here();
  emit(Op::return_);
  Label h = here();
  emit(Op::athrow);
  handler(start, end, h, "");
  FrameComputation r = compute();
  EXPECT_EQ(r.deadInstructions, 2u);
  EXPECT_EQ(frames(),
            "1:64 L[] S[java/lang/Throwable]; 3:0 L[] S[]; 4:64 L[] S[java/lang/Throwable]");
  EXPECT_EQ(code().insns[1].op, Op::nop);
  EXPECT_EQ(code().insns[2].op, Op::athrow);
  ASSERT_EQ(attr().handlers.size(), 1u);
  EXPECT_EQ(code().position(attr().handlers[0].start), 0u);
  EXPECT_EQ(code().position(attr().handlers[0].end), 1u);
  EXPECT_EQ(r.maxStack, 1);
  auto bytes = writeClass(cls);
  ASSERT_TRUE(bytes.ok()) << bytes.error().toString();
}

TEST_F(FramesTest, HandlerCoveringOnlyDeadCodeIsRemoved) {
  method(0x0008, "m", "()V", 0);
  emit(Op::return_);
  Label start = here();
  emit(Op::nop);
  Label end = here();
  emit(Op::return_);
  Label h = here();
  emit(Op::athrow);
  handler(start, end, h, "java/io/IOException");
  FrameComputation r = compute();
  EXPECT_EQ(r.deadInstructions, 3u);
  EXPECT_TRUE(attr().handlers.empty());
  EXPECT_EQ(frames(), "1:64 L[] S[java/lang/Throwable]");
  EXPECT_EQ(code().insns[3].op, Op::athrow);
}

TEST_F(FramesTest, ReplacesAnExistingTableAndRemovesAnUnneededOne) {
  method(0x0008, "m", "()V", 0);
  emit(Op::return_);
  cf::StackMapTableAttr stale;
  stale.frames.push_back({0, here(), {}, {}});
  attr().attributes.push_back({cls.pool.addUtf8("StackMapTable"), stale});
  compute();
  EXPECT_EQ(cf::findAttr<cf::StackMapTableAttr>(attr().attributes), nullptr);
  EXPECT_TRUE(attr().attributes.empty());
}

TEST_F(FramesTest, ComputedFramesSurviveAWriteAndReparse) {
  method(0x0008, "sum", "(I)I", 3);
  Label head = label(), end = label();
  emit(Op::iconst_0);
  emit(Op::istore_1);
  bind(head);
  emit(Op::iload_0);
  jump(Op::ifle, end);
  emit(Op::iinc, 0, -1);
  emit(Op::iinc, 1, 2);
  jump(Op::goto_, head);
  bind(end);
  emit(Op::iload_1);
  emit(Op::ireturn);
  compute();
  std::string expected = frames();
  auto bytes = writeClass(cls);
  ASSERT_TRUE(bytes.ok()) << bytes.error().toString();
  auto back = cf::parseClass(bytes.value());
  ASSERT_TRUE(back.ok()) << back.error().toString();
  cls = std::move(back.value());
  EXPECT_EQ(frames(), expected);
  // Recomputing from the parsed model gives the same frames again.
  compute();
  EXPECT_EQ(frames(), expected);
}

TEST_F(FramesTest, ErrorsLeaveTheMethodAlone) {
  method(0x0008, "m", "(I)V", 1);
  Label join = label();
  emit(Op::iload_0);
  jump(Op::ifeq, join);
  emit(Op::iconst_1);  // stack height 1 on one path, 0 on the other
  bind(join);
  emit(Op::return_);
  FrameComputation r = computeFrames(cls, cls.methods.back(), hierarchy);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.errors[0].find("height"), std::string::npos) << r.errors[0];
  EXPECT_EQ(cf::findAttr<cf::StackMapTableAttr>(attr().attributes), nullptr);

  method(0x0008, "n", "()V", 1);
  emit(Op::nop);
  r = computeFrames(cls, cls.methods.back(), hierarchy);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.errors[0].find("falls off"), std::string::npos) << r.errors[0];

  method(0x0008, "j", "()V", 1);
  Label sub = label();
  jump(Op::jsr, sub);
  emit(Op::return_);
  bind(sub);
  emit(Op::astore_0);
  emit(Op::ret, 0);
  r = computeFrames(cls, cls.methods.back(), hierarchy);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.errors[0].find("jsr"), std::string::npos) << r.errors[0];

  cls.major = 49;
  r = computeFrames(cls, cls.methods.back(), hierarchy);
  ASSERT_FALSE(r.ok());
}

TEST_F(FramesTest, UnknownClassesMakeTheResultApproximate) {
  method(0x0008, "m", "(Z)Ljava/lang/Object;", 1);
  Label other = label(), join = label();
  emit(Op::iload_0);
  jump(Op::ifeq, other);
  emit(Op::aconst_null);
  emit(Op::checkcast, klass("q/Unknown1"));
  jump(Op::goto_, join);
  bind(other);
  emit(Op::aconst_null);
  emit(Op::checkcast, klass("q/Unknown2"));
  bind(join);
  emit(Op::areturn);
  FrameComputation r = compute();
  EXPECT_TRUE(r.approximate);
  EXPECT_EQ(frames(), "5:0 L[] S[]; 7:64 L[] S[java/lang/Object]");
  EXPECT_EQ(hierarchy.unknownClasses(), (std::vector<std::string>{"q/Unknown1", "q/Unknown2"}));
}

TEST(EncodeFrameTest, PicksTheCompactForms) {
  cf::ConstantPool pool;
  auto at = static_cast<Label>(0);
  std::vector<VType> prev = {vtype::integer()};
  FrameState s;
  s.locals = {vtype::integer(), vtype::longType(), vtype::top(), vtype::floatType(), vtype::top()};
  cf::Frame f = encodeFrame(s, at, prev, pool);
  EXPECT_EQ(f.type, 253);  // append J F (trailing Top implicit)
  EXPECT_EQ(f.locals.size(), 2u);
  s.locals = {vtype::integer()};
  f = encodeFrame(s, at, prev, pool);
  EXPECT_EQ(f.type, 249);  // chop 2
  s.stack = {vtype::longType(), vtype::top()};
  f = encodeFrame(s, at, prev, pool);
  EXPECT_EQ(f.type, 64);
  ASSERT_EQ(f.stack.size(), 1u);
  s.locals = {vtype::integer(), vtype::integer(), vtype::integer(), vtype::integer(),
              vtype::integer()};
  s.stack.clear();
  f = encodeFrame(s, at, prev, pool);
  EXPECT_EQ(f.type, 255);  // append of 4 does not exist
  s.locals = {vtype::floatType()};
  f = encodeFrame(s, at, prev, pool);
  EXPECT_EQ(f.type, 255);  // same size, different type
  f = encodeFrame(s, at, prev, pool);
  EXPECT_EQ(f.type, 0);
}

}  // namespace
}  // namespace dragnet::instrument
