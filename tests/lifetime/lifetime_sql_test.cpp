// The SQLite tables of a lifetime model (report/lifetime_sql.h) on the profile of
// lifetime_profile.h, read back through the sqlite3 API: hand-computed rows, the export
// file, spaces past 2^63.
#include <gtest/gtest.h>
#include <sqlite3.h>

#include <fstream>
#include <sstream>

#include "analyses/lifetime/report/sql.h"
#include "lifetime_profile.h"

namespace {

using dragnet::analyses::lifetime::buildModel;
using dragnet::analyses::lifetime::Model;
using dragnet::report::SqlDb;

// The rows of a query, each as its values' text joined by '|' (NULL as "NULL").
std::vector<std::string> rows(sqlite3* db, const std::string& sql) {
  sqlite3_stmt* st = nullptr;
  EXPECT_EQ(sqlite3_prepare_v2(db, sql.c_str(), -1, &st, nullptr), SQLITE_OK)
      << sql << ": " << sqlite3_errmsg(db);
  std::vector<std::string> out;
  while (st && sqlite3_step(st) == SQLITE_ROW) {
    std::string row;
    for (int c = 0; c < sqlite3_column_count(st); ++c) {
      const unsigned char* text = sqlite3_column_text(st, c);
      if (c > 0) row += '|';  // appended (GCC 12 misreports "|" + std::string)
      row += text ? reinterpret_cast<const char*>(text) : "NULL";
    }
    out.push_back(row);
  }
  sqlite3_finalize(st);
  return out;
}

using Rows = std::vector<std::string>;

class LifetimeSql : public ::testing::Test {
 protected:
  void SetUp() override {
    model_ = buildModel(profile_);
    std::string error;
    db_ = SqlDb::open(":memory:", error);
    ASSERT_TRUE(db_) << error;
    ASSERT_TRUE(dragnet::report::writeLifetimeTables(*db_, model_, error)) << error;
  }

  Rows query(const std::string& sql) { return rows(db_->handle(), sql); }

