// Reports of a lifetime-mode profile (HUP): text (settings and the precision achieved,
// totals of lag, use, drag and void space, top classes, allocation sites and nested
// allocation sites by drag, void and lag, the lifetime patterns of the top nested sites,
// the reachable heap over time) and JSON (every group, docs/REPORTS.md has the schema).
#pragma once

#include <cstddef>
#include <ostream>

#include "analyses/lifetime/aggregate.h"

namespace dragnet::report {

struct LifetimeTextOptions {
  size_t top = 20;          // rows per table
  size_t patternSites = 3;  // nested sites whose lifetime patterns are listed, per table
  size_t patterns = 5;      // patterns listed per nested site
  size_t heapRows = 20;     // rows of the heap-over-time table
  size_t frames = 4;        // frames shown of a stack, innermost first (0: all; JSON: all)
};

void writeLifetimeText(std::ostream& out, const analyses::lifetime::Model& m,
                       const LifetimeTextOptions& o);

struct LifetimeJsonOptions {
  size_t heapBuckets = 400;  // points of the heap-over-time series
};

void writeLifetimeJson(std::ostream& out, const analyses::lifetime::Model& m,
                       const LifetimeJsonOptions& o);

}  // namespace dragnet::report
