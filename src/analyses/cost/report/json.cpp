// The JSON report of a cost profile (docs/REPORTS.md, "cost json").
#include "analyses/cost/report/json.h"

#include "analyses/cost/report/report.h"
#include "report/coverage.h"
#include "report/json_text.h"
#include "report/text_format.h"

namespace dragnet::report {

using analyses::cost::CostModel;
using analyses::cost::LocationCost;
using analyses::cost::Object;
using Json = nlohmann::ordered_json;

Json costHeader(const CostReport& r) {
  const profile::Profile& p = *r.profile;
  const CostModel& m = *r.model;
  Json j = jsonHead(p, "dragnet-cost");
  j["settings"] = {{"slots", m.input().slots},
                   {"arrayShadow", r.recording.elementShadows ? "element" : "array"},
                   {"consumerRab", m.options().consumerRab},
                   {"consumerRule", m.options().consumerRab > 0},
                   {"height", m.options().height}};
  const auto& t = r.totals;
  j["totals"] = {{"cuts", t.cuts},
                 {"unknownTags", t.unknownTags},
                 {"tableBytes", t.tableBytes},
                 {"shadowBytes", t.shadowBytes},
                 {"shadowFields", t.shadowFields},
                 {"shadowFallbacks", t.shadowFallbacks},
                 {"dropped", t.dropped},
                 {"droppedInstances", m.graph().dropped()}};
  j["graph"] = {
      {"instances", m.size().instances}, {"edges", m.size().edges}, {"nodesRan", m.size().defsRan}};
  const auto& b = m.bloat();
  j["bloat"] = {{"instructions", b.instructions},
                {"ipd", b.ipd},
                {"ipp", b.ipp},
                {"nld", b.nld},
                {"deadInstances", b.deadInstances},
                {"deadFreq", b.deadFreq},
                {"predicateInstances", b.predicateInstances},
                {"predicateFreq", b.predicateFreq}};
  j["conflictRatio"] = m.conflictRatio();
  j["hiddenClasses"] = hiddenClassesJson(p);
  return j;
}

CostJsonWriter::CostJsonWriter(const CostReport& r) : r_(r), names_(r) {}

Json CostJsonWriter::object(Object o) const {
  return {{"site", o.site}, {"slot", o.slot}, {"name", names_.object(o)}};
}

Json CostJsonWriter::code(const std::vector<CodeRow>& rows, size_t top) const {
  Json out = Json::array();
  for (const CodeRow& c : rows) {
    if (out.size() == top) break;
    const auto& d = r_.model->input().defs[c.node];
    out.push_back({{"node", c.node},
                   {"kind", costNodeKind(d.kind)},
                   {"what", names_.what(d)},
                   {"code", names_.code(d)},
                   {"line", d.line},
                   {"instances", c.instances},
                   {"freq", c.freq}});
  }
  return out;
}

Json CostJsonWriter::location(uint32_t index, size_t top) const {
  const LocationCost& l = r_.model->locations()[index];
  Json j{{"id", index}, {"name", names_.location(l.loc)}, {"static", l.loc.isStatic}};
  if (!l.loc.isStatic) j["object"] = object(l.loc.object);
  j["field"] = names_.field(l.loc.field);
  j["rac"] = l.rac;
  j["rab"] = l.rab;
  j["rabMean"] = l.rabMean;
  j["consumed"] = l.consumed;
  j["writers"] = code(codeRows(*r_.model, l.writers), top);
  j["readers"] = code(codeRows(*r_.model, l.readers), top);
  return j;
}

Json CostJsonWriter::sites(size_t top) const {
  Json out = Json::array();
  for (const auto& s : r_.model->sites()) {
    if (out.size() == top) break;
    Json slots = Json::array();
    for (uint32_t o : s.objects) slots.push_back(r_.model->objects()[o].object.slot);
    out.push_back({{"rank", out.size() + 1},
                   {"site", s.site},
                   {"name", names_.site(s.site)},
                   {"rate", s.rate},
                   {"nRac", s.nRac},
                   {"nRab", s.nRab},
                   {"births", s.births},
                   {"consumed", s.consumed},
                   {"slots", std::move(slots)}});
  }
  return out;
}

Json CostJsonWriter::structures(size_t top) const {
  Json out = Json::array();
  for (const auto& row : r_.model->objects()) {
    if (out.size() == top) break;
    Json objects = Json::array(), fields = Json::array();
    for (Object o : row.objects) objects.push_back(object(o));
    for (uint32_t l : row.locations) fields.push_back(location(l, top));
    StructureCode sc = structureCode(*r_.model, row.locations);
    out.push_back({{"rank", out.size() + 1},
                   {"object", object(row.object)},
                   {"rate", row.rate},
                   {"nRac", row.nRac},
                   {"nRab", row.nRab},
                   {"births", row.births},
                   {"consumed", row.consumed},
                   {"objects", std::move(objects)},
                   {"fields", std::move(fields)},
                   {"writers", code(sc.writers, top)},
                   {"readers", code(sc.readers, top)}});
  }
  return out;
}

Json CostJsonWriter::locations(size_t top) const {
  Json out = Json::array();
  for (uint32_t l : locationsBy(*r_.model, false)) {
    if (out.size() == top) break;
    out.push_back(location(l, top));
  }
  return out;
}

Json costJson(const CostReport& r, const CostJsonOptions& o) {
  Json j = costHeader(r);
  CostJsonWriter w(r);
  j["sites"] = w.sites(o.top);
  j["structures"] = w.structures(o.top);
  j["locations"] = w.locations(o.top);
  return j;
}

void writeCostJson(std::ostream& out, const CostReport& r, const CostJsonOptions& o) {
  out << jsonText(costJson(r, o), 2) << "\n";
}

}  // namespace dragnet::report
