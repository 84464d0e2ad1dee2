// `dragnet shell FILE`: HUP's analysis commands (HUP appendix A.3: help, write, stat, obj,
// class, method, nested, lag|drag|void class|method|nested, exit) on a lifetime model, plus
// `sql QUERY` on the tables of sql.h. One command line in, its output out; line
// editing and the loop are the CLI's (src/analyses/lifetime/report/shell_command.cpp).
// docs/SHELL.md describes the commands.
#pragma once

#include <cstddef>
#include <fstream>
#include <memory>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "analyses/lifetime/model/aggregate.h"
#include "report/shell_session.h"

namespace dragnet::report {

class SqlDb;

struct ShellOptions {
  size_t rows = 20;   // rows of a ranking without @N
  size_t frames = 4;  // frames of a stack in a ranking table (0: all; entity views: all)
};

class LifetimeShell : public CommandShell {
 public:
  // `m` (and its profile) must outlive the shell; output goes to `out`, or for the command
  // after `write FILE` to FILE.
  LifetimeShell(const analyses::lifetime::Model& m, std::ostream& out, ShellOptions o = {});
  ~LifetimeShell() override;

  // The commands' synopses, one a line (what `help` prints).
  static const char* help();

 private:
  void run(const std::vector<std::string>& words, std::string_view rest,
           std::ostream& out) override;

  const analyses::lifetime::Model& m_;
  ShellOptions options_;
};

}  // namespace dragnet::report
