// `dragnet instrument`: options, help and the run.
#pragma once

#include <CLI/CLI.hpp>
#include <cstddef>
#include <string>

namespace dragnet::cli {

struct InstrumentOptions {
  std::string tool;
  std::string input;
  std::string output;
  bool checkIdentity = false;
  bool quiet = false;
  size_t maxListed = 20;
  int32_t idBase = 0;
  bool noRuntime = false;
};

// Adds the `instrument` subcommand to `app`, filling `options` when parsed.
CLI::App* addInstrumentCommand(CLI::App& app, InstrumentOptions& options);

// Runs the command. Exit status: 0 done (even if some classes failed and were copied
// unchanged), 1 --check-identity found differing classes, 2 input unreadable, output
// unwritable or unknown tool.
int runInstrument(const InstrumentOptions& options);

}  // namespace dragnet::cli
