// The agent's modes: one line per mode (agent/mode.h).
#include "agent/mode.h"
#include "analyses/alloc/agent/modes.h"
#include "analyses/copy/agent/modes.h"
#include "analyses/cost/agent/modes.h"
#include "analyses/lifetime/agent/modes.h"

namespace dragnet::agent {

std::span<const ModeInfo> registeredModes() {
  static const ModeInfo modes[] = {
      analyses::alloc::exactMode(),    analyses::alloc::sampledMode(),
      analyses::lifetime::exactMode(), analyses::lifetime::sampledMode(),
      analyses::copy::copyMode(),      analyses::cost::costMode(),
  };
  return modes;
}

}  // namespace dragnet::agent
