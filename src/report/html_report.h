// The HTML report: one self-contained file (style, script and data inline; no network) with
// the totals, an interactive flame graph of the merged calling-context tree (metric switch,
// search, zoom) and the tables. The page is src/report/templates/alloc.{html,css,js},
// embedded at build time; the profile goes in as JSON (docs/REPORTS.md).
#pragma once

#include <ostream>
#include <string>

#include "analyses/alloc/aggregate.h"

namespace dragnet::report {

struct HtmlOptions {
  size_t top = 20;  // rows per table
  // Contexts below this share of every metric (bytes, objects, bytecodes) are left out of
  // the flame graph; their values are added to their caller's own values.
  double minFraction = 1e-4;
};

// The JSON the page embeds (docs/REPORTS.md describes it).
std::string htmlData(const analyses::alloc::AllocModel& m, const HtmlOptions& o);
void writeHtml(std::ostream& out, const analyses::alloc::AllocModel& m, const HtmlOptions& o);

}  // namespace dragnet::report
