// Mode lifetime's own options (its table, listed by src/registry/options.cpp) and their
// typed values. No JNI: the agent and the dragnet command both use it.
#pragma once

#include <cstdint>

#include "common/option_table.h"

namespace dragnet::analyses::lifetime {

const options::Table& optionTable();

// The options as the agent uses them.
struct OptionValues {
  uint64_t gcInterval = 8u << 20;  // bytes of allocation between forced collections
  uint32_t gcBudget = 25;          // percent of the run's time they may take (100: all)
  uint64_t useEpoch = 64u << 10;   // a power of two: bytes per use epoch
  bool useContexts = false;        // record where first and last uses happen
  uint32_t siteFrames = 8;         // method frames of a nested allocation site (0: all)
};

// The values of parsed `values` (options::parse with this table).
OptionValues optionValues(const options::Values& values);

}  // namespace dragnet::analyses::lifetime
