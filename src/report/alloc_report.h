// Reports of an alloc-mode profile: text (totals, top sites, top types, JP element kinds,
// call tree, classes not rewritten), JSON (docs/REPORTS.md has the schema) and collapsed
// stacks (flamegraph.pl / speedscope, weighted by bytes).
#pragma once

#include <ostream>
#include <string>

#include "analyses/alloc/aggregate.h"

namespace dragnet::report {

struct TextOptions {
  size_t top = 20;  // rows per table
};

void writeText(std::ostream& out, const analyses::alloc::AllocModel& m, const TextOptions& o);
void writeJson(std::ostream& out, const analyses::alloc::AllocModel& m);
// One line per allocation row: "root;caller;...;allocating method;type bytes".
void writeCollapsed(std::ostream& out, const analyses::alloc::AllocModel& m);

}  // namespace dragnet::report
