// What every cost report shares: names of the model's ids, the code behind a set of
// instances, the locations' rankings and the report options.
#include <algorithm>
#include <charconv>
#include <map>

#include "analyses/cost/report/report.h"
#include "contexts/model.h"

namespace dragnet::report {

using analyses::cost::CostModel;
using analyses::cost::Location;
using analyses::cost::NodeDef;
using analyses::cost::NodeKind;
using analyses::cost::Object;

CostNames::CostNames(const CostReport& r) : r_(r) {
  for (const auto& [key, def] : r.profile->sites) sites_.emplace(profile::siteIndexOf(key), &def);
}

const profile::SiteDef* CostNames::siteDef(uint32_t site) const {
  auto it = sites_.find(site);
  return it == sites_.end() ? nullptr : it->second;
}

std::string CostNames::site(uint32_t site) const {
  return contexts::siteIndexName(*r_.profile, siteDef(site), site);
}

std::string CostNames::object(Object o) const {
  std::string name = site(o.site);
  if (r_.model->input().slots > 1) name.append(" @ slot ").append(std::to_string(o.slot));
  return name;
}

std::string CostNames::field(uint32_t field) const {
  return contexts::flowFieldName(*r_.profile, field);
}

std::string CostNames::location(const Location& l) const {
  if (l.isStatic) return field(l.field);
  return "<" + object(l.object) + ">." + field(l.field);
}

std::string CostNames::code(const NodeDef& d) const {
  return contexts::frameName(*r_.profile, d.method, d.line);
}

std::string CostNames::what(const NodeDef& d) const {
  switch (d.kind) {
    case NodeKind::Alloc:
      return "new " + site(d.site);
    case NodeKind::LoadField:
      return (d.field == analyses::cost::kElmField ? "xaload " : "getfield ") + field(d.field);
    case NodeKind::StoreField:
      return (d.field == analyses::cost::kElmField ? "xastore " : "putfield ") + field(d.field);
    case NodeKind::LoadStatic:
      return "getstatic " + field(d.field);
    case NodeKind::StoreStatic:
      return "putstatic " + field(d.field);
    default:
      return costNodeKind(d.kind);
  }
}

const char* costNodeKind(NodeKind k) {
  switch (k) {
    case NodeKind::Alloc:
      return "alloc";
    case NodeKind::LoadField:
      return "load";
    case NodeKind::StoreField:
      return "store";
    case NodeKind::LoadStatic:
      return "loadStatic";
    case NodeKind::StoreStatic:
      return "storeStatic";
    case NodeKind::Compute:
      return "compute";
    case NodeKind::Assign:
      return "assign";
    case NodeKind::Predicate:
      return "predicate";
    case NodeKind::Native:
      return "native";
  }
  return "?";
}

std::vector<CodeRow> codeRows(const CostModel& m, std::span<const uint32_t> insts) {
  std::map<uint32_t, CodeRow> byNode;
  for (uint32_t v : insts) {
    CodeRow& row = byNode[m.graph().inst(v).node];
    row.node = m.graph().inst(v).node;
    ++row.instances;
    row.freq += m.graph().freq(v);
  }
  std::vector<CodeRow> rows;
  for (const auto& [node, row] : byNode) rows.push_back(row);
  std::stable_sort(rows.begin(), rows.end(),
                   [](const CodeRow& a, const CodeRow& b) { return a.freq > b.freq; });
  return rows;
}

StructureCode structureCode(const CostModel& m, std::span<const uint32_t> locations) {
  std::vector<uint32_t> writers, readers;
  for (uint32_t l : locations) {
    const auto& loc = m.locations()[l];
    writers.insert(writers.end(), loc.writers.begin(), loc.writers.end());
    readers.insert(readers.end(), loc.readers.begin(), loc.readers.end());
  }
  // An instance may write two locations of one structure (an array's elements): once each.
  for (auto* xs : {&writers, &readers}) {
    std::sort(xs->begin(), xs->end());
    xs->erase(std::unique(xs->begin(), xs->end()), xs->end());
  }
  return {codeRows(m, writers), codeRows(m, readers)};
}

std::vector<uint32_t> locationsBy(const CostModel& m, bool byRab) {
  std::vector<uint32_t> order(m.locations().size());
  for (uint32_t i = 0; i < order.size(); ++i) order[i] = i;
  const auto& ls = m.locations();
  std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
    double a1 = byRab ? ls[a].rab : ls[a].rac, b1 = byRab ? ls[b].rab : ls[b].rac;
    if (a1 != b1) return a1 > b1;
    double a2 = byRab ? ls[a].rac : ls[a].rab, b2 = byRab ? ls[b].rac : ls[b].rab;
    return a2 > b2;
  });
  return order;
}

namespace {

constexpr ReportOption kOptions[] = {
    {"consumer-rab",
     "K, the RAB of a location whose value reaches a predicate or a native (0: the rule off; "
     "default 1048576 = 2^20)"},
    {"height", "n of n-RAC and n-RAB, the height of an object's reference tree (1..4; default 4)"},
};

bool number(const std::string& s, uint64_t& v) {
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  return !s.empty() && ec == std::errc() && end == s.data() + s.size();
}

}  // namespace

std::span<const ReportOption> costReportOptions() { return kOptions; }

bool costOptionsOf(const OptionValues& given, analyses::cost::Options& out, std::string& error) {
  for (const auto& [name, value] : given) {
    uint64_t v = 0;
    if (name == "consumer-rab") {
      if (!number(value, v)) {
        error = "--opt consumer-rab=" + value + ": expected a whole number (0: the rule off)";
        return false;
      }
      out.consumerRab = v;
    } else if (name == "height") {
      if (!number(value, v) || v < 1 || v > 4) {
        error = "--opt height=" + value + ": expected 1, 2, 3 or 4";
        return false;
      }
      out.height = static_cast<uint32_t>(v);
    } else {
      error = "--opt " + name +
              ": a cost profile has no such report option (its options: "
              "consumer-rab, height)";
      return false;
    }
  }
  return true;
}

bool checkCostOptions(const OptionValues& given, std::string& error) {
  analyses::cost::Options o;
  return costOptionsOf(given, o, error);
}

}  // namespace dragnet::report
