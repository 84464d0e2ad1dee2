// What every analysis's `dragnet shell` shares (docs/SHELL.md): a command line's handling
// (blank lines and '#' comments, `write FILE` for the next command's output, `exit`, errors
// that leave the session going) around the analysis's own commands, and the session loop: at
// a terminal with libedit's line editing and the history in ~/.dragnet_history, from a pipe
// one command a line with each error naming its line. Ctrl-C interrupts the SQL running
// (sqlite3_interrupt) and the session goes on; the third Ctrl-C in a row outside SQL ends
// the process: no command changes anything on disk but `write`'s file.
#pragma once

#include <fstream>
#include <functional>
#include <memory>
#include <ostream>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "report/sql_db.h"

namespace dragnet::report {

// A command's mistake (unknown id, bad arguments): reported, and the shell goes on.
struct ShellError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

class CommandShell {
 public:
  enum class Status { Ok, Failed, Exit };
  struct Outcome {
    Status status = Status::Ok;
    std::string error;  // Failed: what went wrong, one line
  };

  explicit CommandShell(std::ostream& out) : console_(out) {}
  virtual ~CommandShell();
  CommandShell(const CommandShell&) = delete;
  CommandShell& operator=(const CommandShell&) = delete;

  // Runs one command line. Blank lines and lines starting with '#' do nothing.
  Outcome execute(std::string_view line);

 protected:
  // Runs the command `words` (words[0] the command; `rest` the line after it), writing to
  // `out`; throws ShellError.
  virtual void run(const std::vector<std::string>& words, std::string_view rest,
                   std::ostream& out) = 0;

  // The `sql QUERY` command: runs `query` on an in-memory database of the analysis's
  // tables, which `tables` fills at the first query; throws ShellError.
  void sql(std::string_view query, std::ostream& out,
           const std::function<bool(SqlDb&, std::string&)>& tables);
  // Drops the tables `sql` built, so that the next query builds them again (after a
  // command changed what they hold).
  void resetSql() { db_.reset(); }

 private:
  void redirect(std::string_view path);

  std::unique_ptr<SqlDb> db_;  // built by the first `sql` command

  std::ostream& console_;
  std::unique_ptr<std::ofstream> next_;  // `write FILE`: the next command's output
  std::string nextPath_;
};

// A command's synopsis, for its usage error.
struct Synopsis {
  const char* name;
  const char* usage;
};
// "usage: SYNOPSIS" for a known command, else "unknown command 'CMD' (help lists ...)".
ShellError usageError(std::span<const Synopsis> synopses, const std::string& cmd);

// "  ... K more (@N: N rows, @0: all)" after a table cut at `shown` of `total` rows.
void moreRows(std::ostream& out, size_t total, size_t shown);

// The words of a line, split at white space.
std::vector<std::string> shellWords(std::string_view line);
std::string_view trimmed(std::string_view s);

// Runs commands from stdin until `exit` or the end of input. At a terminal `banner` is printed
// first, then a prompt for each line, an error is shown and the session goes on (status 0);
// from a pipe each error names its line and the status is 1 if any command failed (so that
// scripts notice).
int runShellSession(CommandShell& shell, const std::string& banner);

}  // namespace dragnet::report
