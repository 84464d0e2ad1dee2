#include "report/shell_session.h"

#include <editline/readline.h>
#include <sqlite3.h>
#include <unistd.h>

#include <atomic>
#include <cctype>
#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <optional>

#include "report/sql_db.h"
#include "report/text_format.h"

namespace dragnet::report {

void moreRows(std::ostream& out, size_t total, size_t shown) {
  if (total > shown) out << "  ... " << grouped(total - shown) << " more (@N: N rows, @0: all)\n";
}

std::vector<std::string> shellWords(std::string_view line) {
  std::vector<std::string> words;
  size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && std::isspace(static_cast<unsigned char>(line[i]))) ++i;
    size_t start = i;
    while (i < line.size() && !std::isspace(static_cast<unsigned char>(line[i]))) ++i;
    if (i > start) words.emplace_back(line.substr(start, i - start));
  }
  return words;
}

std::string_view trimmed(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

CommandShell::Outcome CommandShell::execute(std::string_view line) {
  line = trimmed(line);
  if (line.empty() || line.front() == '#') return {};
  std::vector<std::string> words = shellWords(line);
  std::string_view rest = trimmed(line.substr(words[0].size()));
  if (words[0] == "write") {
    try {
      redirect(rest);
    } catch (const ShellError& e) {
      return {Status::Failed, e.what()};
    }
    return {};
  }
  if (words[0] == "exit" && words.size() == 1) return {Status::Exit, ""};
  Outcome outcome;
  try {
    run(words, rest, next_ ? *next_ : console_);
  } catch (const ShellError& e) {
    outcome = {Status::Failed, e.what()};
  }
  if (next_) {
    next_->close();
    if (!*next_ && outcome.status == Status::Ok) {
      outcome = {Status::Failed, "cannot write " + nextPath_};
    } else if (outcome.status == Status::Ok) {
      console_ << "(output written to " << nextPath_ << ")\n";
    }
    next_.reset();
  }
  return outcome;
}

// HUP's `write FILE`: the output of the next command goes to FILE (created or truncated
// now, so that a bad path is reported at once).
void CommandShell::redirect(std::string_view path) {
  if (path.empty()) throw ShellError("usage: write FILE");
  auto file = std::make_unique<std::ofstream>(std::string(path), std::ios::binary);
  if (!*file) throw ShellError("cannot write " + std::string(path) + ": " + std::strerror(errno));
  next_ = std::move(file);
  nextPath_ = path;
}

namespace {

// Ctrl-C (SIGINT) as in sqlite3's shell: it interrupts the SQL running now (building the
// tables, or a query: it fails with "interrupted") and the session goes on; outside SQL it
// does nothing, but the third in a row without a command in between ends the shell, as
// SIGINT does (a command that cannot be interrupted can still be left).
std::atomic<sqlite3*> gRunningSql{nullptr};
std::atomic<int> gIdleInterrupts{0};
static_assert(std::atomic<sqlite3*>::is_always_lock_free && std::atomic<int>::is_always_lock_free,
              "read in a signal handler");

void onInterrupt(int) {
  if (sqlite3* db = gRunningSql.load()) {
    sqlite3_interrupt(db);  // safe in a signal handler (sqlite3's shell calls it there)
    return;
  }
  if (gIdleInterrupts.fetch_add(1) + 1 >= 3) {
    std::signal(SIGINT, SIG_DFL);
    std::raise(SIGINT);
  }
}

void catchInterrupts() {
  struct sigaction sa {};
  sa.sa_handler = onInterrupt;
  sa.sa_flags = SA_RESTART;  // reads of the next line go on
  sigemptyset(&sa.sa_mask);
  sigaction(SIGINT, &sa, nullptr);
  rl_catch_signals = 0;  // libedit's own handler would end readline() as if at end of input
}

// While it lives, SIGINT interrupts the SQL of `db`.
struct InterruptibleSql {
  explicit InterruptibleSql(sqlite3* db) { gRunningSql = db; }
  ~InterruptibleSql() { gRunningSql = nullptr; }
  InterruptibleSql(const InterruptibleSql&) = delete;
  InterruptibleSql& operator=(const InterruptibleSql&) = delete;
};

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

int session(CommandShell& shell, Terminal* terminal) {
  bool failed = false;
  size_t number = 0;
  while (std::optional<std::string> line = nextLine(terminal)) {
    ++number;
    gIdleInterrupts = 0;
    CommandShell::Outcome outcome = shell.execute(*line);
    gIdleInterrupts = 0;
    std::cout.flush();  // before an error on stderr, and for whoever reads a pipe
    if (outcome.status == CommandShell::Status::Exit) break;
    if (outcome.status != CommandShell::Status::Failed) continue;
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

int runShellSession(CommandShell& shell, const std::string& banner) {
  catchInterrupts();
  if (!::isatty(STDIN_FILENO)) return session(shell, nullptr);
  std::cout << banner;
  Terminal terminal;
  return session(shell, &terminal);
}

ShellError usageError(std::span<const Synopsis> synopses, const std::string& cmd) {
  for (const Synopsis& s : synopses) {
    if (cmd == s.name) return ShellError(std::string("usage: ") + s.usage);
  }
  return ShellError("unknown command '" + cmd + "' (help lists the commands)");
}

CommandShell::~CommandShell() = default;

void CommandShell::sql(std::string_view query, std::ostream& out,
                       const std::function<bool(SqlDb&, std::string&)>& tables) {
  std::string error;
  if (!db_) {
    db_ = SqlDb::open(":memory:", error);
    std::optional<InterruptibleSql> interruptible;
    if (db_) interruptible.emplace(db_->handle());
    if (!db_ || !tables(*db_, error)) {
      db_.reset();
      throw ShellError("cannot build the tables: " + error);
    }
  }
  InterruptibleSql interruptible(db_->handle());
  if (!runSqlQuery(*db_, query, out, error)) throw ShellError("sql: " + error);
}

}  // namespace dragnet::report
