#include "analyses/alloc/report/analysis.h"

#include "analyses/alloc/report/alloc_report.h"
#include "analyses/alloc/report/diff.h"
#include "analyses/alloc/report/html_report.h"
#include "analyses/alloc/report/pprof_report.h"

namespace dragnet::analyses::alloc {
namespace {

constexpr std::string_view kFormats[] = {"text", "html", "json", "collapsed", "pprof"};

// Every profile has the base's allocation profile: alloc reports what another analysis
// does not claim.
bool owns(const profile::Profile&) { return true; }

bool write(const profile::Profile& p, std::string_view format, const report::ReportSettings& s,
           std::ostream& out, std::string& error) {
  contexts::AllocModel m = contexts::buildModel(p);
  if (format == "json") {
    report::writeJson(out, m);
  } else if (format == "collapsed") {
    report::writeCollapsed(out, m);
  } else if (format == "html") {
    report::writeHtml(out, m, {.top = s.top});
  } else if (format == "pprof") {
    return report::writePprof(out, m, error);
  } else {
    report::writeText(out, m, {.top = s.top});
  }
  return true;
}

}  // namespace

report::Analysis reports() {
  report::Analysis a{"alloc", owns, kFormats, write, nullptr, true};
  a.diff = diffSide;
  return a;
}

}  // namespace dragnet::analyses::alloc
