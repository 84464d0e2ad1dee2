// Mode lifetime in the agent (HUP). The exact variant is the calling-context base
// (agent/contexts_mode.h) with the use probes (probes/instrumenter.h) in the same rewrite
// and the object tracking of lifetime.h; the sampled variant is the JVM's allocation
// sampler (agent/sampled_mode.h) with use probes only (probes/sampled_instrumenter.h) and
// the tracking of lifetime_sampled.h.
#pragma once

#include "agent/mode.h"

namespace dragnet::analyses::lifetime {

agent::ModeInfo exactMode();
agent::ModeInfo sampledMode();

}  // namespace dragnet::analyses::lifetime
