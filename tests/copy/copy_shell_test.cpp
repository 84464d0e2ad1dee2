// `dragnet shell` on a copy profile (analyses/copy/report/shell.h) and its SQL tables
// (sql.h), on the Fig. 6 profile of fig6_profile.h recorded with exact contexts (slots=0):
// each command's exact output, naming and @N, errors, `write FILE`, and the tables read back
// through SQLite against the spec's numbers (section 2.1 of the spec).
#include <gtest/gtest.h>
#include <sqlite3.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "analyses/copy/model/model.h"
#include "analyses/copy/report/shell.h"
#include "analyses/copy/report/sql.h"
#include "fig6_profile.h"
#include "report/analysis.h"

namespace fs = std::filesystem;

namespace dragnet {
namespace {

using analyses::copy::Model;
using analyses::copy::Node;
using analyses::copy::NodeKind;
using report::CopyShell;
using Status = CopyShell::Status;

const std::string kO3At39 =
    "<java.lang.Object[] List.<init>(ListClient.java:3) @ List ListClient.main(ListClient.java:39)>"
    ".ELM";
const std::string kO3At31 =
    "<java.lang.Object[] List.<init>(ListClient.java:3) @ List "
    "ListClient.deepClone(ListClient.java:31)>.ELM";
const std::string kO41 = "java.lang.Integer ListClient.main(ListClient.java:41) @ static";

class CopyShellTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = test::copy::freshDir();
    profile_ = test::copy::readProfile(test::copy::writeFig6(dir_, 0));
    model_ = analyses::copy::buildModel(profile_);
    shell_ = std::make_unique<CopyShell>(model_, out_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::string run(const std::string& line) {
    out_.str("");
    CopyShell::Outcome o = shell_->execute(line);
    EXPECT_EQ(o.status, Status::Ok) << line << ": " << o.error;
    return out_.str();
  }
  std::string fail(const std::string& line) {
    out_.str("");
    CopyShell::Outcome o = shell_->execute(line);
    EXPECT_EQ(o.status, Status::Failed) << line;
    EXPECT_EQ(out_.str(), "") << line;
    return o.error;
  }
  uint32_t sensitiveNode(uint32_t site, uint32_t context, uint32_t field) {
    NodeKind kind = field ? NodeKind::Field : NodeKind::Alloc;
    return model_.sensitive.graph.find(Node{kind, {site, context}, field});
  }

  fs::path dir_;
  profile::Profile profile_;
  Model model_;
  std::ostringstream out_;
  std::unique_ptr<CopyShell> shell_;
};

TEST_F(CopyShellTest, RegisteredAsTheShellOfCopyProfiles) {
  const report::Analysis* a = report::analysisOf(profile_);
  ASSERT_NE(a, nullptr);
  EXPECT_EQ(a->name, "copy");
  EXPECT_NE(a->shell, nullptr);
  EXPECT_NE(a->exportSqlite, nullptr);
  EXPECT_TRUE(report::writes(*a, "html"));
  EXPECT_EQ(report::shellAnalysisList(), "lifetime, copy or cost");
}

TEST_F(CopyShellTest, HelpExitAndComments) {
  EXPECT_EQ(run("help"), CopyShell::help());
  EXPECT_EQ(run("   # a comment"), "");
  EXPECT_EQ(run(""), "");
  out_.str("");
  EXPECT_EQ(shell_->execute("exit").status, Status::Exit);
}

// The hot chain of the spec's 2.1 (assertion 4): O3@39.ELM -> O3@31.ELM, 999 copies of 4
// bytes, produced by O41 and never consumed; in the insensitive naming O3.ELM -> O3.ELM,
// produced by O41 and O44, whose value reached C 10 times (O3.ELM -> C, row 7 of the table).
// Each naming has 3 heap-to-heap edges (rows 6, 15, 16), none continuing another: 3 chains.
TEST_F(CopyShellTest, Chains) {
  EXPECT_EQ(run("chains @1"),
            "Hot copy chains, 1-object-sensitive (3 chains of at most 5 copies)\n"
            "             WF        freq  bytes  length  chain\n"
            "          3,996         999      4       1  " +
                kO3At39 + " -> " + kO3At31 +
                "\n"
                "                                            produced by " +
                kO41 +
                "; never consumed\n"
                "  ... 2 more (@N: N rows, @0: all)\n");
  std::string ci = run("chains insensitive @1");
  EXPECT_NE(ci.find("          3,996         999      4       1  <java.lang.Object[] "
                    "List.<init>(ListClient.java:3)>.ELM -> <java.lang.Object[] "
                    "List.<init>(ListClient.java:3)>.ELM\n"),
            std::string::npos)
      << ci;
  EXPECT_NE(ci.find("produced by java.lang.Integer ListClient.main(ListClient.java:41) (and 1 "
                    "more); consumed 10 times\n"),
            std::string::npos)
      << ci;
  EXPECT_EQ(run("chains @0").find("more"), std::string::npos);
  EXPECT_EQ(fail("chains everything"), "usage: chains [sensitive|insensitive] [@N]");
  EXPECT_EQ(fail("chains @x"), "usage: chains [sensitive|insensitive] [@N]");
}

// Assertion 5: List.add stores 999 of the 1,001 copies; deepClone none itself, 1,000 with
// its callees. 8 methods and 8 contexts have copies in their subtree (fig6_profile.h's tree:
// main, deepClone, List.<init>(List), List.add, List.iterator, ListIterator.<init>,
// shallowClone, ListClient.<init>).
TEST_F(CopyShellTest, Copies) {
  std::string flat = run("copies @1");
  EXPECT_EQ(flat,
            "Copies per method (flat: copies it stored; cumulative: with its callees)\n"
            "         self        %   cumulative  method\n"
            "          999  99.80%          999  List.add(ListClient.java)\n"
            "  concentration: the top method does 99.80% of the copies, the top 5 100.00%, the "
            "top 10 100.00%\n"
            "  ... 7 more (@N: N rows, @0: all)\n");
  EXPECT_EQ(run("copies flat @1"), flat);
  EXPECT_EQ(run("copies cumulative @2"),
            "Copies per calling context (cumulative), innermost frame first\n"
            "   cumulative         self  context\n"
            "        1,001            0  ListClient.main(ListClient.java)\n"
            "        1,000            0  ListClient.deepClone(ListClient.java) < "
            "ListClient.main(ListClient.java)\n"
            "  ... 6 more (@N: N rows, @0: all)\n");
  EXPECT_EQ(fail("copies deep"), "usage: copies [flat|cumulative] [@N]");
}

// Assertion 3: NATH in the sensitive naming: O16, O32, O35, O46, O47, one object each.
TEST_F(CopyShellTest, NathClonesCuts) {
  std::string nath = run("nath");
  EXPECT_EQ(std::count(nath.begin(), nath.end(), '\n'), 2 + 5) << nath;
  EXPECT_NE(
      nath.find("              1            0  ListIterator List.iterator(ListClient.java:16) "
                "@ List ListClient.main(ListClient.java:39)\n"),
      std::string::npos)
      << nath;
  std::string clones = run("clones @1");
  EXPECT_NE(
      clones.find("          3,996            0  ListClient ListClient.main(ListClient.java:46)"
                  " @ static -> ListClient ListClient.deepClone(ListClient.java:32) @ "
                  "ListClient ListClient.main(ListClient.java:46)\n"),
      std::string::npos)
      << clones;
  EXPECT_NE(clones.find("more (@N"), std::string::npos) << clones;
  EXPECT_EQ(run("cuts"),
            "Flows cut at a callee's entry (its caller's arguments did not reach it)\n"
            "          count  callee\n");
}

// A node by id and by name: O3@39.ELM gets O41's 1,000 references and gives 999 to O3@31.ELM.
TEST_F(CopyShellTest, Node) {
  uint32_t elm39 = sensitiveNode(3, 39, profile::kElmField);
  uint32_t elm31 = sensitiveNode(3, 31, profile::kElmField);
  uint32_t o41 = sensitiveNode(41, 0, 0);
  ASSERT_NE(elm39, analyses::copy::kNoNode);
  auto id = [](uint32_t n) {
    std::string s = std::to_string(n);
    return std::string(7 - s.size(), ' ') + s;
  };
  std::string expected = "node " + std::to_string(elm39) + " (sensitive): " + kO3At39 +
                         "\n"
                         "  kind         field\n"
                         "  in edges     1\n"
                         "           freq  bytes     id  from\n"
                         "          1,000      4" +
                         id(o41) + "  " + kO41 +
                         "\n"
                         "  out edges    1\n"
                         "           freq  bytes     id  to\n"
                         "            999      4" +
                         id(elm31) + "  " + kO3At31 + "\n";
  EXPECT_EQ(run("node " + std::to_string(elm39)), expected);
  EXPECT_EQ(run("node " + kO3At39), expected);
  EXPECT_EQ(run("node sensitive " + kO3At39), expected);
  // C: 5 edges in (rows 7-11 of the spec's table), the largest first: O39.count (2,000),
  // O16@39.pos (1,999).
  std::string c = run("node 0 @2");
  EXPECT_NE(c.find("  in edges     5\n"), std::string::npos) << c;
  EXPECT_NE(c.find("          2,000      4"), std::string::npos) << c;
  EXPECT_NE(c.find("          1,999      4"), std::string::npos) << c;
  EXPECT_NE(c.find("  ... 3 more (@N: N rows, @0: all)\n"), std::string::npos) << c;
  EXPECT_NE(c.find("  out edges    0\n"), std::string::npos) << c;
  EXPECT_EQ(fail("node 999"), "no node 999 (ids are 0..28)");
  EXPECT_EQ(fail("node app.Nothing"), "no node named 'app.Nothing' in the sensitive naming");
  EXPECT_EQ(fail("node"), "usage: node [sensitive|insensitive] ID|NAME [@N]");
  std::string ci = run("node insensitive <java.lang.Object[] List.<init>(ListClient.java:3)>.ELM");
  EXPECT_NE(ci.find("  in edges     3\n"), std::string::npos) << ci;  // O41, O44, itself
  EXPECT_NE(ci.find("  out edges    2\n"), std::string::npos) << ci;  // itself, C
}

TEST_F(CopyShellTest, UnknownCommandAndWrite) {
  EXPECT_EQ(fail("bogus"), "unknown command 'bogus' (help lists the commands)");
  fs::path file = dir_ / "chains.txt";
  EXPECT_EQ(run("write " + file.string()), "");
  EXPECT_EQ(run("chains @1"), "(output written to " + file.string() + ")\n");
  std::ifstream in(file);
  std::stringstream s;
  s << in.rdbuf();
  EXPECT_EQ(s.str().rfind("Hot copy chains, 1-object-sensitive", 0), 0u) << s.str();
}

// The tables through SQL: the spec's 16 edges in each naming, the hot chain with its producer,
// the flat profile's numbers, NATH.
TEST_F(CopyShellTest, Sql) {
  EXPECT_EQ(run("sql SELECT naming, COUNT(*) AS edges, SUM(freq) AS copies FROM edges GROUP BY "
                "naming ORDER BY naming"),
            "  naming       edges  copies\n"
            "  -----------  -----  ------\n"
            "  insensitive     16    7025\n"
            "  sensitive       16    7025\n"
            "(2 rows)\n");
  EXPECT_EQ(run("sql SELECT c.wf, c.freq, c.length, p.name AS producer, f.name AS first FROM "
                "chains c JOIN nodes p ON p.naming = c.naming AND p.id = c.producer JOIN nodes f "
                "ON f.naming = c.naming AND f.id = c.first WHERE c.naming = 'sensitive' AND "
                "c.rank = 1"),
            "    wf  freq  length  producer" + std::string(kO41.size() - 8, ' ') + "  first\n" +
                "  ----  ----  ------  " + std::string(kO41.size(), '-') + "  " +
                std::string(kO3At39.size(), '-') + "\n" + "  3996   999       1  " + kO41 + "  " +
                kO3At39 + "\n(1 row)\n");
  EXPECT_EQ(run("sql SELECT name, self, total FROM methods ORDER BY self DESC, total DESC LIMIT 1"),
            "  name                       self  total\n"
            "  -------------------------  ----  -----\n"
            "  List.add(ListClient.java)   999    999\n"
            "(1 row)\n");
  EXPECT_EQ(run("sql SELECT GROUP_CONCAT(s.site) FROM (SELECT n.site FROM nath x JOIN nodes n ON "
                "n.naming = x.naming AND n.id = x.node WHERE x.naming = 'sensitive' ORDER BY "
                "n.site) s"),
            "  GROUP_CONCAT(s.site)\n"
            "  --------------------\n"
            "  16,32,35,46,47\n"
            "(1 row)\n");
  EXPECT_EQ(run("sql SELECT copies, heap_copies, births, slots FROM totals"),
            "  copies  heap_copies  births  slots\n"
            "  ------  -----------  ------  -----\n"
            "    1001         1001    1016      0\n"
            "(1 row)\n");
  std::string error = fail("sql SELECT * FROM nowhere");
  EXPECT_EQ(error.rfind("sql: no such table: nowhere", 0), 0u) << error;
}

// Every table, read back from an exported file with the SQLite API.
TEST_F(CopyShellTest, ExportWritesEveryTable) {
  fs::path db = dir_ / "copy.db";
  std::ofstream(db) << "an old file";
  std::string error;
  ASSERT_TRUE(report::exportCopySqlite(db.string(), model_, error)) << error;
  sqlite3* h = nullptr;
  ASSERT_EQ(sqlite3_open(db.string().c_str(), &h), SQLITE_OK);
  auto count = [&](const std::string& sql) {
    sqlite3_stmt* st = nullptr;
    EXPECT_EQ(sqlite3_prepare_v2(h, sql.c_str(), -1, &st, nullptr), SQLITE_OK) << sql;
    int64_t v = -1;
    if (st && sqlite3_step(st) == SQLITE_ROW) v = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    return v;
  };
  EXPECT_EQ(count("SELECT COUNT(*) FROM nodes WHERE naming = 'sensitive'"), 29);
  EXPECT_EQ(count("SELECT COUNT(*) FROM edges WHERE naming = 'insensitive'"), 16);
  EXPECT_EQ(count("SELECT freq FROM edges e JOIN nodes s ON s.naming = e.naming AND s.id = e.src "
                  "JOIN nodes d ON d.naming = e.naming AND d.id = e.dst WHERE e.naming = "
                  "'insensitive' AND s.id = d.id"),
            999);  // O3.ELM -> O3.ELM
  EXPECT_EQ(count("SELECT COUNT(*) FROM chain_nodes WHERE naming = 'sensitive' AND chain = 1"), 2);
  EXPECT_EQ(count("SELECT volume FROM clones WHERE naming = 'sensitive' AND rank = 1"), 3996);
  EXPECT_EQ(count("SELECT SUM(births) FROM nath WHERE naming = 'sensitive'"), 5);
  EXPECT_EQ(count("SELECT total FROM contexts WHERE depth = 1"), 1001);
  EXPECT_EQ(count("SELECT births FROM sites WHERE site = 41"), 1000);
  EXPECT_EQ(count("SELECT line FROM sites WHERE site = 41"), 41);
  EXPECT_EQ(count("SELECT COUNT(*) FROM fields WHERE name = 'ELM'"), 1);
  EXPECT_EQ(count("SELECT bytes FROM fields WHERE field = 'count'"), 4);
  EXPECT_EQ(count("SELECT COUNT(*) FROM cuts"), 0);
  EXPECT_EQ(count("SELECT COUNT(*) FROM conflict_ratios"), 3);
  EXPECT_EQ(count("SELECT COUNT(*) FROM meta WHERE key = 'mode' AND value = 'copy'"), 1);
  sqlite3_close(h);
  EXPECT_FALSE(report::exportCopySqlite((dir_ / "no" / "such" / "dir.db").string(), model_, error));
}

// With slots=1 the one graph is the insensitive naming: the default of every command.
TEST_F(CopyShellTest, OneSlotDefaultsToTheInsensitiveNaming) {
  profile::Profile one = test::copy::readProfile(test::copy::writeFig6(dir_, 1));
  Model m = analyses::copy::buildModel(one);
  std::ostringstream out;
  CopyShell shell(m, out);
  EXPECT_EQ(shell.execute("chains @1").status, Status::Ok);
  EXPECT_EQ(out.str().rfind("Hot copy chains, context-insensitive (3 chains", 0), 0u) << out.str();
  out.str("");
  EXPECT_EQ(shell.execute("node 0 @1").status, Status::Ok);
  EXPECT_EQ(out.str().rfind("node 0 (insensitive): C\n", 0), 0u) << out.str();
}

}  // namespace
}  // namespace dragnet
