// Keeps HotSpot's JIT from skipping the exact mode's probes. C2 replaces some JDK methods
// whose Java bodies allocate by code of its own (intrinsics such as Arrays.copyOf), fuses
// StringBuilder chains into one allocation, and drops unused boxing calls: in each case
// the bytecode's allocations, and the probes in front of them, never run once a caller is
// compiled, so counts would depend on the JIT tier. The agent switches those
// transformations off before any compiler starts, by writing the JVM's flags through the
// table HotSpot exports for its serviceability agent (gHotSpotVMStructs).
#pragma once

#include <jni.h>

#include <string>
#include <vector>

#include "agent/jit_changes.h"

namespace dragnet::agent {

// The outcome, for the profile's meta data and the report: `applied` when every flag was
// found and set; otherwise `detail` says which were not (a JVM without the table, or
// another flag layout) and the counts of a compiled caller may miss allocations.
struct JitSettings {
  bool applied = false;
  std::string detail;
};

// Adds disabledIntrinsics() to DisableIntrinsic and sets disabledTransformations()' flags
// to false in the JVM that loads the agent. Must run in
// Agent_OnLoad: the compilers read them when they start.
// `more`: further intrinsic ids to keep off (the mode's, Mode::moreDisabledIntrinsics).
JitSettings keepAllocationsInBytecode(JavaVM* vm, const std::vector<std::string>& more = {});

}  // namespace dragnet::agent
