// Reports of a lifetime-mode profile (HUP): text (settings and the precision achieved,
// totals of lag, use, drag and void space with the bytes each held on average and drag
// split into actionable, below the death precision and until exit, top classes, allocation
// sites and nested allocation sites by drag, void and lag, the lifetime patterns of the top
// nested sites, the reachable heap over time), JSON (every group, docs/REPORTS.md has the
// schema), HTML (one self-contained page: totals, the heap-over-time chart of HUP Fig. 5,
// flame graphs of drag, void and lag by allocation context, sortable tables of classes,
// allocation sites and nested sites, and the lifetime patterns of a site), and the flame
// graphs as collapsed stacks and pprof.
#pragma once

#include <cstddef>
#include <ostream>
#include <span>
#include <string>

#include "analyses/lifetime/model/aggregate.h"
#include "common/embedded.h"
#include "report/stack_filter.h"

namespace dragnet {
// The HTML page's own body, style and script (templates/page.*), embedded at build time.
std::span<const EmbeddedFile> lifetimePageFiles();
}  // namespace dragnet

namespace dragnet::report {

struct LifetimeTextOptions {
  size_t top = 20;          // rows per table
  size_t patternSites = 3;  // nested sites whose lifetime patterns are listed, per table
  size_t patterns = 5;      // patterns listed per nested site
  size_t heapRows = 20;     // rows of the heap-over-time table
  size_t frames = 4;        // frames shown of a stack, innermost first (0: all; JSON: all)
  ViewSettings views = {};  // the filter the model was built with; the application's frames
};

void writeLifetimeText(std::ostream& out, const analyses::lifetime::Model& m,
                       const LifetimeTextOptions& o);

struct LifetimeJsonOptions {
  size_t heapBuckets = 400;  // points of the heap-over-time series
  ViewSettings views = {};   // the filter the model was built with; the application's frames
};

void writeLifetimeJson(std::ostream& out, const analyses::lifetime::Model& m,
                       const LifetimeJsonOptions& o);

// Flame graphs of one measure (drag, void or lag: the report option `measure`) by the
// allocation's whole calling context (flame.h): collapsed stacks, one line per context and
// allocation site, "root;...;allocating method;type SPACE" with the exact space (byte x
// byte); and pprof, whose samples carry every measure as the average bytes held in it over
// the run (space / run length), `measure` the default sample type.
void writeLifetimeCollapsed(std::ostream& out, const analyses::lifetime::Model& m,
                            analyses::lifetime::Phase measure);
std::string lifetimePprofProfile(const analyses::lifetime::Model& m,
                                 analyses::lifetime::Phase measure);
bool writeLifetimePprof(std::ostream& out, const analyses::lifetime::Model& m,
                        analyses::lifetime::Phase measure, std::string& error);

struct LifetimeHtmlOptions {
  size_t top = 20;              // rows a table shows before "show all"
  size_t groups = 1000;         // classes, methods and nested sites embedded: the top this many
                                // by total space and by each phase's space (a union)
  size_t patterns = 20;         // patterns embedded per nested site, chosen the same way
  size_t heapBuckets = 1000;    // chart buckets (heapSeries: at most 3 points each)
  double flameMinShare = 1e-4;  // flame graph rows below this share of every measure are
                                // folded into one "(small contexts)" row
  ViewSettings views = {};      // the filter the model was built with; the application's frames
};

// The JSON the page embeds (docs/REPORTS.md, "lifetime html"), safe inside <script>.
std::string lifetimeHtmlData(const analyses::lifetime::Model& m, const LifetimeHtmlOptions& o);
void writeLifetimeHtml(std::ostream& out, const analyses::lifetime::Model& m,
                       const LifetimeHtmlOptions& o);

}  // namespace dragnet::report
