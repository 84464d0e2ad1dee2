#include "analyses/lifetime/report/sql.h"

#include <sqlite3.h>

#include <algorithm>
#include <filesystem>
#include <limits>
#include <stdexcept>
#include <vector>

#include "analyses/lifetime/model/heap.h"
#include "analyses/lifetime/report/text.h"
#include "contexts/model.h"

namespace dragnet::report {

using analyses::lifetime::kAllPhases;
using analyses::lifetime::Life;
using analyses::lifetime::Model;
using analyses::lifetime::Phase;
using analyses::lifetime::Space;
using analyses::lifetime::Stats;

namespace {

// Thrown inside this file only; the public functions turn it into their `error`.
struct SqlError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

void check(sqlite3* db, int rc, int expected = SQLITE_OK) {
  if (rc != expected) throw SqlError(sqlite3_errmsg(db));
}

void exec(sqlite3* db, const std::string& sql) {
  char* message = nullptr;
  if (sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &message) != SQLITE_OK) {
    std::string text = message ? message : sqlite3_errmsg(db);
    sqlite3_free(message);
    throw SqlError(text + " (in: " + sql + ")");
  }
}

// Finalizes a prepared statement when it goes out of scope.
struct Statement {
  sqlite3_stmt* stmt = nullptr;
  ~Statement() { sqlite3_finalize(stmt); }
};

// The counts and spaces every group table ends with (a group's Stats).
const std::vector<std::string> kCountColumns = {"objects INTEGER", "lagged INTEGER",
                                                "dragged INTEGER", "void INTEGER", "bytes INTEGER"};
const std::vector<std::string> kSpaceColumns = {"total_space INTEGER", "lag_space INTEGER",
                                                "use_space INTEGER", "drag_space INTEGER",
                                                "void_space INTEGER"};

std::vector<std::string> withStats(std::vector<std::string> columns) {
  columns.insert(columns.end(), kCountColumns.begin(), kCountColumns.end());
  columns.insert(columns.end(), kSpaceColumns.begin(), kSpaceColumns.end());
  return columns;
}

// Creates a table and inserts its rows value by value, in column order.
class Inserter {
 public:
  Inserter(sqlite3* db, const std::string& table, const std::vector<std::string>& columns)
      : db_(db) {
    std::string create = "CREATE TABLE " + table + " (";
    std::string insert = "INSERT INTO " + table + " VALUES (";
    for (size_t i = 0; i < columns.size(); ++i) {
      create += (i ? ", " : "") + columns[i];
      insert += i ? ", ?" : "?";
    }
    exec(db, create + ")");
    check(db, sqlite3_prepare_v2(db, (insert + ")").c_str(), -1, &stmt_.stmt, nullptr));
  }

  // Spaces can pass 2^63 (SQLite integers are signed 64 bits): beyond it, a REAL.
  Inserter& number(Space v) {
    if (v <= static_cast<Space>(std::numeric_limits<int64_t>::max())) {
      check(db_, sqlite3_bind_int64(stmt_.stmt, next_++, static_cast<int64_t>(v)));
    } else {
      check(db_, sqlite3_bind_double(stmt_.stmt, next_++, analyses::lifetime::toDouble(v)));
    }
    return *this;
  }
  Inserter& real(double v) {
    check(db_, sqlite3_bind_double(stmt_.stmt, next_++, v));
    return *this;
  }
  Inserter& text(std::string_view s) {
    check(db_, sqlite3_bind_text(stmt_.stmt, next_++, s.data(), static_cast<int>(s.size()),
                                 SQLITE_TRANSIENT));
    return *this;
  }
  Inserter& null() {
    check(db_, sqlite3_bind_null(stmt_.stmt, next_++));
    return *this;
  }
  // A time, NULL when the event did not happen.
  Inserter& time(uint64_t t) { return t == profile::kNoTime ? null() : number(t); }
  Inserter& textOrNull(const std::string& s) { return s.empty() ? null() : text(s); }
  Inserter& counts(const Stats& s) {
    return number(s.objects).number(s.lagged).number(s.dragged).number(s.voids).number(s.bytes);
  }
  Inserter& spaces(const Stats& s) {
    number(s.total);
    for (Phase p : kAllPhases) number(s[p]);
    return *this;
  }
  Inserter& stats(const Stats& s) { return counts(s).spaces(s); }

