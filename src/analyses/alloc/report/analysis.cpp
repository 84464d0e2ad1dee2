#include "analyses/alloc/report/analysis.h"

#include "analyses/alloc/report/alloc_report.h"
#include "analyses/alloc/report/diff.h"
#include "analyses/alloc/report/html_report.h"
#include "analyses/alloc/report/pprof_report.h"
#include "report/context_views.h"

namespace dragnet::analyses::alloc {
namespace {

constexpr std::string_view kFormats[] = {"text", "html", "json", "collapsed", "pprof"};

// Every profile has the base's allocation profile: alloc reports what another analysis
// does not claim.
bool owns(const profile::Profile&) { return true; }

bool write(const profile::Profile& p, std::string_view format, const report::ReportSettings& s,
           std::ostream& out, std::string& error) {
  report::AllocView view = report::makeView(contexts::buildModel(p), s.views);
  const contexts::AllocModel& m = view.model;
  if (format == "json") {
    report::writeJson(out, m, &view);
  } else if (format == "collapsed") {
    report::writeCollapsed(out, m);
  } else if (format == "html") {
    report::writeHtml(out, m, {.top = s.top, .view = &view});
  } else if (format == "pprof") {
    return report::writePprof(out, m, error, view.filter);
  } else {
    report::writeText(out, m, {.top = s.top, .view = &view});
  }
  return true;
}

}  // namespace

report::Analysis reports() {
  report::Analysis a{"alloc", owns, kFormats, write, nullptr, true};
  a.diff = diffSide;
  a.views = true;
  return a;
}

}  // namespace dragnet::analyses::alloc
