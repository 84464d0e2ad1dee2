// The cost oracles' expected files (tests/agent/cost/README.md, "Expected file format") and
// their check against the cost model of a run's profile: every record, and every in-scope
// node, reference edge, points-to fact and site listed. A failure names the record's file and
// line and what the model has instead.
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "analyses/cost/model/model.h"
#include "flow_names.h"
#include "profile/reader.h"

namespace dragnet::test::cost {

struct Record {
  int line = 0;
  std::string text;
  std::vector<std::string> tokens;
};

struct Expected {
  std::string file;                   // its name, for messages
  std::vector<std::string> programs;  // each `program` line's MAIN [ARG...]
  std::set<std::string> files;        // scope-files
  std::set<std::string> methods;      // scope-methods, BINARYCLASS.METHOD
  std::vector<Record> records;        // every other record
  std::vector<std::string> errors;    // malformed lines
};
Expected readExpected(const std::string& path);

// A run's two models (the consumer rule on with the default K, and off: `rab`, `nrab`) and
// the oracles' names for what they hold. Both models are built from the same input, so an
// instance, location or object has the same index in both.
class Run {
 public:
  explicit Run(const dragnet::profile::Profile& p);

  const dragnet::profile::Profile& profile;
  dragnet::analyses::cost::CostModel model;  // consumer-rab K (the default)
  dragnet::analyses::cost::CostModel plain;  // consumer-rab 0
  dragnet::test::flow::SiteLabels labels;
  std::vector<std::string> nodeNames;  // per def id: BINARYCLASS.METHOD@BCI
  std::vector<std::string> methods;    // per def id: BINARYCLASS.METHOD
  // Per node name, the graph's instances of the defs of that name (several defs share a
  // name only when a class is loaded twice), ascending.
  std::map<std::string, std::vector<uint32_t>> instances;

  // `SITE.NAME` (`SITE.ELM`), `static:BINARYCLASS.NAME` for a static field.
  std::string locationName(const dragnet::analyses::cost::Location& l) const;
  std::string fieldName(uint32_t field) const;  // simple name, `ELM`
  std::string siteLabel(uint32_t site) const { return labels.label(site); }
  std::string instanceName(uint32_t v) const;  // NODE, `[slot]` after it when not slot 0
};

// The failures of `e`'s records against `r` (empty: the file holds).
std::vector<std::string> check(const Expected& e, const Run& r);

// The in-scope values (nodes with kind, line, frequency, D/P class, AC, HRAC, HRAB; the
// in-scope sites' locations, reference edges, points-to facts, n-RAC/n-RAB and rank; IPD,
// IPP, NLD), one per line, sorted: for comparing two runs.
std::vector<std::string> scopedValues(const Expected& e, const Run& r);

// The in-scope nodes and their instances, the edges with an in-scope end, and the locations
// of in-scope sites, with their values: for finding out why a run differs from its file.
std::string dump(const Expected& e, const Run& r);

}  // namespace dragnet::test::cost
