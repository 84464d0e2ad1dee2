// Pieces of the lifetime JSON report (json.cpp) that the lifetime HTML report's
// data (html.cpp) reuses, so both carry the same numbers in the same shape.
#pragma once

#include <nlohmann/json.hpp>

#include "analyses/lifetime/model/aggregate.h"

namespace dragnet::report::lifetime_json {

using Json = nlohmann::ordered_json;

// The counts and spaces of a group, into `j`: "objects", "lagged", "dragged", "void",
// "bytes", "space": {"total", "lag", "use", "drag", "void"}.
void putStats(Json& j, const analyses::lifetime::Stats& s);

// "format", "version", "complete", "settings", "endTime", "precision" and "totals" (with
// each phase's percentage of the total space).
Json header(const analyses::lifetime::Model& m);

}  // namespace dragnet::report::lifetime_json
