// Mode copy (Xu et al. sec. 3): what the agent inserts into every class, on top of the
// calling-context probes (contexts/probes.h), through the flow engine (src/flow).
//
// Per method, after the shadow plan (flow/shadow_plan.h):
//   - entry: the canonical shadow locals zeroed, the parameters' shadows taken from the
//     call transfer (DragnetFlow.take/param); in a method that allocates, its context:
//     the receiver's allocation site (DragnetFlow.context), after super() in constructors;
//   - getfield / xaload: the loaded value's node, from the object's tag (the added field
//     `dragnet$tag` read after the access, so that the JVM's own exception and its
//     message come first, or DragnetFlow.tagOf / elm for arrays and denied classes);
//   - putfield / putstatic / xastore of a value whose shadow is a node: the edge
//     node -> stored location (DragnetCopy.store), the object read after the store;
//   - operands of computations, predicates, switches, iinc and invokedynamic whose shadow
//     is a node: the edge node -> C (DragnetCopy.use);
//   - allocations: the new object's tag (DragnetFlow.newObject before `new`, which also
//     leaves it pending for the root constructor; newArray after the array allocations);
//   - calls: the arguments' shadows and the callee's selector before (DragnetFlow.callN),
//     the result's shadow after (DragnetFlow.result); returns write theirs (ret);
//     System.arraycopy and clone() are summarised at the call (DragnetCopy.arraycopy,
//     cloned);
//   - block ends: the moves into the canonical locals;
//   - root classes (those that got the tag field): each constructor that calls super()
//     sets this.dragnet$tag after it (DragnetFlow.claim).
#pragma once

#include "classfile/class_file.h"
#include "contexts/probes.h"
#include "flow/ids.h"

namespace dragnet::analyses::copy {

inline constexpr const char* kCopyClass = "java/lang/DragnetCopy";

struct ProbeOptions {
  bool bytecodes = false;
  // The class got the tag field (flow/tag_field.h): its constructors set it.
  bool rootClass = false;
};

// Instruments `cls` (whose tag field, if it is a root class, was added already).
contexts::ClassResult instrumentClass(classfile::ClassFile& cls, contexts::IdSource& ids,
                                      flow::FlowIds& flowIds, const ProbeOptions& options);

}  // namespace dragnet::analyses::copy
