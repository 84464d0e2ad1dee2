// Reports of a cost profile (Xu et al. sec. 4; docs/REPORTS.md, "Cost profiles"): the
// settings, totals, graph size and bloat measures, the allocation sites and object
// structures ranked by cost-benefit rate with the fields behind each structure and the code
// that writes and reads them, and the heap locations by RAC and by RAB. Text, JSON and one
// HTML page, all from the same model; the functions take the model and the profile that
// names its ids, so they never need the loader.
#pragma once

#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <ostream>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include "analyses/cost/model/load.h"
#include "analyses/cost/model/model.h"
#include "common/embedded.h"
#include "report/analysis.h"

namespace dragnet {
// The HTML page's own body, style and script (templates/page.*), embedded at build time.
std::span<const EmbeddedFile> costPageFiles();
}  // namespace dragnet

namespace dragnet::report {

// What every report of a cost profile shows: the model, the profile whose definitions name
// its ids (methods, allocation sites, fields; meta, End) and the recording's settings and
// totals. All must outlive the reports.
struct CostReport {
  const profile::Profile* profile = nullptr;
  const analyses::cost::CostModel* model = nullptr;
  analyses::cost::Recording recording;
  analyses::cost::Totals totals;
};

// Names of the model's ids, as modes alloc and copy name them.
class CostNames {
 public:
  explicit CostNames(const CostReport& r);
  // "java.lang.Object[] List.<init>(ListClient.java:3)"; "<site #N>" without a definition.
  std::string site(uint32_t site) const;
  // The site's name, then " @ slot K" (not with s = 1: one slot).
  std::string object(analyses::cost::Object o) const;
  // "ELM", "app.A.t" (owner.name).
  std::string field(uint32_t field) const;
  // "<object>.field", or a static field's name.
  std::string location(const analyses::cost::Location& l) const;
  // Where a program node is: "app.A.foo(A.java:10)" (its method and line).
  std::string code(const analyses::cost::NodeDef& d) const;
  // What a program node does: "putfield app.A.t", "new app.A", "predicate", ...
  std::string what(const analyses::cost::NodeDef& d) const;
  const profile::SiteDef* siteDef(uint32_t site) const;

 private:
  const CostReport& r_;
  std::unordered_map<uint32_t, const profile::SiteDef*> sites_;  // by site index
};

// "alloc", "load", "store", "loadStatic", "storeStatic", "compute", "assign", "predicate",
// "native" (the JSON's and the tables' node kinds).
const char* costNodeKind(analyses::cost::NodeKind k);

// The code behind a set of instances: one row per program node, with its instances and
// their summed frequencies; most frequent first (ties: node id).
struct CodeRow {
  uint32_t node = 0;
  uint32_t instances = 0;
  uint64_t freq = 0;
};
std::vector<CodeRow> codeRows(const analyses::cost::CostModel& m, std::span<const uint32_t> insts);

// The writers and readers of the locations `locations` (indices into the model's).
struct StructureCode {
  std::vector<CodeRow> writers, readers;
};
StructureCode structureCode(const analyses::cost::CostModel& m,
                            std::span<const uint32_t> locations);

// Indices into the model's locations ranked by RAC (byRab: by RAB) descending, then RAB
// (RAC) descending, then location order.
std::vector<uint32_t> locationsBy(const analyses::cost::CostModel& m, bool byRab);

// The model's options from `--opt` values (consumer-rab: 0.. (0: the rule off), height:
// 1..4); false with `error` for a bad value (Analysis::checkOptions).
bool costOptionsOf(const OptionValues& given, analyses::cost::Options& out, std::string& error);
bool checkCostOptions(const OptionValues& given, std::string& error);
// The option names and what they take (Analysis::options).
std::span<const ReportOption> costReportOptions();

struct CostTextOptions {
  size_t top = 20;        // rows per table
  size_t structures = 5;  // top structures shown with their fields and code
};

void writeCostText(std::ostream& out, const CostReport& r, const CostTextOptions& o);
// The text report's parts, which the shell shows one by one.
void writeCostSummary(std::ostream& out, const CostReport& r);  // heading, settings, totals
void writeCostSites(std::ostream& out, const CostReport& r, size_t top);
void writeCostObjects(std::ostream& out, const CostReport& r, size_t top, size_t detailed);
void writeCostLocations(std::ostream& out, const CostReport& r, bool byRab, size_t top);

struct CostJsonOptions {
  size_t top = 1000;  // rows per list (sites, structures, locations)
};

// The JSON report's header: format, completeness, settings, totals, graph, measures.
nlohmann::ordered_json costHeader(const CostReport& r);
// The JSON report: {"format": "dragnet-cost", ...} (docs/REPORTS.md, "cost json").
nlohmann::ordered_json costJson(const CostReport& r, const CostJsonOptions& o);
void writeCostJson(std::ostream& out, const CostReport& r, const CostJsonOptions& o);

struct CostHtmlOptions {
  size_t top = 20;     // rows per table shown before "Show all"
  size_t rows = 1000;  // rows embedded per list
};

// The HTML page's data (docs/REPORTS.md, "cost html"), JSON passed through scriptSafe.
std::string costHtmlData(const CostReport& r, const CostHtmlOptions& o);
// One self-contained page: src/analyses/cost/templates/page.{html,css,js} in the shared frame.
void writeCostHtml(std::ostream& out, const CostReport& r, const CostHtmlOptions& o);

}  // namespace dragnet::report
