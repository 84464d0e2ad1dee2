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

// True if control can continue to the next instruction (not goto, return, athrow, switch,
// ret; jsr counts as falling through, to its return point).
bool fallsThrough(classfile::Op op);

// True for ireturn .. return.
bool isReturn(classfile::Op op);

// True for the conditional branches ifeq .. if_acmpne, ifnull, ifnonnull.
bool isConditionalBranch(classfile::Op op);

}  // namespace dragnet::instrument
