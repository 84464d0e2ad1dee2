// The HTML report: one self-contained file (style, script and data inline; no network) with
// the totals, an interactive flame graph of the merged calling-context tree (metric switch,
// search, zoom) and the tables. The page is templates/page.{html,css,js} of this folder,
// embedded at build time; the profile goes in as JSON (docs/REPORTS.md).
#pragma once

#include <ostream>
#include <span>
#include <string>

#include "analyses/alloc/report/alloc_report.h"
#include "common/embedded.h"
#include "contexts/model.h"
#include "report/context_views.h"

namespace dragnet {
// The page's own body, style and script (templates/page.*), embedded at build time.
std::span<const EmbeddedFile> allocPageFiles();
}  // namespace dragnet

namespace dragnet::report {

struct HtmlOptions {
  size_t top = 20;  // rows per table
  // Contexts below this share of every metric (bytes, objects, bytecodes) are left out of
  // the flame graph; their values are added to their caller's own values.
  double minFraction = 1e-4;
  ThreadFilter threads = {};         // the threads of the model (alloc_report.h)
  const AllocView* view = nullptr;  // of the model: its filter and first application frames
};

// The JSON the page embeds (docs/REPORTS.md describes it).
std::string htmlData(const contexts::AllocModel& m, const HtmlOptions& o);
void writeHtml(std::ostream& out, const contexts::AllocModel& m, const HtmlOptions& o);

}  // namespace dragnet::report
