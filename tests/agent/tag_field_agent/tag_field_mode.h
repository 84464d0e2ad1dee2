// Mode tagfield, a test agent of its own (tests/agent/tag_field_agent): the object-tag
// field of the flow engine and nothing else. Its class hook adds `dragnet$tag` to every
// root class of every class loaded (java.base included, from java/lang/Object on, as the
// real agent does) and rewrites the JDK's reflection filter to hide it
// (src/flow/tag_field.h). Options: deny=list (the flow engine's deny list) or deny=object
// (only java/lang/Object, to try the field on every other class); hide=off leaves the
// reflection filter alone (to show what the program would see).
#pragma once

#include "agent/mode.h"
#include "common/option_table.h"

namespace dragnet::test::tagfield {

agent::ModeInfo mode();
const options::Table& optionTable();

}  // namespace dragnet::test::tagfield
