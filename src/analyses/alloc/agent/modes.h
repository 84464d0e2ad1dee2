// Mode alloc in the agent (JP): the exact variant is the calling-context base as it is
// (agent/contexts_mode.h: every allocation counted per site and context), the sampled one
// the JVM's allocation sampler as it is (agent/sampled_mode.h).
#pragma once

#include "agent/mode.h"

namespace dragnet::analyses::alloc {

agent::ModeInfo exactMode();
agent::ModeInfo sampledMode();

}  // namespace dragnet::analyses::alloc
