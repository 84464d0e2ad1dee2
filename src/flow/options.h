// The options the flow modes share (copy, cost): their table, listed by
// src/registry/options.cpp. No JNI: the agent and the dragnet command both use it.
#pragma once

#include "common/option_table.h"

namespace dragnet::flow {

const options::Table& optionTable();

}  // namespace dragnet::flow
