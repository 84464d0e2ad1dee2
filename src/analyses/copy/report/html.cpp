// The HTML report of a copy profile: src/analyses/copy/templates/page.{html,css,js} (after the
// shared report.css and report.js) with the data below embedded once as JSON
// (docs/REPORTS.md, "copy html"). The numbers are the model's, as in the text and JSON
// reports (the header comes from copyHeader); the page's script only formats, sorts and
// draws them.
#include <set>
#include <unordered_map>

#include "analyses/copy/report/report.h"
#include "report/coverage.h"
#include "report/html_page.h"
#include "report/json_text.h"
#include "report/templates.h"
#include "report/text_format.h"

namespace dragnet::report {

using analyses::copy::Graph;
using analyses::copy::kConsumer;
using analyses::copy::kNoNode;
using analyses::copy::Model;
using analyses::copy::View;
using Json = nlohmann::ordered_json;

namespace {

std::string methodName(const Model& m, uint32_t id) {
  return contexts::frameName(*m.profile, id, -1);
}

// [freq, bytes] of the edge src -> dst, or null.
Json edgeOf(const Graph& g, uint32_t src, uint32_t dst) {
  if (src == kNoNode || dst == kNoNode) return nullptr;
  const analyses::copy::Edge* e = g.edge(src, dst);
  return e ? Json{e->freq, e->bytes} : Json(nullptr);
}

// One naming's graph summary and tables; nodes are ids into "nodes", which holds each node
// the tables name once.
class ViewWriter {
 public:
  ViewWriter(const Model& m, const View& v, size_t rows) : m_(m), v_(v), rows_(rows) {}

  Json json() {
    const Graph& g = v_.graph;
    Json j;
    j["nodeCount"] = g.nodes().size();
    j["edgeCount"] = g.edges().size();
    const auto& f = v_.fanOut;
    j["fanOut"] = {{"average", f.average}, {"max", f.max}, {"maxNode", ref(f.maxNode)}};
    j["chains"] = chains();
    j["clones"] = clones();
    Json nath = Json::array();
    for (const auto& r : v_.nath) {
      if (nath.size() == rows_) break;
      nath.push_back({{"node", ref(r.node)}, {"births", r.births}, {"consumed", r.consumed}});
    }
    j["nath"] = std::move(nath);
    j["nathCount"] = v_.nath.size();
    Json nodes = Json::array();
    for (uint32_t n : used_) {
      nodes.push_back({{"id", n},
                       {"kind", copyNodeKind(g.node(n).kind)},
                       {"name", analyses::copy::nodeName(m_, g, n)},
                       {"births", g.births(n)}});
    }
    j["nodes"] = std::move(nodes);
    return j;
  }

 private:
  Json ref(uint32_t n) {
    if (n == kNoNode) return nullptr;
    used_.insert(n);
    return n;
  }

  Json chains() {
    const Graph& g = v_.graph;
    const auto& ch = v_.chains;
    Json top = Json::array();
    for (const auto& c : ch.top) {
      if (top.size() == rows_) break;
      Json nodes = Json::array(), edges = Json::array();
      for (size_t i = 0; i < c.nodes.size(); ++i) {
        nodes.push_back(ref(c.nodes[i]));
        if (i > 0) edges.push_back(edgeOf(g, c.nodes[i - 1], c.nodes[i]));
      }
      // The consumer's edge: C is node 0 of every graph.
      if (c.consumed) ref(kConsumer);
      top.push_back(
          {{"nodes", std::move(nodes)},
           {"edges", std::move(edges)},
           {"length", c.length()},
           {"freq", c.freq},
           {"bytes", c.bytes},
           {"wf", c.wf},
           {"producer", ref(c.producer)},
           {"producers", c.producers},
           {"producerEdge", edgeOf(g, c.producer, c.nodes.front())},
           {"consumed", c.consumed},
           {"consumerEdge", c.consumed ? edgeOf(g, c.nodes.back(), kConsumer) : Json(nullptr)}});
    }
    double mean = ch.total ? static_cast<double>(ch.lengths) / static_cast<double>(ch.total) : 0;
    return {{"total", ch.total},
            {"meanLength", mean},
            {"cut", ch.cut},
            {"count", ch.top.size()},
            {"top", std::move(top)}};
  }

  Json clones() {
    Json top = Json::array();
    for (const auto& p : v_.clones.top) {
      if (top.size() == rows_) break;
      top.push_back({{"from", ref(p.from)},
                     {"to", ref(p.to)},
                     {"volume", p.volume},
                     {"direct", p.direct},
                     {"depth", p.depth},
                     {"sameType", p.sameType}});
    }
    return {{"pairs", v_.clones.pairs},
            {"cut", v_.clones.cut},
            {"truncated", v_.clones.truncated},
            {"count", v_.clones.top.size()},
            {"top", std::move(top)}};
  }

  const Model& m_;
  const View& v_;
  size_t rows_;
  std::set<uint32_t> used_;
};

// Frames repeat across contexts (a context's stack holds its callers'): each frame's name is
// stored once in "strings" and a context's frames are indices into it.
class Strings {
 public:
  uint32_t id(const std::string& s) {
    auto [it, fresh] = index_.try_emplace(s, static_cast<uint32_t>(all_.size()));
    if (fresh) all_.push_back(s);
    return it->second;
  }
  const std::vector<std::string>& all() const { return all_; }

 private:
  std::unordered_map<std::string, uint32_t> index_;
  std::vector<std::string> all_;
};

}  // namespace

std::string copyHtmlData(const Model& m, const CopyHtmlOptions& o) {
  const profile::Profile& p = *m.profile;
  Json j = copyHeader(m);
  j["format"] = "dragnet-copy-html";
  j["corrupt"] = p.corrupt() ? Json(corruptionNote(p)) : Json(nullptr);
  j["meta"] = p.meta;
  Strings strings;
  Json profiles =
      copyProfilesJson(m, o.rows, [&](const std::string& name) { return Json(strings.id(name)); });
  profiles["methodCount"] = m.copies.methods.size();
  j["profiles"] = std::move(profiles);
  j["strings"] = strings.all();
  Json ccr = Json::array();
  for (const auto& [slots, ratio] : m.conflictRatios) ccr.push_back({slots, ratio});
  j["conflictRatios"] = std::move(ccr);
  j["conflictSites"] = m.contexts.size();
  Json cuts = Json::array();
  for (const auto& [method, count] : m.cuts) {
    if (cuts.size() == o.rows) break;
    cuts.push_back({methodName(m, method), count});
  }
  j["cuts"] = std::move(cuts);
  j["cutCount"] = m.cuts.size();
  j["namings"] = {{"sensitive", ViewWriter(m, m.sensitive, o.rows).json()},
                  {"insensitive", ViewWriter(m, m.insensitive, o.rows).json()}};
  j["top"] = o.top;
  j["graphChains"] = o.graph;
  return scriptSafe(jsonText(j, -1));
}

void writeCopyHtml(std::ostream& out, const Model& m, const CopyHtmlOptions& o) {
  writePage(out, copyPageFiles(), "dragnet copy profile", copyHtmlData(m, o));
}

}  // namespace dragnet::report
