// `dragnet run -- java ...` (launch a JVM with the agent) and `dragnet report FILE...`.
#pragma once

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

#include "report/profile_input.h"

namespace dragnet::cli {

using report::addLenientFlag;
using report::corruptStatus;
using report::kExitCorrupt;
using report::readProfileFile;
using report::readProfiles;

struct RunOptions {
  std::string mode = "alloc";
  std::string output;
  bool bytecodes = false;
  std::string sample;  // sample=SIZE: sampled allocations instead of rewriting
  // Mode lifetime (empty / false / unset: the agent's defaults).
  std::string gcInterval;            // gc-interval=SIZE
  std::string gcBudget;              // gc-budget=PERCENT
  std::string useEpoch;              // use-epoch=SIZE
  bool stacks = false;               // stacks=on
  std::string stack;                 // stack=N
  std::string agentOptions;          // extra k=v,... passed to the agent as they are
  std::vector<std::string> command;  // java and its arguments
};

struct ReportOptions {
  std::vector<std::string> inputs;  // several: alloc profiles, merged
  std::string format = "text";
  std::string output;
  size_t top = 20;
  bool lenient = false;  // a corrupt profile exits 0
};

CLI::App* addRunCommand(CLI::App& app, RunOptions& o);
int runRun(const RunOptions& o, const char* argv0);
CLI::App* addReportCommand(CLI::App& app, ReportOptions& o);
int runReport(const ReportOptions& o);

}  // namespace dragnet::cli
