// The type state and transfer function (src/instrument/frame_state.h) on hand-written
// instruction sequences.
#include "instrument/frame_state.h"

#include <gtest/gtest.h>

#include <string>

namespace dragnet::instrument {
namespace {

namespace cf = classfile;
using cf::Op;
using cf::VType;

// A class model to hold a pool, and a state with helpers to run instructions on it.
class TransferTest : public ::testing::Test {
 protected:
  TransferTest() {
    cls.major = 52;
    cls.thisClass = cls.pool.addClass("p/Sub");
    cls.superClass = cls.pool.addClass("p/Base");
  }

  TransferResult run(Op op, int32_t a = 0, int32_t b = 0) {
    TransferContext ctx{cls.pool, cls.thisClass, {}, nullptr};
    return apply(state, cf::Insn{op, false, a, b}, index++, ctx);
  }
  void ok(Op op, int32_t a = 0, int32_t b = 0) {
    TransferResult r = run(op, a, b);
    ASSERT_TRUE(r.ok()) << cf::opInfo(op).name << ": " << r.message;
  }
  int cp(cf::CpIndex i) { return cf::raw(i); }
  int klass(std::string_view name) { return cp(cls.pool.addClass(name)); }
  int method(std::string_view owner, std::string_view name, std::string_view desc) {
    return cp(cls.pool.addMethodref(owner, name, desc));
  }

  // "I", "J", "T" (Top), "N" (Null), "U<label>" / "UT", or the class name.
  std::string show(const VType& t) {
    switch (t.kind) {
      case vtype::kTop:
        return "T";
      case vtype::kInteger:
        return "I";
      case vtype::kFloat:
        return "F";
      case vtype::kDouble:
        return "D";
      case vtype::kLong:
        return "J";
      case vtype::kNull:
        return "N";
      case vtype::kUninitializedThis:
        return "UT";
      case vtype::kObject:
        return std::string(cls.pool.className(t.cls));
      default:
        return std::string("U").append(std::to_string(static_cast<uint32_t>(t.newInsn)));
    }
  }
  std::string show(const std::vector<VType>& list) {
    std::string out;
    for (const VType& t : list) {
      if (!out.empty()) out += ' ';
      out += show(t);
    }
    return out;
  }
  std::string stack() { return show(state.stack); }
  std::string locals() { return show(state.locals); }