  void row() {
    check(db_, sqlite3_step(stmt_.stmt), SQLITE_DONE);
    check(db_, sqlite3_reset(stmt_.stmt));
    next_ = 1;
  }

 private:
  sqlite3* db_;
  Statement stmt_;
  int next_ = 1;
};

std::string framesText(const std::vector<std::string>& frames) {
  return frames.empty() ? std::string() : lifetime_text::joined(frames, 0);
}

void objectsTable(sqlite3* db, const Model& m) {
  Inserter t(
      db, "objects",
      {"id INTEGER PRIMARY KEY", "class INTEGER",     "method INTEGER",    "nested INTEGER",
       "pattern INTEGER",        "thread INTEGER",    "size INTEGER",      "alloc INTEGER",
       "first_get INTEGER",      "last_get INTEGER",  "first_put INTEGER", "last_put INTEGER",
       "first_use INTEGER",      "last_use INTEGER",  "death INTEGER",     "death_gc INTEGER",
       "lifetime INTEGER",       "lag_time INTEGER",  "use_time INTEGER",  "drag_time INTEGER",
       "void_time INTEGER",      "lagged INTEGER",    "dragged INTEGER",   "void INTEGER",
       "total_space INTEGER",    "lag_space INTEGER", "use_space INTEGER", "drag_space INTEGER",
       "void_space INTEGER",     "weight INTEGER"});
  for (uint32_t i : m.byId) {
    const profile::ObjectRecord& r = analyses::lifetime::object(m, i);
    const analyses::lifetime::NestedSite& site = m.nested[m.nestedOf[i]];
    Life life = analyses::lifetime::lifeOf(m, i);
    // The object's own flags and spaces, computed as for its groups; a sampled record's
    // spaces are those of the `weight` objects it stands for.
    uint64_t weight = analyses::lifetime::weightOf(m, i);
    Stats one;
    one.add(life, r.size, weight);
    t.number(r.id).number(site.cls + 1).number(site.method + 1).number(site.id);
    t.number(m.patternOf[i] + 1).number(r.thread).number(r.size).number(r.alloc);
    t.time(r.firstGet).time(r.lastGet).time(r.firstPut).time(r.lastPut);
    if (life.used) {
      t.number(life.firstUse).number(life.lastUse);
    } else {
      t.null().null();
    }
    t.number(life.death);
    if (r.deathGc == 0) {
      t.null();
    } else {
      t.number(r.deathGc);
    }
    t.number(life.lifetime());
    for (Phase p : kAllPhases) t.number(life.time(p));
    t.number(life.lagged() ? 1 : 0).number(life.dragged() ? 1 : 0).number(life.used ? 0 : 1);
    t.spaces(one).number(weight).row();
  }
}

void classesTable(sqlite3* db, const Model& m) {
  Inserter t(db, "classes", withStats({"id INTEGER PRIMARY KEY", "name TEXT"}));
  for (const auto& c : m.classes) t.number(c.id).text(c.name).stats(c.stats).row();
}

void methodsTable(sqlite3* db, const Model& m) {
  Inserter t(db, "methods",
             withStats({"id INTEGER PRIMARY KEY", "name TEXT", "class_name TEXT",
                        "method_name TEXT", "descriptor TEXT", "source TEXT"}));
  for (const auto& g : m.methods) {
    t.number(g.id).text(g.name);
    auto def = m.profile->methods.find(g.methodId);
    if (def == m.profile->methods.end()) {
      t.null().null().null().null();
    } else {
      t.text(contexts::javaTypeName(def->second.cls)).text(def->second.name);
      t.text(def->second.descriptor).textOrNull(def->second.source);
    }
    t.stats(g.stats).row();
  }
}

void nestedTable(sqlite3* db, const Model& m) {
  Inserter t(db, "nested",
             withStats({"id INTEGER PRIMARY KEY", "class INTEGER", "method INTEGER", "type TEXT",
                        "frames TEXT", "patterns INTEGER"}));
  for (const auto& s : m.nested) {
    t.number(s.id).number(s.cls + 1).number(s.method + 1).text(analyses::lifetime::typeOf(m, s));
    t.textOrNull(framesText(analyses::lifetime::nestedFrames(m, s))).number(s.patterns.size());
    t.stats(s.stats).row();
  }
}

void patternsTable(sqlite3* db, const Model& m) {
  Inserter t(db, "patterns",
             withStats({"nested INTEGER", "id INTEGER", "first_get TEXT", "last_get TEXT",
                        "representative INTEGER"}));
  for (const auto& s : m.nested) {
    for (const auto& pat : s.patterns) {
      t.number(s.id).number(pat.id);
      t.textOrNull(framesText(analyses::lifetime::pathFrames(m, pat.firstGet)));
      t.textOrNull(framesText(analyses::lifetime::pathFrames(m, pat.lastGet)));
      t.number(pat.representative).stats(pat.stats).row();
    }
  }
}

void gcsTable(sqlite3* db, const Model& m) {
  // The objects each GC freed: in a sampled profile, those the records stand for.
  struct Freed {
    uint64_t objects = 0, bytes = 0;
  };
  std::vector<Freed> freed(m.profile->gcs.size() + 1);  // by deathGc
  for (uint32_t i = 0; i < m.profile->objects.size(); ++i) {
    const profile::ObjectRecord& r = analyses::lifetime::object(m, i);
    if (r.deathGc <= m.profile->gcs.size()) {
      uint64_t weight = analyses::lifetime::weightOf(m, i);
      freed[r.deathGc].objects += weight;
      freed[r.deathGc].bytes += r.size * weight;
    }
  }
  Inserter t(db, "gcs",
             {"gc INTEGER PRIMARY KEY", "time INTEGER", "forced INTEGER", "heap_bytes INTEGER",
              "lag_bytes INTEGER", "use_bytes INTEGER", "drag_bytes INTEGER", "void_bytes INTEGER",
              "freed INTEGER", "freed_bytes INTEGER"});
  for (const auto& h : analyses::lifetime::heapAtGcs(m)) {
    t.number(h.gc).number(h.time).number(h.forced).number(h.total());
    for (uint64_t b : h.bytes) t.number(b);
    t.number(freed[h.gc].objects).number(freed[h.gc].bytes).row();
  }
}

void totalsTable(sqlite3* db, const Model& m) {
  Inserter t(
      db, "totals",
      withStats({"end_time INTEGER", "use_epoch INTEGER", "gc_interval INTEGER", "stack INTEGER",
                 "gcs INTEGER", "forced_gcs INTEGER", "max_death_gap INTEGER",
                 "mean_death_gap REAL", "freed INTEGER", "alive_at_end INTEGER"}));
  const auto& pr = m.precision;
  t.number(m.endTime).number(m.settings.useEpoch).number(m.settings.gcInterval);
  t.number(m.settings.stack).number(pr.gcs).number(pr.forcedGcs).number(pr.maxGap);
  t.real(pr.meanGap).number(pr.freed).number(pr.aliveAtEnd).stats(m.totals).row();
}

void metaTable(sqlite3* db, const Model& m) {
  Inserter t(db, "meta", {"key TEXT PRIMARY KEY", "value TEXT"});
  for (const auto& [key, value] : m.profile->meta) t.text(key).text(value).row();
}

// ---- query results

struct ResultTable {
  std::vector<std::string> columns;
  std::vector<std::vector<std::string>> rows;
  std::vector<bool> numeric;  // per column: right-aligned (every non-NULL value a number)
};

ResultTable collect(sqlite3* db, sqlite3_stmt* st) {
  ResultTable t;
  int n = sqlite3_column_count(st);
  for (int c = 0; c < n; ++c) t.columns.emplace_back(sqlite3_column_name(st, c));
  t.numeric.assign(n, true);
  int rc;
  while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
    std::vector<std::string>& row = t.rows.emplace_back();
    for (int c = 0; c < n; ++c) {
      int type = sqlite3_column_type(st, c);
      const unsigned char* text = sqlite3_column_text(st, c);
      row.emplace_back(type == SQLITE_NULL ? "NULL" : reinterpret_cast<const char*>(text));
      if (type == SQLITE_TEXT || type == SQLITE_BLOB) t.numeric[c] = false;
    }
  }
  check(db, rc, SQLITE_DONE);
  return t;
}

