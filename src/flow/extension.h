// The flow engine's part of an analysis's probes (docs/FLOW-DESIGN.md): a calling-context
// extension (contexts/probes.h) that plans each method's shadows (flow/shadow_plan.h),
// names objects (tags: the root constructors' claim, `new`, arrays, clones, denied
// classes), takes the parameters' shadows from the call transfer at entry, applies the
// block-end moves and finds the summarised calls (flow/summaries.h). An analysis derives
// from it and says which instructions make nodes (rules()) and what each reached
// instruction records (instruction()).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "classfile/class_file.h"
#include "contexts/probes.h"
#include "flow/ids.h"
#include "flow/probe_code.h"
#include "flow/shadow_plan.h"
#include "flow/summaries.h"

namespace dragnet::flow {

class FlowExtension : public contexts::Extension {
 public:
  // `rootClass`: the class got the tag field (flow/tag_field.h): its constructors set it.
  FlowExtension(classfile::ClassFile& cls, FlowIds& ids, bool rootClass)
      : cls_(cls), ids_(ids), rootClass_(rootClass) {}

  uint32_t methodId(instrument::Routine& r, uint32_t id) override;
  bool leafEntry(instrument::Routine& r, uint32_t methodId) override;
  const char* receiverEnter(instrument::Routine&) override { return nullptr; }
  bool site(instrument::Routine&, const instrument::Instruction&, uint32_t, uint16_t) override {
    return false;
  }
  bool callSite(instrument::Routine& r, const instrument::Instruction& in,
                std::string& type) override;
  void allocation(instrument::Routine&, const instrument::Instruction& in, uint32_t key) override;
  void unframed(instrument::Routine&) override {}
  bool lighten(instrument::Routine& r, std::string& what) override;
  void method(instrument::Routine& r, uint16_t state) override;

 protected:
  // --- the analysis's part ----------------------------------------------------------------
  virtual ShadowRules& rules() = 0;
  // The method's entry: the transfer taken (with takeParams) and the frame's context, into
  // `p` (inserted at entry, before super() in constructors; the canonical locals are zeroed
  // already); then entered(), for what must follow super().
  virtual void enter(instrument::Patch& p) = 0;
  virtual void entered() {}
  // The probes of reached instruction i.
  virtual void instruction(uint32_t i) = 0;

  // --- shared pieces ----------------------------------------------------------------------
  // The routine's shadow plan, made once per routine; null for a body without flow probes
  // (unshadowed_) or one that cannot be planned.
  const ShadowPlan* planFor(instrument::Routine& r);
  instrument::Patch patch() { return r_->newPatch(); }
  // The parameters' shadows from the transfer (after the analysis's take) into their
  // canonical locals.
  void takeParams(instrument::Patch& p);
  // Whether `getfield ThisClass.dragnet$tag` resolves, and the class to name in it.
  bool thisHasTag() const;
  std::string thisTagOwner() const;
  // Allocation probes: the object's tag pending (`new`) or set (arrays); the node goes to the
  // instruction's produced local if the plan gave it one, else is dropped.
  void newObject(uint32_t i);
  void newArray(uint32_t i);
  // After invokespecial <init> of an object of a denied class made by this method's `new`.
  void bindDenied(uint32_t i, size_t receiverDepth);
  // The call's argument shadows (receiver first) and the depth of its receiver or first
  // argument from the top.
  std::vector<Shadow> arguments(uint32_t i, const classfile::ConstantPool::Member& ref,
                                bool isStatic, size_t& depth) const;
  void blockEnd(uint32_t i);
  // The summary of the call at instruction i (callSite looked it up).
  std::optional<Summary> summaryAt(uint32_t i, const classfile::ConstantPool::Member& ref,
                                   bool isStatic);
  std::optional<uint32_t> superCall();
  bool beforeSuper(uint32_t i);
  uint32_t methodKey() const { return id_; }
  int32_t paramIndex(uint16_t slot) const;
  bool vmEntry() const;

  static constexpr int32_t kMaxArgs = 8;

  classfile::ClassFile& cls_;
  FlowIds& ids_;
  bool rootClass_ = false;
  instrument::Routine* r_ = nullptr;
  uint16_t state_ = kNoLocal, context_ = kNoLocal;
  std::map<uint32_t, uint32_t> sites_;  // instruction index -> allocation site index
  std::map<uint32_t, std::optional<Summary>> summaries_;  // instruction -> its call's
  std::optional<MethodProbes> m_;  // the method's probes' context, once planned
  ShadowPlan plan_;
  int32_t selector_ = 0;
  uint32_t id_ = 0;

 private:
  void entry();
  void keepTransfer();
  void claimTag();
  void tagAllocations();
  static bool intrinsicCandidate(instrument::Routine& r);

  std::optional<uint32_t> superCall_;
  bool superCallFound_ = false;
  // The shadows the `new`s of denied classes push, with their sites.
  std::vector<std::pair<Shadow, uint32_t>> deniedNews_;
  const instrument::Routine* planned_ = nullptr;  // the routine plan_ belongs to
  bool unshadowed_ = false;  // its body gets no flow probes (a summarised method)
  bool light_ = false;
};

}  // namespace dragnet::flow
