// Mode cost (Xu et al. sec. 4): what the agent inserts into every class, through the flow
// engine (flow/extension.h), on top of the calling-context probes.
//
// Every instruction that makes a node of G_cost (allocations, computations, heap loads and
// stores, predicates, native calls, assignments from a local, a constant or a call result)
// gets a program node; its executions are counted per basic block and frame slot. Per
// method, after the shadow plan:
//   - entry: the frame's receiver chain g' = 3g + site(this) (g: the caller's, from the
//     transfer; static methods keep g), its slot g' mod s, the parameters' shadows;
//   - each reached block: DragnetCost.block(S, block << 5 | slot);
//   - a node's operands: a dependence on each operand's node, known statically when the
//     operand was made in this frame (written with the method's definitions), else recorded
//     at run time (DragnetCost.edge);
//   - getfield / xaload / getstatic: a dependence on the location's shadow (the node that
//     wrote it last) and the object's name (the H relation);
//   - putfield / xastore / putstatic: the location's shadow set to the store's instance;
//   - calls: the arguments' shadows, the chain and the callee's selector before, the
//     result's shadow after; natives and summarised methods are native nodes, summarised
//     copies a load and a store node per element.
#pragma once

#include "analyses/cost/probes/cost_ids.h"
#include "classfile/class_file.h"
#include "contexts/probes.h"
#include "flow/ids.h"

namespace dragnet::analyses::cost {

inline constexpr const char* kCostClass = "java/lang/DragnetCost";

struct ProbeOptions {
  bool rootClass = false;  // the class got the tag field (flow/tag_field.h)
};

// Instruments `cls` (whose tag field and heap shadows were added already).
contexts::ClassResult instrumentClass(classfile::ClassFile& cls, contexts::IdSource& ids,
                                      flow::FlowIds& flowIds, CostIds& costIds,
                                      const ProbeOptions& options);

}  // namespace dragnet::analyses::cost