// The columns a cell takes on a terminal: its characters, not its bytes (names are UTF-8).
size_t columnsOf(const std::string& cell) {
  return static_cast<size_t>(
      std::count_if(cell.begin(), cell.end(), [](char c) { return (c & 0xC0) != 0x80; }));
}

void writeResult(std::ostream& out, const ResultTable& t) {
  std::vector<size_t> width(t.columns.size());
  for (size_t c = 0; c < width.size(); ++c) {
    width[c] = columnsOf(t.columns[c]);
    for (const auto& row : t.rows) width[c] = std::max(width[c], columnsOf(row[c]));
  }
  auto line = [&](const std::vector<std::string>& cells) {
    std::string s = " ";
    for (size_t c = 0; c < cells.size(); ++c) {
      std::string pad(width[c] - columnsOf(cells[c]), ' ');
      bool right = t.numeric[c];  // numbers and their column titles
      bool last = c + 1 == cells.size();
      s += " " + (right ? pad + cells[c] : last ? cells[c] : cells[c] + pad) + (last ? "" : " ");
    }
    out << s << "\n";
  };
  line(t.columns);
  std::vector<std::string> rules;
  for (size_t w : width) rules.emplace_back(w, '-');
  line(rules);
  for (const auto& row : t.rows) line(row);
  out << "(" << t.rows.size() << (t.rows.size() == 1 ? " row)\n" : " rows)\n");
}

}  // namespace

