// Mode alloc's entry in the option tables (listed by src/registry/options.cpp): its mode
// and what it records; it takes the common options only. No JNI.
#pragma once

#include "common/option_table.h"

namespace dragnet::analyses::alloc {

const options::Table& optionTable();

}  // namespace dragnet::analyses::alloc
