// `dragnet shell FILE` (HUP's interactive analysis of a lifetime profile, plus SQL) and
// `dragnet export --sqlite OUT.db FILE` (the same tables in a SQLite file). docs/SHELL.md.
// Both commands give the profile to the analysis that owns it (report::Analysis::shell and
// exportSqlite: lifetime's below, copy's in analyses/copy/report).
#pragma once

#include <CLI/CLI.hpp>
#include <cstddef>
#include <string>
#include <vector>

#include "report/analysis.h"

namespace dragnet::analyses::lifetime {

struct ShellCommandOptions {
  std::string input;
  size_t rows = 20;                  // rows of a ranking without @N
  bool lenient = false;              // a corrupt profile exits 0
  std::vector<std::string> options;  // --opt NAME=VALUE, the analysis's report options
};

struct ExportOptions {
  std::string input;
  std::string sqlite;  // the database file to write
  bool lenient = false;
};

// The analysis hooks (report::Analysis::shell, exportSqlite) of mode lifetime.
int shellOn(const profile::Profile& p, const report::ShellSettings& s);
bool exportOn(const profile::Profile& p, const std::string& path, std::string& error);

CLI::App* addShellCommand(CLI::App& app, ShellCommandOptions& o);
int runShell(const ShellCommandOptions& o);
CLI::App* addExportCommand(CLI::App& app, ExportOptions& o);
int runExport(const ExportOptions& o);

}  // namespace dragnet::analyses::lifetime
