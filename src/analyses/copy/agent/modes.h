// Mode copy's registration (src/registry/agent_modes.cpp).
#pragma once

#include "agent/mode.h"

namespace dragnet::analyses::copy {

agent::ModeInfo copyMode();

}  // namespace dragnet::analyses::copy
