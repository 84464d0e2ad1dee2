// The JSON report of a copy profile (docs/REPORTS.md, "copy json").
#include <algorithm>
#include <functional>

#include "analyses/copy/report/report.h"
#include "report/coverage.h"
#include "report/json_text.h"
#include "report/text_format.h"

namespace dragnet::report {

using analyses::copy::Chain;
using analyses::copy::ClonePair;
using analyses::copy::Graph;
using analyses::copy::Model;
using analyses::copy::NathRow;
using analyses::copy::Node;
using analyses::copy::NodeKind;
using analyses::copy::View;
using Json = nlohmann::ordered_json;

const char* copyNodeKind(NodeKind k) {
  switch (k) {
    case NodeKind::Consumer:
      return "consumer";
    case NodeKind::Alloc:
      return "alloc";
    case NodeKind::Field:
      return "field";
    case NodeKind::Static:
      return "static";
  }
  return "?";
}

Json copyNodeJson(const Model& m, const Graph& g, uint32_t n) {
  const Node& x = g.node(n);
  Json j{{"name", analyses::copy::nodeName(m, g, n)}, {"kind", copyNodeKind(x.kind)}};
  if (x.kind == NodeKind::Alloc || x.kind == NodeKind::Field) {
    j["site"] = x.object.site;
    j["context"] = x.object.context;
  }
  if (x.kind == NodeKind::Field || x.kind == NodeKind::Static) {
    j["field"] = analyses::copy::fieldName(m, x.field);
  }
  return j;
}

namespace {

Json nodeJson(const Model& m, const Graph& g, uint32_t n) { return copyNodeJson(m, g, n); }

}  // namespace

Json copyHeader(const Model& m) {
  const profile::Profile& p = *m.profile;
  Json j = jsonHead(p, "dragnet-copy");
  j["settings"] = {{"slots", m.settings.slots},
                   {"refBytes", m.settings.refBytes},
                   {"chainMax", m.options.chainMax},
                   {"cloneDepth", m.options.cloneDepth}};
  const auto& t = m.totals;
  j["totals"] = {{"copies", m.copies.total},
                 {"lostCopies", m.copies.lost},
                 {"heapCopies", t.heapCopies},
                 {"births", t.births},
                 {"cuts", t.cuts},
                 {"flowCuts", t.flowCuts},
                 {"unknownTags", t.unknownTags},
                 {"edges", m.graphStats.edges},
                 {"droppedEdges", m.graphStats.dropped},
                 {"unknownEdges", m.graphStats.unknownEdges}};
  j["hiddenClasses"] = hiddenClassesJson(p);
  return j;
}

namespace {

std::string methodName(const Model& m, uint32_t id) {
  return contexts::frameName(*m.profile, id, -1);
}

}  // namespace

Json copyProfilesJson(const Model& m, size_t top,
                      const std::function<Json(const std::string&)>& frame) {
  Json methods = Json::array();
  for (const auto& x : m.copies.methods) {
    if (methods.size() == top) break;
    Json j{{"method", methodName(m, x.method)}};
    // The name does not tell overloads apart (List.<init>() and List.<init>(List)).
    if (auto def = m.profile->methods.find(x.method); def != m.profile->methods.end()) {
      j["descriptor"] = def->second.descriptor;
    }
    j["self"] = x.self;
    j["total"] = x.total;
    methods.push_back(std::move(j));
  }
  Json concentration = Json::array();
  for (size_t k = 1; k <= m.copies.concentration.size() && k <= top; ++k) {
    concentration.push_back(m.copies.share(k));
  }
  Json contexts = Json::array();
  for (uint32_t n : m.copies.hottestContexts(top)) {
    Json frames = Json::array();
    for (uint32_t x = n; x != 0; x = m.tree.nodes[x].parent) {
      frames.push_back(frame(methodName(m, m.tree.nodes[x].key)));
    }
    contexts.push_back({{"frames", std::move(frames)},
                        {"self", m.copies.contexts[n].self},
                        {"total", m.copies.contexts[n].total}});
  }
  return {{"methods", std::move(methods)},
          {"concentration", std::move(concentration)},
          {"contexts", std::move(contexts)}};
}

namespace {

Json chainJson(const Model& m, const Graph& g, const Chain& c) {
  Json nodes = Json::array();
  for (uint32_t n : c.nodes) nodes.push_back(nodeJson(m, g, n));
  return {{"nodes", std::move(nodes)},
          {"length", c.length()},
          {"freq", c.freq},
          {"bytes", c.bytes},
          {"wf", c.wf},
          {"producer",
           c.producer == analyses::copy::kNoNode ? Json(nullptr) : nodeJson(m, g, c.producer)},
          {"producers", c.producers},
          {"consumed", c.consumed}};
}

Json viewJson(const Model& m, const View& v, size_t top) {
  const Graph& g = v.graph;
  std::vector<const analyses::copy::Edge*> edges;
  for (const auto& e : g.edges()) edges.push_back(&e);
  std::stable_sort(edges.begin(), edges.end(), [](const auto* a, const auto* b) {
    return a->volume() != b->volume() ? a->volume() > b->volume() : a->freq > b->freq;
  });
  Json edgeList = Json::array();
  for (const auto* e : edges) {
    if (edgeList.size() == top) break;
    edgeList.push_back({{"src", nodeJson(m, g, e->src)},
                        {"dst", nodeJson(m, g, e->dst)},
                        {"freq", e->freq},
                        {"bytes", e->bytes}});
  }
  Json chains = Json::array();
  for (const Chain& c : v.chains.top) {
    if (chains.size() == top) break;
    chains.push_back(chainJson(m, g, c));
  }
  Json clones = Json::array();
  for (const ClonePair& p : v.clones.top) {
    if (clones.size() == top) break;
    clones.push_back({{"from", nodeJson(m, g, p.from)},
                      {"to", nodeJson(m, g, p.to)},
                      {"volume", p.volume},
                      {"direct", p.direct},
                      {"depth", p.depth},
                      {"sameType", p.sameType}});
  }
  Json nath = Json::array();
  for (const NathRow& r : v.nath) {
    if (nath.size() == top) break;
    nath.push_back(
        {{"object", nodeJson(m, g, r.node)}, {"births", r.births}, {"consumed", r.consumed}});
  }
  const auto& f = v.fanOut;
  const auto& ch = v.chains;
  double meanLength =
      ch.total ? static_cast<double>(ch.lengths) / static_cast<double>(ch.total) : 0;
  return {{"nodes", g.nodes().size()},
          {"edges", g.edges().size()},
          {"fanOut",
           {{"average", f.average},
            {"max", f.max},
            {"maxNode",
             f.maxNode == analyses::copy::kNoNode ? Json(nullptr) : nodeJson(m, g, f.maxNode)}}},
          {"edgeList", std::move(edgeList)},
          {"chains",
           {{"total", ch.total},
            {"meanLength", meanLength},
            {"cut", ch.cut},
            {"top", std::move(chains)}}},
          {"clones",
           {{"pairs", v.clones.pairs},
            {"cut", v.clones.cut},
            {"truncated", v.clones.truncated},
            {"top", std::move(clones)}}},
          {"nath", std::move(nath)}};
}

}  // namespace

Json copyJson(const Model& m, const CopyJsonOptions& o) {
  Json j = copyHeader(m);
  j["profiles"] = copyProfilesJson(m, o.top, [](const std::string& name) { return Json(name); });
  Json ccr = Json::array();
  for (const auto& [slots, ratio] : m.conflictRatios)
    ccr.push_back({{"slots", slots}, {"ccr", ratio}});
  j["conflictRatios"] = std::move(ccr);
  Json cuts = Json::array();
  for (const auto& [method, count] : m.cuts) {
    if (cuts.size() == o.top) break;
    cuts.push_back({{"method", methodName(m, method)}, {"count", count}});
  }
  j["cuts"] = std::move(cuts);
  j["graphs"] = {{"insensitive", viewJson(m, m.insensitive, o.top)},
                 {"sensitive", viewJson(m, m.sensitive, o.top)}};
  return j;
}

void writeCopyJson(std::ostream& out, const Model& m, const CopyJsonOptions& o) {
  out << jsonText(copyJson(m, o), 2) << "\n";
}

}  // namespace dragnet::report
