// Mode toy: a third analysis written as every analysis is, to show the house's door. One
// folder (this one) and one registry line (toy_registry.cpp). It is the calling-context
// base, so alloc's counts, with one extension of its own in the same rewrite pass: at the
// entry of every method whose name starts with "counted" it calls the program's static
// ToyOracle.hit(), and the End chunk counts the probes it inserted (toy.probes).
#pragma once

#include "agent/mode.h"
#include "common/option_table.h"

namespace dragnet::test::toy {

agent::ModeInfo mode();
// Its entry in the option tables: the mode, no options of its own.
const options::Table& optionTable();

}  // namespace dragnet::test::toy
