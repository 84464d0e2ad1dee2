#include "analyses/lifetime/report/analysis.h"

#include <algorithm>
#include <memory>

#include "analyses/lifetime/model/aggregate.h"
#include "analyses/lifetime/model/flame.h"
#include "analyses/lifetime/report/diff.h"
#include "analyses/lifetime/report/report.h"
#include "analyses/lifetime/report/shell_command.h"
#include "analyses/lifetime/report/views.h"

namespace dragnet::analyses::lifetime {
namespace {

constexpr std::string_view kFormats[] = {"text", "json", "html", "collapsed", "pprof"};

constexpr report::ReportOption kOptions[] = {
    {"measure", "the flame graphs' measure (collapsed, pprof's default): drag, void or lag; drag"}};

// The measure of `--opt measure=...` (the last given), drag by default; false with `error`.
bool measureOf(const report::OptionValues& given, Phase& out, std::string& error) {
  out = Phase::Drag;
  for (const auto& [name, value] : given) {
    auto it = std::find_if(kFlamePhases.begin(), kFlamePhases.end(),
                           [&](Phase p) { return value == phaseName(p); });
    if (name != "measure" || it == kFlamePhases.end()) {
      error = "--opt " + name + "=" + value + ": expected measure=drag, void or lag";
      return false;
    }
    out = *it;
  }
  return true;
}

bool checkOptions(const report::OptionValues& given, std::string& error) {
  Phase p;
  return measureOf(given, p, error);
}

// Its profiles are not summed: each one's times run on its JVM's own allocation clock.
constexpr bool kMerges = false;

bool write(const profile::Profile& p, std::string_view format, const report::ReportSettings& s,
           std::ostream& out, std::string& error) {
  Phase measure;
  if (!measureOf(s.options, measure, error)) return false;
  report::FrameMatcher matcher(p, s.views.filter, s.views.app);
  Model m = buildModel(p, report::lifetime_views::contextFilter(p, matcher));
  if (!s.views.filter.focus.empty()) {  // the flame graphs from the focus frame on
    m.flameCut = [&matcher](const std::vector<uint32_t>& keys) {
      report::FrameMatcher::Verdict v = matcher.judge(keys);
      return v.kept ? v.shown : keys.size();
    };
  }
  if (format == "collapsed") {
    report::writeLifetimeCollapsed(out, m, measure);
  } else if (format == "pprof") {
    return report::writeLifetimePprof(out, m, measure, error);
  } else if (format == "json") {
    report::writeLifetimeJson(out, m, {.views = s.views});
  } else if (format == "html") {
    report::writeLifetimeHtml(out, m, {.top = s.top, .views = s.views});
  } else {
    report::writeLifetimeText(out, m, {.top = s.top, .views = s.views});
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
  report::Analysis a{"lifetime", isLifetimeProfile, kFormats, write,    commands,
                     kMerges,    shellOn,           exportOn, kOptions, checkOptions};
  a.diff = diffSide;
  a.views = true;
  return a;
}

}  // namespace dragnet::analyses::lifetime