  cf::ClassFile cls;
  FrameState state;
  uint32_t index = 0;
};

TEST_F(TransferTest, NewDupInitInitializesEveryCopy) {
  state.locals.assign(3, vtype::top());
  int c = klass("java/lang/StringBuilder");
  ok(Op::new_, c);  // instruction 0 -> Uninitialized(Label 0)
  ok(Op::dup);
  ok(Op::dup);
  ok(Op::astore_2);  // a copy in a local too (legal bytecode)
  EXPECT_EQ(stack(), "U0 U0");
  EXPECT_EQ(locals(), "T T U0");
  ok(Op::invokespecial, method("java/lang/StringBuilder", "<init>", "()V"));
  EXPECT_EQ(stack(), "java/lang/StringBuilder");
  EXPECT_EQ(locals(), "T T java/lang/StringBuilder");
}

TEST_F(TransferTest, InitOfOneNewLeavesAnotherUninitialized) {
  int c = klass("p/A");
  ok(Op::new_, c);  // U0
  ok(Op::new_, c);  // U1
  ok(Op::dup);
  ok(Op::invokespecial, method("p/A", "<init>", "()V"));
  EXPECT_EQ(stack(), "U0 p/A");
}

TEST_F(TransferTest, SuperCallInitializesThisAsTheCurrentClass) {
  state.locals = {vtype::uninitializedThis(), vtype::integer()};
  ok(Op::aload_0);
  ok(Op::aload_0);
  ok(Op::invokespecial, method("p/Base", "<init>", "()V"));
  EXPECT_EQ(stack(), "p/Sub");
  EXPECT_EQ(locals(), "p/Sub I");
}

TEST_F(TransferTest, LongAndDoubleTakeTwoSlotsAndTwoWords) {
  state.locals.assign(4, vtype::top());
  ok(Op::lconst_1);
  EXPECT_EQ(state.stackWords(), 2u);
  ok(Op::lstore_1);
  EXPECT_EQ(locals(), "T J T T");
  ok(Op::iconst_0);
  ok(Op::istore_2);  // overwrites the second half: the long is gone
  EXPECT_EQ(locals(), "T T I T");
  ok(Op::dconst_0);
  ok(Op::dstore_0);
  EXPECT_EQ(locals(), "D T I T");
  ok(Op::dload_0);
  ok(Op::dup2);  // one double: fine
  EXPECT_EQ(stack(), "D T D T");
  EXPECT_EQ(run(Op::dup).status, TransferResult::Status::Invalid);  // would split it
}

TEST_F(TransferTest, StoreOfALongIntoASlotAfterAnotherLong) {
  state.locals.assign(5, vtype::top());
  ok(Op::lconst_0);
  ok(Op::lstore, 0);
  ok(Op::lconst_0);
  ok(Op::lstore, 1);  // overlaps the first long's second half
  EXPECT_EQ(locals(), "T J T T T");
}

TEST_F(TransferTest, StoresGrowTheLocals) {
  ok(Op::dconst_1);
  ok(Op::dstore, 3);
  EXPECT_EQ(locals(), "T T T D T");
}

TEST_F(TransferTest, WordShuffles) {
  ok(Op::iconst_1);
  ok(Op::fconst_1);
  ok(Op::aconst_null);
  ok(Op::dup_x2);
  EXPECT_EQ(stack(), "N I F N");
  ok(Op::swap);
  EXPECT_EQ(stack(), "N I N F");
  ok(Op::pop2);
  ok(Op::lconst_0);
  ok(Op::dup2_x1);  // a long over an int
  EXPECT_EQ(stack(), "N J T I J T");
  ok(Op::pop2);
  ok(Op::pop);
  ok(Op::dconst_0);
  ok(Op::dup2_x2);  // a double over a long
  EXPECT_EQ(stack(), "N D T J T D T");
  EXPECT_EQ(run(Op::pop).status, TransferResult::Status::Invalid);
}

TEST_F(TransferTest, AaloadOfATwoDimensionalArray) {
  state.locals = {vtype::object(cls.pool.addClass("[[Ljava/lang/String;")),
                  vtype::object(cls.pool.addClass("[[I")), vtype::null()};
  ok(Op::aload_0);
  ok(Op::iconst_0);
  ok(Op::aaload);
  EXPECT_EQ(stack(), "[Ljava/lang/String;");
  ok(Op::iconst_0);
  ok(Op::aaload);
  EXPECT_EQ(stack(), "java/lang/String");
  ok(Op::aload_1);
  ok(Op::iconst_1);
  ok(Op::aaload);
  ok(Op::iconst_1);
  ok(Op::iaload);
  EXPECT_EQ(stack(), "java/lang/String I");
  ok(Op::aload_2);  // null array: aaload gives null
  ok(Op::iconst_0);
  ok(Op::aaload);
  EXPECT_EQ(stack(), "java/lang/String I N");
}

TEST_F(TransferTest, Arrays) {
  ok(Op::iconst_3);
  ok(Op::newarray, 11);
  ok(Op::iconst_3);
  ok(Op::anewarray, klass("java/lang/Object"));
  ok(Op::iconst_3);
  ok(Op::anewarray, klass("[I"));
  ok(Op::iconst_1);
  ok(Op::iconst_2);
  ok(Op::multianewarray, klass("[[[D"), 2);
  EXPECT_EQ(stack(), "[J [Ljava/lang/Object; [[I [[[D");
  ok(Op::arraylength);
  EXPECT_EQ(stack(), "[J [Ljava/lang/Object; [[I I");
}

TEST_F(TransferTest, ConstantsAndLdc) {
  cf::CpEntry dyn{cf::Tag::Dynamic, 0, 0, cf::raw(cls.pool.addNameAndType("x", "J")), 0, {}};
  ok(Op::ldc, cp(cls.pool.addString("s")));
  ok(Op::ldc_w, cp(cls.pool.addClass("p/A")));
  ok(Op::ldc, cp(cls.pool.addMethodType("()V")));
  ok(Op::ldc, cp(cls.pool.addInteger(7)));
  ok(Op::ldc, cp(cls.pool.addFloat(1.5f)));
  ok(Op::ldc2_w, cp(cls.pool.addDouble(2.5)));
  ok(Op::ldc2_w, cp(cls.pool.add(dyn)));
  EXPECT_EQ(stack(), "java/lang/String java/lang/Class java/lang/invoke/MethodType I F D T J T");
  EXPECT_EQ(run(Op::ldc, cp(cls.pool.addUtf8("u"))).status, TransferResult::Status::Invalid);
}

TEST_F(TransferTest, FieldsAndInvokes) {
  state.locals = {vtype::object(cls.thisClass)};
  ok(Op::aload_0);
  ok(Op::getfield, cp(cls.pool.addFieldref("p/Sub", "f", "J")));
  ok(Op::aload_0);
  ok(Op::lconst_0);
  ok(Op::putfield, cp(cls.pool.addFieldref("p/Sub", "f", "J")));
  EXPECT_EQ(stack(), "J T");
  ok(Op::aconst_null);
  ok(Op::iconst_0);
  ok(Op::invokestatic, method("p/U", "m", "(JLjava/lang/Object;I)[Ljava/lang/String;"));
  EXPECT_EQ(stack(), "[Ljava/lang/String;");
  ok(Op::invokeinterface, cp(cls.pool.addInterfaceMethodref("p/I", "n", "()D")), 1);
  EXPECT_EQ(stack(), "D T");
  ok(Op::pop2);
  ok(Op::getstatic, cp(cls.pool.addFieldref("p/Sub", "s", "Z")));
  ok(Op::checkcast, klass("p/A"));  // not verified here: just the result type
  ok(Op:: instanceof, klass("p/B"));
  EXPECT_EQ(stack(), "I");
}

TEST_F(TransferTest, StackUnderflowAndUnsupported) {
  EXPECT_EQ(run(Op::pop).status, TransferResult::Status::Invalid);
  EXPECT_EQ(run(Op::iadd).status, TransferResult::Status::Invalid);
  EXPECT_EQ(run(Op::jsr).status, TransferResult::Status::Unsupported);
  EXPECT_EQ(run(Op::ret, 1).status, TransferResult::Status::Unsupported);
  EXPECT_EQ(run(static_cast<Op>(0xca)).status, TransferResult::Status::Invalid);
  EXPECT_EQ(run(Op::aload, 9).status, TransferResult::Status::Invalid);
}

TEST_F(TransferTest, Arithmetic) {
  ok(Op::lconst_1);
  ok(Op::iconst_2);
  ok(Op::lshl);
  ok(Op::l2i);
  ok(Op::i2d);
  ok(Op::dconst_1);
  ok(Op::dcmpg);
  ok(Op::i2f);
  ok(Op::fneg);
  ok(Op::f2l);
  ok(Op::lconst_0);
  ok(Op::lxor);
  EXPECT_EQ(stack(), "J T");
  ok(Op::lconst_0);
  ok(Op::lcmp);
  EXPECT_EQ(stack(), "I");
  ok(Op::iinc, 0, 1);
  ok(Op::ifeq, 0);
  EXPECT_EQ(stack(), "");
}

TEST(FrameStateTest, InitialStates) {
  cf::ClassFile cls;
  cls.major = 52;
  cls.thisClass = cls.pool.addClass("p/C");
  auto member = [&](uint16_t access, std::string_view name, std::string_view desc) {
    cf::Member m;
    m.access = access;
    m.name = cls.pool.addUtf8(name);
    m.descriptor = cls.pool.addUtf8(desc);
    cf::CodeAttr code;
    code.maxLocals = 9;
    m.attributes.push_back({cls.pool.addUtf8("Code"), code});
    return m;
  };
  auto init = initialState(cls, member(0, "<init>", "(J[ILjava/lang/String;)V"));
  ASSERT_TRUE(init);
  ASSERT_EQ(init->locals.size(), 9u);
  EXPECT_EQ(init->locals[0].kind, vtype::kUninitializedThis);
  EXPECT_EQ(init->locals[1].kind, vtype::kLong);
  EXPECT_EQ(init->locals[2].kind, vtype::kTop);
  EXPECT_EQ(cls.pool.className(init->locals[3].cls), "[I");
  EXPECT_EQ(cls.pool.className(init->locals[4].cls), "java/lang/String");
  EXPECT_EQ(frameEntries(init->locals, true).size(), 4u);

  auto stat = initialState(cls, member(0x0008, "m", "(DZ)V"));
  ASSERT_TRUE(stat);
  EXPECT_EQ(stat->locals[0].kind, vtype::kDouble);
  EXPECT_EQ(stat->locals[2].kind, vtype::kInteger);

  auto virt = initialState(cls, member(0, "m", "()V"));
  EXPECT_EQ(virt->locals[0].kind, vtype::kObject);
  EXPECT_FALSE(initialState(cls, member(0, "m", "(Q)V")));

  cf::ClassFile object;
  object.thisClass = object.pool.addClass("java/lang/Object");
  cf::Member ctor;
  ctor.name = object.pool.addUtf8("<init>");
  ctor.descriptor = object.pool.addUtf8("()V");
  EXPECT_EQ(initialState(object, ctor)->locals[0].kind, vtype::kObject);
}

TEST(FrameStateTest, DecodeFramesFollowsChopAndAppend) {
  cf::ConstantPool pool;
  FrameState initial;
  initial.locals = {vtype::integer(), vtype::top(), vtype::top(), vtype::top()};
  cf::StackMapTableAttr table;
  table.frames.push_back({252, static_cast<cf::Label>(0), {vtype::longType()}, {}});
  table.frames.push_back({64, static_cast<cf::Label>(1), {}, {vtype::doubleType()}});
  table.frames.push_back({250, static_cast<cf::Label>(2), {}, {}});
  table.frames.push_back({255, static_cast<cf::Label>(3), {vtype::floatType()}, {}});
  auto d = decodeFrames(initial, table);
  ASSERT_TRUE(d);
  ASSERT_EQ(d->size(), 4u);
  EXPECT_EQ((*d)[0].state.locals[1].kind, vtype::kLong);
  EXPECT_EQ((*d)[1].state.stack.size(), 2u);
  EXPECT_EQ((*d)[2].state.locals[1].kind, vtype::kTop);
  EXPECT_EQ((*d)[2].state.locals[0].kind, vtype::kInteger);
  EXPECT_EQ((*d)[3].state.locals[0].kind, vtype::kFloat);
  EXPECT_EQ((*d)[3].state.locals.size(), 4u);
  table.frames.push_back({248, static_cast<cf::Label>(4), {}, {}});
  table.frames.push_back({248, static_cast<cf::Label>(5), {}, {}});
  EXPECT_FALSE(decodeFrames(initial, table));  // chops more than there is
}

TEST(FrameStateTest, SameTypeComparesClassesByName) {
  cf::ConstantPool pool;
  cf::CpIndex a = pool.addClass("p/A");
  EXPECT_TRUE(sameType(vtype::object(a), vtype::object(a), pool));
  EXPECT_FALSE(sameType(vtype::object(a), vtype::object(pool.addClass("p/B")), pool));
  EXPECT_FALSE(sameType(vtype::uninitialized(static_cast<cf::Label>(0)),
                        vtype::uninitialized(static_cast<cf::Label>(1)), pool));
  cf::Code code;
  code.insns.resize(2);
  cf::Label l0 = code.newLabel(1), l1 = code.newLabel(1);
  EXPECT_TRUE(sameType(vtype::uninitialized(l0), vtype::uninitialized(l1), pool, &code));
}

}  // namespace
}  // namespace dragnet::instrument
