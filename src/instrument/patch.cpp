#include "instrument/patch.h"

#include <algorithm>

#include "instrument/stack_effect.h"

namespace dragnet::instrument {

using classfile::CpIndex;
using classfile::Insn;
using classfile::Op;

namespace {
Insn ldcInsn(CpIndex index, bool wide) {
  Insn insn;
  insn.op = wide ? Op::ldc2_w : raw(index) < 256 ? Op::ldc : Op::ldc_w;
  insn.a = raw(index);
  return insn;
}
}  // namespace

Patch& Patch::ldcIndex(CpIndex index, bool wide) {
  insns_.push_back(ldcInsn(index, wide));
  return *this;
}

Insn Patch::intConstant(int32_t v) {
  if (lastIntIndex_ == CpIndex::None || lastInt_ != v) {
    lastIntIndex_ = pool_->addInteger(v);
    lastInt_ = v;
  }
  return ldcInsn(lastIntIndex_, false);
}

Patch& Patch::pushLong(int64_t v) {
  if (v == 0 || v == 1) return add(v == 0 ? Op::lconst_0 : Op::lconst_1);
  return ldcIndex(pool_->addLong(v), true);
}

Patch& Patch::pushString(std::string_view s) { return ldcIndex(pool_->addString(s), false); }

namespace {
// Index of the load/store family for a field type: I, J, F, D, A.
int typeIndex(std::string_view desc) {
  switch (desc.empty() ? 'L' : desc[0]) {
    case 'J':
      return 1;
    case 'F':
      return 2;
    case 'D':
      return 3;
    case 'L':
    case '[':
      return 4;
    default:
      return 0;  // I, and the int-like B C S Z
  }
}

Insn localInsn(Op base, Op base0, std::string_view desc, uint16_t slot) {
  int t = typeIndex(desc);
  Insn insn;
  if (slot <= 3) {
    insn.op = static_cast<Op>(static_cast<int>(base0) + t * 4 + slot);
  } else {
    insn.op = static_cast<Op>(static_cast<int>(base) + t);
    insn.a = slot;
    insn.wide = slot > 255;
  }
  return insn;
}
}  // namespace

Patch& Patch::load(std::string_view desc, uint16_t slot) {
  insns_.push_back(localInsn(Op::iload, Op::iload_0, desc, slot));
  return *this;
}

Patch& Patch::store(std::string_view desc, uint16_t slot) {
  insns_.push_back(localInsn(Op::istore, Op::istore_0, desc, slot));
  return *this;
}

Patch& Patch::invokeStatic(std::string_view owner, std::string_view name, std::string_view desc,
                           bool ownerIsInterface) {
  CpIndex ref = ownerIsInterface ? pool_->addInterfaceMethodref(owner, name, desc)
                                 : pool_->addMethodref(owner, name, desc);
  return add(Op::invokestatic, raw(ref));
}

Patch& Patch::getStatic(std::string_view owner, std::string_view name, std::string_view desc) {
  return add(Op::getstatic, raw(pool_->addFieldref(owner, name, desc)));
}

Patch& Patch::getField(std::string_view owner, std::string_view name, std::string_view desc) {
  return add(Op::getfield, raw(pool_->addFieldref(owner, name, desc)));
}

Patch& Patch::putField(std::string_view owner, std::string_view name, std::string_view desc) {
  return add(Op::putfield, raw(pool_->addFieldref(owner, name, desc)));
}

std::optional<int> Patch::peakStack() const {
  if (knownPeak_) return knownPeak_;
  int depth = 0, peak = 0;
  for (const Insn& insn : insns_) {
    auto e = stackEffect(insn, *pool_);
    if (!e) return std::nullopt;
    depth += e->push - e->pop;
    peak = std::max(peak, depth);
  }
  if (depth != 0) return std::nullopt;
  return peak;
}

int Patch::wordsBelow() const {
  int depth = 0, low = 0;
  for (const Insn& insn : insns_) {
    auto e = stackEffect(insn, *pool_);
    if (!e) break;
    low = std::min(low, depth - e->pop);
    depth += e->push - e->pop;
  }
  return -low;
}

}  // namespace dragnet::instrument
