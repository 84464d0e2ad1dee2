// `dragnet shell`'s commands (report/lifetime_shell.h) on the profile of lifetime_profile.h:
// exact output, ids, ordering, @N limits, errors and `write FILE`.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "analyses/lifetime/report/report.h"
#include "analyses/lifetime/report/shell.h"
#include "lifetime_profile.h"

namespace {

using dragnet::analyses::lifetime::buildModel;
using dragnet::analyses::lifetime::Model;
using dragnet::report::LifetimeShell;
using dragnet::test::readFile;
using Status = LifetimeShell::Status;

// `obj 2` after its first line, in the fixture's profile (exact or sampled).
const std::string kObj2Body =
    "  groups       class 1, method 1, nested site 1, pattern 1\n"
    "  alloc        200 (thread 1)\n"
    "  first get    200\n"
    "  last get     250\n"
    "  last use     300\n"
    "  first put    never\n"
    "  last put     never\n"
    "  death        1,000 (GC 3)\n"
    "  times        lag 0, in use 100, drag 700; lifetime 800\n"
    "  spaces       lag 0, in use 2,400, drag 16,800; total 19,200\n";

class Shell : public ::testing::Test {
 protected:
  void SetUp() override { model_ = buildModel(profile_); }

  // The output of a command that must succeed.
  std::string run(const std::string& line) {
    out_.str("");
    LifetimeShell::Outcome o = shell_.execute(line);
    EXPECT_EQ(o.status, Status::Ok) << line << ": " << o.error;
    return out_.str();
  }

  // The error of a command that must fail (it prints nothing).
  std::string fail(const std::string& line) {
    out_.str("");
    LifetimeShell::Outcome o = shell_.execute(line);
    EXPECT_EQ(o.status, Status::Failed) << line;
    EXPECT_EQ(out_.str(), "") << line;
    return o.error;
  }

  // `stat` without its last line (the group counts, which the fixture's profiles share):
  // it must be the start of the text report, byte for byte.
  std::string statSummary() {
    std::string stat = run("stat");
    const std::string groups =
        "  groups       4 classes, 2 methods, 4 nested sites, 6 lifetime patterns\n";
    EXPECT_TRUE(stat.ends_with(groups)) << stat;
    if (!stat.ends_with(groups)) return {};
    std::ostringstream report;
    dragnet::report::writeLifetimeText(report, model_, {});
    std::string summary = stat.substr(0, stat.size() - groups.size());
    EXPECT_EQ(report.str().substr(0, summary.size()), summary);
    return summary;
  }

