// Mode cost, analyzer side: a cost profile's records (CostDefs, CostThread and FlowDefs
// chunks, docs/PROFILE_FORMAT.md) merged over its threads into the model's GraphInput, and
// the recording's settings and totals (meta and End).
#pragma once

#include <cstdint>
#include <string>

#include "analyses/cost/model/graph.h"
#include "profile/reader.h"

namespace dragnet::analyses::cost {

// The recording's parameters (meta; defaults when missing or malformed).
struct Recording {
  uint32_t slots = 16;         // flow.slots: s, 1..32
  bool elementShadows = true;  // cost.arrayShadow: `element` (one shadow per element) or
                               // `array` (one per array)
};
Recording recordingOf(const profile::Profile& p);

// What the agent counted (End totals; 0 when missing).
struct Totals {
  uint64_t cuts = 0;             // flows cut at a method's entry (cost.cuts)
  uint64_t unknownTags = 0;      // accesses to objects without a name (cost.unknownTags)
  uint64_t tableBytes = 0;       // the threads' record tables at their largest (cost.tableBytes)
  uint64_t shadowBytes = 0;      // the shadows of static fields and array elements, native
                                 // memory (cost.shadowBytes)
  uint64_t shadowFallbacks = 0;  // arrays that kept one shadow, past the budget
                                 // (cost.shadowFallbacks)
  uint64_t shadowFields = 0;     // instance fields' shadows added, 4 B in every object of their
                                 // class (cost.shadowFields)
  uint64_t dropped = 0;          // records lost for want of memory
};
Totals totalsOf(const profile::Profile& p);

// Whether `p` was recorded by mode cost.
bool isCostProfile(const profile::Profile& p);

// The recorded graph: static edges instantiated in every slot their node ran in, the
// threads' records decoded and summed, contextless nodes' instances in slot 0, points-to
// facts of reference stores.
GraphInput loadGraph(const profile::Profile& p);

}  // namespace dragnet::analyses::cost
