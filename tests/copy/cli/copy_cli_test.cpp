// Mode copy end to end through the dragnet command: `dragnet run --mode copy --slots 0` on the
// Fig. 6 program (tests/agent/flow/ListClient.java, as the flow oracles compile it), then the
// HTML report rendered in headless Chromium (skipped without one), `dragnet shell` from a
// pipe and `dragnet export --sqlite`. The hot chain is the spec's (section 2.1): the elements
// of the list made at line 39 copied into the list made in deepClone (line 31), 999 copies
// of 4-byte references produced by the Integers of line 41; the JDK's own copies (class
// loading, strings) rank below it.
#include <gtest/gtest.h>
#include <sqlite3.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "../../report/chromium_dom.h"

namespace fs = std::filesystem;

namespace {

using dragnet::test::renderDom;
using dragnet::test::rowsOf;
using dragnet::test::slurp;
using dragnet::test::tagOf;

const std::string kO3At39 =
    "<java.lang.Object[] List.<init>(ListClient.java:3) @ List ListClient.main(ListClient.java:39)>"
    ".ELM";
const std::string kO3At31 =
    "<java.lang.Object[] List.<init>(ListClient.java:3) @ List "
    "ListClient.deepClone(ListClient.java:31)>.ELM";

class CopyCli : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = fs::temp_directory_path() / ("dragnet-copy-cli-" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    std::string cmd = "cd '" + dir_.string() + "' && '" + DRAGNET_CLI +
                      "' run --mode copy --slots 0 -o lc.dragnet -- '" + DRAGNET_JAVA + "' -cp '" +
                      DRAGNET_FLOW_CLASSES + "' ListClient a b c d e > run.out 2> run.err";
    runStatus_ = std::system(cmd.c_str());
  }
  static void TearDownTestSuite() { fs::remove_all(dir_); }

  void SetUp() override {
    ASSERT_EQ(runStatus_, 0) << slurp(dir_ / "run.err");
    ASSERT_TRUE(fs::exists(dir_ / "lc.dragnet"));
  }

  // `dragnet ARGS` in the test's directory, stdin from `input`; its exit status.
  static int dragnet(const std::string& args, const std::string& input = "") {
    std::ofstream(dir_ / "in.txt") << input;
    std::string cmd = "cd '" + dir_.string() + "' && '" + DRAGNET_CLI + "' " + args +
                      " < in.txt > out.txt 2> err.txt";
    int status = std::system(cmd.c_str());
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  }

  static inline fs::path dir_;
  static inline int runStatus_ = -1;
};

TEST_F(CopyCli, HtmlReportDrawsTheHotChain) {
  ASSERT_EQ(dragnet("report lc.dragnet -f html -o lc.html"), 0) << slurp(dir_ / "err.txt");
  std::string page = slurp(dir_ / "lc.html");
  EXPECT_EQ(page.rfind("<!DOCTYPE html>", 0), 0u);
  REQUIRE_CHROMIUM();
  std::string dom =
      renderDom(dir_ / "lc.html", dir_, 0, "graph=1&chain=1", "--enable-logging=stderr --v=0");
  std::string log = slurp(dir_ / "chromium.log");
  EXPECT_EQ(log.find(":CONSOLE"), std::string::npos) << log;
  EXPECT_NE(dom.find("data-ready=\"copy\""), std::string::npos);
  std::vector<std::string> chains = rowsOf(dom, "chains");
  ASSERT_FALSE(chains.empty());
  EXPECT_EQ(chains[0].rfind("1 | 3,996 | 999 | 4 | 1 | " + kO3At39 + " \u2192 " + kO3At31 + " | " +
                                "java.lang.Integer ListClient.main(ListClient.java:41) @ static",
                            0),
            0u)
      << chains[0];
  // The graph of the top chain: the producer, the two element nodes, the two edges.
  std::string svg = tagOf(dom, "graph");
  EXPECT_NE(svg.find("data-nodes=\"3\""), std::string::npos) << svg;
  EXPECT_NE(svg.find("data-edges=\"2\""), std::string::npos) << svg;
  EXPECT_NE(dom.find(">new java.lang.Integer</text>"), std::string::npos);
  EXPECT_NE(dom.find(">999\u00d7 \u00b7 4 B</text>"), std::string::npos);
  EXPECT_NE(dom.find(">1,000\u00d7 \u00b7 4 B</text>"), std::string::npos);
}

TEST_F(CopyCli, ShellFromAPipe) {
  ASSERT_EQ(dragnet("shell lc.dragnet",
                    "chains @1\n"
                    "node " +
                        kO3At39 +
                        "\n"
                        "sql SELECT e.freq, e.bytes FROM edges e JOIN nodes s ON s.naming = "
                        "e.naming AND s.id = e.src WHERE e.naming = 'insensitive' AND e.src = "
                        "e.dst AND s.name = '<java.lang.Object[] "
                        "List.<init>(ListClient.java:3)>.ELM'\n"
                        "bogus\n"),
            1);
  std::string out = slurp(dir_ / "out.txt");
  EXPECT_NE(
      out.find("          3,996         999      4       1  " + kO3At39 + " -> " + kO3At31 + "\n"),
      std::string::npos)
      << out;
  EXPECT_NE(
      out.find("  in edges     1\n           freq  bytes     id  from\n          1,000      4"),
      std::string::npos)
      << out;
  EXPECT_NE(out.find("  freq  bytes\n  ----  -----\n   999      4\n(1 row)\n"), std::string::npos)
      << out;
  EXPECT_EQ(slurp(dir_ / "err.txt"),
            "dragnet shell: line 4: unknown command 'bogus' (help lists the commands)\n");
}

TEST_F(CopyCli, ExportSqlite) {
  ASSERT_EQ(dragnet("export --sqlite lc.db lc.dragnet"), 0) << slurp(dir_ / "err.txt");
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open((dir_ / "lc.db").string().c_str(), &db), SQLITE_OK);
  sqlite3_stmt* st = nullptr;
  std::string sql =
      "SELECT e.freq, c.wf FROM edges e JOIN nodes s ON s.naming = e.naming AND s.id = e.src "
      "JOIN nodes d ON d.naming = e.naming AND d.id = e.dst JOIN chains c ON c.naming = "
      "e.naming AND c.rank = 1 WHERE e.naming = 'sensitive' AND s.name = ? AND d.name = ?";
  ASSERT_EQ(sqlite3_prepare_v2(db, sql.c_str(), -1, &st, nullptr), SQLITE_OK);
  sqlite3_bind_text(st, 1, kO3At39.c_str(), -1, SQLITE_TRANSIENT);
  sqlite3_bind_text(st, 2, kO3At31.c_str(), -1, SQLITE_TRANSIENT);
  ASSERT_EQ(sqlite3_step(st), SQLITE_ROW);
  EXPECT_EQ(sqlite3_column_int64(st, 0), 999);
  EXPECT_EQ(sqlite3_column_int64(st, 1), 3996);
  sqlite3_finalize(st);
  sqlite3_close(db);
}

}  // namespace
