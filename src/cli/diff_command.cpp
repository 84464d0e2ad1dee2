#include "diff_command.h"

#include <algorithm>
#include <fstream>
#include <iostream>

#include "report/analysis.h"
#include "report/coverage.h"
#include "report/diff.h"
#include "report/profile_input.h"

namespace dragnet::cli {

namespace {

constexpr int kExitUsage = 2;

// --top and --min-delta: a number below 0 is a usage error (a size_t would take -1 as its
// largest value).
const CLI::Validator kNotNegative(
    [](std::string& v) {
      return v.starts_with('-') ? std::string("must not be negative: ") + v : std::string();
    },
    "", "NOT NEGATIVE");

// One side of the diff: the profile read, its analysis's tables. 0, or the exit status.
int readSide(const std::string& path, const DiffOptions& o, profile::Profile& p,
             report::DiffSide& side) {
  if (!report::readProfileFile(path, p)) return 1;
  const report::Analysis* a = report::analysisOf(p);
  if (!a || !a->diff) {
    std::cerr << "dragnet: error: no analysis compares " << path << "\n";
    return 1;
  }
  report::ReportSettings settings{.top = o.top};
  std::string error;
  if (!report::parseReportOptions(*a, o.options, settings.options, error)) {
    std::cerr << "dragnet: error: " << error << "\n";
    return kExitUsage;
  }
  side.mode = a->name;
  side.variant = report::countingKind(p);
  if (auto pid = p.meta.find("pid"); pid != p.meta.end()) side.pid = pid->second;
  if (!a->diff(p, settings, side, error)) {
    std::cerr << "dragnet: error: " << path << ": " << error << "\n";
    return 1;
  }
  return 0;
}

}  // namespace

CLI::App* addDiffCommand(CLI::App& app, DiffOptions& o) {
  CLI::App* cmd = app.add_subcommand(
      "diff", "Compare two profiles of one mode: what grew, shrank, appeared and vanished");
  cmd->add_option("A B", o.inputs, "The profiles: the baseline A, then B")
      ->required()
      ->expected(2)
      ->check(CLI::ExistingFile);
  cmd->add_option("--format,-f", o.format, "html is one self-contained file")
      ->check(CLI::IsMember({"text", "json", "html"}))
      ->capture_default_str();
  cmd->add_option("-o,--output", o.output, "Write the diff here (default: stdout)");
  cmd->add_option("--top", o.top, "Rows per table (text, html; JSON: every row that changed)")
      ->check(kNotNegative)
      ->capture_default_str();
  cmd->add_option("--min-delta", o.minDelta,
                  "Leave out rows whose ranking measure changed by less than this")
      ->check(kNotNegative);
  cmd->add_option("--sort", o.sort,
                  "The measure that ranks the rows (default: each table's first; e.g. count, "
                  "drag, births)");
  report::addReportOptionFlag(cmd, o.options);
  report::addLenientFlag(cmd, o.lenient);
  cmd->footer(
      "Example: dragnet diff before.dragnet after.dragnet -f html -o diff.html\n\n"
      "Exit status: 0; 1 if a profile cannot be read or the output not written; 2 for a usage\n"
      "error (two profiles of different modes, or one exact and one sampled); 3 if a profile\n"
      "is corrupt (0 with --lenient).");
  return cmd;
}

int runDiff(const DiffOptions& o) {
  profile::Profile pa, pb;
  report::DiffSide a, b;
  if (int status = readSide(o.inputs[0], o, pa, a)) return status;
  if (int status = readSide(o.inputs[1], o, pb, b)) return status;
  report::DiffOptions options{.top = o.top, .minDelta = o.minDelta, .sort = o.sort};
  report::Diff d;
  d.pathA = o.inputs[0];
  d.pathB = o.inputs[1];
  std::string error;
  if (!report::diffSides(std::move(a), std::move(b), options, d, error)) {
    std::cerr << "dragnet: error: " << error << "\n";
    return kExitUsage;
  }
  std::ofstream file;
  std::ostream* stream = report::openOutput(o.output, file);
  if (!stream) return 1;
  std::ostream& out = *stream;
  if (o.format == "json") {
    report::writeDiffJson(out, d, options);
  } else if (o.format == "html") {
    report::writeDiffHtml(out, d, options);
  } else {
    report::writeDiffText(out, d, options);
  }
  if (!out.flush()) {
    std::cerr << "dragnet: error: cannot write " << (o.output.empty() ? "stdout" : o.output)
              << "\n";
    return 1;
  }
  return std::max(report::corruptStatus(pa, o.lenient), report::corruptStatus(pb, o.lenient));
}

}  // namespace dragnet::cli
