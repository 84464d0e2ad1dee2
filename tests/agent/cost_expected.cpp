#include "cost_expected.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <fstream>
#include <sstream>
#include <utility>

#include "analyses/cost/model/load.h"

namespace dragnet::test::cost {

namespace model = dragnet::analyses::cost;
namespace profile = dragnet::profile;

namespace {

constexpr uint32_t kConstructorBit = 1u << 30;  // contexts::kConstructorBit

// Text of the arguments in turn (GCC 12 misreports -Wrestrict on "literal" + std::string).
template <class... T>
std::string cat(const T&... xs) {
  std::ostringstream s;
  s.precision(15);
  (s << ... << xs);
  return s.str();
}

bool parseNumber(std::string_view s, uint64_t& v) {
  if (s.empty()) return false;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  return ec == std::errc() && end == s.data() + s.size();
}

std::string binaryName(std::string internal) {
  std::replace(internal.begin(), internal.end(), '/', '.');
  return internal;
}

// BINARYCLASS.METHOD of a method id as a node has it (a constructor's with the constructor
// bit, whichever way the profile defines it).
std::string methodLabel(const profile::Profile& p, uint32_t method) {
  uint32_t id = p.methods.count(method) != 0 ? method : method & ~kConstructorBit;
  std::string name = flow::methodName(p, id);
  size_t paren = name.find('(');
  return paren == std::string::npos ? name : name.substr(0, paren);
}

// The record's kind word for a node kind.
const char* kindWord(model::NodeKind k) {
  switch (k) {
    case model::NodeKind::Alloc:
      return "alloc";
    case model::NodeKind::LoadField:
    case model::NodeKind::LoadStatic:
      return "load";
    case model::NodeKind::StoreField:
    case model::NodeKind::StoreStatic:
      return "store";
    case model::NodeKind::Compute:
      return "comp";
    case model::NodeKind::Assign:
      return "assign";
    case model::NodeKind::Predicate:
      return "pred";
    case model::NodeKind::Native:
      return "native";
  }
  return "?";
}

// Values are compared as the model computes them (means are doubles); the files' are integers.
bool same(double got, double expected) {
  return std::fabs(got - expected) <= 1e-9 * std::max(1.0, std::fabs(expected));
}

// What a run holds in the terms of one expected file: its scope and the named values.
class Scoped {
 public:
  Scoped(const Expected& e, const Run& r) : e_(e), r_(r), g_(r.model.graph()) {}

  bool methodInScope(const std::string& nodeName) const {
    return e_.methods.count(nodeName.substr(0, nodeName.rfind('@'))) != 0;
  }
  bool siteInScope(const std::string& label) const {
    size_t colon = label.find(':');
    return colon != std::string::npos && e_.files.count(label.substr(0, colon)) != 0;
  }
  std::vector<std::string> scopeNodes() const {
    std::vector<std::string> v;
    for (const auto& [name, insts] : r_.instances)
      if (methodInScope(name)) v.push_back(name);
    return v;
  }
  const std::vector<uint32_t>* nodeInstances(const std::string& name) const {
    auto it = r_.instances.find(name);
    return it == r_.instances.end() ? nullptr : &it->second;
  }
  uint64_t freq(const std::vector<uint32_t>& vs) const {
    uint64_t f = 0;
    for (uint32_t v : vs) f += g_.freq(v);
    return f;
  }
  // 'D', 'P' or '-' when every instance has that class; '*' when they differ.
  char classOf(const std::vector<uint32_t>& vs) const {
    char c = 0;
    for (uint32_t v : vs) {
      uint8_t m = r_.model.bloat().membership[v];
      char x = m == model::kDead ? 'D' : m == model::kPredicateOnly ? 'P' : '-';
      if (c != 0 && c != x) return '*';
      c = x;
    }
    return c == 0 ? '-' : c;
  }
  // AC, HRAC or HRAB summed over the instances.
  uint64_t cost(const std::string& what, const std::vector<uint32_t>& vs) const {
    uint64_t sum = 0;
    for (uint32_t v : vs) {
      sum += what == "ac"     ? r_.model.absoluteCost(v)
             : what == "hrac" ? r_.model.relativeCost(v)
                              : r_.model.relativeBenefit(v).value;
    }
    return sum;
  }
  std::string kinds(const std::vector<uint32_t>& vs) const {
    std::set<std::string> k;
    for (uint32_t v : vs) k.insert(kindWord(g_.def(v).kind));
    std::string s;
    for (const std::string& x : k) s.append(s.empty() ? "" : "/").append(x);
    return s;
  }
  std::string lines(const std::vector<uint32_t>& vs) const {
    std::set<int32_t> l;
    for (uint32_t v : vs) l.insert(g_.def(v).line);
    std::string s;
    for (int32_t x : l) s.append(s.empty() ? "" : "/").append(std::to_string(x));
    return s;
  }

