#include "instrument/stack_effect.h"

#include <array>

#include "instrument/descriptor.h"

namespace dragnet::instrument {

using classfile::ConstantPool;
using classfile::CpIndex;
using classfile::Insn;
using classfile::Op;
using classfile::Tag;

namespace {

// Fixed effects, indexed by opcode: pop*16+push (both < 16); 0xFF marks opcodes whose
// effect depends on an operand (pool references, multianewarray). Values from JVMS 6.5.
constexpr uint8_t E(int pop, int push) { return static_cast<uint8_t>(pop * 16 + push); }
constexpr uint8_t kVar = 0xFF;

constexpr std::array<uint8_t, 202> makeTable() {
  std::array<uint8_t, 202> t{};
  auto set = [&](Op from, Op to, uint8_t e) {
    for (int i = static_cast<int>(from); i <= static_cast<int>(to); ++i) t[i] = e;
  };
  auto one = [&](Op op, uint8_t e) { t[static_cast<int>(op)] = e; };
  one(Op::nop, E(0, 0));
  set(Op::aconst_null, Op::iconst_5, E(0, 1));
  set(Op::lconst_0, Op::lconst_1, E(0, 2));
  set(Op::fconst_0, Op::fconst_2, E(0, 1));
  set(Op::dconst_0, Op::dconst_1, E(0, 2));
  set(Op::bipush, Op::sipush, E(0, 1));
  one(Op::ldc, kVar);
  one(Op::ldc_w, kVar);
  one(Op::ldc2_w, kVar);
  for (Op op : {Op::iload, Op::fload, Op::aload}) one(op, E(0, 1));
  for (Op op : {Op::lload, Op::dload}) one(op, E(0, 2));
  set(Op::iload_0, Op::iload_3, E(0, 1));
  set(Op::lload_0, Op::lload_3, E(0, 2));
  set(Op::fload_0, Op::fload_3, E(0, 1));
  set(Op::dload_0, Op::dload_3, E(0, 2));
  set(Op::aload_0, Op::aload_3, E(0, 1));
  for (Op op : {Op::iaload, Op::faload, Op::aaload, Op::baload, Op::caload, Op::saload}) {
    one(op, E(2, 1));
  }
  for (Op op : {Op::laload, Op::daload}) one(op, E(2, 2));
  for (Op op : {Op::istore, Op::fstore, Op::astore}) one(op, E(1, 0));
  for (Op op : {Op::lstore, Op::dstore}) one(op, E(2, 0));
  set(Op::istore_0, Op::istore_3, E(1, 0));
  set(Op::lstore_0, Op::lstore_3, E(2, 0));
  set(Op::fstore_0, Op::fstore_3, E(1, 0));
  set(Op::dstore_0, Op::dstore_3, E(2, 0));
  set(Op::astore_0, Op::astore_3, E(1, 0));
  for (Op op : {Op::iastore, Op::fastore, Op::aastore, Op::bastore, Op::castore, Op::sastore}) {
    one(op, E(3, 0));
  }
  for (Op op : {Op::lastore, Op::dastore}) one(op, E(4, 0));
  one(Op::pop, E(1, 0));
  one(Op::pop2, E(2, 0));
  one(Op::dup, E(1, 2));
  one(Op::dup_x1, E(2, 3));
  one(Op::dup_x2, E(3, 4));
  one(Op::dup2, E(2, 4));
  one(Op::dup2_x1, E(3, 5));
  one(Op::dup2_x2, E(4, 6));
  one(Op::swap, E(2, 2));
  // Arithmetic: int/float binary 2->1, long/double binary 4->2.
  for (Op op : {Op::iadd, Op::fadd, Op::isub, Op::fsub, Op::imul, Op::fmul, Op::idiv, Op::fdiv,
                Op::irem, Op::frem, Op::iand, Op::ior, Op::ixor, Op::ishl, Op::ishr, Op::iushr}) {
    one(op, E(2, 1));
  }
  for (Op op : {Op::ladd, Op::dadd, Op::lsub, Op::dsub, Op::lmul, Op::dmul, Op::ldiv, Op::ddiv,
                Op::lrem, Op::drem, Op::land, Op::lor, Op::lxor}) {
    one(op, E(4, 2));
  }
  for (Op op : {Op::lshl, Op::lshr, Op::lushr}) one(op, E(3, 2));
  for (Op op : {Op::ineg, Op::fneg}) one(op, E(1, 1));
  for (Op op : {Op::lneg, Op::dneg}) one(op, E(2, 2));
  one(Op::iinc, E(0, 0));
  // Conversions: (source words, result words).
  one(Op::i2l, E(1, 2));
  one(Op::i2f, E(1, 1));
  one(Op::i2d, E(1, 2));
  one(Op::l2i, E(2, 1));
  one(Op::l2f, E(2, 1));
  one(Op::l2d, E(2, 2));
  one(Op::f2i, E(1, 1));
  one(Op::f2l, E(1, 2));
  one(Op::f2d, E(1, 2));
  one(Op::d2i, E(2, 1));
  one(Op::d2l, E(2, 2));
  one(Op::d2f, E(2, 1));
  set(Op::i2b, Op::i2s, E(1, 1));
  one(Op::lcmp, E(4, 1));
  for (Op op : {Op::fcmpl, Op::fcmpg}) one(op, E(2, 1));
  for (Op op : {Op::dcmpl, Op::dcmpg}) one(op, E(4, 1));
  set(Op::ifeq, Op::ifle, E(1, 0));
  set(Op::if_icmpeq, Op::if_acmpne, E(2, 0));
  one(Op::goto_, E(0, 0));
  one(Op::jsr, E(0, 1));
  one(Op::ret, E(0, 0));
  for (Op op : {Op::tableswitch, Op::lookupswitch}) one(op, E(1, 0));
  for (Op op : {Op::ireturn, Op::freturn, Op::areturn}) one(op, E(1, 0));
  for (Op op : {Op::lreturn, Op::dreturn}) one(op, E(2, 0));
  one(Op::return_, E(0, 0));
  set(Op::getstatic, Op::invokedynamic, kVar);
  one(Op::new_, E(0, 1));
  one(Op::newarray, E(1, 1));
  one(Op::anewarray, E(1, 1));
  one(Op::arraylength, E(1, 1));
  one(Op::athrow, E(1, 0));
  one(Op::checkcast, E(1, 1));
  one(Op:: instanceof, E(1, 1));
  one(Op::monitorenter, E(1, 0));
  one(Op::monitorexit, E(1, 0));
  one(Op::multianewarray, kVar);
  one(Op::ifnull, E(1, 0));
  one(Op::ifnonnull, E(1, 0));
  one(Op::goto_w, E(0, 0));
  one(Op::jsr_w, E(0, 1));
  return t;
}

constexpr auto kTable = makeTable();

std::optional<StackEffect> poolEffect(const Insn& insn, const ConstantPool& pool) {
  CpIndex ref = insn.cp();
  if (!pool.valid(ref)) return std::nullopt;
  Tag tag = pool.tag(ref);
  switch (insn.op) {
    case Op::ldc:
    case Op::ldc_w:
    case Op::ldc2_w: {
      bool wide = tag == Tag::Long || tag == Tag::Double;
      if (tag == Tag::Dynamic) {
        auto [name, desc] = pool.nameAndType(CpIndex{pool[ref].b});
        wide = slotSize(desc) == 2;
      }
      return StackEffect{0, wide ? 2 : 1};
    }
    case Op::multianewarray:
      return StackEffect{insn.b & 0xFF, 1};
    default:
      break;
  }
  if (tag == Tag::InvokeDynamic) {
    SlotCounts m = methodSlots(pool.nameAndType(CpIndex{pool[ref].b}).second);
    if (m.args < 0) return std::nullopt;
    return StackEffect{m.args, m.ret};
  }
  if (tag != Tag::Fieldref && tag != Tag::Methodref && tag != Tag::InterfaceMethodref) {
    return std::nullopt;
  }
  auto member = pool.memberRef(ref);
  switch (insn.op) {
    case Op::getstatic:
      return StackEffect{0, slotSize(member.descriptor)};
    case Op::putstatic:
      return StackEffect{slotSize(member.descriptor), 0};
    case Op::getfield:
      return StackEffect{1, slotSize(member.descriptor)};
    case Op::putfield:
      return StackEffect{1 + slotSize(member.descriptor), 0};
    default:
      break;
  }
  SlotCounts m = methodSlots(member.descriptor);
  if (m.args < 0) return std::nullopt;
  int receiver = insn.op == Op::invokestatic ? 0 : 1;
  return StackEffect{m.args + receiver, m.ret};
}

}  // namespace

std::optional<StackEffect> stackEffect(const Insn& insn, const ConstantPool& pool) {
  auto code = static_cast<uint8_t>(insn.op);
  if (code >= kTable.size()) return std::nullopt;
  uint8_t e = kTable[code];
  if (e != kVar) return StackEffect{e >> 4, e & 0xF};
  return poolEffect(insn, pool);
}

}  // namespace dragnet::instrument
