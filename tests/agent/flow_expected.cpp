#include "flow_expected.h"

#include <algorithm>
#include <charconv>
#include <fstream>
#include <limits>
#include <map>
#include <sstream>
#include <utility>

namespace dragnet::test::flow {

namespace copy = dragnet::analyses::copy;

namespace {

bool parseNumber(std::string_view s, uint64_t& v) {
  if (s.empty()) return false;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  return ec == std::errc() && end == s.data() + s.size();
}

// `*` matches any text (also none); everything else itself.
bool globMatch(std::string_view pattern, std::string_view text) {
  size_t star = pattern.find('*');
  if (star == std::string_view::npos) return pattern == text;
  std::string_view head = pattern.substr(0, star);
  if (!text.starts_with(head)) return false;
  std::string_view rest = pattern.substr(star + 1);
  for (size_t i = head.size(); i <= text.size(); ++i) {
    if (globMatch(rest, text.substr(i))) return true;
  }
  return false;
}

// The edges of one naming by the names of their ends: edges whose ends share names (a field
// named through two owners, a dynamic site's runtime classes) add up.
struct NamedEdge {
  uint64_t freq = 0;
  uint32_t bytes = 0;
  bool inScope = false;
};
using NamedEdges = std::map<std::pair<std::string, std::string>, NamedEdge>;

class Checker {
 public:
  Checker(const Expected& e, const NamedGraph& ci, const NamedGraph& cs) : e_(e) {
    graphs_[0] = &ci;
    graphs_[1] = &cs;
    for (int k = 0; k < 2; ++k) {
      const NamedGraph& g = *graphs_[k];
      for (const copy::Edge& edge : g.graph.edges()) {
        NamedEdge& n = edges_[k][{g.names[edge.src], g.names[edge.dst]}];
        n.freq += edge.freq;
        n.bytes = std::max(n.bytes, edge.bytes);
        n.inScope = inScope(g, edge.src) && inScope(g, edge.dst);
      }
    }
  }

  std::vector<std::string> run() {
    for (const Record& r : e_.records) record(r);
    for (int k = 0; k < 2; ++k) {
      if (used_[k]) completeness(k);
    }
    return std::move(failures_);
  }

  std::vector<std::string> scoped() {
    for (const Record& r : e_.records) {
      for (size_t pos = 0; pos < 2 && pos < r.tokens.size(); ++pos) {
        if (r.tokens[pos] == "ci" || r.tokens[pos] == "cs")
          used_[r.tokens[pos] == "ci" ? 0 : 1] = true;
      }
    }
    std::vector<std::string> lines;
    for (int k = 0; k < 2; ++k) {
      if (!used_[k]) continue;
      for (const auto& [key, n] : edges_[k]) {
        if (!n.inScope) continue;
        lines.push_back(namingName(k) + " " + key.first + " -> " + key.second + "  " +
                        std::to_string(n.freq) + "  " + std::to_string(n.bytes));
      }
    }
    return lines;  // edges_ is ordered by name
  }

 private:
  bool siteInScope(const std::string& label) const {
    size_t colon = label.find(':');
    return e_.sites.count(label) != 0 ||
           (colon != std::string::npos && e_.files.count(label.substr(0, colon)) != 0);
  }
  bool inScope(const NamedGraph& g, uint32_t n) const {
    switch (g.graph.node(n).kind) {
      case copy::NodeKind::Consumer:
        return e_.consumer;
      case copy::NodeKind::Static:
        return e_.statics.count(g.statics[n]) != 0;
      case copy::NodeKind::Alloc:
        return siteInScope(g.sites[n]);
      case copy::NodeKind::Field:
        return siteInScope(g.sites[n]) && e_.fields.count(g.fields[n]) != 0;
    }
    return false;
  }

  void fail(const Record& r, const std::string& what) {
    failures_.push_back(e_.file + ":" + std::to_string(r.line) + ": `" + r.text + "`: " + what);
  }

