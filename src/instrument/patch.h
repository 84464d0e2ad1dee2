// A straight-line instruction sequence to insert into a method (a probe).
//
// Patches must be stack-neutral: whatever they push they pop again (a patch may read the
// values under it, e.g. `dup; invokestatic f(Ljava/lang/Object;)V` passes the top of the
// stack on). They contain no branches, so inserting one never creates a branch target and
// never needs a new stack-map frame.
#pragma once

#include <optional>
#include <string_view>
#include <vector>

#include "classfile/code.h"
#include "classfile/constant_pool.h"

namespace dragnet::instrument {

class Patch {
 public:
  explicit Patch(classfile::ConstantPool& pool) : pool_(&pool) {}

  // Inline, as pushInt's common cases: a tool builds a patch per probe.
  Patch& add(classfile::Op op, int32_t a = 0, int32_t b = 0) {
    classfile::Insn& insn = insns_.emplace_back();
    insn.op = op;
    insn.a = a;
    insn.b = b;
    return *this;
  }
  // The shortest push of an int constant: iconst_*, bipush, sipush or ldc/ldc_w.
  Patch& pushInt(int32_t value) {
    insns_.push_back(intInsn(value));
    return *this;
  }
  // That instruction alone (an Integer constant is added to the pool for ldc).
  classfile::Insn intInsn(int32_t value) {
    classfile::Insn insn;
    if (value >= -1 && value <= 5) {
      insn.op = static_cast<classfile::Op>(static_cast<int>(classfile::Op::iconst_0) + value);
    } else if (value >= -128 && value <= 127) {
      insn.op = classfile::Op::bipush;
      insn.a = value;
    } else if (value >= -32768 && value <= 32767) {
      insn.op = classfile::Op::sipush;
      insn.a = value;
    } else {
      insn = intConstant(value);
    }
    return insn;
  }
  Patch& pushLong(int64_t value);
  Patch& pushString(std::string_view mutf8);
  Patch& pushNull() { return add(classfile::Op::aconst_null); }
  // xload/xstore of `slot` for a value of field type `desc` (I, J, F, D, L.., [..).
  Patch& load(std::string_view desc, uint16_t slot);
  Patch& store(std::string_view desc, uint16_t slot);
  Patch& invokeStatic(std::string_view owner, std::string_view name, std::string_view desc,
                      bool ownerIsInterface = false);
  Patch& invokeStatic(classfile::CpIndex methodref) {
    return add(classfile::Op::invokestatic, raw(methodref));
  }
  Patch& getStatic(std::string_view owner, std::string_view name, std::string_view desc);
  Patch& getField(std::string_view owner, std::string_view name, std::string_view desc);
  Patch& putField(std::string_view owner, std::string_view name, std::string_view desc);

  const std::vector<classfile::Insn>& insns() const { return insns_; }
  bool empty() const { return insns_.empty(); }
  // Empties the patch, keeping its storage, for building the next one.
  void clear() {
    insns_.clear();
    knownPeak_.reset();
  }
  // For a caller that already knows the patch's peak (e.g. the same call built before).
  void setPeak(int peak) { knownPeak_ = peak; }

  // Stack words the patch needs above the stack at its insertion point (its peak), or
  // nullopt if an instruction's effect is unknown or the patch is not stack-neutral.
  std::optional<int> peakStack() const;
  // Words it reads below its insertion point (e.g. 1 for a leading dup).
  int wordsBelow() const;

 private:
  Patch& ldcIndex(classfile::CpIndex index, bool wide);
  classfile::Insn intConstant(int32_t value);  // ldc of a pool Integer

  classfile::ConstantPool* pool_;
  std::vector<classfile::Insn> insns_;
  std::optional<int> knownPeak_;
  // The Integer constant pushed last and its pool entry: a tool passes the same large id
  // (a method id over 32767) in every probe of a method, and the pool lookup cost more
  // than the rest of the probe. Entries never leave a pool, so the index stays valid.
  int32_t lastInt_ = 0;
  classfile::CpIndex lastIntIndex_ = classfile::CpIndex::None;
};

}  // namespace dragnet::instrument