  // The locations named `name` (one per slot the object was named in).
  std::vector<uint32_t> locations(const std::string& name) const {
    std::vector<uint32_t> v;
    const auto& locs = r_.model.locations();
    for (uint32_t i = 0; i < locs.size(); ++i)
      if (r_.locationName(locs[i].loc) == name) v.push_back(i);
    return v;
  }
  // The object rows of the sites labelled `label`.
  std::vector<model::Object> objects(const std::string& label) const {
    std::vector<model::Object> v;
    for (const model::ObjectRow& o : r_.model.objects())
      if (r_.siteLabel(o.object.site) == label) v.push_back(o.object);
    return v;
  }
  // The in-scope sites in rank order, in `m`.
  std::vector<std::string> ranked(const model::CostModel& m) const {
    std::vector<std::string> v;
    for (const model::SiteRow& s : m.sites()) {
      std::string label = r_.siteLabel(s.site);
      if (siteInScope(label)) v.push_back(label);
    }
    return v;
  }
  std::string refEdgeName(const model::ReferenceEdge& x) const {
    return r_.nodeNames[g_.inst(x.store).node] + " " + r_.siteLabel(g_.def(x.alloc).site);
  }
  std::string pointsToName(const model::GraphInput::PointsTo& p) const {
    return r_.siteLabel(p.base.site) + "." + r_.fieldName(p.field) + " " +
           r_.siteLabel(p.value.site);
  }

  // In-scope frequencies: Σ all, Σ D*, Σ P*; in-scope nodes, nodes in D*.
  struct Sums {
    uint64_t all = 0, dead = 0, predicate = 0, nodes = 0, deadNodes = 0;
  };
  Sums sums() const {
    Sums s;
    for (const std::string& name : scopeNodes()) {
      const std::vector<uint32_t>& vs = *nodeInstances(name);
      ++s.nodes;
      if (classOf(vs) == 'D') ++s.deadNodes;
      for (uint32_t v : vs) {
        uint8_t m = r_.model.bloat().membership[v];
        s.all += g_.freq(v);
        if (m == model::kDead) s.dead += g_.freq(v);
        if (m == model::kPredicateOnly) s.predicate += g_.freq(v);
      }
    }
    return s;
  }

  const Expected& e_;
  const Run& r_;
  const model::InstanceGraph& g_;
};

class Checker : Scoped {
 public:
  using Scoped::Scoped;

  std::vector<std::string> run() {
    for (const Record& r : e_.records) record(r);
    completeness();
    return std::move(failures_);
  }

 private:
  void fail(const Record& r, const std::string& what) {
    failures_.push_back(e_.file + ":" + std::to_string(r.line) + ": `" + r.text + "`: " + what);
  }
  void failFile(const std::string& what) { failures_.push_back(e_.file + ": " + what); }
  bool arity(const Record& r, size_t n) {
    if (r.tokens.size() == n) return true;
    fail(r, cat("malformed record (", r.tokens.size(), " tokens, ", n, " expected)"));
    return false;
  }
  bool value(const Record& r, const std::string& s, uint64_t& v) {
    if (parseNumber(s, v)) return true;
    fail(r, "malformed number '" + s + "'");
    return false;
  }
  const std::vector<uint32_t>* node(const Record& r, const std::string& name) {
    const std::vector<uint32_t>* vs = nodeInstances(name);
    if (!vs) fail(r, "no node " + name + " ran");
    return vs;
  }