  dragnet::profile::Profile profile_ = dragnet::test::lifetimeProfile();
  Model model_;
  std::ostringstream out_;
  LifetimeShell shell_{model_, out_};
};

TEST_F(Shell, HelpListsEveryCommand) {
  std::string help = run("help");
  EXPECT_EQ(help, LifetimeShell::help());
  for (const char* synopsis :
       {"\nwrite FILE ", "\nstat [long] ", "\nobj ID [long] ", "\nclass ID|NAME [long] ",
        "\nmethod ID [long] ", "\nnested ID [long] ", "\nlag|drag|void class [ID] [@N] ",
        "\nlag|drag|void method [ID] [@N] ", "\nlag|drag|void nested [ID] [@N] ", "\nsql QUERY ",
        "\nexit "}) {
    EXPECT_NE(help.find(synopsis), std::string::npos) << synopsis;
  }
}

TEST_F(Shell, StatIsTheReportsSummaryAndGroupCounts) {
  std::string summary = statSummary();
  ASSERT_FALSE(summary.empty());
  EXPECT_NE(summary.find("\n  total space  104,800; 52 bytes reachable on average\n"),
            std::string::npos)
      << summary;
  EXPECT_NE(summary.find("\n  drag                             46,400  44.27% of the total space "
                         "is drag; 23 bytes held on average\n"),
            std::string::npos)
      << summary;
}

TEST_F(Shell, StatLongAddsTheHeapAfterEachGc) {
  std::string stat = run("stat long");
  std::string head = run("stat");
  ASSERT_EQ(stat.substr(0, head.size()), head);
  EXPECT_EQ(stat.substr(head.size()),
            "\nReachable heap just after each GC (bytes)\n"
            "  gc                 time forced           heap         in use            lag"
            "           drag           void\n"
            "  1                   400     no             72              0             24"
            "             24             24\n"
            "  2                   500    yes             24              0              0"
            "             24              0\n"
            "  3                 1,000     no             56              0             56"
            "              0              0\n"
            "  4                 1,500    yes             32             32              0"
            "              0              0\n"
            "  5                 1,800     no             32             32              0"
            "              0              0\n");
  EXPECT_EQ(fail("stat short"), "usage: stat [long]");
}

TEST_F(Shell, ObjUsedAndDragged) {
  EXPECT_EQ(run("obj 2"), "object 2: app.Point, 24 bytes\n" + kObj2Body);
  std::string detailed = run("obj 2 long");
  EXPECT_TRUE(
      detailed.ends_with("  allocated at app.Main.build(Main.java:10) < app.Main.main(Main.java)\n"
                         "  first get at app.Main.use(Main.java) < app.Main.main(Main.java)\n"
                         "  last get at  app.Main.other(Main.java) < app.Main.use(Main.java)\n"))
      << detailed;
}

TEST_F(Shell, ObjVoidWithPutsAndAliveAtTheEnd) {
  EXPECT_EQ(run("obj 1 long"),
            "object 1: app.Point, 24 bytes\n"
            "  groups       class 1, method 1, nested site 1, pattern 2\n"
            "  alloc        100 (thread 1)\n"
            "  first get    never\n"
            "  first put    150\n"
            "  last put     150\n"
            "  death        500 (GC 2)\n"
            "  times        void 400; lifetime 400\n"
            "  spaces       void 9,600; total 9,600\n"
            "  allocated at app.Main.build(Main.java:10) < app.Main.main(Main.java)\n"
            "  first put at app.Main.use(Main.java) < app.Main.main(Main.java)\n"
            "  last put at  app.Main.use(Main.java) < app.Main.main(Main.java)\n");
  std::string node = run("obj 5");
  EXPECT_NE(node.find("\n  death        2,000 (alive at the end)\n"), std::string::npos) << node;
  EXPECT_NE(node.find("\n  spaces       lag 3,200, in use 22,400, drag 0; total 25,600\n"),
            std::string::npos)
      << node;
  EXPECT_NE(node.find("nested site 3, pattern 1\n"), std::string::npos) << node;
}

TEST_F(Shell, ObjErrors) {
  EXPECT_EQ(fail("obj 99"), "no object 99");
  EXPECT_EQ(fail("obj 0"), "no object 0");
  EXPECT_EQ(fail("obj x"), "not an object id: 'x'");
  EXPECT_EQ(fail("obj 2 short"), "usage: obj ID [long]");
  EXPECT_EQ(fail("obj"), "usage: obj ID [long]");
}

TEST_F(Shell, ClassByIdOrName) {
  std::string point = run("class 1");
  EXPECT_EQ(point,
            "class 1: app.Point\n"
            "  objects      4 (96 bytes): 0 lagged (unused through a forced GC), 2 dragged, 1 "
            "void\n"
            "  total space  43,200; 22 bytes reachable on average\n"
            "  lag                               4,800  11.11% of the total space is lag; 2 bytes "
            "held on average\n"
            "  in use                            4,800  11.11% of the total space is in use; 2 "
            "bytes held on average\n"
            "  drag                             24,000  55.56% of the total space is drag; 12 "
            "bytes held on average\n"
            "    actionable                      4,800  11.11% of the total space is actionable "
            "drag (reachable at a forced GC after the last use); 2 bytes held on average\n"
            "    below precision                19,200  44.44% of the total space is drag below "
            "the death precision (not told from 0 by the GCs); 10 bytes held on average\n"
            "    until exit                          0   0.00% of the total space is drag until "
            "exit (alive at the end, after the last GC that saw it); 0 bytes held on average\n"
            "  void                              9,600  22.22% of the total space is void; 5 bytes "
            "held on average\n"
            "  nested sites 1\n");
  EXPECT_EQ(run("class app.Point"), point);
  EXPECT_EQ(run("class app.Point long"), point +
                                             "  lagged objects   none\n"
                                             "  dragged objects  2, 7\n"
                                             "  void objects     1\n");
  EXPECT_EQ(run("class int[]").substr(0, 17), "class 2: int[]\n  ");
  EXPECT_EQ(fail("class 5"), "no class 5 (ids are 1..4)");
  EXPECT_EQ(fail("class 0"), "no class 0 (ids are 1..4)");
  EXPECT_EQ(fail("class app.Foo"), "no class named 'app.Foo'");
  EXPECT_EQ(fail("class"), "usage: class ID|NAME [long]");
}

TEST_F(Shell, MethodAndNested) {
  std::string helper = run("method 2 long");
  EXPECT_EQ(helper.substr(0, helper.find('\n')), "method 2: app.Main.helper(Main.java) ()V");
  EXPECT_NE(helper.find("\n  objects      2 (72 bytes): 0 lagged (unused through a forced GC), 0 "
                        "dragged, 1 void\n"),
            std::string::npos)
      << helper;
  EXPECT_TRUE(
      helper.ends_with("  nested sites 3, 4\n"
                       "  lagged objects   none\n"
                       "  dragged objects  none\n"
                       "  void objects     6\n"))
      << helper;
  EXPECT_NE(run("method 1").find("\n  nested sites 1, 2\n"), std::string::npos);
  EXPECT_EQ(fail("method 3"), "no method 3 (ids are 1..2)");

  std::string site = run("nested 4");
  EXPECT_EQ(site.substr(0, site.find('\n')),
            "nested 4: java.lang.String at app.Main.helper(Main.java) < app.Main.build(Main.java)");
  EXPECT_TRUE(site.ends_with("  groups       class 4, method 2, 1 lifetime patterns\n")) << site;
  EXPECT_TRUE(run("nested 1 long")
                  .ends_with("  groups       class 1, method 1, 3 lifetime patterns\n"
                             "  lagged objects   none\n"
                             "  dragged objects  2, 7\n"
                             "  void objects     1\n"));
  EXPECT_EQ(fail("nested 5"), "no nested site 5 (ids are 1..4)");
  EXPECT_EQ(fail("nested -1"), "not an id: '-1'");
}

TEST_F(Shell, RankingsOfAllGroups) {
  EXPECT_EQ(
      run("drag class"),
      "Classes by drag space\n"
      "  id                     drag space    avg held   % all    dragged    objects  class\n"
      "  1                          24,000    12 bytes  51.72%          2          4  "
      "app.Point\n"
      "  2                          22,400    11 bytes  48.28%          1          1  int[]\n");
  EXPECT_EQ(
      run("void method"),
      "Allocation sites by void space\n"
      "  id                     void space    avg held   % all       void    objects  method\n"
      "  1                           9,600     5 bytes  54.55%          1          5  "
      "app.Main.build(Main.java)\n"
      "  2                           8,000     4 bytes  45.45%          1          2  "
      "app.Main.helper(Main.java)\n");
  std::string sites = run("lag nested");
  EXPECT_EQ(sites.substr(0, sites.find('\n')), "Nested allocation sites by lag space");
  // Sites 1, 3, 2 by lag (4,800, 3,200, 560); site 4 has none.
  for (const char* row : {"\n  1    ", "\n  3    ", "\n  2    "}) {
    ASSERT_NE(sites.find(row), std::string::npos) << row;
  }
  EXPECT_LT(sites.find("\n  1    "), sites.find("\n  3    "));
  EXPECT_LT(sites.find("\n  3    "), sites.find("\n  2    "));
  EXPECT_EQ(sites.find("\n  4    "), std::string::npos);
}

TEST_F(Shell, RankingRowLimits) {
  std::string top2 = run("lag class @2");
  EXPECT_EQ(top2,
            "Classes by lag space\n"
            "  id                      lag space    avg held   % all     lagged    objects  class\n"
            "  1                           4,800     2 bytes  56.07%          0          4  "
            "app.Point\n"
            "  3                           3,200     2 bytes  37.38%          0          1  "
            "app.Node\n"
            "  ... 1 more (@N: N rows, @0: all)\n");
  std::string all = run("lag class @0");
  EXPECT_EQ(all.find("more"), std::string::npos);
  EXPECT_NE(
      all.find("\n  2                             560     0 bytes   6.54%          0          1  "
               "int[]\n"),
      std::string::npos)
      << all;
  EXPECT_EQ(run("lag class @3"), all);

  // The default (ShellOptions::rows) applies without @N.
  std::ostringstream out;
  LifetimeShell one(model_, out, {.rows = 1});
  ASSERT_EQ(one.execute("lag class").status, Status::Ok);
  EXPECT_TRUE(out.str().ends_with("app.Point\n  ... 2 more (@N: N rows, @0: all)\n")) << out.str();
}

TEST_F(Shell, RankingsOfOneGroup) {
  EXPECT_EQ(run("void class 1"),
            "Nested allocation sites of class 1 (app.Point) by void space\n"
            "  id                     void space    avg held   % all       void    objects  "
            "type at stack\n"
            "  1                           9,600     5 bytes  54.55%          1          4  "
            "app.Point at app.Main.build(Main.java:10) < app.Main.main(Main.java)\n");
  EXPECT_EQ(run("void class app.Point"), run("void class 1"));
  std::string build = run("drag method 1 @1");
  EXPECT_EQ(build,
            "Nested allocation sites of method 1 (app.Main.build(Main.java)) by drag space\n"
            "  id                     drag space    avg held   % all    dragged    objects  "
            "type at stack\n"
            "  1                          24,000    12 bytes  51.72%          2          4  "
            "app.Point at app.Main.build(Main.java:10) < app.Main.main(Main.java)\n"
            "  ... 1 more (@N: N rows, @0: all)\n");
  EXPECT_EQ(run("drag class 3"),
            "Nested allocation sites of class 3 (app.Node) by drag space\n  (none)\n");
}

TEST_F(Shell, PatternsOfANestedSite) {
  std::string patterns = run("lag nested 1");
  EXPECT_EQ(patterns,
            "Lifetime patterns (first get, last get) of nested site 1 by lag space\n"
            "  nested 1: app.Point at app.Main.build(Main.java:10) < app.Main.main(Main.java)\n"
            "    pattern 3: 3,600 lag space (75.00% of the site's), 1 objects, 0 lagged, e.g. "
            "object 3\n"
            "      first get  app.Main.use(Main.java) < app.Main.main(Main.java)\n"
            "      last get   app.Main.use(Main.java) < app.Main.main(Main.java)\n"
            "    pattern 1: 1,200 lag space (25.00% of the site's), 2 objects, 0 lagged, e.g. "
            "object 2\n"
            "      first get  app.Main.use(Main.java) < app.Main.main(Main.java)\n"
            "      last get   app.Main.other(Main.java) < app.Main.use(Main.java)\n");
  std::string first = run("lag nested 1 @1");
  EXPECT_NE(first.find("pattern 3:"), std::string::npos);
  EXPECT_EQ(first.find("pattern 1:"), std::string::npos);
  EXPECT_TRUE(first.ends_with("  ... 1 more (@N: N rows, @0: all)\n")) << first;
  std::string voids = run("void nested 1");
  EXPECT_NE(
      voids.find("    pattern 2: 9,600 void space (100.00% of the site's), 1 objects, 1 void, "
                 "e.g. object 1\n      first get  (not recorded)\n"),
      std::string::npos)
      << voids;
  EXPECT_TRUE(run("drag nested 3").ends_with("    (none)\n"));
}

TEST_F(Shell, RankingErrors) {
  EXPECT_EQ(fail("drag"), "usage: lag|drag|void class|method|nested [ID] [@N]");
  EXPECT_EQ(fail("drag things"), "not class, method or nested: 'things'");
  EXPECT_EQ(fail("drag class 9"), "no class 9 (ids are 1..4)");
  EXPECT_EQ(fail("lag nested 0"), "no nested site 0 (ids are 1..4)");
  EXPECT_EQ(fail("void method 3"), "no method 3 (ids are 1..2)");
  EXPECT_EQ(fail("drag class @x"), "not a row count after @: 'x'");
  EXPECT_EQ(fail("drag class @1 1"), "usage: lag|drag|void class|method|nested [ID] [@N]");
  EXPECT_EQ(fail("drag class 1 2"), "usage: lag|drag|void class|method|nested [ID] [@N]");
}

TEST_F(Shell, WriteSendsTheNextCommandsOutputToAFile) {
  std::filesystem::path file = dragnet::test::testDir() / "ranking.txt";
  std::string ranking = run("drag class");
  EXPECT_EQ(run("write " + file.string()), "");
  EXPECT_EQ(readFile(file), "");  // created at once
  EXPECT_EQ(run("# a comment does not take the file"), "");
  EXPECT_EQ(run("drag class"), "(output written to " + file.string() + ")\n");
  EXPECT_EQ(readFile(file), ranking);
  EXPECT_EQ(run("drag class"), ranking);  // only the next command went to the file
  EXPECT_EQ(readFile(file), ranking);
  EXPECT_EQ(fail("write"), "usage: write FILE");
  EXPECT_EQ(fail("write /nonexistent-dir/x.txt"),
            "cannot write /nonexistent-dir/x.txt: No such file or directory");
}

TEST_F(Shell, UnknownCommandsBlankLinesAndExit) {
  EXPECT_EQ(fail("frobnicate 3"), "unknown command 'frobnicate' (help lists the commands)");
  EXPECT_EQ(fail("help me"), "usage: help");
  EXPECT_EQ(run(""), "");
  EXPECT_EQ(run("   "), "");
  EXPECT_EQ(shell_.execute("exit").status, Status::Exit);
  EXPECT_EQ(shell_.execute("  exit  ").status, Status::Exit);
  EXPECT_EQ(fail("exit now"), "usage: exit");
  EXPECT_EQ(run("stat").substr(0, 8), "dragnet ");  // the shell goes on after errors
}

TEST_F(Shell, SqlPrintsAnAlignedTable) {
  EXPECT_EQ(run("sql SELECT id, name, drag_space, void_space FROM classes ORDER BY id"),
            "  id  name              drag_space  void_space\n"
            "  --  ----------------  ----------  ----------\n"
            "   1  app.Point              24000        9600\n"
            "   2  int[]                  22400           0\n"
            "   3  app.Node                   0           0\n"
            "   4  java.lang.String           0        8000\n"
            "(4 rows)\n");
  EXPECT_EQ(run("sql SELECT first_get, pattern FROM objects WHERE id = 1"),
            "  first_get  pattern\n"
            "  ---------  -------\n"
            "       NULL        2\n"
            "(1 row)\n");
  // Two statements, the first without result columns; the view stays for later queries.
  EXPECT_EQ(run("sql CREATE VIEW big AS SELECT id FROM objects WHERE size > 30; "
                "SELECT COUNT(*) AS n FROM big"),
            "  n\n  -\n  3\n(1 row)\n");
  EXPECT_EQ(run("sql SELECT id FROM big WHERE id > 5 ORDER BY id"), "  id\n  --\n   6\n(1 row)\n");
  EXPECT_EQ(fail("sql SELECT nope FROM objects"), "sql: no such column: nope");
  EXPECT_EQ(fail("sql"), "usage: sql QUERY");
}

TEST_F(Shell, SqlSumsPerGroupEqualTheModels) {
  // Drag space per class from the objects: Point 16,800 + 7,200; int[] 22,400.
  EXPECT_EQ(run("sql SELECT class, SUM(drag_space) AS drag FROM objects GROUP BY class "
                "HAVING drag > 0 ORDER BY class"),
            "  class   drag\n"
            "  -----  -----\n"
            "      1  24000\n"
            "      2  22400\n"
            "(2 rows)\n");
  // Every stats column of every group equals the sum over its objects.
  struct Group {
    const char* column;
    const char* table;
    const char* count;  // groups of the table, each joined with its objects' sums
  };
  for (Group g : {Group{"class", "classes", "4"}, Group{"method", "methods", "2"},
                  Group{"nested", "nested", "4"}}) {
    std::string query =
        std::string(
            "sql SELECT COUNT(*) AS joined, SUM(g.objects != o.n OR g.lagged != o.l OR "
            "g.dragged != o.d OR g.void != o.v OR g.bytes != o.b OR g.total_space != o.t "
            "OR g.lag_space != o.ls OR g.use_space != o.us OR g.drag_space != o.ds OR "
            "g.void_space != o.vs) AS mismatches FROM ") +
        g.table + " g JOIN (SELECT " + g.column +
        " AS gid, COUNT(*) AS n, SUM(lagged) AS l, SUM(dragged) AS d, SUM(void) AS v, SUM(size) "
        "AS b, SUM(total_space) AS t, SUM(lag_space) AS ls, SUM(use_space) AS us, "
        "SUM(drag_space) AS ds, SUM(void_space) AS vs FROM objects GROUP BY " +
        g.column + ") o ON o.gid = g.id";
    EXPECT_EQ(run(query), std::string("  joined  mismatches\n  ------  ----------\n       ") +
                              g.count + "           0\n(1 row)\n")
        << g.column;
  }
}

// The profile read as a sample at interval 64: objects 1-7 stand for 3, 3, 4, 2, 3, 2, 3
// objects (aggregate_test.cpp, LifetimeSampled). Group ids follow the weighted spaces:
// classes 1 app.Point 134,400, 2 app.Node 76,800, 3 int[] 56,000, 4 java.lang.String 16,000.
class SampledShell : public Shell {
 protected:
  SampledShell() { profile_ = dragnet::test::lifetimeProfile({{"sample", "64"}}); }
};

// `stat`: the text report's header (with its "sampled" line) and weighted totals; the
// precision counts the objects too (17 freed, object 5's 3 alive at the end).
TEST_F(SampledShell, StatCountsTheObjectsRecordsStandFor) {
  std::string summary = statSummary();
  ASSERT_FALSE(summary.empty());
  for (const char* line :
       {"\n  sampled      one object per ~64 bytes allocated, 7 tracked: counts and spaces are "
        "estimates (each object stands for the objects of its size the sampler skipped)\n",
        // Gaps 400, 200, 500, 500, 400, 200 weighted 3, 4, 3, 2, 3, 2: 6,100 / 17 = 358.8.
        "\n  precision    deaths known to within 500 bytes (largest gap), 359 on average, over 17 "
        "freed objects; 3 objects alive at the end (they die at the end time)\n",
        "\n  objects      20 (600 bytes): 0 lagged (unused through a forced GC), 8 dragged, 5 "
        "void\n",
        "\n  total space  283,200; 142 bytes reachable on average\n"}) {
    EXPECT_NE(summary.find(line), std::string::npos) << line << "\nin:\n" << summary;
  }
  // After GC 1 (400): objects 1 (void), 2 (drag) and 3 (lag): 3, 3 and 4 x 24 bytes.
  EXPECT_NE(run("stat long")
                .find("\n  1                   400     no            240              0       "
                      "      96             72             72\n"),
            std::string::npos);
}

// `obj`: one tracked record, which says how many objects it stands for and their spaces.
TEST_F(SampledShell, ObjSaysWhatTheRecordStandsFor) {
  // The exact profile's output plus what the weight adds.
  EXPECT_EQ(run("obj 2"),
            "object 2: app.Point, 24 bytes\n"
            "  sampled      a tracked record that stands for 3 objects of its size (the times "
            "and spaces below are one object's)\n" +
                kObj2Body + "  spaces x 3   lag 0, in use 7,200, drag 50,400; total 57,600\n");
  std::string three = run("obj 3");
  EXPECT_NE(three.find("\n  sampled      a tracked record that stands for 4 objects of its size"),
            std::string::npos)
      << three;
  EXPECT_TRUE(
      three.ends_with("  spaces       lag 3,600, in use 1,200, drag 0; total 4,800\n"
                      "  spaces x 4   lag 14,400, in use 4,800, drag 0; total 19,200\n"))
      << three;
  EXPECT_TRUE(run("obj 1 long")
                  .find("  spaces x 3   void 28,800; total 28,800\n"
                        "  allocated at ") != std::string::npos);
  // The objects table has the same weight and weighted spaces.
  EXPECT_EQ(run("sql SELECT weight, total_space FROM objects WHERE id = 2"),
            "  weight  total_space\n  ------  -----------\n       3        57600\n(1 row)\n");
}

// Groups and rankings count the objects, and the rankings how many samples (records) each
// row rests on; `long` lists the tracked records, each with the objects it stands for (they
// add up to the counts above them).
TEST_F(SampledShell, GroupsAndRankingsAreWeighted) {
  EXPECT_EQ(run("class 1 long"),
            "class 1: app.Point\n"
            "  objects      13 (312 bytes): 0 lagged (unused through a forced GC), 6 dragged, 3 "
            "void\n"
            "  total space  134,400; 67 bytes reachable on average\n"
            "  lag                              18,000  13.39% of the total space is lag; 9 bytes "
            "held on average\n"
            "  in use                           15,600  11.61% of the total space is in use; 8 "
            "bytes held on average\n"
            "  drag                             72,000  53.57% of the total space is drag; 36 "
            "bytes held on average\n"
            "    actionable                     14,400  10.71% of the total space is actionable "
            "drag (reachable at a forced GC after the last use); 7 bytes held on average\n"
            "    below precision                57,600  42.86% of the total space is drag below "
            "the death precision (not told from 0 by the GCs); 29 bytes held on average\n"
            "    until exit                          0   0.00% of the total space is drag until "
            "exit (alive at the end, after the last GC that saw it); 0 bytes held on average\n"
            "  void                             28,800  21.43% of the total space is void; 14 "
            "bytes held on average\n"
            "  nested sites 1\n"
            "  lagged records   none\n"
            "  dragged records  2 (x3), 7 (x3)\n"
            "  void records     1 (x3)\n");
  EXPECT_TRUE(run("nested 1 long")
                  .ends_with("  lagged records   none\n"
                             "  dragged records  2 (x3), 7 (x3)\n"
                             "  void records     1 (x3)\n"));
  // Drag: app.Point 700 x 24 x 3 + 300 x 24 x 3, int[] 400 x 56 x 2, of 116,800.
  EXPECT_EQ(
      run("drag class"),
      "Classes by drag space\n"
      "  id                     drag space    avg held   % all    dragged    objects  samples  "
      "class\n"
      "  1                          72,000    36 bytes  61.64%          6         13        4  "
      "app.Point\n"
      "  3                          44,800    22 bytes  38.36%          2          2        1  "
      "int[]\n");
  EXPECT_EQ(run("lag nested 1"),
            "Lifetime patterns (first get, last get) of nested site 1 by lag space\n"
            "  nested 1: app.Point at app.Main.build(Main.java:10) < app.Main.main(Main.java)\n"
            "    pattern 3: 14,400 lag space (80.00% of the site's), 4 objects, 0 lagged, e.g. "
            "object 3\n"
            "      first get  app.Main.use(Main.java) < app.Main.main(Main.java)\n"
            "      last get   app.Main.use(Main.java) < app.Main.main(Main.java)\n"
            "    pattern 1: 3,600 lag space (20.00% of the site's), 6 objects, 0 lagged, e.g. "
            "object 2\n"
            "      first get  app.Main.use(Main.java) < app.Main.main(Main.java)\n"
            "      last get   app.Main.other(Main.java) < app.Main.use(Main.java)\n");
  EXPECT_EQ(run("sql SELECT (SELECT SUM(weight) FROM objects) AS objects, "
                "(SELECT SUM(freed) FROM gcs) AS freed"),
            "  objects  freed\n  -------  -----\n       20     17\n(1 row)\n");
}

}  // namespace
