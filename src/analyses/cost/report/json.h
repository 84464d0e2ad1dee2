// The JSON lists of a cost report, which the JSON report and the HTML page's data share
// (docs/REPORTS.md, "cost json").
#pragma once

#include <cstddef>
#include <nlohmann/json.hpp>
#include <vector>

#include "analyses/cost/report/report.h"

namespace dragnet::report {

class CostJsonWriter {
 public:
  explicit CostJsonWriter(const CostReport& r);  // `r` must outlive it

  // {"site", "slot", "name"}.
  nlohmann::ordered_json object(analyses::cost::Object o) const;
  // [{"node", "kind", "what", "code", "line", "instances", "freq"}], at most `top`.
  nlohmann::ordered_json code(const std::vector<CodeRow>& rows, size_t top) const;
  // A location (index into the model's): {"id", "name", "static", "object", "field", "rac",
  // "rab", "rabMean", "consumed", "writers", "readers"}.
  nlohmann::ordered_json location(uint32_t index, size_t top) const;
  // The ranked allocation sites, structures (with their fields and code) and locations (by
  // RAC), at most `top` rows each.
  nlohmann::ordered_json sites(size_t top) const;
  nlohmann::ordered_json structures(size_t top) const;
  nlohmann::ordered_json locations(size_t top) const;

 private:
  const CostReport& r_;
  CostNames names_;
};

}  // namespace dragnet::report
