// Reports of a copy-mode profile (Xu et al. sec. 3): text (settings and totals, the flat
// and cumulative copy profiles with the copy concentration, then per naming the hot copy
// chains, the clone pairs, NATH and fan-out, the context conflict ratios and the cut
// flows) and JSON (the same, every list up to the model's kept rows; docs/REPORTS.md).
#pragma once

#include <cstddef>
#include <nlohmann/json.hpp>
#include <ostream>

#include "analyses/copy/model/model.h"

namespace dragnet::report {

struct CopyTextOptions {
  size_t top = 20;    // rows per table
  size_t frames = 4;  // frames of a context shown, innermost first (0: all)
};

void writeCopyText(std::ostream& out, const analyses::copy::Model& m, const CopyTextOptions& o);

struct CopyJsonOptions {
  size_t top = 1000;  // rows per list (methods, contexts, edges, chains, pairs, NATH)
};

// The JSON report's header: format, completeness, settings and totals.
nlohmann::ordered_json copyHeader(const analyses::copy::Model& m);
// The JSON report: {"format": "dragnet-copy", ...} (docs/REPORTS.md, "copy json").
nlohmann::ordered_json copyJson(const analyses::copy::Model& m, const CopyJsonOptions& o);
void writeCopyJson(std::ostream& out, const analyses::copy::Model& m, const CopyJsonOptions& o);

}  // namespace dragnet::report
