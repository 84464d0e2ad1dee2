// `dragnet shell FILE` with a command script piped in, and `dragnet export --sqlite`, end to
// end on the profile of tests/lifetime/lifetime_profile.h (the commands' output is checked
// in detail in lifetime_shell_test.cpp, the tables in lifetime_sql_test.cpp).
#include <fcntl.h>
#include <gtest/gtest.h>
#include <poll.h>
#include <sqlite3.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "lifetime_profile.h"

namespace fs = std::filesystem;

namespace {

using dragnet::test::readFile;

// Runs `dragnet ARGS < in > out 2> err` in `dir`; the exit status.
int dragnet(const fs::path& dir, const std::string& args, const std::string& input = "") {
  std::ofstream(dir / "in.txt") << input;
  std::string cmd = "cd '" + dir.string() + "' && '" + std::string(DRAGNET_CLI) + "' " + args +
                    " < in.txt > out.txt 2> err.txt";
  int status = std::system(cmd.c_str());
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

fs::path lifetimeFile(const fs::path& dir, const std::map<std::string, std::string>& meta = {}) {
  fs::path file = dir / "lifetime.dragnet";
  dragnet::test::writeProfile(dragnet::test::lifetimeProfile(meta), file);
  return file;
}

size_t count(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

TEST(ShellCli, PipedScriptRunsUntilExitAndReportsErrorsByLine) {
  fs::path dir = dragnet::test::testDir();
  lifetimeFile(dir);
  std::string script =
      "# a comment\n"
      "stat\n"
      "class app.Point\n"
      "write ranking.txt\n"
      "drag class\n"
      "obj 99\n"
      "sql SELECT COUNT(*) AS n, SUM(drag_space) AS drag FROM objects\n"
      "exit\n"
      "stat\n";
  EXPECT_EQ(dragnet(dir, "shell lifetime.dragnet", script), 1);  // obj 99 failed
  EXPECT_EQ(readFile(dir / "err.txt"), "dragnet shell: line 6: no object 99\n");
  std::string out = readFile(dir / "out.txt");
  // No banner and no prompts from a pipe; nothing after exit.
  EXPECT_EQ(out.rfind("dragnet lifetime profile (pid 4711)\n", 0), 0u) << out;
  EXPECT_EQ(count(out, "dragnet lifetime profile"), 1u) << out;
  EXPECT_EQ(out.find("dragnet>"), std::string::npos);
  EXPECT_NE(out.find("\n  total space  104,800; 52 bytes reachable on average\n"),
            std::string::npos)
      << out;
  EXPECT_NE(out.find("\nclass 1: app.Point\n  objects      4 (96 bytes): 0 lagged (unused through "
                     "a forced GC), 2 dragged, 1 void\n"),
            std::string::npos)
      << out;
  EXPECT_NE(out.find("\n(output written to ranking.txt)\n"), std::string::npos) << out;
  EXPECT_TRUE(
      out.ends_with("(output written to ranking.txt)\n"
                    "  n   drag\n"
                    "  -  -----\n"
                    "  7  46400\n"
                    "(1 row)\n"))
      << out;
  EXPECT_EQ(
      readFile(dir / "ranking.txt"),
      "Classes by drag space\n"
      "  id                     drag space    avg held   % all    dragged    objects  class\n"
      "  1                          24,000    12 bytes  51.72%          2          4  "
      "app.Point\n"
      "  2                          22,400    11 bytes  48.28%          1          1  int[]\n");
}

TEST(ShellCli, ScriptWithoutErrorsExitsZeroAtEndOfInput) {
  fs::path dir = dragnet::test::testDir();
  lifetimeFile(dir);
  EXPECT_EQ(dragnet(dir, "shell --rows 1 lifetime.dragnet", "lag class\nobj 2\n"), 0);
  EXPECT_EQ(readFile(dir / "err.txt"), "");
  std::string out = readFile(dir / "out.txt");
  EXPECT_EQ(out.rfind("Classes by lag space\n", 0), 0u) << out;
  EXPECT_NE(out.find("app.Point\n  ... 2 more (@N: N rows, @0: all)\nobject 2: app.Point, 24 "
                     "bytes\n"),
            std::string::npos)
      << out;
}

TEST(ShellCli, ExportWritesTheTables) {
  fs::path dir = dragnet::test::testDir();
  lifetimeFile(dir);
  ASSERT_EQ(dragnet(dir, "export --sqlite out.db lifetime.dragnet"), 0)
      << readFile(dir / "err.txt");
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open_v2((dir / "out.db").c_str(), &db, SQLITE_OPEN_READONLY, nullptr),
            SQLITE_OK);
  sqlite3_stmt* st = nullptr;
  ASSERT_EQ(sqlite3_prepare_v2(db,
                               "SELECT COUNT(*), SUM(drag_space), (SELECT COUNT(*) FROM patterns) "
                               "FROM objects",
                               -1, &st, nullptr),
            SQLITE_OK);
  ASSERT_EQ(sqlite3_step(st), SQLITE_ROW);
  EXPECT_EQ(sqlite3_column_int64(st, 0), 7);
  EXPECT_EQ(sqlite3_column_int64(st, 1), 46400);
  EXPECT_EQ(sqlite3_column_int64(st, 2), 6);
  sqlite3_finalize(st);
  sqlite3_close(db);

  EXPECT_EQ(dragnet(dir, "export lifetime.dragnet"), 2);  // --sqlite is required
  EXPECT_NE(readFile(dir / "err.txt").find("--sqlite is required"), std::string::npos)
      << readFile(dir / "err.txt");
}

TEST(ShellCli, OtherProfilesAreRefused) {
  fs::path dir = dragnet::test::testDir();
  lifetimeFile(dir, {{"mode", "alloc"}});
  EXPECT_EQ(dragnet(dir, "shell lifetime.dragnet", "stat\n"), 2);
  EXPECT_EQ(
      readFile(dir / "err.txt"),
      "dragnet: error: lifetime.dragnet is not a lifetime, copy or cost profile (dragnet shell "
      "needs one recorded with mode lifetime, copy or cost)\n");
  EXPECT_EQ(readFile(dir / "out.txt"), "");
  EXPECT_EQ(dragnet(dir, "export --sqlite x.db lifetime.dragnet"), 2);
  EXPECT_FALSE(fs::exists(dir / "x.db"));
  std::ofstream(dir / "garbage.dragnet") << "not a profile";
  EXPECT_EQ(dragnet(dir, "shell garbage.dragnet"), 1);
  EXPECT_EQ(readFile(dir / "err.txt").rfind("dragnet: error: ", 0), 0u)
      << readFile(dir / "err.txt");
}

// The shell as a child with its three streams piped to this test.
struct ShellProcess {
  pid_t pid = -1;
  int in = -1, out = -1, err = -1;
  std::string outText, errText;

  explicit ShellProcess(const fs::path& profile) {
    int i[2], o[2], e[2];
    if (pipe(i) != 0 || pipe(o) != 0 || pipe(e) != 0) return;
    pid = fork();
    if (pid == 0) {
      dup2(i[0], 0);
      dup2(o[1], 1);
      dup2(e[1], 2);
      for (int fd : {i[0], i[1], o[0], o[1], e[0], e[1]}) close(fd);
      execl(DRAGNET_CLI, "dragnet", "shell", profile.c_str(), static_cast<char*>(nullptr));
      _exit(127);
    }
    close(i[0]);
    close(o[1]);
    close(e[1]);
    in = i[1];
    out = o[0];
    err = e[0];
  }
  void send(const std::string& text) {
    ASSERT_EQ(write(in, text.data(), text.size()), static_cast<ssize_t>(text.size()));
  }
  // Reads what the shell writes within `ms` milliseconds: the bytes read (0: none came),
  // -1 at the end of both streams.
  int read(int ms) {
    pollfd fds[2] = {{out, POLLIN, 0}, {err, POLLIN, 0}};
    if (poll(fds, 2, ms) <= 0) return 0;
    int got = 0;
    bool open = false;
    for (int k = 0; k < 2; ++k) {
      if (!(fds[k].revents & (POLLIN | POLLHUP))) {
        open = true;
        continue;
      }
      char buf[4096];
      ssize_t n = ::read(fds[k].fd, buf, sizeof buf);
      if (n > 0) (k == 0 ? outText : errText).append(buf, static_cast<size_t>(n));
      got += n > 0 ? static_cast<int>(n) : 0;
      open = open || n > 0;
    }
    return open ? got : -1;
  }
};

// Ctrl-C (SIGINT) cancels the running query, and the session goes on with the next
// command; the signal is sent until the shell says the query was interrupted (a query that
// never ends: without the interruption the test ends at ctest's timeout). Without the
// handler the first signal ends the shell.
TEST(ShellCli, InterruptCancelsTheRunningQuery) {
  fs::path dir = dragnet::test::testDir();
  ShellProcess shell(lifetimeFile(dir));
  ASSERT_GT(shell.pid, 0);
  shell.send(
      "sql SELECT 'ready' AS state\n"
      "sql WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) "
      "SELECT COUNT(*) FROM c\n");
  while (shell.outText.find("ready\n(1 row)\n") == std::string::npos) {
    ASSERT_GE(shell.read(1000), 0) << "the shell ended: " << shell.errText;
  }
  // Another signal only when the shell has been silent a while: one sent while it reports
  // the interruption would find no SQL running (three of those end the shell).
  while (shell.errText.find("interrupted\n") == std::string::npos) {
    int got = shell.read(200);
    ASSERT_GE(got, 0) << "the shell ended: " << shell.errText;
    if (got == 0) {
      ASSERT_EQ(kill(shell.pid, SIGINT), 0);
    }
  }
  shell.send("sql SELECT 6 * 7 AS answer\nexit\n");
  close(shell.in);
  while (shell.read(1000) >= 0) {
  }
  int status = 0;
  ASSERT_EQ(waitpid(shell.pid, &status, 0), shell.pid);
  ASSERT_TRUE(WIFEXITED(status)) << "ended by signal " << WTERMSIG(status);
  EXPECT_EQ(WEXITSTATUS(status), 1);  // from a pipe: a command failed
  EXPECT_EQ(shell.errText, "dragnet shell: line 2: sql: interrupted\n");
  EXPECT_TRUE(shell.outText.ends_with("  answer\n  ------\n      42\n(1 row)\n")) << shell.outText;
}

}  // namespace
