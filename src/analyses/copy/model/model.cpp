#include "analyses/copy/model/model.h"

#include <algorithm>
#include <charconv>
#include <set>

namespace dragnet::analyses::copy {

namespace {

uint64_t total(const profile::Profile& p, const char* key) {
  auto it = p.totals.find(key);
  if (it == p.totals.end()) return 0;
  uint64_t v = 0;
  std::from_chars(it->second.data(), it->second.data() + it->second.size(), v);
  return v;
}

void analyse(View& v, const Options& o, const SiteIndex& sites) {
  ChainOptions chains{o.chainMax, o.keep, o.chainLimit, o.chainPerStart};
  v.chains = hotChains(v.graph, chains);
  CloneOptions clones;
  clones.depth = o.cloneDepth;
  clones.pointsToEdges = o.chainMax;
  clones.keep = o.keep;
  clones.limit = o.cloneLimit;
  v.clones = detectClones(v.graph, clones, sites);
  v.nath = notAssignedToHeap(v.graph);
  v.fanOut = fanOut(v.graph);
}

}  // namespace

Model buildModel(const profile::Profile& p, const Options& o) {
  Model m;
  m.profile = &p;
  m.settings = settingsOf(p);
  m.options = o;
  contexts::ThreadNodes threadNodes;
  m.tree = contexts::buildModel(p, &threadNodes);
  m.sites = sitesByIndex(p);
  Layouts layouts(p);
  Graphs graphs = buildGraphs(p, m.settings, m.sites, layouts);
  m.insensitive.graph = std::move(graphs.insensitive);
  m.sensitive.graph = std::move(graphs.sensitive);
  m.graphStats = graphs.stats;
  analyse(m.insensitive, o, m.sites);
  analyse(m.sensitive, o, m.sites);
  m.copies = copyProfile(p, m.tree, threadNodes, m.sites, layouts);
  m.cuts = cutsByCallee(p);

  std::map<uint32_t, std::set<uint32_t>> contexts;
  for (const auto& [thread, flows] : p.flows) {
    for (const auto& [key, count] : flows.births) {
      if (count == 0) continue;
      contexts[key.first].insert(key.second);
      m.totals.births += count;
    }
  }
  for (const auto& [site, cs] : contexts) m.contexts[site].assign(cs.begin(), cs.end());
  std::set<uint32_t> slots{4, 8, 16};
  if (m.settings.slots >= 2) slots.insert(m.settings.slots);
  for (uint32_t s : slots) m.conflictRatios.emplace_back(s, averageConflictRatio(m.contexts, s));

  const Graph& ci = m.insensitive.graph;
  for (const Edge& e : ci.edges()) {
    if (ci.node(e.src).isHeap() && ci.node(e.dst).isHeap()) m.totals.heapCopies += e.freq;
  }
  for (const auto& [method, count] : m.cuts) m.totals.cuts += count;
  m.totals.flowCuts = total(p, "flow.cuts");
  m.totals.unknownTags = total(p, "flow.unknownTags");
  return m;
}

bool isCopyProfile(const profile::Profile& p) {
  auto it = p.meta.find("mode");
  return it != p.meta.end() && it->second == "copy";
}

std::string siteName(const Model& m, uint32_t site) {
  auto it = m.sites.find(site);
  return contexts::siteIndexName(*m.profile, it == m.sites.end() ? nullptr : it->second, site);
}

std::string objectName(const Model& m, Naming n, Object o) {
  std::string name = siteName(m, o.site);
  if (n == Naming::Insensitive || o.site == 0) return name;
  name.append(" @ ");
  if (m.settings.slots >= 1) return name.append("slot ").append(std::to_string(o.context));
  return name.append(o.context == 0 ? std::string("static") : siteName(m, o.context));
}

std::string fieldName(const Model& m, uint32_t field) {
  return contexts::flowFieldName(*m.profile, field);
}

std::string nodeName(const Model& m, const Graph& g, uint32_t node) {
  const Node& n = g.node(node);
  switch (n.kind) {
    case NodeKind::Consumer:
      return "C";
    case NodeKind::Alloc:
      return objectName(m, g.naming(), n.object);
    case NodeKind::Static:
      return fieldName(m, n.field);
    case NodeKind::Field:
      break;
  }
  std::string field = n.field == profile::kElmField ? "ELM" : fieldName(m, n.field);
  if (n.field != profile::kElmField) field = field.substr(field.rfind('.') + 1);
  std::string name = "<";
  name.append(objectName(m, g.naming(), n.object)).append(">.").append(field);
  return name;
}

}  // namespace dragnet::analyses::copy
