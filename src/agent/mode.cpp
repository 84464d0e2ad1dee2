#include "agent/mode.h"

namespace dragnet::agent {

const ModeInfo* findMode(std::string_view name, bool sampled) {
  for (const ModeInfo& m : registeredModes()) {
    if (m.name == name && m.sampled == sampled) return &m;
  }
  return nullptr;
}

}  // namespace dragnet::agent
