// The toy agent's modes: the registry's alloc lines and the toy's one line.
#include "agent/mode.h"
#include "analyses/alloc/agent/modes.h"
#include "toy_mode.h"

namespace dragnet::agent {

std::span<const ModeInfo> registeredModes() {
  static const ModeInfo modes[] = {
      analyses::alloc::exactMode(),
      analyses::alloc::sampledMode(),
      test::toy::mode(),
  };
  return modes;
}

}  // namespace dragnet::agent