  void record(const Record& r) {
    const std::string& k = r.tokens[0];
    if (k == "node") return nodeRecord(r);
    if (k == "nodes") return nodesRecord(r);
    if (k == "ac" || k == "hrac" || k == "hrab") return costRecord(r);
    if (k == "rac" || k == "rab" || k == "consumed") return locationRecord(r);
    if (k == "nrac" || k == "nrab") return structureRecord(r);
    if (k == "refedge") return refEdgeRecord(r);
    if (k == "pointsto") return pointsToRecord(r);
    if (k == "rank") return rankRecord(r);
    if (k == "ipd" || k == "ipp" || k == "nld") return bloatRecord(r);
    fail(r, "unknown record");
  }

  void nodeRecord(const Record& r) {
    uint64_t line = 0, count = 0;
    if (!arity(r, 7) || !value(r, r.tokens[2], line) || !value(r, r.tokens[5], count)) return;
    listedNodes_.insert(r.tokens[1]);
    const std::vector<uint32_t>* vs = node(r, r.tokens[1]);
    if (!vs) return;
    std::string got;
    if (kinds(*vs) != r.tokens[4]) got += " kind " + kinds(*vs);
    if (lines(*vs) != std::to_string(line)) got += " line " + lines(*vs);
    if (freq(*vs) != count) got += " frequency " + std::to_string(freq(*vs));
    char c = classOf(*vs);
    if (r.tokens[6] != "?" && r.tokens[6] != std::string(1, c))
      got += " class " + std::string(1, c);
    if (!got.empty()) fail(r, "found" + got);
  }

  void nodesRecord(const Record& r) {
    uint64_t n = 0;
    if (!arity(r, 2) || !value(r, r.tokens[1], n)) return;
    if (sums().nodes != n) fail(r, cat("found ", sums().nodes, " in-scope nodes"));
  }

  void costRecord(const Record& r) {
    uint64_t v = 0;
    if (!arity(r, 3) || !value(r, r.tokens[2], v)) return;
    const std::vector<uint32_t>* vs = node(r, r.tokens[1]);
    if (!vs) return;
    uint64_t got = cost(r.tokens[0], *vs);
    if (got != v) fail(r, cat("found ", got));
  }

  // rac from the model, rab from the one without the consumer rule, consumed from the model.
  void locationRecord(const Record& r) {
    if (!arity(r, 3)) return;
    std::vector<uint32_t> ls = locations(r.tokens[1]);
    if (ls.empty()) return fail(r, "no such location (no writer, no reader)");
    const std::string& k = r.tokens[0];
    for (uint32_t l : ls) {
      const model::LocationCost& c = r_.model.locations()[l];
      if (k == "consumed") {
        if (r.tokens[2] != "yes" && r.tokens[2] != "no") return fail(r, "malformed record");
        if (c.consumed != (r.tokens[2] == "yes")) fail(r, c.consumed ? "consumed" : "not consumed");
        continue;
      }
      uint64_t v = 0;
      if (!value(r, r.tokens[2], v)) return;
      double got = k == "rac" ? c.rac : r_.plain.locations()[l].rab;
      if (!same(got, static_cast<double>(v))) {
        fail(r, cat("found ", got, " (", c.writers.size(), " writers, ", c.readers.size(),
                    " readers, slot ", c.loc.object.slot, ")"));
      }
    }
  }

