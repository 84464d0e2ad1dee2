#include "analyses/cost/report/analysis.h"

#include <iostream>

#include "analyses/cost/model/load.h"
#include "analyses/cost/report/diff.h"
#include "analyses/cost/report/report.h"
#include "analyses/cost/report/shell.h"
#include "analyses/cost/report/sql.h"
#include "report/text_format.h"

namespace dragnet::report {

int costShellOn(const profile::Profile& p, const ShellSettings& s) {
  analyses::cost::Options o;
  std::string error;
  if (!costOptionsOf(s.options, o, error)) {  // checked by the CLI already
    std::cerr << "dragnet: error: " << error << "\n";
    return 2;
  }
  CostShell shell(p, analyses::cost::loadGraph(p), o, analyses::cost::recordingOf(p),
                  analyses::cost::totalsOf(p), std::cout, {.rows = s.rows});
  const auto& m = *shell.report().model;
  return runShellSession(shell, "dragnet shell: " + s.input + ": " + grouped(m.size().instances) +
                                    " instances, " + grouped(m.locations().size()) +
                                    " heap locations, " + grouped(m.objects().size()) +
                                    " object names. 'help' lists the commands, 'exit' leaves.\n");
}

bool costExportOn(const profile::Profile& p, const std::string& path, std::string& error) {
  analyses::cost::CostModel m(analyses::cost::loadGraph(p));
  CostReport r{&p, &m, analyses::cost::recordingOf(p), analyses::cost::totalsOf(p)};
  return exportCostSqlite(path, r, error);
}

}  // namespace dragnet::report

namespace dragnet::analyses::cost {
namespace {

constexpr std::string_view kFormats[] = {"text", "json", "html"};

// Not summed: each JVM numbers its program nodes and allocation sites on its own.
constexpr bool kMerges = false;

bool write(const profile::Profile& p, std::string_view format, const report::ReportSettings& s,
           std::ostream& out, std::string& error) {
  Options o;
  if (!report::costOptionsOf(s.options, o, error)) return false;
  CostModel m(loadGraph(p), o);
  report::CostReport r{&p, &m, recordingOf(p), totalsOf(p)};
  if (format == "json") {
    report::writeCostJson(out, r, {});
  } else if (format == "html") {
    report::writeCostHtml(out, r, {.top = s.top});
  } else {
    report::writeCostText(out, r, {.top = s.top});
  }
  return true;
}

}  // namespace

report::Analysis reports() {
  report::Analysis a{"cost",
                     isCostProfile,
                     kFormats,
                     write,
                     nullptr,
                     kMerges,
                     report::costShellOn,
                     report::costExportOn,
                     report::costReportOptions(),
                     report::checkCostOptions};
  a.diff = diffSide;
  return a;
}

}  // namespace dragnet::analyses::cost