  // The naming a record names ("ci" / "cs" at `pos`), or -1 (a failure).
  int naming(const Record& r, size_t pos) {
    if (pos < r.tokens.size() && (r.tokens[pos] == "ci" || r.tokens[pos] == "cs")) {
      int k = r.tokens[pos] == "ci" ? 0 : 1;
      used_[k] = true;
      return k;
    }
    fail(r, "malformed record (no naming ci/cs)");
    return -1;
  }
  bool arity(const Record& r, size_t n) {
    if (r.tokens.size() == n) return true;
    fail(r, "malformed record (" + std::to_string(r.tokens.size()) + " tokens, " +
                std::to_string(n) + " expected)");
    return false;
  }
  bool count(const Record& r, const std::string& s, Count& c) {
    if (parseCount(s, c)) return true;
    fail(r, "malformed count '" + s + "'");
    return false;
  }
  bool nodesOf(const Record& r, int k, const std::string& name, std::vector<uint32_t>& out) {
    out = graphs_[k]->nodes(name);
    if (!out.empty()) return true;
    fail(r, "no node " + name + " in the " + namingName(k) + " graph");
    return false;
  }
  static std::string namingName(int k) { return k == 0 ? "ci" : "cs"; }

  // Edges leaving `src` or entering `dst` (what there is instead of an expected edge; C
  // receives too many to list).
  std::string near(int k, const std::string& src, const std::string& dst) const {
    std::string s;
    int shown = 0;
    for (const auto& [key, n] : edges_[k]) {
      if (key.first != src && (key.second != dst || dst == "C")) continue;
      if (++shown > 12) return s + "\n      ...";
      s += "\n      " + key.first + " -> " + key.second + "  " + std::to_string(n.freq) + "  " +
           std::to_string(n.bytes);
    }
    return s.empty() ? " (no edge leaves " + src + " or enters " + dst + ")"
                     : "; edges from " + src + " or into " + dst + ":" + s;
  }

  void record(const Record& r) {
    const std::string& kind = r.tokens[0];
    if (kind == "ci" || kind == "cs") return edge(r);
    if (kind == "absent") return absent(r);
    if (kind == "ignore") {
      int k = naming(r, 1);
      if (k >= 0 && arity(r, 5)) ignores_[k].push_back({r.tokens[2], r.tokens[4]});
      return;
    }
    if (kind == "path" || kind == "nopath") return path(r, kind == "path");
    if (kind == "nath") return nath(r);
    if (kind == "notnath") return notNath(r);
    if (kind == "clone" || kind == "topclone") return clone(r, kind == "topclone");
    if (kind == "topchain" || kind == "rank3chain") return chain(r, kind == "topchain" ? 1 : 3);
    if (kind == "flat" || kind == "cumulative") return copies(r, kind == "flat");
    if (kind == "cut") return cut(r);
    fail(r, "unknown record");
  }

  void edge(const Record& r) {
    int k = naming(r, 0);
    Count c;
    uint64_t bytes = 0;
    if (k < 0 || !arity(r, 6) || !count(r, r.tokens[4], c)) return;
    if (!parseNumber(r.tokens[5], bytes)) return fail(r, "malformed bytes");
    const std::string &src = r.tokens[1], &dst = r.tokens[3];
    listed_[k].insert({src, dst});
    auto it = edges_[k].find({src, dst});
    if (it == edges_[k].end()) {
      if (!c.matches(0)) fail(r, "no such edge" + near(k, src, dst));
      return;
    }
    const NamedEdge& n = it->second;
    if (!c.matches(n.freq) || n.bytes != bytes) {
      fail(r, "found frequency " + std::to_string(n.freq) + ", bytes " + std::to_string(n.bytes));
    }
  }

  void absent(const Record& r) {
    int k = naming(r, 1);
    if (k < 0 || !arity(r, 5)) return;
    std::string found;
    for (const auto& [key, n] : edges_[k]) {
      if (globMatch(r.tokens[2], key.first) && globMatch(r.tokens[4], key.second)) {
        found += "\n      " + key.first + " -> " + key.second + "  " + std::to_string(n.freq);
      }
    }
    if (!found.empty()) fail(r, "found" + found);
  }

