// `dragnet run -- java ...` (launch a JVM with the agent) and `dragnet report FILE...`.
#pragma once

#include <CLI/CLI.hpp>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "report/profile_input.h"
#include "report/stack_filter.h"
#include "run_flags.h"

namespace dragnet::cli {

using report::addLenientFlag;
using report::corruptStatus;
using report::kExitCorrupt;
using report::readProfileFile;
using report::readProfiles;

struct RunOptions {
  AgentFlags agent;                  // the agent options given by flags (-o FILE: out)
  std::string agentOptions;          // extra k=v,... passed to the agent as they are
  std::vector<std::string> command;  // java and its arguments
  std::optional<double> heapFactor;  // --heap-factor; unset: the mode's (Table::heapGrowth)
};

struct ReportOptions {
  std::vector<std::string> inputs;  // several: profiles of one mode, merged
  std::string format = "text";
  std::string output;
  size_t top = 20;
  std::vector<std::string> options;  // --opt NAME=VALUE: the analysis's report options
  report::ViewSettings views;        // --include, --exclude, --focus, --app-exclude
  bool lenient = false;              // a corrupt profile exits 0
};

// libdragnet.so next to the dragnet binary: <prefix>/bin/dragnet -> <prefix>/lib.
std::filesystem::path agentLibrary(const char* argv0);

CLI::App* addRunCommand(CLI::App& app, RunOptions& o);
int runRun(const RunOptions& o, const char* argv0);
CLI::App* addReportCommand(CLI::App& app, ReportOptions& o);
int runReport(const ReportOptions& o);

}  // namespace dragnet::cli
