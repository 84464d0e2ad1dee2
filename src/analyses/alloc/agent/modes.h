// Mode alloc in the agent (JP): the exact variant is the calling-context base as it is
// (agent/contexts_mode.h: every allocation counted per site and context), with call-site
// numbers passed (callers' lines) if caller-lines=on; the sampled one the JVM's allocation
// sampler as it is (agent/sampled_mode.h; its stacks give callers' lines anyway).
#pragma once

#include "agent/mode.h"

namespace dragnet::analyses::alloc {

agent::ModeInfo exactMode();
agent::ModeInfo sampledMode();

}  // namespace dragnet::analyses::alloc