  void path(const Record& r, bool expected) {
    int k = naming(r, 1);
    std::vector<uint32_t> from, to;
    if (k < 0 || !arity(r, 5) || !nodesOf(r, k, r.tokens[2], from) ||
        !nodesOf(r, k, r.tokens[4], to)) {
      return;
    }
    bool found = false;
    for (uint32_t a : from) {
      for (uint32_t b : to) found = found || copy::reaches(graphs_[k]->graph, a, b);
    }
    if (found != expected) fail(r, found ? "a path exists" : "no path");
  }

  // The NATH rows of the allocation nodes named `name`; false (a failure) when there is none.
  bool nathRows(const Record& r, int k, const std::string& name, std::vector<uint32_t>& nodes,
                std::vector<const copy::NathRow*>& rows) {
    if (!nodesOf(r, k, name, nodes)) return false;
    const NamedGraph& g = *graphs_[k];
    for (uint32_t n : nodes) {
      if (g.graph.node(n).kind != copy::NodeKind::Alloc) {
        fail(r, name + " is not an allocation node");
        return false;
      }
      auto it = std::find_if(g.view.nath.begin(), g.view.nath.end(),
                             [&](const copy::NathRow& row) { return row.node == n; });
      rows.push_back(it == g.view.nath.end() ? nullptr : &*it);
    }
    return true;
  }

  std::string heapEdges(int k, const std::vector<uint32_t>& nodes) const {
    const NamedGraph& g = *graphs_[k];
    std::string s;
    for (uint32_t n : nodes) {
      for (const copy::Edge& e : g.graph.out(n)) {
        if (!g.graph.node(e.dst).isHeap()) continue;
        s += "\n      -> " + g.names[e.dst] + "  " + std::to_string(e.freq);
      }
    }
    return s;
  }

  void nath(const Record& r) {
    int k = naming(r, 1);
    Count c;
    std::vector<uint32_t> nodes;
    std::vector<const copy::NathRow*> rows;
    if (k < 0 || !arity(r, 4) || !count(r, r.tokens[3], c) ||
        !nathRows(r, k, r.tokens[2], nodes, rows)) {
      return;
    }
    uint64_t births = 0;
    for (uint32_t n : nodes) births += graphs_[k]->graph.births(n);
    if (std::find(rows.begin(), rows.end(), nullptr) != rows.end()) {
      return fail(r, "not NATH (births " + std::to_string(births) +
                         "); its edges to the heap:" + heapEdges(k, nodes));
    }
    if (!c.matches(births)) fail(r, "NATH with " + std::to_string(births) + " instances");
  }

  void notNath(const Record& r) {
    int k = naming(r, 1);
    std::vector<uint32_t> nodes;
    std::vector<const copy::NathRow*> rows;
    if (k < 0 || !arity(r, 3) || !nathRows(r, k, r.tokens[2], nodes, rows)) return;
    if (std::find(rows.begin(), rows.end(), nullptr) == rows.end()) {
      uint64_t births = 0;
      for (const copy::NathRow* row : rows) births += row->births;
      fail(r, "NATH with " + std::to_string(births) + " instances");
    }
  }

  std::string topClones(int k, size_t n) const {
    const NamedGraph& g = *graphs_[k];
    std::string s;
    for (size_t i = 0; i < g.view.clones.top.size() && i < n; ++i) {
      const copy::ClonePair& p = g.view.clones.top[i];
      s += "\n      " + std::to_string(i + 1) + ". " + g.names[p.from] + " " + g.names[p.to] +
           "  " + std::to_string(p.volume);
    }
    return s.empty() ? " (no clone pairs)" : "; the top pairs:" + s;
  }

