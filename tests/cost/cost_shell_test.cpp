// `dragnet shell` on a cost profile (analyses/cost/report/shell.h) and its SQL tables
// (sql.h), on CostOracle's hand-made graph (cost_oracle.h) at s = 1: the rankings, a node
// with its instances' costs and dependences, a dependence path from a writer to a reader,
// `set` rebuilding the model (and the SQL tables), errors, and the tables read back through
// SQLite against the spec's values.
#include <gtest/gtest.h>
#include <sqlite3.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "analyses/cost/report/shell.h"
#include "analyses/cost/report/sql.h"
#include "cost_profile.h"

namespace fs = std::filesystem;

namespace dragnet {
namespace {

using namespace test::cost;
using report::CostShell;
using Status = CostShell::Status;

const std::string kA = "CostOracle$A CostOracle.main(CostOracle.java:20)";
const std::string kAt = "<" + kA + ">.CostOracle$A.t";

class CostShellTest : public ::testing::Test {
 protected:
  void start(const profile::Profile& p, GraphInput in) {
    shell_ = std::make_unique<CostShell>(p, std::move(in), analyses::cost::Options{},
                                         analyses::cost::Recording{.slots = 1},
                                         analyses::cost::Totals{}, out_);
  }
  void SetUp() override { start(profile_, costOracle(1000, 1)); }

  std::string run(const std::string& line) {
    out_.str("");
    CostShell::Outcome o = shell_->execute(line);
    EXPECT_EQ(o.status, Status::Ok) << line << ": " << o.error;
    return out_.str();
  }
  std::string fail(const std::string& line) {
    out_.str("");
    CostShell::Outcome o = shell_->execute(line);
    EXPECT_EQ(o.status, Status::Failed) << line;
    EXPECT_EQ(out_.str(), "") << line;
    return o.error;
  }

