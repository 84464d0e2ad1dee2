// The `dragnet` command-line tool: subcommand dispatch.
#include <CLI/CLI.hpp>

#include "attach_command.h"
#include "common/version.h"
#include "diff_command.h"
#include "instrument_command.h"
#include "profile_commands.h"
#include "report/analysis.h"

namespace {

constexpr int kExitUsage = 2;

int parseError(const CLI::App& app, const CLI::ParseError& e) {
  int status = app.exit(e);  // prints help/version (status 0) or the error
  return status == 0 ? 0 : kExitUsage;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{
      "dragnet: memory-analysis toolkit for Java programs. `dragnet run -- java ...` profiles\n"
      "every allocation per calling context; `dragnet attach PID` samples a running JVM;\n"
      "`dragnet report` shows the result, `dragnet diff` what changed between two;\n"
      "`dragnet instrument` rewrites class files offline.",
      "dragnet"};
  app.set_version_flag("--version", "dragnet " + std::string(dragnet::kVersion));
  app.require_subcommand(1);
  app.footer("Run 'dragnet instrument --help' for the instrumenter's options and tools.");

  dragnet::cli::InstrumentOptions instrument;
  CLI::App* instrumentCmd = dragnet::cli::addInstrumentCommand(app, instrument);
  dragnet::cli::RunOptions run;
  CLI::App* runCmd = dragnet::cli::addRunCommand(app, run);
  dragnet::cli::ReportOptions report;
  CLI::App* reportCmd = dragnet::cli::addReportCommand(app, report);
  dragnet::cli::DiffOptions diff;
  CLI::App* diffCmd = dragnet::cli::addDiffCommand(app, diff);
  dragnet::cli::AttachOptions attach;
  CLI::App* attachCmd = dragnet::cli::addAttachCommand(app, attach);
  std::vector<dragnet::report::Command> own;  // the analyses' commands (`dragnet shell`, ...)
  for (const dragnet::report::Analysis& a : dragnet::report::registeredAnalyses()) {
    if (a.commands) a.commands(app, own);
  }

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return parseError(app, e);
  }
  if (instrumentCmd->parsed()) return dragnet::cli::runInstrument(instrument);
  if (runCmd->parsed()) return dragnet::cli::runRun(run, argv[0]);
  if (reportCmd->parsed()) return dragnet::cli::runReport(report);
  if (diffCmd->parsed()) return dragnet::cli::runDiff(diff);
  if (attachCmd->parsed()) return dragnet::cli::runAttach(attach, argv[0]);
  for (const dragnet::report::Command& c : own) {
    if (c.app->parsed()) return c.run();
  }
  return kExitUsage;
}