  void clone(const Record& r, bool top) {
    int k = naming(r, 1);
    Count c;
    if (k < 0 || !arity(r, 5) || !count(r, r.tokens[4], c)) return;
    const NamedGraph& g = *graphs_[k];
    const std::string &a = r.tokens[2], &b = r.tokens[3];
    const auto& pairs = g.view.clones.top;
    if (top) {
      if (pairs.empty() || g.names[pairs[0].from] != a || g.names[pairs[0].to] != b) {
        return fail(r, "not the first pair" + topClones(k, 5));
      }
    }
    bool found = false;
    uint64_t volume = 0;
    for (const copy::ClonePair& p : pairs) {
      if (g.names[p.from] != a || g.names[p.to] != b) continue;
      found = true;
      volume += p.volume;
    }
    if (!found) return fail(r, "no such pair" + topClones(k, 8));
    if (!c.matches(volume)) fail(r, "volume " + std::to_string(volume));
  }

  std::string chainText(int k, const copy::Chain& c) const {
    std::string s;
    for (uint32_t n : c.nodes) s += (s.empty() ? "" : " -> ") + graphs_[k]->names[n];
    return s + "  " + std::to_string(c.freq) + " " + std::to_string(c.bytes) + " " +
           std::to_string(c.length()) + " " + std::to_string(c.wf);
  }
  std::string topChains(int k, size_t n) const {
    std::string s;
    const auto& top = graphs_[k]->view.chains.top;
    for (size_t i = 0; i < top.size() && i < n; ++i) {
      s += "\n      " + std::to_string(i + 1) + ". " + chainText(k, top[i]);
    }
    return s.empty() ? " (no chains)" : "; the top chains:" + s;
  }

  // A chain from SRC to DST with the figures, ranked `rank`: 1 + the chains of larger WF.
  void chain(const Record& r, size_t rank) {
    int k = naming(r, 1);
    if (k < 0 || !arity(r, 9)) return;
    uint64_t fig[4];
    for (int i = 0; i < 4; ++i) {
      if (!parseNumber(r.tokens[5 + i], fig[i])) return fail(r, "malformed figures");
    }
    const NamedGraph& g = *graphs_[k];
    const auto& top = g.view.chains.top;
    std::string similar;
    for (const copy::Chain& c : top) {
      if (g.names[c.nodes.front()] != r.tokens[2] || g.names[c.nodes.back()] != r.tokens[4]) {
        continue;
      }
      size_t at = 1 + std::count_if(top.begin(), top.end(),
                                    [&](const copy::Chain& o) { return o.wf > c.wf; });
      if (c.freq == fig[0] && c.bytes == fig[1] && c.length() == fig[2] && c.wf == fig[3] &&
          at == rank) {
        return;
      }
      similar += "\n      rank " + std::to_string(at) + ": " + chainText(k, c);
    }
    fail(r, (similar.empty() ? "no chain from " + r.tokens[2] + " to " + r.tokens[4]
                             : "found" + similar) +
                topChains(k, 5));
  }

  void copies(const Record& r, bool flat) {
    Count c;
    if (!arity(r, 3) || !count(r, r.tokens[2], c)) return;
    const copy::Model& m = graphs_[0]->model;
    uint64_t v = 0;
    for (const copy::MethodCopies& mc : m.copies.methods) {
      if (methodName(*m.profile, mc.method) == r.tokens[1]) v += flat ? mc.self : mc.total;
    }
    if (!c.matches(v)) fail(r, "found " + std::to_string(v));
  }

  void cut(const Record& r) {
    Count c;
    if (!arity(r, 3) || !count(r, r.tokens[2], c)) return;
    const copy::Model& m = graphs_[0]->model;
    uint64_t v = 0;
    for (const auto& [method, n] : m.cuts) {
      if (methodName(*m.profile, method) == r.tokens[1]) v += n;
    }
    if (!c.matches(v)) fail(r, "found " + std::to_string(v));
  }

