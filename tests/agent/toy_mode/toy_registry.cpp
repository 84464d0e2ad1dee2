// The toy agent's registry: the registry's alloc lines and the toy's one line, for its
// modes and for its option tables.
#include "agent/mode.h"
#include "agent/options.h"
#include "analyses/alloc/agent/modes.h"
#include "analyses/alloc/options.h"
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

options::Tables registeredOptionTables() {
  static const options::Table* const tables[] = {
      &analyses::alloc::optionTable(),
      &test::toy::optionTable(),
  };
  return tables;
}

}  // namespace dragnet::agent
