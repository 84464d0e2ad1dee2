// Mode cost's registration (src/registry/agent_modes.cpp).
#pragma once

#include "agent/mode.h"

namespace dragnet::analyses::cost {

agent::ModeInfo costMode();

}  // namespace dragnet::analyses::cost
