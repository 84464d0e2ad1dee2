// An analysis as the dragnet command sees it: which profiles are its, the report formats it
// writes and the commands of its own (`dragnet shell`). The registry
// (src/registry/report_analyses.cpp) lists every analysis; `dragnet report` gives a profile
// to the first that owns it.
#pragma once

#include <CLI/CLI.hpp>
#include <cstddef>
#include <functional>
#include <ostream>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "profile/reader.h"
#include "report/stack_filter.h"

namespace dragnet::report {

struct DiffSide;  // report/diff.h

// An analysis's report-time options as given (`--opt NAME=VALUE`, repeatable), in order; a
// name given twice: the last value holds. Checked by parseReportOptions before the analysis
// sees them.
using OptionValues = std::vector<std::pair<std::string, std::string>>;

struct ReportSettings {
  size_t top = 20;            // rows per table (text, html)
  OptionValues options = {};  // the analysis's own (Analysis::options)
  ViewSettings views = {};    // --include, --exclude, --focus, --app-exclude
};

// A command of an analysis's own: its subcommand and what runs it once parsed.
struct Command {
  CLI::App* app = nullptr;
  std::function<int()> run;
};

// `dragnet shell FILE` as the analysis of FILE runs it.
struct ShellSettings {
  std::string input;          // the profile's path, for the banner
  size_t rows = 20;           // rows of a table without @N
  OptionValues options = {};  // the analysis's own (Analysis::options)
};

// A report-time option of an analysis: `--opt NAME=VALUE` of `dragnet report` and
// `dragnet shell`.
struct ReportOption {
  std::string_view name;
  std::string_view help;  // its values and default, one line
};

struct Analysis {
  std::string_view name;
  // Whether `p` is a profile of this analysis (asked in the registry's order).
  bool (*owns)(const profile::Profile& p) = nullptr;
  // The formats `write` takes, the first the default.
  std::span<const std::string_view> formats;
  // Writes the report of `p` in `format` (one of `formats`); false with `error`.
  bool (*write)(const profile::Profile& p, std::string_view format, const ReportSettings& s,
                std::ostream& out, std::string& error) = nullptr;
  // Adds the analysis's own subcommands to `app` (null: none).
  void (*commands)(CLI::App& app, std::vector<Command>& out) = nullptr;
  // Whether several of its profiles (the JVMs of one run) can be reported as their sum.
  bool merges = false;
  // `dragnet shell` on one of its profiles: the session's exit status (null: no shell).
  int (*shell)(const profile::Profile& p, const ShellSettings& s) = nullptr;
  // `dragnet export --sqlite PATH`: its tables into a new database file; false with `error`
  // (null: no tables).
  bool (*exportSqlite)(const profile::Profile& p, const std::string& path,
                       std::string& error) = nullptr;
  // Its report-time options (none: `--opt` is refused).
  std::span<const ReportOption> options = {};
  // Whether the values of `given` (names among `options`) are valid; false with `error`
  // (null: any value is).
  bool (*checkOptions)(const OptionValues& given, std::string& error) = nullptr;
  // `dragnet diff`: the profile as keyed tables with the mode's measures (report/diff.h);
  // false with `error` (null: no diff).
  bool (*diff)(const profile::Profile& p, const ReportSettings& s, DiffSide& out,
               std::string& error) = nullptr;
  // Whether its reports apply ReportSettings::views (stack filters, first application
  // frames); `dragnet report` refuses those flags for an analysis that does not.
  bool views = false;
};

// `--opt` items ("NAME=VALUE" each) for `a`: into `out`, or false with `error` (no '=', a
// name `a` does not take, a value its checkOptions refuses). The CLI's usage error.
bool parseReportOptions(const Analysis& a, const std::vector<std::string>& items, OptionValues& out,
                        std::string& error);

// --opt NAME=VALUE (repeatable) on `cmd`, into `items` (for parseReportOptions).
void addReportOptionFlag(CLI::App* cmd, std::vector<std::string>& items);

// --include, --exclude, --focus (repeatable patterns) and --app-exclude (repeatable, each a
// comma-separated list of class-name prefixes) on `cmd`, into `views`.
void addViewFlags(CLI::App* cmd, ViewSettings& views);

// "consumer-rab, height" (or "none").
std::string optionList(const Analysis& a);

// Every registered analysis (src/registry/report_analyses.cpp).
std::span<const Analysis> registeredAnalyses();

// The analysis that owns `p`, or null.
const Analysis* analysisOf(const profile::Profile& p);

// The analysis of mode `name`, or null.
const Analysis* analysisNamed(std::string_view name);

// Whether `a` writes `format`.
bool writes(const Analysis& a, std::string_view format);

// Every format some analysis writes, in the registry's order, once each.
std::vector<std::string> allFormats();

// The analyses with a shell (and tables): "lifetime, copy or cost".
std::string shellAnalysisList();

// "text, json or html".
std::string formatList(const Analysis& a);

}  // namespace dragnet::report
