// The `dragnet` command-line tool: subcommand dispatch.
#include <CLI/CLI.hpp>

#include "attach_command.h"
#include "instrument_command.h"
#include "profile_commands.h"
#include "report/analysis.h"

#ifndef DRAGNET_VERSION
#define DRAGNET_VERSION "unknown"
#endif

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
      "`dragnet report` shows the result;\n"
      "`dragnet instrument` rewrites class files offline.",
      "dragnet"};
  app.set_version_flag("--version", std::string("dragnet ") + DRAGNET_VERSION);
  app.require_subcommand(1);
  app.footer("Run 'dragnet instrument --help' for the instrumenter's options and tools.");

  dragnet::cli::InstrumentOptions instrument;
  CLI::App* instrumentCmd = dragnet::cli::addInstrumentCommand(app, instrument);
  dragnet::cli::RunOptions run;
  CLI::App* runCmd = dragnet::cli::addRunCommand(app, run);
  dragnet::cli::ReportOptions report;
  CLI::App* reportCmd = dragnet::cli::addReportCommand(app, report);
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
  if (attachCmd->parsed()) return dragnet::cli::runAttach(attach, argv[0]);
  for (const dragnet::report::Command& c : own) {
    if (c.app->parsed()) return c.run();
  }
  return kExitUsage;
}
