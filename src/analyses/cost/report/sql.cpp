#include "analyses/cost/report/sql.h"

#include "analyses/cost/report/report.h"
#include "contexts/model.h"
#include "report/run_info.h"

namespace dragnet::report {

using analyses::cost::CostModel;
using analyses::cost::LocationCost;
using analyses::cost::NodeDef;

namespace {

void intOrNull(SqlTable& t, bool known, uint64_t v) {
  if (known) {
    t.integer(v);
  } else {
    t.null();
  }
}

void nodesTable(sqlite3* db, const CostReport& r, const CostNames& names) {
  SqlTable t(db, "nodes",
             {"id INTEGER PRIMARY KEY", "kind TEXT", "what TEXT", "method INTEGER", "code TEXT",
              "bci INTEGER", "line INTEGER", "field INTEGER", "field_name TEXT", "site INTEGER",
              "site_name TEXT"});
  const auto& defs = r.model->input().defs;
  for (uint32_t id = 1; id < defs.size(); ++id) {
    const NodeDef& d = defs[id];
    t.integer(id).text(costNodeKind(d.kind)).text(names.what(d)).integer(d.method);
    t.text(names.code(d)).integer(d.index);
    intOrNull(t, d.line >= 0, static_cast<uint64_t>(d.line));
    bool field = d.readsHeap() || d.writesHeap();
    intOrNull(t, field, d.field);
    if (field) {
      t.text(names.field(d.field));
    } else {
      t.null();
    }
    bool alloc = d.kind == analyses::cost::NodeKind::Alloc;
    intOrNull(t, alloc, d.site);
    if (alloc) {
      t.text(names.site(d.site));
    } else {
      t.null();
    }
    t.row();
  }
}

void graphTables(sqlite3* db, const CostModel& m) {
  SqlTable insts(db, "instances",
                 {"id INTEGER PRIMARY KEY", "node INTEGER", "slot INTEGER", "freq INTEGER",
                  "bloat TEXT", "preds INTEGER", "succs INTEGER"});
  const auto& g = m.graph();
  const auto& member = m.bloat().membership;
  for (uint32_t v = 0; v < g.size(); ++v) {
    insts.integer(v).integer(g.inst(v).node).integer(g.inst(v).slot).integer(g.freq(v));
    uint8_t b = v < member.size() ? member[v] : 0;
    if (b == analyses::cost::kDead) {
      insts.text("dead");
    } else if (b == analyses::cost::kPredicateOnly) {
      insts.text("predicate");
    } else {
      insts.null();
    }
    insts.integer(g.preds(v).size()).integer(g.succs(v).size()).row();
  }
  SqlTable edges(db, "edges", {"src INTEGER", "dst INTEGER"}, "PRIMARY KEY (src, dst)");
  for (uint32_t v = 0; v < g.size(); ++v) {
    for (uint32_t s : g.succs(v)) edges.integer(v).integer(s).row();
  }
}

void locationTables(sqlite3* db, const CostReport& r, const CostNames& names) {
  SqlTable locs(db, "locations",
                {"id INTEGER PRIMARY KEY", "static INTEGER", "site INTEGER", "slot INTEGER",
                 "field INTEGER", "field_name TEXT", "name TEXT", "rac REAL", "rab REAL",
                 "rab_mean REAL", "consumed INTEGER", "writers INTEGER", "readers INTEGER"});
  SqlTable writers(db, "writers", {"location INTEGER", "instance INTEGER", "node INTEGER"},
                   "PRIMARY KEY (location, instance)");
  SqlTable readers(db, "readers", {"location INTEGER", "instance INTEGER", "node INTEGER"},
                   "PRIMARY KEY (location, instance)");
  const CostModel& m = *r.model;
  for (uint32_t i = 0; i < m.locations().size(); ++i) {
    const LocationCost& l = m.locations()[i];
    locs.integer(i).integer(l.loc.isStatic ? 1 : 0);
    intOrNull(locs, !l.loc.isStatic, l.loc.object.site);
    intOrNull(locs, !l.loc.isStatic, l.loc.object.slot);
    locs.integer(l.loc.field).text(names.field(l.loc.field)).text(names.location(l.loc));
    locs.real(l.rac).real(l.rab).real(l.rabMean).integer(l.consumed ? 1 : 0);
    locs.integer(l.writers.size()).integer(l.readers.size()).row();
    for (uint32_t v : l.writers)
      writers.integer(i).integer(v).integer(m.graph().inst(v).node).row();
    for (uint32_t v : l.readers)
      readers.integer(i).integer(v).integer(m.graph().inst(v).node).row();
  }
}

void rankingTables(sqlite3* db, const CostReport& r, const CostNames& names) {
  const CostModel& m = *r.model;
  SqlTable objects(
      db, "objects",
      {"rank INTEGER PRIMARY KEY", "site INTEGER", "slot INTEGER", "name TEXT", "rate REAL",
       "n_rac REAL", "n_rab REAL", "births INTEGER", "consumed INTEGER", "objects INTEGER"});
  SqlTable members(db, "structure_locations", {"rank INTEGER", "location INTEGER"},
                   "PRIMARY KEY (rank, location)");
  uint32_t rank = 0;
  for (const auto& o : m.objects()) {
    objects.integer(++rank).integer(o.object.site).integer(o.object.slot);
    objects.text(names.object(o.object)).real(o.rate).real(o.nRac).real(o.nRab);
    objects.integer(o.births).integer(o.consumed ? 1 : 0).integer(o.objects.size()).row();
    for (uint32_t l : o.locations) members.integer(rank).integer(l).row();
  }
  SqlTable sites(db, "sites",
                 {"rank INTEGER PRIMARY KEY", "site INTEGER", "name TEXT", "type TEXT",
                  "method INTEGER", "method_name TEXT", "line INTEGER", "rate REAL", "n_rac REAL",
                  "n_rab REAL", "births INTEGER", "consumed INTEGER"});
  rank = 0;
  for (const auto& s : m.sites()) {
    sites.integer(++rank).integer(s.site).text(names.site(s.site));
    const profile::SiteDef* d = names.siteDef(s.site);
    if (d == nullptr) {
      sites.null().null().null().null();
    } else {
      sites.text(contexts::javaTypeName(d->type));
      intOrNull(sites, d->method != 0, d->method);
      if (d->method != 0) {
        sites.text(contexts::frameName(*r.profile, d->method, -1));
      } else {
        sites.null();
      }
      intOrNull(sites, d->line >= 0, static_cast<uint64_t>(d->line));
    }
    sites.real(s.rate).real(s.nRac).real(s.nRab).integer(s.births).integer(s.consumed ? 1 : 0);
    sites.row();
  }
}

void summaryTables(sqlite3* db, const CostReport& r) {
  const CostModel& m = *r.model;
  SqlTable totals(db, "totals",
                  {"slots INTEGER", "array_shadow TEXT", "consumer_rab INTEGER", "height INTEGER",
                   "instances INTEGER", "edges INTEGER", "nodes_ran INTEGER",
                   "instructions INTEGER", "ipd REAL", "ipp REAL", "nld REAL", "cr REAL",
                   "cuts INTEGER", "unknown_tags INTEGER", "table_bytes INTEGER",
                   "shadow_bytes INTEGER", "dropped INTEGER", "dropped_instances INTEGER"});
  totals.integer(m.input().slots).text(r.recording.elementShadows ? "element" : "array");
  totals.integer(m.options().consumerRab).integer(m.options().height);
  totals.integer(m.size().instances).integer(m.size().edges).integer(m.size().defsRan);
  const auto& b = m.bloat();
  totals.integer(b.instructions).real(b.ipd).real(b.ipp).real(b.nld).real(m.conflictRatio());
  const auto& t = r.totals;
  totals.integer(t.cuts).integer(t.unknownTags).integer(t.tableBytes).integer(t.shadowBytes);
  totals.integer(t.dropped).integer(m.graph().dropped()).row();
  writeMetaTables(db, *r.profile);
}

void fill(sqlite3* db, const CostReport& r) {
  CostNames names(r);
  nodesTable(db, r, names);
  graphTables(db, *r.model);
  locationTables(db, r, names);
  rankingTables(db, r, names);
  summaryTables(db, r);
  // An instance's predecessors, and the instances of a node, without a scan.
  sqlExec(db, "CREATE INDEX edges_dst ON edges(dst)");
  sqlExec(db, "CREATE INDEX instances_node ON instances(node)");
}

}  // namespace

bool writeCostTables(SqlDb& db, const CostReport& r, std::string& error) {
  return fillTables(
      db, [&](sqlite3* h) { fill(h, r); }, error);
}

bool exportCostSqlite(const std::string& path, const CostReport& r, std::string& error) {
  return writeSqliteFile(
      path, [&](sqlite3* h) { fill(h, r); }, error);
}

}  // namespace dragnet::report
