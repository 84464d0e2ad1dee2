// The tagfield agent's registry: that mode alone.
#include "agent/mode.h"
#include "agent/options.h"
#include "tag_field_mode.h"

namespace dragnet::agent {

std::span<const ModeInfo> registeredModes() {
  static const ModeInfo modes[] = {test::tagfield::mode()};
  return modes;
}

options::Tables registeredOptionTables() {
  static const options::Table* const tables[] = {&test::tagfield::optionTable()};
  return tables;
}

}  // namespace dragnet::agent