  // Σ over the site's objects (one per slot), as the site rows sum them.
  void structureRecord(const Record& r) {
    uint64_t h = 0, v = 0;
    if (!arity(r, 4) || !value(r, r.tokens[1], h) || !value(r, r.tokens[3], v)) return;
    std::vector<model::Object> os = objects(r.tokens[2]);
    if (os.empty()) return fail(r, "no object of site " + r.tokens[2]);
    double got = 0;
    for (const model::Object& o : os) {
      got += r.tokens[0] == "nrac" ? r_.model.structure(o, static_cast<uint32_t>(h)).nRac
                                   : r_.plain.structure(o, static_cast<uint32_t>(h)).nRab;
    }
    if (!same(got, static_cast<double>(v))) fail(r, cat("found ", got));
  }

  void refEdgeRecord(const Record& r) {
    if (!arity(r, 3)) return;
    std::string name = r.tokens[1] + " " + r.tokens[2];
    listedRefs_.insert(name);
    for (const model::ReferenceEdge& x : r_.model.referenceEdges())
      if (refEdgeName(x) == name) return;
    std::string near;
    for (const model::ReferenceEdge& x : r_.model.referenceEdges()) {
      std::string n = refEdgeName(x);
      if (n.starts_with(r.tokens[1] + " ")) near += "\n      " + n;
    }
    fail(r, "no such reference edge" + (near.empty() ? "" : "; from that store:" + near));
  }

  void pointsToRecord(const Record& r) {
    if (!arity(r, 3)) return;
    std::string name = r.tokens[1] + " " + r.tokens[2];
    listedPointsTo_.insert(name);
    for (const auto& p : r_.model.input().pointsTo)
      if (pointsToName(p) == name) return;
    fail(r, "no such points-to fact");
  }

  void rankRecord(const Record& r) {
    uint64_t k = 0;
    if (!arity(r, 3) || !value(r, r.tokens[1], k) || k == 0) return;
    listedSites_.insert(r.tokens[2]);
    for (const model::CostModel* m : {&r_.model, &r_.plain}) {
      std::vector<std::string> order = ranked(*m);
      if (k <= order.size() && order[k - 1] == r.tokens[2]) continue;
      std::string s;
      for (const std::string& x : order) s += " " + x;
      fail(r, std::string(m == &r_.plain ? "without" : "with") +
                  " the consumer rule, the in-scope sites rank" + s);
    }
  }

  void bloatRecord(const Record& r) {
    uint64_t num = 0, den = 0;
    if (!arity(r, 3) || !value(r, r.tokens[1], num) || !value(r, r.tokens[2], den)) return;
    Sums s = sums();
    const std::string& k = r.tokens[0];
    uint64_t gotNum = k == "ipd" ? s.dead : k == "ipp" ? s.predicate : s.deadNodes;
    uint64_t gotDen = k == "nld" ? s.nodes : s.all;
    if (gotNum != num || gotDen != den) fail(r, cat("found ", gotNum, " ", gotDen));
  }

  // Every in-scope node, reference edge from an in-scope store, points-to fact from an
  // in-scope site's object and in-scope site has a record.
  void completeness() {
    for (const std::string& name : scopeNodes()) {
      if (listedNodes_.count(name) != 0) continue;
      const std::vector<uint32_t>& vs = *nodeInstances(name);
      failFile("in-scope node without a record: node " + name + " " + lines(vs) + " ? " +
               kinds(vs) + " " + std::to_string(freq(vs)) + " " + std::string(1, classOf(vs)));
    }
    for (const model::ReferenceEdge& x : r_.model.referenceEdges()) {
      std::string n = refEdgeName(x);
      if (methodInScope(r_.nodeNames[g_.inst(x.store).node]) && listedRefs_.count(n) == 0)
        failFile("in-scope reference edge without a record: refedge " + n);
    }
    for (const auto& p : r_.model.input().pointsTo) {
      std::string n = pointsToName(p);
      if (siteInScope(r_.siteLabel(p.base.site)) && listedPointsTo_.count(n) == 0)
        failFile("in-scope points-to fact without a record: pointsto " + n);
    }
    if (listedSites_.empty()) return;  // a file without rank records asserts no ranking
    for (const std::string& label : ranked(r_.model)) {
      if (listedSites_.count(label) == 0) failFile("in-scope site without a rank: " + label);
    }
  }

