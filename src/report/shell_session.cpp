#include "report/shell_session.h"

#include <editline/readline.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
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
    CommandShell::Outcome outcome = shell.execute(*line);
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
    if (!db_ || !tables(*db_, error)) {
      db_.reset();
      throw ShellError("cannot build the tables: " + error);
    }
  }
  if (!runSqlQuery(*db_, query, out, error)) throw ShellError("sql: " + error);
}

}  // namespace dragnet::report
