// Mode alloc's entry in the option tables (listed by src/registry/options.cpp): its mode,
// what it records and its own options, with their typed values. No JNI.
#pragma once

#include "common/option_table.h"

namespace dragnet::analyses::alloc {

const options::Table& optionTable();

// The options as the agent uses them.
struct OptionValues {
  bool callerLines = false;  // exact variant: pass call-site numbers (contexts::Options::callSlots)
};

// The values of parsed `values` (options::parse with this table).
OptionValues optionValues(const options::Values& values);

}  // namespace dragnet::analyses::alloc