std::unique_ptr<SqlDb> SqlDb::open(const std::string& path, std::string& error) {
  sqlite3* db = nullptr;
  if (sqlite3_open(path.c_str(), &db) != SQLITE_OK) {
    error = "cannot open " + path + ": " + (db ? sqlite3_errmsg(db) : "out of memory");
    sqlite3_close(db);
    return nullptr;
  }
  return std::unique_ptr<SqlDb>(new SqlDb(db));
}

SqlDb::~SqlDb() { sqlite3_close(db_); }

bool writeLifetimeTables(SqlDb& db, const Model& m, std::string& error) {
  sqlite3* h = db.handle();
  try {
    exec(h, "BEGIN");
    objectsTable(h, m);
    classesTable(h, m);
    methodsTable(h, m);
    nestedTable(h, m);
    patternsTable(h, m);
    gcsTable(h, m);
    totalsTable(h, m);
    metaTable(h, m);
    // The objects of a group, without a scan of all objects.
    for (const char* column : {"class", "method", "nested"}) {
      exec(h, std::string("CREATE INDEX objects_") + column + " ON objects(" + column + ")");
    }
    exec(h, "COMMIT");
    return true;
  } catch (const SqlError& e) {
    sqlite3_exec(h, "ROLLBACK", nullptr, nullptr, nullptr);
    error = e.what();
    return false;
  }
}

bool runSqlQuery(SqlDb& db, std::string_view sql, std::ostream& out, std::string& error) {
  sqlite3* h = db.handle();
  const char* at = sql.data();
  const char* end = sql.data() + sql.size();
  try {
    while (at < end) {
      Statement st;
      const char* next = nullptr;
      check(h, sqlite3_prepare_v2(h, at, static_cast<int>(end - at), &st.stmt, &next));
      at = next;
      if (st.stmt == nullptr) continue;  // white space or a comment
      ResultTable t = collect(h, st.stmt);
      if (!t.columns.empty()) writeResult(out, t);
    }
    return true;
  } catch (const SqlError& e) {
    error = e.what();
    return false;
  }
}

bool exportLifetimeSqlite(const std::string& path, const Model& m, std::string& error) {
  std::error_code ec;
  std::filesystem::remove(path, ec);
  if (ec) {
    error = "cannot replace " + path + ": " + ec.message();
    return false;
  }
  std::unique_ptr<SqlDb> db = SqlDb::open(path, error);
  if (!db) return false;
  // A fresh file written once: no journal needed (a failed export is removed below).
  sqlite3_exec(db->handle(), "PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF", nullptr, nullptr,
               nullptr);
  if (writeLifetimeTables(*db, m, error)) return true;
  db.reset();
  std::filesystem::remove(path, ec);
  return false;
}

}  // namespace dragnet::report
