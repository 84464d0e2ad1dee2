// `dragnet shell FILE` (HUP's interactive analysis of a lifetime profile, plus SQL) and
// `dragnet export --sqlite OUT.db FILE` (the same tables in a SQLite file). docs/SHELL.md.
#pragma once

#include <CLI/CLI.hpp>
#include <cstddef>
#include <string>

namespace dragnet::analyses::lifetime {

struct ShellCommandOptions {
  std::string input;
  size_t rows = 20;      // rows of a ranking without @N
  bool lenient = false;  // a corrupt profile exits 0
};

struct ExportOptions {
  std::string input;
  std::string sqlite;  // the database file to write
  bool lenient = false;
};

CLI::App* addShellCommand(CLI::App& app, ShellCommandOptions& o);
int runShell(const ShellCommandOptions& o);
CLI::App* addExportCommand(CLI::App& app, ExportOptions& o);
int runExport(const ExportOptions& o);

}  // namespace dragnet::analyses::lifetime
