// `dragnet run -- java ...` (launch a JVM with the agent) and `dragnet report FILE...`.
#pragma once

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

#include "profile/reader.h"

namespace dragnet::cli {

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

// Exit status of `dragnet report`, `shell` and `export` for a corrupt profile (parts of it
// skipped; the output covers the rest), unless --lenient is given.
inline constexpr int kExitCorrupt = 3;

CLI::App* addRunCommand(CLI::App& app, RunOptions& o);
// Reads a profile (progress on a terminal); says on stderr why it cannot, or that the
// profile is corrupt (what was skipped) or incomplete.
bool readProfileFile(const std::string& path, profile::Profile& p);
// Reads one profile, or several alloc profiles merged into one (analyses/alloc/merge.h);
// says on stderr why it cannot.
bool readProfiles(const std::vector<std::string>& paths, profile::Profile& p);
// kExitCorrupt if the profile is corrupt and not `lenient`, else 0.
int corruptStatus(const profile::Profile& p, bool lenient);
// --lenient, for the commands that read a profile.
void addLenientFlag(CLI::App* cmd, bool& lenient);
int runRun(const RunOptions& o, const char* argv0);
CLI::App* addReportCommand(CLI::App& app, ReportOptions& o);
int runReport(const ReportOptions& o);

}  // namespace dragnet::cli
