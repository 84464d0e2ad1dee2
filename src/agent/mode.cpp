#include "agent/mode.h"

namespace dragnet::agent {

const ModeInfo* findMode(std::string_view name, bool sampled) {
  for (const ModeInfo& m : registeredModes()) {
    if (m.name == name && m.sampled == sampled) return &m;
  }
  return nullptr;
}

bool isLateRuntimeClass(std::string_view name) {
  for (const ModeInfo& m : registeredModes()) {
    for (std::string_view c : m.lateClasses) {
      if (c == name) return true;
    }
  }
  return false;
}

}  // namespace dragnet::agent
