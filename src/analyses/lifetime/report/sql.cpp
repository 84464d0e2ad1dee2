#include "analyses/lifetime/report/sql.h"

#include <sqlite3.h>

#include <algorithm>
#include <filesystem>
#include <limits>
#include <map>
#include <stdexcept>
#include <vector>

#include "analyses/lifetime/model/heap.h"
#include "analyses/lifetime/report/text.h"
#include "contexts/model.h"
#include "report/run_info.h"

namespace dragnet::report {

using analyses::lifetime::kAllPhases;
using analyses::lifetime::Life;
using analyses::lifetime::Model;
using analyses::lifetime::Phase;
using analyses::lifetime::Space;
using analyses::lifetime::Stats;

namespace {

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

// The lifetime tables' rows on a SqlTable: spaces, times, and a group's counts and spaces.
class Inserter {
 public:
  Inserter(sqlite3* db, const std::string& table, const std::vector<std::string>& columns)
      : t_(db, table, columns) {}

  // Spaces can pass 2^64: beyond it, a REAL (SqlTable makes one past 2^63).
  Inserter& number(Space v) {
    if (v <= static_cast<Space>(std::numeric_limits<uint64_t>::max())) {
      t_.integer(static_cast<uint64_t>(v));
    } else {
      t_.real(analyses::lifetime::toDouble(v));
    }
    return *this;
  }
  Inserter& real(double v) {
    t_.real(v);
    return *this;
  }
  Inserter& text(std::string_view s) {
    t_.text(s);
    return *this;
  }
  Inserter& null() {
    t_.null();
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
  void row() { t_.row(); }

 private:
  SqlTable t_;
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

// One row per thread of the profile's trees: its name and the statistics of the objects it
// allocated (each object's, as the objects table computes them).
void threadsTable(sqlite3* db, const Model& m) {
  Inserter t(db, "threads", withStats({"id INTEGER PRIMARY KEY", "name TEXT", "ended INTEGER"}));
  std::map<uint32_t, Stats> byThread;
  for (const auto& [id, tree] : m.profile->threads) byThread[id];
  for (uint32_t i : m.byId) {
    const profile::ObjectRecord& r = analyses::lifetime::object(m, i);
    byThread[r.thread].add(analyses::lifetime::lifeOf(m, i), r.size,
                           analyses::lifetime::weightOf(m, i));
  }
  for (const auto& [id, stats] : byThread) {
    auto tree = m.profile->threads.find(id);
    t.number(id);
    if (tree == m.profile->threads.end()) {
      t.null().null();
    } else {
      t.text(tree->second.name).number(tree->second.ended ? 1 : 0);
    }
    t.stats(stats).row();
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

}  // namespace

namespace {

void fill(sqlite3* h, const Model& m) {
  objectsTable(h, m);
  threadsTable(h, m);
  classesTable(h, m);
  methodsTable(h, m);
  nestedTable(h, m);
  patternsTable(h, m);
  gcsTable(h, m);
  totalsTable(h, m);
  writeMetaTables(h, *m.profile);
  // The objects of a group, without a scan of all objects.
  for (const char* column : {"class", "method", "nested"}) {
    sqlExec(h, std::string("CREATE INDEX objects_") + column + " ON objects(" + column + ")");
  }
}

}  // namespace

bool writeLifetimeTables(SqlDb& db, const Model& m, std::string& error) {
  return fillTables(
      db, [&](sqlite3* h) { fill(h, m); }, error);
}

bool exportLifetimeSqlite(const std::string& path, const Model& m, std::string& error) {
  return writeSqliteFile(
      path, [&](sqlite3* h) { fill(h, m); }, error);
}

}  // namespace dragnet::report
