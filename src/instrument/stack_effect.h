// Operand-stack effect of an instruction, in words (long and double take two).
#pragma once

#include <optional>

#include "classfile/code.h"
#include "classfile/constant_pool.h"

namespace dragnet::instrument {

struct StackEffect {
  int pop = 0;   // words consumed
  int push = 0;  // words produced
};

// The effect of `insn`; nullopt for an invalid pool reference or descriptor. Switches pop
// their key; returns and athrow pop their operand (what happens to the rest of the stack
// is a control-flow matter, not an effect).
std::optional<StackEffect> stackEffect(const classfile::Insn& insn,
                                       const classfile::ConstantPool& pool);

// These four are inline (constexpr): the block and layout passes ask for every instruction.

// True for ireturn .. return.
constexpr bool isReturn(classfile::Op op) {
  return op >= classfile::Op::ireturn && op <= classfile::Op::return_;
}

// True if control can continue to the next instruction (not goto, return, athrow, switch,
// ret; jsr counts as falling through, to its return point).
constexpr bool fallsThrough(classfile::Op op) {
  using classfile::Op;
  switch (op) {
    case Op::goto_:
    case Op::goto_w:
    case Op::ret:
    case Op::tableswitch:
    case Op::lookupswitch:
    case Op::athrow:
      return false;
    default:
      return !isReturn(op);
  }
}

// True for invokevirtual .. invokedynamic.
constexpr bool isInvoke(classfile::Op op) {
  return op >= classfile::Op::invokevirtual && op <= classfile::Op::invokedynamic;
}

// True for new, newarray, anewarray and multianewarray.
constexpr bool isAllocation(classfile::Op op) {
  using classfile::Op;
  return op == Op::new_ || op == Op::newarray || op == Op::anewarray || op == Op::multianewarray;
}

// True for the conditional branches ifeq .. if_acmpne, ifnull, ifnonnull.
constexpr bool isConditionalBranch(classfile::Op op) {
  using classfile::Op;
  return (op >= Op::ifeq && op <= Op::if_acmpne) || op == Op::ifnull || op == Op::ifnonnull;
}

}  // namespace dragnet::instrument
