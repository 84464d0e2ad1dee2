#include "analyses/alloc/report/analysis.h"

#include "analyses/alloc/report/alloc_report.h"
#include "analyses/alloc/report/diff.h"
#include "analyses/alloc/report/html_report.h"
#include "analyses/alloc/report/pprof_report.h"
#include "analyses/alloc/report/threads.h"
#include "report/context_views.h"

namespace dragnet::analyses::alloc {
namespace {

constexpr std::string_view kFormats[] = {"text", "html", "json", "collapsed", "pprof"};

constexpr report::ReportOption kOptions[] = {
    {"thread", "only the threads whose name (or id) matches this glob, e.g. 'worker-*'; all"}};

// Every profile has the base's allocation profile: alloc reports what another analysis
// does not claim.
bool owns(const profile::Profile&) { return true; }

bool write(const profile::Profile& p, std::string_view format, const report::ReportSettings& s,
           std::ostream& out, std::string& error) {
  std::set<uint32_t> only;
  report::ThreadFilter threads;
  for (const auto& [name, value] : s.options) {  // `thread`, the only option: the last given
    only = report::threadsMatching(p, value);
    threads = {&only, value};
  }
  if (threads.only && only.empty()) {
    error = "--opt thread=" + threads.pattern + ": no thread's name or id matches";
    return false;
  }
  report::AllocView view =
      report::makeView(contexts::buildModel(p, nullptr, {.only = threads.only}), s.views);
  const contexts::AllocModel& m = view.model;
  if (format == "json") {
    report::writeJson(out, m, threads, &view);
  } else if (format == "collapsed") {
    report::writeCollapsed(out, m);
  } else if (format == "html") {
    report::writeHtml(out, m, {.top = s.top, .threads = threads, .view = &view});
  } else if (format == "pprof") {
    return report::writePprof(out, m, error, view.filter);
  } else {
    report::writeText(out, m, {.top = s.top, .threads = threads, .view = &view});
  }
  return true;
}

}  // namespace

report::Analysis reports() {
  report::Analysis a{"alloc", owns, kFormats, write, nullptr, true};
  a.diff = diffSide;
  a.options = kOptions;
  a.views = true;
  return a;
}

}  // namespace dragnet::analyses::alloc