  profile::Profile profile_ = oracleProfile();
  std::ostringstream out_;
  std::unique_ptr<CostShell> shell_;
};

TEST_F(CostShellTest, StatAndHelp) {
  std::string s = run("stat");
  EXPECT_EQ(s.rfind("dragnet cost profile (pid 4242)\n", 0), 0u) << s;
  EXPECT_NE(s.find("I = 4,016 instructions; IPD 50.15%"), std::string::npos);
  EXPECT_EQ(run("help"), CostShell::help());
  EXPECT_EQ(run("# a comment"), "");
}

TEST_F(CostShellTest, CostBenefitRankings) {
  std::string sites = run("cb");
  EXPECT_NE(sites.find("        1,001.33        3,003.00            2.00           1        no  " +
                       kA + "\n"),
            std::string::npos)
      << sites;
  EXPECT_EQ(sites, run("cb sites"));
  std::string one = run("cb @1");
  EXPECT_NE(one.find(kA), std::string::npos);
  EXPECT_EQ(one.find("int[]"), std::string::npos) << one;
  EXPECT_NE(one.find("  ... 2 more (@N: N rows, @0: all)\n"), std::string::npos);
  std::string objects = run("cb objects");
  EXPECT_NE(objects.find("writes           1  CostOracle$A.foo(CostOracle.java:10)"),
            std::string::npos)
      << objects;
  EXPECT_NE(objects.find("       3        1.75            6.00            3.00"),
            std::string::npos);
  EXPECT_EQ(fail("cb everything"), "usage: cb [sites|objects] [@N]");
}

TEST_F(CostShellTest, LocationsByRacAndRab) {
  std::string rac = run("rac @1");
  EXPECT_NE(rac.find("        3,003.00            2.00        no         1         1  " + kAt),
            std::string::npos)
      << rac;
  EXPECT_NE(rac.find("  ... 4 more"), std::string::npos);
  std::string rab = run("rab @0");
  EXPECT_LT(rab.find("java.lang.System.out"), rab.find(">.ELM"));
  EXPECT_LT(rab.find("IntList.pos"), rab.find("IntList.arr"));
  EXPECT_EQ(fail("rac 3"), "usage: rac [@N]");
}

// putfield t (node 13): HRAC 3,003; its value reaches getfield t and v = getT() (HRAB 3;
// the iastore writes the heap).
TEST_F(CostShellTest, Node) {
  std::string n = run("node 13");
  EXPECT_EQ(
      n.rfind("node 13 (store): putfield CostOracle$A.t\n"
              "  code         CostOracle$A.foo(CostOracle.java:10), method 3, bci 23\n"
              "  instances    1\n"
              "  slot 0: freq 1, AC 3,003, HRAC 3,003, HRAB 3\n"
              "    depends on 1\n"
              "      node 11 slot 0  freq 1,000  compute  CostOracle$A.foo(CostOracle.java:8)\n"
              "    flows into 1\n"
              "      node 14 slot 0  freq 1  getfield CostOracle$A.t  "
              "CostOracle$A.getT(CostOracle.java:4)\n",
              0),
      0u)
      << n;
  // i = 0 (node 8) reaches the loop test.
  EXPECT_NE(run("node 8").find("HRAB 4,002 (reaches a consumer)"), std::string::npos);
  EXPECT_EQ(fail("node 99"), "no node 99 (ids are 1..19)");
  EXPECT_EQ(fail("node x"), "not a node id: 'x'");
  EXPECT_EQ(fail("node"), "usage: node ID [@N]");
}

TEST_F(CostShellTest, PathFromAWriterToAReader) {
  EXPECT_EQ(run("path 13 3"),
            "path of 2 dependence edges\n"
            "     node 13 slot 0  freq 1  putfield CostOracle$A.t  "
            "CostOracle$A.foo(CostOracle.java:10)\n"
            "  -> node 14 slot 0  freq 1  getfield CostOracle$A.t  "
            "CostOracle$A.getT(CostOracle.java:4)\n"
            "  -> node 3 slot 0  freq 1  assign  CostOracle.main(CostOracle.java:22)\n");
  // From i = 0 to the loop's test: the direct edge, not the way round through iinc.
  EXPECT_EQ(run("path 8:0 9").rfind("path of 1 dependence edge\n", 0), 0u);
  EXPECT_EQ(run("path 3 13").rfind("no dependence path: the value of node 3 slot 0", 0), 0u);
  EXPECT_EQ(fail("path 13"), "usage: path A B (A, B: ID or ID:SLOT)");
  EXPECT_EQ(fail("path 13:5 3"), "node 13:5 has no instance in that slot");
}

// `set consumer-rab 0` rebuilds the model: B.flag's RAB falls from K to 6, in the rankings
// and in the SQL tables built before.
TEST_F(CostShellTest, SetRebuildsTheModelAndTables) {
  profile::Profile p = consumedProfile();
  start(p, consumedGraph());
  EXPECT_NE(run("rab").find("            6.00    1,048,576.00       yes"), std::string::npos);
  EXPECT_EQ(run("sql SELECT rab FROM locations"),
            "        rab\n  ---------\n  1048576.0\n(1 row)\n");
  EXPECT_EQ(run("set consumer-rab 0"), "consumer-rab 0 (the rule off)\nheight 4\n");
  EXPECT_NE(run("rab").find("            6.00            6.00       yes"), std::string::npos);
  EXPECT_EQ(run("sql SELECT rab, consumed FROM locations"),
            "  rab  consumed\n  ---  --------\n  6.0         1\n(1 row)\n");
  EXPECT_EQ(run("set height 2"), "consumer-rab 0 (the rule off)\nheight 2\n");
  EXPECT_EQ(run("set"), "consumer-rab 0 (the rule off)\nheight 2\n");
  EXPECT_EQ(fail("set height 5"), "--opt height=5: expected 1, 2, 3 or 4");
  EXPECT_EQ(fail("set depth 2").rfind("--opt depth: a cost profile has no such report option", 0),
            0u);
  EXPECT_EQ(fail("set height"), "usage: set [consumer-rab K | height N]");
}

// A profile whose graph is empty (no records): every command answers, none fails for it.
TEST_F(CostShellTest, EmptyGraph) {
  start(profile_, GraphInput{});
  EXPECT_NE(run("stat").find("0 instances of 0 program nodes that ran"), std::string::npos);
  EXPECT_NE(run("cb objects").find("       #        rate"), std::string::npos);
  EXPECT_EQ(run("sql SELECT COUNT(*) AS n FROM locations"), "  n\n  -\n  0\n(1 row)\n");
  EXPECT_EQ(fail("node 1"), "no node 1 (the graph has no program nodes)");
  EXPECT_EQ(fail("path 1 2"), "no node 1 (the graph has no program nodes)");
}

TEST_F(CostShellTest, Sql) {
  EXPECT_EQ(run("sql SELECT COUNT(*) AS n FROM instances"), "   n\n  --\n  19\n(1 row)\n");
  EXPECT_EQ(run("sql SELECT n.line, n.code FROM writers w JOIN nodes n ON n.id = w.node JOIN "
                "locations l ON l.id = w.location WHERE l.field_name = 'CostOracle$A.t'"),
            "  line  code\n"
            "  ----  ------------------------------------\n"
            "    10  CostOracle$A.foo(CostOracle.java:10)\n"
            "(1 row)\n");
  EXPECT_EQ(run("sql SELECT rank, site, n_rac, n_rab FROM objects ORDER BY rank"),
            "  rank  site   n_rac  n_rab\n"
            "  ----  ----  ------  -----\n"
            "     1    20  3003.0    2.0\n"
            "     2    14     2.0    0.0\n"
            "     3    19     6.0    3.0\n"
            "(3 rows)\n");
  // docs/SHELL.md's examples.
  std::string writers = run(
      "sql SELECT l.name, n.code, n.what, i.freq FROM structure_locations s JOIN writers w ON "
      "w.location = s.location JOIN locations l ON l.id = s.location JOIN instances i ON i.id = "
      "w.instance JOIN nodes n ON n.id = w.node WHERE s.rank = 1");
  EXPECT_NE(writers.find("CostOracle$A.foo(CostOracle.java:10)  putfield CostOracle$A.t"),
            std::string::npos)
      << writers;
  EXPECT_NE(writers.find("(1 row)"), std::string::npos);
  std::string dead =
      run("sql SELECT n.method, n.code, SUM(i.freq) FROM instances i JOIN nodes n ON n.id = i.node "
          "WHERE i.bloat = 'dead' GROUP BY n.method ORDER BY 3 DESC LIMIT 10");
  // foo's dead values first: s = 0, imul, iadd, putfield t (1 + 1,000 + 1,000 + 1); 2,014
  // in all (IPD's numerator).
  EXPECT_NE(dead.find("\n       3  CostOracle$A.foo("), std::string::npos) << dead;
  EXPECT_NE(dead.find("  2002\n       5  "), std::string::npos) << dead;
  EXPECT_EQ(fail("sql SELECT * FROM nowhere").rfind("sql: no such table: nowhere", 0), 0u);
}

TEST_F(CostShellTest, ExportWritesEveryTable) {
  fs::path dir = fs::temp_directory_path() / ("cost_shell_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  fs::path db = dir / "cost.db";
  std::ofstream(db) << "an old file";
  std::string error;
  ASSERT_TRUE(report::exportCostSqlite(db.string(), shell_->report(), error)) << error;
  sqlite3* h = nullptr;
  ASSERT_EQ(sqlite3_open(db.string().c_str(), &h), SQLITE_OK);
  auto value = [&](const std::string& sql) {
    sqlite3_stmt* st = nullptr;
    EXPECT_EQ(sqlite3_prepare_v2(h, sql.c_str(), -1, &st, nullptr), SQLITE_OK) << sql;
    double v = -1;
    if (st && sqlite3_step(st) == SQLITE_ROW) v = sqlite3_column_double(st, 0);
    sqlite3_finalize(st);
    return v;
  };
  EXPECT_EQ(value("SELECT COUNT(*) FROM nodes"), 19);
  EXPECT_EQ(value("SELECT COUNT(*) FROM edges"), 17);
  EXPECT_EQ(value("SELECT freq FROM instances WHERE node = 9"), 1001);
  EXPECT_EQ(value("SELECT COUNT(*) FROM instances WHERE bloat = 'dead'"), 16);
  EXPECT_EQ(value("SELECT COUNT(*) FROM instances WHERE bloat = 'predicate'"), 1);
  EXPECT_EQ(value("SELECT rac FROM locations WHERE field = 10"), 3003);
  EXPECT_EQ(value("SELECT COUNT(*) FROM locations WHERE static = 1"), 1);
  EXPECT_EQ(value("SELECT COUNT(*) FROM readers r JOIN locations l ON l.id = r.location WHERE "
                  "l.static = 1"),
            1);
  EXPECT_EQ(value("SELECT COUNT(*) FROM structure_locations WHERE rank = 3"), 3);
  EXPECT_DOUBLE_EQ(value("SELECT rate FROM sites WHERE rank = 1"), 3004.0 / 3);
  EXPECT_EQ(value("SELECT line FROM sites WHERE site = 14"), 14);
  EXPECT_EQ(value("SELECT instructions FROM totals"), 4016);
  EXPECT_EQ(value("SELECT consumer_rab FROM totals"), 1048576);
  EXPECT_EQ(value("SELECT COUNT(*) FROM meta WHERE key = 'mode' AND value = 'cost'"), 1);
  sqlite3_close(h);
  EXPECT_FALSE(
      report::exportCostSqlite((dir / "no" / "such" / "dir.db").string(), shell_->report(), error));
  fs::remove_all(dir);
}

}  // namespace
}  // namespace dragnet
