// Mode cost's own options (its table, listed by src/registry/options.cpp) and their typed
// values. No JNI: the agent and the dragnet command both use it.
#pragma once

#include <cstdint>

#include "common/option_table.h"

namespace dragnet::analyses::cost {

const options::Table& optionTable();

struct OptionValues {
  uint32_t slots = 16;         // context slots per node (s), 1..32
  bool elementShadows = true;  // array-shadow=element: a shadow per array element
  uint64_t maxMemory = 0;      // the agent's max-memory (the element shadows take half)
};

OptionValues optionValues(const options::Values& values);

}  // namespace dragnet::analyses::cost
