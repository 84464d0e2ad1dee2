// `dragnet diff A B`: what changed between two profiles of one mode (report/diff.h).
#pragma once

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

namespace dragnet::cli {

struct DiffOptions {
  std::vector<std::string> inputs;  // A, B
  std::string format = "text";
  std::string output;
  size_t top = 20;
  double minDelta = 0;
  std::string sort;
  std::vector<std::string> options;  // --opt NAME=VALUE, for both profiles
  bool lenient = false;
};

CLI::App* addDiffCommand(CLI::App& app, DiffOptions& o);
int runDiff(const DiffOptions& o);

}  // namespace dragnet::cli