  dragnet::profile::Profile profile_ = dragnet::test::lifetimeProfile();
  Model model_;
  std::unique_ptr<SqlDb> db_;
};

TEST_F(LifetimeSql, ObjectRows) {
  // id, groups, times (NULL: never), phase times, flags and spaces.
  EXPECT_EQ(query("SELECT id, class, method, nested, pattern, thread, size, alloc, first_get, "
                  "last_get, first_put, last_put, first_use, last_use, death, death_gc, lifetime, "
                  "lag_time, use_time, drag_time, void_time, lagged, dragged, void, total_space, "
                  "lag_space, use_space, drag_space, void_space FROM objects ORDER BY id"),
            (Rows{"1|1|1|1|2|1|24|100|NULL|NULL|150|150|NULL|NULL|500|2|400|0|0|0|400|0|0|1|9600|"
                  "0|0|0|9600",
                  "2|1|1|1|1|1|24|200|200|250|NULL|NULL|200|300|1000|3|800|0|100|700|0|0|1|0|19200|"
                  "0|2400|16800|0",
                  "3|1|1|1|3|2|24|300|450|480|NULL|NULL|450|500|500|2|200|150|50|0|0|0|0|0|4800|"
                  "3600|1200|0|0",
                  "4|2|1|2|1|2|56|1000|1010|1010|NULL|NULL|1010|1100|1500|4|500|10|90|400|0|0|1|0|"
                  "28000|560|5040|22400|0",
                  "5|3|2|3|1|1|32|1200|1300|1950|NULL|NULL|1300|2000|2000|NULL|800|100|700|0|0|0|0|"
                  "0|25600|3200|22400|0|0",
                  "6|4|2|4|1|2|40|1600|NULL|NULL|NULL|NULL|NULL|NULL|1800|5|200|0|0|0|200|0|0|1|"
                  "8000|0|0|0|8000",
                  "7|1|1|1|1|2|24|1100|1150|1160|NULL|NULL|1150|1200|1500|4|400|50|50|300|0|0|1|0|"
                  "9600|1200|1200|7200|0"}));
}

TEST_F(LifetimeSql, GroupRows) {
  EXPECT_EQ(query("SELECT * FROM classes ORDER BY id"),
            (Rows{"1|app.Point|4|0|2|1|96|43200|4800|4800|24000|9600",
                  "2|int[]|1|0|1|0|56|28000|560|5040|22400|0",
                  "3|app.Node|1|0|0|0|32|25600|3200|22400|0|0",
                  "4|java.lang.String|1|0|0|1|40|8000|0|0|0|8000"}));
  EXPECT_EQ(query("SELECT * FROM methods ORDER BY id"),
            (Rows{"1|app.Main.build(Main.java)|app.Main|build|()V|Main.java|5|0|3|1|152|71200|"
                  "5360|9840|46400|9600",
                  "2|app.Main.helper(Main.java)|app.Main|helper|()V|Main.java|2|0|0|1|72|33600|"
                  "3200|22400|0|8000"}));
  EXPECT_EQ(query("SELECT id, class, method, type, frames, patterns, objects, total_space FROM "
                  "nested ORDER BY id"),
            (Rows{"1|1|1|app.Point|app.Main.build(Main.java:10) < app.Main.main(Main.java)|3|4|"
                  "43200",
                  "2|2|1|int[]|app.Main.build(Main.java:11) < app.Util.run(Util.java)|1|1|28000",
                  "3|3|2|app.Node|app.Main.helper(Main.java:20) < app.Main.build(Main.java)|1|1|"
                  "25600",
                  "4|4|2|java.lang.String|app.Main.helper(Main.java) < app.Main.build(Main.java)|"
                  "1|1|8000"}));
}

TEST_F(LifetimeSql, PatternRows) {
  EXPECT_EQ(query("SELECT nested, id, first_get, last_get, representative, objects, lag_space, "
                  "drag_space, void_space FROM patterns ORDER BY nested, id"),
            (Rows{"1|1|app.Main.use(Main.java) < app.Main.main(Main.java)|app.Main.other(Main.java)"
                  " < app.Main.use(Main.java)|2|2|1200|24000|0",
                  "1|2|NULL|NULL|1|1|0|0|9600",
                  "1|3|app.Main.use(Main.java) < app.Main.main(Main.java)|app.Main.use(Main.java) "
                  "< app.Main.main(Main.java)|3|1|3600|0|0",
                  "2|1|app.Util.run(Util.java)|app.Util.run(Util.java)|4|1|560|22400|0",
                  "3|1|app.Util.run(Util.java)|app.Util.run(Util.java)|5|1|3200|0|0",
                  "4|1|NULL|NULL|6|1|0|0|8000"}));
}

TEST_F(LifetimeSql, GcTotalsAndMetaRows) {
  // GC 2 frees objects 1 and 3 (48 bytes), GC 4 objects 4 and 7 (80 bytes).
  EXPECT_EQ(
      query("SELECT * FROM gcs ORDER BY gc"),
      (Rows{"1|400|0|72|24|0|24|24|0|0", "2|500|1|24|0|0|24|0|2|48", "3|1000|0|56|56|0|0|0|1|24",
            "4|1500|1|32|0|32|0|0|2|80", "5|1800|0|32|0|32|0|0|1|40"}));
  EXPECT_EQ(
      query("SELECT end_time, use_epoch, gc_interval, stack, gcs, forced_gcs, max_death_gap, "
            "ROUND(mean_death_gap, 3), freed, alive_at_end, objects, lagged, dragged, void, "
            "bytes, total_space, lag_space, use_space, drag_space, void_space FROM totals"),
      (Rows{"2000|100|1024|2|5|2|500|366.667|6|1|7|0|3|2|224|104800|8560|32240|46400|17600"}));
  EXPECT_EQ(query("SELECT value FROM meta WHERE key = 'gc.interval'"), (Rows{"1k"}));
  EXPECT_EQ(query("SELECT COUNT(*) FROM meta"), (Rows{"5"}));
}

TEST_F(LifetimeSql, SpacesPast63BitsAreReals) {
  // Object 5 (32 bytes, alive at the end) lives 2^62 bytes of time: 2^67 of space.
  for (auto& r : profile_.objects) {
    if (r.id == 5) r.death = r.alloc + (uint64_t{1} << 62);
  }
  model_ = buildModel(profile_);
  std::string error;
  db_ = SqlDb::open(":memory:", error);
  ASSERT_TRUE(dragnet::report::writeLifetimeTables(*db_, model_, error)) << error;
  EXPECT_EQ(query("SELECT typeof(total_space), typeof(lifetime), lifetime, total_space = 32.0 * "
                  "lifetime FROM objects WHERE id = 5"),
            (Rows{"real|integer|4611686018427387904|1"}));
  EXPECT_EQ(query("SELECT typeof(total_space) FROM objects WHERE id = 4"), (Rows{"integer"}));
  // TOTAL() sums past 2^63 where SUM() of integers would fail.
  EXPECT_EQ(query("SELECT TOTAL(total_space) > 1.4e20 FROM objects"), (Rows{"1"}));
}

// One row per thread, named; their statistics add up to the totals' and each is the sum of
// its objects' rows.
TEST_F(LifetimeSql, ThreadsTableAddsUp) {
  EXPECT_EQ(query("SELECT id, name, ended FROM threads ORDER BY id"),
            (Rows{"1|main|1", "2|worker|1"}));
  EXPECT_EQ(
      query("SELECT SUM(objects), SUM(bytes), SUM(dragged), SUM(total_space), "
            "SUM(drag_space), SUM(void_space) FROM threads"),
      query("SELECT objects, bytes, dragged, total_space, drag_space, void_space FROM totals"));
  EXPECT_EQ(query("SELECT id, objects, bytes, drag_space FROM threads ORDER BY id"),
            query("SELECT thread, COUNT(*), SUM(size), SUM(drag_space) FROM objects "
                  "GROUP BY thread ORDER BY thread"));
}

TEST_F(LifetimeSql, ExportWritesAFileThatReopens) {
  std::filesystem::path file = dragnet::test::testDir() / "profile.db";
  std::ofstream(file) << "not a database";  // replaced
  std::string error;
  ASSERT_TRUE(dragnet::report::exportLifetimeSqlite(file.string(), model_, error)) << error;
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open_v2(file.c_str(), &db, SQLITE_OPEN_READONLY, nullptr), SQLITE_OK);
  EXPECT_EQ(rows(db, "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name"),
            (Rows{"classes", "gcs", "meta", "methods", "nested", "objects", "patterns", "run",
                  "threads", "totals"}));
  EXPECT_EQ(rows(db,
                 "SELECT (SELECT COUNT(*) FROM objects), (SELECT COUNT(*) FROM classes), "
                 "(SELECT COUNT(*) FROM methods), (SELECT COUNT(*) FROM nested), "
                 "(SELECT COUNT(*) FROM patterns), (SELECT COUNT(*) FROM gcs)"),
            (Rows{"7|4|2|4|6|5"}));
  // The same rows as the in-memory tables.
  EXPECT_EQ(rows(db, "SELECT * FROM objects ORDER BY id"),
            query("SELECT * FROM objects ORDER BY id"));
  EXPECT_EQ(rows(db, "SELECT class, SUM(drag_space) FROM objects GROUP BY class ORDER BY class"),
            (Rows{"1|24000", "2|22400", "3|0", "4|0"}));
  sqlite3_close(db);

