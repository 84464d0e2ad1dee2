#include "analyses/lifetime/report/shell_command.h"

#include <editline/readline.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <optional>

#include "analyses/lifetime/model/aggregate.h"
#include "analyses/lifetime/report/shell.h"
#include "analyses/lifetime/report/sql.h"
#include "report/profile_input.h"

namespace dragnet::analyses::lifetime {

using report::addLenientFlag;
using report::corruptStatus;
using report::readProfileFile;

namespace {

constexpr int kExitUsage = 2;

// Reads the lifetime profile at `path`, builds its model and runs `use` on it; the exit
// status of `use` (if 0: kExitCorrupt for a corrupt profile, unless `lenient`), or (said
// on stderr) 1 when the profile cannot be read, 2 when it is not a lifetime profile.
template <class Use>
int withLifetimeModel(const std::string& path, const char* command, bool lenient, Use use) {
  profile::Profile p;
  if (!readProfileFile(path, p)) return 1;
  if (!analyses::lifetime::isLifetimeProfile(p)) {
    std::cerr << "dragnet: error: " << path << " is not a lifetime profile (dragnet " << command
              << " needs one recorded with mode lifetime)\n";
    return kExitUsage;
  }
  analyses::lifetime::Model m = analyses::lifetime::buildModel(p);
  int status = use(m);
  return status != 0 ? status : corruptStatus(p, lenient);
}

// Commands typed at a terminal: libedit's line editing, with the history of earlier
// sessions in ~/.dragnet_history.
class Terminal {
 public:
  Terminal() {
    using_history();
    stifle_history(1000);
    if (const char* home = std::getenv("HOME")) {
      historyFile_ = (std::filesystem::path(home) / ".dragnet_history").string();
      read_history(historyFile_.c_str());
    }
  }
  ~Terminal() {
    if (!historyFile_.empty()) write_history(historyFile_.c_str());
  }
  Terminal(const Terminal&) = delete;
  Terminal& operator=(const Terminal&) = delete;

  std::optional<std::string> next() {
    char* line = readline("dragnet> ");
    if (line == nullptr) {
      std::cout << "\n";  // end of input (^D): leave the prompt's line
      return std::nullopt;
    }
    std::string text = line;
    std::free(line);
    if (text.find_first_not_of(" \t") != std::string::npos) add_history(text.c_str());
    return text;
  }

 private:
  std::string historyFile_;
};

std::optional<std::string> nextLine(Terminal* terminal) {
  if (terminal) return terminal->next();
  std::string line;
  if (!std::getline(std::cin, line)) return std::nullopt;
  return line;
}

// Runs commands until exit or the end of input. At a terminal an error is shown and the
// session goes on; from a pipe each error names its line, and the status is 1 if any
// command failed (so that scripts notice).
int session(report::LifetimeShell& shell, Terminal* terminal) {
  bool failed = false;
  size_t number = 0;
  while (std::optional<std::string> line = nextLine(terminal)) {
    ++number;
    report::LifetimeShell::Outcome outcome = shell.execute(*line);
    std::cout.flush();  // before an error on stderr, and for whoever reads a pipe
    if (outcome.status == report::LifetimeShell::Status::Exit) break;
    if (outcome.status != report::LifetimeShell::Status::Failed) continue;
    failed = true;
    if (terminal) {
      std::cerr << "error: " << outcome.error << "\n";
    } else {
      std::cerr << "dragnet shell: line " << number << ": " << outcome.error << "\n";
    }
  }
  return failed && !terminal ? 1 : 0;
}

}  // namespace

CLI::App* addShellCommand(CLI::App& app, ShellCommandOptions& o) {
  CLI::App* cmd = app.add_subcommand(
      "shell", "Explore a lifetime profile interactively (HUP's commands, and SQL)");
  cmd->add_option("FILE", o.input, "The lifetime profile")->required()->check(CLI::ExistingFile);
  cmd->add_option("--rows", o.rows, "Rows of a ranking without @N")->capture_default_str();
  addLenientFlag(cmd, o.lenient);
  cmd->footer(
      "Commands are read from the terminal (line editing, history in ~/.dragnet_history) or,\n"
      "piped, from stdin; with a pipe the exit status is 1 if any command failed.\n"
      "Type 'help' for the commands; docs/SHELL.md describes them and the SQL tables.");
  return cmd;
}

int runShell(const ShellCommandOptions& o) {
  return withLifetimeModel(o.input, "shell", o.lenient, [&](const analyses::lifetime::Model& m) {
    report::LifetimeShell shell(m, std::cout, {.rows = o.rows});
    if (!::isatty(STDIN_FILENO)) return session(shell, nullptr);
    std::cout << "dragnet shell: " << o.input << ": " << m.totals.objects << " objects, "
              << m.classes.size() << " classes, " << m.nested.size()
              << " nested sites. 'help' lists the commands, 'exit' leaves.\n";
    Terminal terminal;
    return session(shell, &terminal);
  });
}

CLI::App* addExportCommand(CLI::App& app, ExportOptions& o) {
  CLI::App* cmd =
      app.add_subcommand("export", "Write a lifetime profile's tables to a SQLite database");
  cmd->add_option("FILE", o.input, "The lifetime profile")->required()->check(CLI::ExistingFile);
  cmd->add_option("--sqlite", o.sqlite, "The database file to write (replaced if it exists)")
      ->required();
  addLenientFlag(cmd, o.lenient);
  cmd->footer(
      "The tables (objects, classes, methods, nested, patterns, gcs, totals, meta) are\n"
      "those of dragnet shell's sql command: docs/SHELL.md.");
  return cmd;
}

int runExport(const ExportOptions& o) {
  return withLifetimeModel(o.input, "export", o.lenient, [&](const analyses::lifetime::Model& m) {
    std::string error;
    if (report::exportLifetimeSqlite(o.sqlite, m, error)) return 0;
    std::cerr << "dragnet: error: " << o.sqlite << ": " << error << "\n";
    return 1;
  });
}

}  // namespace dragnet::analyses::lifetime