  // Every in-scope edge of the naming is listed or ignored.
  void completeness(int k) {
    std::string extra;
    for (const auto& [key, n] : edges_[k]) {
      if (!n.inScope || listed_[k].count(key) != 0) continue;
      bool ignored = std::any_of(ignores_[k].begin(), ignores_[k].end(), [&](const auto& p) {
        return globMatch(p.first, key.first) && globMatch(p.second, key.second);
      });
      if (ignored) continue;
      extra += "\n      " + namingName(k) + " " + key.first + " -> " + key.second + "  " +
               std::to_string(n.freq) + "  " + std::to_string(n.bytes);
    }
    if (!extra.empty()) {
      failures_.push_back(e_.file + ": in-scope " + namingName(k) +
                          " edges the file does not list:" + extra);
    }
  }

  const Expected& e_;
  const NamedGraph* graphs_[2];
  NamedEdges edges_[2];
  bool used_[2] = {false, false};
  std::set<std::pair<std::string, std::string>> listed_[2];
  std::vector<std::pair<std::string, std::string>> ignores_[2];
  std::vector<std::string> failures_;
};

}  // namespace

bool parseCount(const std::string& s, Count& out) {
  std::string_view v(s);
  if (v.starts_with(">=")) {
    out.hi = std::numeric_limits<uint64_t>::max();
    return parseNumber(v.substr(2), out.lo);
  }
  if (size_t dots = v.find(".."); dots != std::string_view::npos) {
    return parseNumber(v.substr(0, dots), out.lo) && parseNumber(v.substr(dots + 2), out.hi) &&
           out.lo <= out.hi;
  }
  if (!parseNumber(v, out.lo)) return false;
  out.hi = out.lo;
  return true;
}

Expected readExpected(const std::string& path, int major) {
  Expected e;
  e.file = path.substr(path.rfind('/') + 1);
  std::ifstream in(path);
  if (!in) e.errors.push_back(path + ": cannot be read");
  int number = 0;
  for (std::string line; std::getline(in, line);) {
    ++number;
    std::istringstream words(line);
    Record r{number, "", {}};
    for (std::string w; words >> w;) r.tokens.push_back(w);
    if (r.tokens.empty() || r.tokens[0].starts_with("#")) continue;
    const std::string& last = r.tokens.back();
    if (last == "jdk17" || last == "jdk25") {
      if (std::to_string(major) != last.substr(3)) continue;
      r.tokens.pop_back();
    }
    for (const std::string& w : r.tokens) r.text += (r.text.empty() ? "" : " ") + w;
    const std::string& kind = r.tokens[0];
    std::vector<std::string> rest(r.tokens.begin() + 1, r.tokens.end());
    if (kind == "program") {
      e.programs.push_back(r.text.substr(8));
    } else if (kind == "scope-files") {
      e.files.insert(rest.begin(), rest.end());
    } else if (kind == "scope-sites") {
      e.sites.insert(rest.begin(), rest.end());
    } else if (kind == "scope-fields") {
      e.fields.insert(rest.begin(), rest.end());
    } else if (kind == "scope-statics") {
      e.statics.insert(rest.begin(), rest.end());
    } else if (kind == "scope-consumer") {
      if (rest.size() != 1 || (rest[0] != "no" && rest[0] != "yes")) {
        e.errors.push_back(e.file + ":" + std::to_string(number) + ": malformed scope-consumer");
      }
      e.consumer = !rest.empty() && rest[0] != "no";
    } else {
      e.records.push_back(std::move(r));
    }
  }
  if (e.programs.empty()) e.errors.push_back(e.file + ": no program line");
  return e;
}

std::vector<std::string> check(const Expected& e, const NamedGraph& ci, const NamedGraph& cs) {
  return Checker(e, ci, cs).run();
}

std::vector<std::string> scopedEdges(const Expected& e, const NamedGraph& ci,
                                     const NamedGraph& cs) {
  return Checker(e, ci, cs).scoped();
}

}  // namespace dragnet::test::flow
