// Code pieces the flow analyses' probes share (flow/extension.h and the analyses' probes):
// the method being instrumented as a probe sees it.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "flow/ids.h"
#include "flow/shadow_plan.h"
#include "instrument/bit.h"

namespace dragnet::flow {

inline constexpr const char* kObjectDesc = "Ljava/lang/Object;";
inline constexpr uint16_t kNoLocal = ShadowPlan::kNone;
inline constexpr const char* kFlowClass = "java/lang/DragnetFlow";

struct MethodProbes {
  instrument::Routine& r;
  uint16_t state;    // the frame's DragnetState local
  uint16_t context;  // the frame's context local, an int (kNoLocal: 0)
  const ShadowPlan& plan;
  FlowIds& ids;
  const std::map<uint32_t, uint32_t>& sites;  // instruction -> allocation site index

  // A scratch local per descriptor and role, within one instruction's probes.
  uint16_t scratch(std::string_view desc, char role = 'o');
  // A scratch local of its own (several of one type at one instruction).
  uint16_t fresh(std::string_view desc);

  // The shadow of the value whose first word is `fromTop` words below the top of the stack
  // before instruction i (1: the top word).
  Shadow operand(uint32_t i, size_t fromTop) const;

  std::map<std::string, int> scratch_;  // descriptor + role -> local + 1
};

instrument::Patch& loadState(instrument::Patch& p, const MethodProbes& m);
// Pushes a shadow as a long (a Frame shadow with the frame's context or'ed in).
instrument::Patch& pushShadow(instrument::Patch& p, const Shadow& s, const MethodProbes& m);
// The tag of the object on top of the stack, whose static class is `cls` (an array type or
// a denied class: the side table; otherwise the added field).
instrument::Patch& pushTag(instrument::Patch& p, std::string_view cls, const MethodProbes& m);
// The array on top of the stack -> the node of its elements.
instrument::Patch& pushElementNode(instrument::Patch& p, const MethodProbes& m);
// The tag on top of the stack -> the node of its field `field` (0: the object itself).
instrument::Patch& composeNode(instrument::Patch& p, uint32_t field);
// The frame's context (an int), 0 where it has none.
instrument::Patch& pushContext(instrument::Patch& p, const MethodProbes& m);

// Before putfield i of a field of descriptor `fieldDesc`: its object parked in a scratch local
// (returned; the value is parked and pushed back), for probes after the store.
uint16_t parkFieldStoreObject(MethodProbes& m, uint32_t i, std::string_view fieldDesc);

// A call's arguments, receiver first: their descriptors (references as Object) and their
// shadows before the call; ok false for a malformed descriptor.
struct CallArgs {
  std::vector<std::string> desc;
  std::vector<Shadow> shadow;
  bool ok = false;
};
CallArgs callArgs(const MethodProbes& m, uint32_t i);
// Before the call at i: every argument parked in a local of its own and pushed back, so
// that probes after the call can read them. Returns the locals, receiver first.
std::vector<uint16_t> parkArgs(MethodProbes& m, uint32_t i, const CallArgs& a);
// Whether position `pos` names an argument (a reference one).
bool hasArg(int8_t pos, const CallArgs& a);
bool isRefArg(int8_t pos, const CallArgs& a);

}  // namespace dragnet::flow
