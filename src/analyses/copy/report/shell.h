// `dragnet shell FILE` on a copy profile: the copy model's tables one at a time (copies,
// chains, clones, nath, cuts, a node's edges) and `sql QUERY` on the tables of sql.h, in the
// shared command shell (report/shell_session.h: help, write FILE, exit, the session loop).
// docs/SHELL.md describes the commands.
#pragma once

#include <cstddef>
#include <memory>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "analyses/copy/model/model.h"
#include "report/analysis.h"
#include "report/shell_session.h"

namespace dragnet::report {

class SqlDb;

struct CopyShellOptions {
  size_t rows = 20;   // rows of a table without @N
  size_t frames = 4;  // frames of a context in the cumulative profile (0: all)
};

class CopyShell : public CommandShell {
 public:
  // `m` (and its profile) must outlive the shell.
  CopyShell(const analyses::copy::Model& m, std::ostream& out, CopyShellOptions o = {});
  ~CopyShell() override;

  // The commands' synopses, one a line (what `help` prints).
  static const char* help();

 private:
  void run(const std::vector<std::string>& words, std::string_view rest,
           std::ostream& out) override;

  const analyses::copy::Model& m_;
  CopyShellOptions options_;
};

// The analysis hooks (report::Analysis::shell, exportSqlite) of mode copy.
int copyShellOn(const profile::Profile& p, const ShellSettings& s);
bool copyExportOn(const profile::Profile& p, const std::string& path, std::string& error);

}  // namespace dragnet::report
