#include "analyses/lifetime/report/analysis.h"

#include <memory>

#include "analyses/lifetime/model/aggregate.h"
#include "analyses/lifetime/report/diff.h"
#include "analyses/lifetime/report/report.h"
#include "analyses/lifetime/report/shell_command.h"

namespace dragnet::analyses::lifetime {
namespace {

constexpr std::string_view kFormats[] = {"text", "json", "html"};

// Its profiles are not summed: each one's times run on its JVM's own allocation clock.
constexpr bool kMerges = false;

bool write(const profile::Profile& p, std::string_view format, const report::ReportSettings& s,
           std::ostream& out, std::string&) {
  Model m = buildModel(p);
  if (format == "json") {
    report::writeLifetimeJson(out, m, {});
  } else if (format == "html") {
    report::writeLifetimeHtml(out, m, {.top = s.top});
  } else {
    report::writeLifetimeText(out, m, {.top = s.top});
  }
  return true;
}

void commands(CLI::App& app, std::vector<report::Command>& out) {
  auto shell = std::make_shared<ShellCommandOptions>();
  out.push_back({addShellCommand(app, *shell), [shell] { return runShell(*shell); }});
  auto exported = std::make_shared<ExportOptions>();
  out.push_back({addExportCommand(app, *exported), [exported] { return runExport(*exported); }});
}

}  // namespace

report::Analysis reports() {
  report::Analysis a{"lifetime", isLifetimeProfile, kFormats, write,
                     commands,   kMerges,           shellOn,  exportOn};
  a.diff = diffSide;
  return a;
}

}  // namespace dragnet::analyses::lifetime
