// The `dragnet` command-line tool: subcommand dispatch.
#include <CLI/CLI.hpp>

#include "instrument_command.h"

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
      "dragnet: memory-analysis toolkit for Java programs. It rewrites class files to profile\n"
      "allocation, object lifetimes and data copying; today it provides the class-file\n"
      "instrumenter and the identity tool.",
      "dragnet"};
  app.set_version_flag("--version", std::string("dragnet ") + DRAGNET_VERSION);
  app.require_subcommand(1);
  app.footer("Run 'dragnet instrument --help' for the instrumenter's options and tools.");

  dragnet::cli::InstrumentOptions instrument;
  CLI::App* instrumentCmd = dragnet::cli::addInstrumentCommand(app, instrument);

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return parseError(app, e);
  }
  if (instrumentCmd->parsed()) return dragnet::cli::runInstrument(instrument);
  return kExitUsage;
}
