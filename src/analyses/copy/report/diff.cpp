#include "analyses/copy/report/diff.h"

#include <algorithm>
#include <map>

#include "analyses/copy/model/model.h"

namespace dragnet::analyses::copy {

namespace {

using report::DiffTable;

double d(uint64_t v) { return static_cast<double>(v); }

std::string methodName(const Model& m, uint32_t id) {
  return contexts::frameName(*m.profile, id, -1);
}

// Per calling context its own copies: frames root first.
DiffTable contextTable(const Model& m) {
  DiffTable t{.id = "contexts",
              .title = "Copies per calling context",
              .keyName = "context",
              .measures = {"copies"},
              .contexts = true};
  for (uint32_t n = 1; n < m.copies.contexts.size() && n < m.tree.nodes.size(); ++n) {
    if (m.copies.contexts[n].self == 0) continue;
    std::vector<std::string> frames;
    for (uint32_t x = n; x != 0; x = m.tree.nodes[x].parent) {
      frames.push_back(methodName(m, m.tree.nodes[x].key));
    }
    std::reverse(frames.begin(), frames.end());
    t.addContext(frames, {d(m.copies.contexts[n].self)});
  }
  return t;
}

struct SiteCopies {
  double copies = 0, bytes = 0, births = 0;
};

// Per allocation site, and per class, the heap-to-heap copies into its objects' fields and
// elements (their frequency and bytes) and its births.
void siteTables(const Model& m, const Graph& g, std::vector<DiffTable>& out) {
  std::map<uint32_t, SiteCopies> sites;
  for (const Edge& e : g.edges()) {
    const Node& dst = g.node(e.dst);
    if (dst.kind != NodeKind::Field || !g.node(e.src).isHeap()) continue;
    sites[dst.object.site].copies += d(e.freq);
    sites[dst.object.site].bytes += d(e.volume());
  }
  for (uint32_t n = 0; n < g.nodes().size(); ++n) {
    if (g.node(n).kind == NodeKind::Alloc) sites[g.node(n).object.site].births += d(g.births(n));
  }
  DiffTable bySite{.id = "sites",
                   .title = "Copies into the objects of each allocation site",
                   .keyName = "site",
                   .measures = {"copies", "bytes", "births"}};
  DiffTable byClass{.id = "classes",
                    .title = "Copies into the objects of each class",
                    .keyName = "class",
                    .measures = {"copies", "bytes", "births"}};
  for (const auto& [site, c] : sites) {
    bySite.add(siteName(m, site), {c.copies, c.bytes, c.births});
    auto def = m.sites.find(site);
    std::string type =
        site == 0 ? "<unknown object>"
                  : contexts::siteTypeName(def == m.sites.end() ? nullptr : def->second, site);
    byClass.add(type, {c.copies, c.bytes, c.births});
  }
  out.push_back(std::move(bySite));
  out.push_back(std::move(byClass));
}

}  // namespace

bool diffSide(const profile::Profile& p, const report::ReportSettings&, report::DiffSide& out,
              std::string&) {
  Model m = buildModel(p);
  const View& v = m.insensitive;
  const Graph& g = v.graph;
  out.totals = {{"copies", d(m.copies.total)},
                {"heap copies", d(m.totals.heapCopies)},
                {"births", d(m.totals.births)},
                {"chains", d(v.chains.total)},
                {"clone pairs", d(v.clones.pairs)}};
  DiffTable methods{.id = "methods",
                    .title = "Copies per method",
                    .keyName = "method",
                    .measures = {"copies", "cumulative"}};
  for (const MethodCopies& c : m.copies.methods) {
    methods.add(methodName(m, c.method), {d(c.self), d(c.total)});
  }
  DiffTable chains{.id = "chains",
                   .title = "Hot copy chains",
                   .keyName = "chain",
                   .measures = {"waste factor", "frequency", "length"}};
  for (const Chain& c : v.chains.top) {
    std::string key;
    for (uint32_t n : c.nodes) key += (key.empty() ? "" : " -> ") + nodeName(m, g, n);
    chains.add(key, {d(c.wf), d(c.freq), d(c.length())});
  }
  DiffTable clones{.id = "clones",
                   .title = "Clone pairs",
                   .keyName = "from => to",
                   .measures = {"volume", "direct"}};
  for (const ClonePair& c : v.clones.top) {
    clones.add(nodeName(m, g, c.from) + " => " + nodeName(m, g, c.to), {d(c.volume), d(c.direct)});
  }
  DiffTable nath{.id = "nath",
                 .title = "Objects not assigned to the heap (NATH)",
                 .keyName = "site",
                 .measures = {"births", "consumed"}};
  for (const NathRow& r : v.nath) nath.add(nodeName(m, g, r.node), {d(r.births), d(r.consumed)});
  out.tables = {std::move(methods), contextTable(m)};
  siteTables(m, g, out.tables);
  for (DiffTable* t : {&chains, &clones, &nath}) out.tables.push_back(std::move(*t));
  return true;
}

}  // namespace dragnet::analyses::copy