  std::set<std::string> listedNodes_, listedRefs_, listedPointsTo_, listedSites_;
  std::vector<std::string> failures_;
};

}  // namespace

Expected readExpected(const std::string& path) {
  Expected e;
  e.file = path.substr(path.find_last_of('/') + 1);
  std::ifstream in(path);
  if (!in) {
    e.errors.push_back(e.file + ": cannot read");
    return e;
  }
  std::string text;
  for (int line = 1; std::getline(in, text); ++line) {
    std::istringstream s(text);
    Record r{line, text, {}};
    for (std::string t; s >> t;) r.tokens.push_back(t);
    if (r.tokens.empty() || r.tokens[0][0] == '#') continue;
    const std::string& k = r.tokens[0];
    auto rest = [&r](std::set<std::string>& into) {
      into.insert(r.tokens.begin() + 1, r.tokens.end());
    };
    if (k == "program") {
      std::string p;
      for (size_t i = 1; i < r.tokens.size(); ++i) p.append(i > 1 ? " " : "").append(r.tokens[i]);
      if (p.empty()) e.errors.push_back(e.file + ":" + std::to_string(line) + ": no program");
      e.programs.push_back(p);
    } else if (k == "scope-files") {
      rest(e.files);
    } else if (k == "scope-methods") {
      rest(e.methods);
    } else {
      e.records.push_back(std::move(r));
    }
  }
  if (e.programs.empty()) e.errors.push_back(e.file + ": no program line");
  if (e.methods.empty()) e.errors.push_back(e.file + ": no scope-methods");
  return e;
}

Run::Run(const profile::Profile& p)
    : profile(p),
      model(model::loadGraph(p)),
      plain(model::loadGraph(p), model::Options{0, 4}),
      labels(p) {
  const std::vector<model::NodeDef>& defs = model.input().defs;
  nodeNames.resize(defs.size());
  methods.resize(defs.size());
  for (uint32_t id = 1; id < defs.size(); ++id) {
    methods[id] = methodLabel(p, defs[id].method);
    nodeNames[id] = methods[id] + "@" + std::to_string(defs[id].index);
  }
  const model::InstanceGraph& g = model.graph();
  for (uint32_t v = 0; v < g.size(); ++v) instances[nodeNames[g.inst(v).node]].push_back(v);
}

std::string Run::fieldName(uint32_t field) const {
  if (field == profile::kElmField) return "ELM";
  auto it = profile.fields.find(field);
  return it == profile.fields.end() ? cat("<field#", field, ">") : it->second.name;
}

std::string Run::locationName(const model::Location& l) const {
  if (!l.isStatic) return labels.label(l.object.site) + "." + fieldName(l.field);
  auto it = profile.fields.find(l.field);
  return "static:" + (it == profile.fields.end() ? "?" : binaryName(it->second.cls)) + "." +
         fieldName(l.field);
}

std::string Run::instanceName(uint32_t v) const {
  model::Inst i = model.graph().inst(v);
  return i.slot == 0 ? nodeNames[i.node] : cat(nodeNames[i.node], "[", i.slot, "]");
}

std::vector<std::string> check(const Expected& e, const Run& r) { return Checker(e, r).run(); }

std::vector<std::string> scopedValues(const Expected& e, const Run& r) {
  Scoped s(e, r);
  std::vector<std::string> v;
  for (const std::string& name : s.scopeNodes()) {
    const std::vector<uint32_t>& vs = *s.nodeInstances(name);
    v.push_back(cat("node ", name, " ", s.lines(vs), " ", s.kinds(vs), " ", s.freq(vs), " ",
                    s.classOf(vs), " ac ", s.cost("ac", vs), " hrac ", s.cost("hrac", vs), " hrab ",
                    s.cost("hrab", vs)));
  }
  const auto& locs = r.model.locations();
  for (uint32_t i = 0; i < locs.size(); ++i) {
    if (locs[i].loc.isStatic || !s.siteInScope(r.siteLabel(locs[i].loc.object.site))) continue;
    v.push_back(cat("location ", r.locationName(locs[i].loc), " rac ", locs[i].rac, " rab ",
                    r.plain.locations()[i].rab, locs[i].consumed ? " consumed" : ""));
  }
  for (const auto& x : r.model.referenceEdges()) {
    if (s.methodInScope(r.nodeNames[r.model.graph().inst(x.store).node]))
      v.push_back("refedge " + s.refEdgeName(x));
  }
  for (const auto& p : r.model.input().pointsTo) {
    if (s.siteInScope(r.siteLabel(p.base.site))) v.push_back("pointsto " + s.pointsToName(p));
  }
  std::vector<std::string> ranked = s.ranked(r.model);
  for (size_t k = 0; k < ranked.size(); ++k) {
    std::string line = cat("rank ", k + 1, " ", ranked[k]);
    for (uint32_t h = 1; h <= 4; ++h) {
      double nrac = 0, nrab = 0;
      for (const model::Object& o : s.objects(ranked[k])) {
        nrac += r.model.structure(o, h).nRac;
        nrab += r.plain.structure(o, h).nRab;
      }
      line += cat(" ", h, ":", nrac, "/", nrab);
    }
    v.push_back(line);
  }
  Scoped::Sums sums = s.sums();
  v.push_back(cat("bloat all ", sums.all, " dead ", sums.dead, " predicate ", sums.predicate,
                  " nodes ", sums.nodes, " dead-nodes ", sums.deadNodes));
  std::sort(v.begin(), v.end());
  return v;
}

std::string dump(const Expected& e, const Run& r) {
  Scoped s(e, r);
  const model::InstanceGraph& g = r.model.graph();
  std::ostringstream out;
  auto inScope = [&](uint32_t v) { return s.methodInScope(r.nodeNames[g.inst(v).node]); };
  auto describe = [&](uint32_t v) {
    return cat(r.instanceName(v), " (", kindWord(g.def(v).kind), " ", g.freq(v), ")");
  };
  for (uint32_t v = 0; v < g.size(); ++v) {
    if (!inScope(v)) continue;
    uint8_t m = r.model.bloat().membership[v];
    out << "instance " << r.instanceName(v) << " line " << g.def(v).line << " "
        << kindWord(g.def(v).kind) << " freq " << g.freq(v) << " class "
        << (m == model::kDead            ? 'D'
            : m == model::kPredicateOnly ? 'P'
                                         : '-')
        << " ac " << r.model.absoluteCost(v) << " hrac " << r.model.relativeCost(v) << " hrab "
        << r.model.relativeBenefit(v).value << "\n";
  }
  for (uint32_t v = 0; v < g.size(); ++v) {
    for (uint32_t w : g.succs(v)) {
      if (inScope(v) || inScope(w)) out << "edge " << describe(v) << " -> " << describe(w) << "\n";
    }
  }
  const auto& locs = r.model.locations();
  for (uint32_t i = 0; i < locs.size(); ++i) {
    const model::LocationCost& l = locs[i];
    if (l.loc.isStatic || !s.siteInScope(r.siteLabel(l.loc.object.site))) continue;
    out.precision(15);
    out << "location " << r.locationName(l.loc) << "[" << l.loc.object.slot << "] rac " << l.rac
        << " rab " << r.plain.locations()[i].rab << " rab-with-K " << l.rab
        << (l.consumed ? " consumed" : "") << "\n";
    for (uint32_t w : l.writers) out << "  writer " << describe(w) << "\n";
    for (uint32_t w : l.readers) out << "  reader " << describe(w) << "\n";
  }
  for (const std::string& line : scopedValues(e, r)) {
    if (!line.starts_with("node ")) out << line << "\n";
  }
  return out.str();
}

}  // namespace dragnet::test::cost
