#include "analyses/copy/report/sql.h"

#include <set>

#include "analyses/copy/report/report.h"
#include "contexts/model.h"
#include "report/run_info.h"

namespace dragnet::report {

using analyses::copy::Graph;
using analyses::copy::kNoNode;
using analyses::copy::Model;
using analyses::copy::Naming;
using analyses::copy::Node;
using analyses::copy::NodeKind;
using analyses::copy::View;

namespace {

const char* namingOf(const View& v) {
  return v.graph.naming() == Naming::Sensitive ? "sensitive" : "insensitive";
}

std::string methodName(const Model& m, uint32_t id) {
  return contexts::frameName(*m.profile, id, -1);
}

void sitesTable(sqlite3* db, const Model& m) {
  SqlTable t(db, "sites",
             {"site INTEGER PRIMARY KEY", "name TEXT", "type TEXT", "method INTEGER",
              "method_name TEXT", "line INTEGER", "origin TEXT", "births INTEGER"});
  std::map<uint32_t, uint64_t> births;
  const Graph& g = m.insensitive.graph;
  for (uint32_t n = 0; n < g.nodes().size(); ++n) {
    if (g.node(n).kind == NodeKind::Alloc) births[g.node(n).object.site] += g.births(n);
  }
  std::set<uint32_t> sites;
  for (const auto& [site, def] : m.sites) sites.insert(site);
  for (const auto& [site, count] : births) sites.insert(site);
  for (uint32_t site : sites) {
    t.integer(site).text(analyses::copy::siteName(m, site));
    auto it = m.sites.find(site);
    if (it == m.sites.end()) {
      t.null().null().null().null().null();
    } else {
      const profile::SiteDef& s = *it->second;
      t.text(contexts::javaTypeName(s.type));
      if (s.method == 0) {
        t.null().null();
      } else {
        t.integer(s.method).text(methodName(m, s.method));
      }
      if (s.line < 0) {
        t.null();
      } else {
        t.integer(static_cast<uint64_t>(s.line));
      }
      t.text(contexts::originName(s.kind));
    }
    auto b = births.find(site);
    t.integer(b == births.end() ? 0 : b->second).row();
  }
}

void fieldsTable(sqlite3* db, const Model& m) {
  SqlTable t(db, "fields",
             {"id INTEGER PRIMARY KEY", "name TEXT", "owner TEXT", "field TEXT", "descriptor TEXT",
              "static INTEGER", "bytes INTEGER"});
  t.integer(profile::kElmField).text("ELM").null().null().null().integer(0).null().row();
  std::set<uint32_t> ids;
  for (const auto& [id, def] : m.profile->fields) ids.insert(id);
  for (uint32_t id : ids) {
    if (id == profile::kElmField) continue;
    const profile::FieldDef& f = m.profile->fields.at(id);
    t.integer(id).text(analyses::copy::fieldName(m, id)).text(contexts::javaTypeName(f.cls));
    t.text(f.name).text(f.descriptor).integer(f.isStatic ? 1 : 0);
    t.integer(analyses::copy::bytesOfDescriptor(f.descriptor, m.settings.refBytes)).row();
  }
}

void nodesTable(SqlTable& t, const Model& m, const View& v) {
  const Graph& g = v.graph;
  for (uint32_t n = 0; n < g.nodes().size(); ++n) {
    const Node& x = g.node(n);
    t.text(namingOf(v)).integer(n).text(copyNodeKind(x.kind));
    t.text(analyses::copy::nodeName(m, g, n));
    bool object = x.kind == NodeKind::Alloc || x.kind == NodeKind::Field;
    if (object) {
      t.integer(x.object.site).integer(x.object.context);
    } else {
      t.null().null();
    }
    if (x.kind == NodeKind::Field || x.kind == NodeKind::Static) {
      t.integer(x.field);
    } else {
      t.null();
    }
    t.integer(g.births(n)).integer(g.out(n).size()).integer(g.in(n).size()).row();
  }
}

void edgesTable(SqlTable& t, const View& v) {
  for (const auto& e : v.graph.edges()) {
    t.text(namingOf(v)).integer(e.src).integer(e.dst).integer(e.freq).integer(e.bytes);
    t.integer(e.volume()).row();
  }
}

void nodeOrNull(SqlTable& t, uint32_t n) {
  if (n == kNoNode) {
    t.null();
  } else {
    t.integer(n);
  }
}

void chainsTables(SqlTable& chains, SqlTable& nodes, const Model& m, const View& v) {
  uint32_t rank = 0;
  for (const auto& c : v.chains.top) {
    ++rank;
    std::string path;
    for (size_t i = 0; i < c.nodes.size(); ++i) {
      path += (i ? " -> " : "") + analyses::copy::nodeName(m, v.graph, c.nodes[i]);
      nodes.text(namingOf(v)).integer(rank).integer(i).integer(c.nodes[i]).row();
    }
    chains.text(namingOf(v)).integer(rank).integer(c.length()).integer(c.freq).integer(c.bytes);
    chains.integer(c.wf).integer(c.nodes.front()).integer(c.nodes.back());
    nodeOrNull(chains, c.producer);
    chains.integer(c.producers).integer(c.consumed).text(path).row();
  }
}

void clonesTable(SqlTable& t, const View& v) {
  uint32_t rank = 0;
  for (const auto& p : v.clones.top) {
    t.text(namingOf(v)).integer(++rank).integer(p.from).integer(p.to).integer(p.volume);
    t.integer(p.direct).integer(p.depth).integer(p.sameType ? 1 : 0).row();
  }
}

void nathTable(SqlTable& t, const View& v) {
  uint32_t rank = 0;
  for (const auto& r : v.nath) {
    t.text(namingOf(v)).integer(++rank).integer(r.node).integer(r.births).integer(r.consumed);
    t.row();
  }
}

void graphTables(sqlite3* db, const Model& m) {
  SqlTable nodes(
      db, "nodes",
      {"naming TEXT", "id INTEGER", "kind TEXT", "name TEXT", "site INTEGER", "context INTEGER",
       "field INTEGER", "births INTEGER", "out_edges INTEGER", "in_edges INTEGER"},
      "PRIMARY KEY (naming, id)");
  SqlTable edges(db, "edges",
                 {"naming TEXT", "src INTEGER", "dst INTEGER", "freq INTEGER", "bytes INTEGER",
                  "volume INTEGER"},
                 "PRIMARY KEY (naming, src, dst)");
  SqlTable chains(db, "chains",
                  {"naming TEXT", "rank INTEGER", "length INTEGER", "freq INTEGER", "bytes INTEGER",
                   "wf INTEGER", "first INTEGER", "last INTEGER", "producer INTEGER",
                   "producers INTEGER", "consumed INTEGER", "path TEXT"},
                  "PRIMARY KEY (naming, rank)");
  SqlTable chainNodes(db, "chain_nodes",
                      {"naming TEXT", "chain INTEGER", "position INTEGER", "node INTEGER"},
                      "PRIMARY KEY (naming, chain, position)");
  SqlTable clones(db, "clones",
                  {"naming TEXT", "rank INTEGER", "from_node INTEGER", "to_node INTEGER",
                   "volume INTEGER", "direct INTEGER", "depth INTEGER", "same_type INTEGER"},
                  "PRIMARY KEY (naming, rank)");
  SqlTable nath(
      db, "nath",
      {"naming TEXT", "rank INTEGER", "node INTEGER", "births INTEGER", "consumed INTEGER"},
      "PRIMARY KEY (naming, rank)");
  for (const View* v : {&m.insensitive, &m.sensitive}) {
    nodesTable(nodes, m, *v);
    edgesTable(edges, *v);
    chainsTables(chains, chainNodes, m, *v);
    clonesTable(clones, *v);
    nathTable(nath, *v);
  }
}

void copiesTables(sqlite3* db, const Model& m) {
  SqlTable methods(
      db, "methods",
      {"id INTEGER PRIMARY KEY", "name TEXT", "descriptor TEXT", "self INTEGER", "total INTEGER"});
  for (const auto& x : m.copies.methods) {
    methods.integer(x.method).text(methodName(m, x.method));
    auto def = m.profile->methods.find(x.method);
    if (def == m.profile->methods.end()) {
      methods.null();
    } else {
      methods.text(def->second.descriptor);
    }
    methods.integer(x.self).integer(x.total).row();
  }
  SqlTable contexts(db, "contexts",
                    {"id INTEGER PRIMARY KEY", "parent INTEGER", "method INTEGER", "name TEXT",
                     "depth INTEGER", "self INTEGER", "total INTEGER", "frames TEXT"});
  const auto& nodes = m.tree.nodes;
  for (uint32_t n = 1; n < nodes.size() && n < m.copies.contexts.size(); ++n) {
    const auto& c = m.copies.contexts[n];
    if (c.total == 0) continue;
    std::string frames;
    uint64_t depth = 0;
    for (uint32_t x = n; x != 0; x = nodes[x].parent, ++depth) {
      frames += (depth ? " < " : "") + methodName(m, nodes[x].key);
    }
    contexts.integer(n).integer(nodes[n].parent).integer(nodes[n].key);
    contexts.text(methodName(m, nodes[n].key)).integer(depth).integer(c.self).integer(c.total);
    contexts.text(frames).row();
  }
  SqlTable cuts(db, "cuts", {"method INTEGER PRIMARY KEY", "name TEXT", "count INTEGER"});
  for (const auto& [id, count] : m.cuts)
    cuts.integer(id).text(methodName(m, id)).integer(count).row();
}

void summaryTables(sqlite3* db, const Model& m) {
  SqlTable ratios(db, "conflict_ratios", {"slots INTEGER PRIMARY KEY", "ccr REAL"});
  for (const auto& [slots, ratio] : m.conflictRatios) ratios.integer(slots).real(ratio).row();
  SqlTable totals(db, "totals",
                  {"slots INTEGER", "ref_bytes INTEGER", "chain_max INTEGER", "clone_depth INTEGER",
                   "copies INTEGER", "lost_copies INTEGER", "heap_copies INTEGER", "births INTEGER",
                   "cuts INTEGER", "flow_cuts INTEGER", "unknown_tags INTEGER",
                   "recorded_edges INTEGER", "dropped_edges INTEGER", "unknown_edges INTEGER"});
  const auto& t = m.totals;
  totals.integer(m.settings.slots).integer(m.settings.refBytes).integer(m.options.chainMax);
  totals.integer(m.options.cloneDepth).integer(m.copies.total).integer(m.copies.lost);
  totals.integer(t.heapCopies).integer(t.births).integer(t.cuts).integer(t.flowCuts);
  totals.integer(t.unknownTags).integer(m.graphStats.edges).integer(m.graphStats.dropped);
  totals.integer(m.graphStats.unknownEdges).row();
  writeMetaTables(db, *m.profile);
}

void fill(sqlite3* db, const Model& m) {
  sitesTable(db, m);
  fieldsTable(db, m);
  graphTables(db, m);
  copiesTables(db, m);
  summaryTables(db, m);
  // A node's edges either way, without a scan of all edges.
  sqlExec(db, "CREATE INDEX edges_dst ON edges(naming, dst)");
}

}  // namespace

bool writeCopyTables(SqlDb& db, const Model& m, std::string& error) {
  return fillTables(
      db, [&](sqlite3* h) { fill(h, m); }, error);
}

bool exportCopySqlite(const std::string& path, const Model& m, std::string& error) {
  return writeSqliteFile(
      path, [&](sqlite3* h) { fill(h, m); }, error);
}

}  // namespace dragnet::report