  EXPECT_FALSE(dragnet::report::exportLifetimeSqlite("/nonexistent-dir/x.db", model_, error));
  EXPECT_NE(error.find("unable to open database file"), std::string::npos) << error;
}

// The profile read as a sample at interval 64: objects 1-7 stand for 3, 3, 4, 2, 3, 2, 3
// objects (aggregate_test.cpp, LifetimeSampled).
class LifetimeSqlSampled : public LifetimeSql {
 protected:
  LifetimeSqlSampled() { profile_ = dragnet::test::lifetimeProfile({{"sample", "64"}}); }
};

// What each GC freed, and the precision's counts, are the objects the records stand for.
TEST_F(LifetimeSqlSampled, GcsFreedAndTotalsCountTheObjectsRecordsStandFor) {
  EXPECT_EQ(query("SELECT id, weight FROM objects ORDER BY id"),
            (Rows{"1|3", "2|3", "3|4", "4|2", "5|3", "6|2", "7|3"}));
  // GC 2: objects 1 and 3, 3 + 4 of 24 bytes; GC 3: object 2, 3 x 24; GC 4: objects 4 and 7,
  // 2 x 56 + 3 x 24; GC 5: object 6, 2 x 40.
  EXPECT_EQ(query("SELECT gc, freed, freed_bytes FROM gcs ORDER BY gc"),
            (Rows{"1|0|0", "2|7|168", "3|3|72", "4|5|184", "5|2|80"}));
  // 17 freed and object 5 (3 x 32 bytes) alive at the end: the 20 objects, 600 bytes.
  // Mean gap: (400 x 3 + 200 x 4 + 500 x 3 + 500 x 2 + 400 x 3 + 200 x 2) / 17.
  EXPECT_EQ(query("SELECT freed, alive_at_end, max_death_gap, ROUND(mean_death_gap, 3), objects, "
                  "bytes FROM totals"),
            (Rows{"17|3|500|358.824|20|600"}));
  EXPECT_EQ(query("SELECT (SELECT SUM(freed) FROM gcs) + alive_at_end = objects, "
                  "(SELECT SUM(freed_bytes) FROM gcs) + 3 * 32 = bytes FROM totals"),
            (Rows{"1|1"}));
  // Every group's counts are its records' weighted sums.
  for (const char* column : {"class", "method", "nested"}) {
    std::string table = std::string(column) == "class"    ? "classes"
                        : std::string(column) == "method" ? "methods"
                                                          : "nested";
    EXPECT_EQ(
        query("SELECT SUM(g.objects != o.n OR g.lagged != o.l OR g.dragged != o.d OR "
              "g.void != o.v OR g.bytes != o.b) FROM " +
              table + " g JOIN (SELECT " + column +
              " AS gid, SUM(weight) AS n, SUM(lagged * weight) AS l, SUM(dragged * weight) "
              "AS d, SUM(void * weight) AS v, SUM(size * weight) AS b FROM objects GROUP BY " +
              column + ") o ON o.gid = g.id"),
        (Rows{"0"}))
        << column;
  }
}

}  // namespace
