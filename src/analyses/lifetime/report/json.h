// Pieces of the lifetime JSON report (json.cpp) that the lifetime HTML report's
// data (html.cpp) reuses, so both carry the same numbers in the same shape.
#pragma once

#include <nlohmann/json.hpp>

#include "analyses/lifetime/model/aggregate.h"

namespace dragnet::report::lifetime_json {

using Json = nlohmann::ordered_json;

// A space in exact decimal digits ("104800"): the doubles round above 2^53.
std::string exactDigits(analyses::lifetime::Space v);

// The counts and spaces of a group, into `j`: "objects", "lagged", "dragged", "void",
// "bytes", "space": {"total", "lag", "use", "drag", "void"}.
void putStats(Json& j, const analyses::lifetime::Stats& s);

// What a group's spaces mean in bytes held, into `j`: "dragSpace": space.drag split
// {"actionable", "belowPrecision", "untilExit"}, and "averageBytes" and "dragAverageBytes":
// each of those spaces / runLength (the bytes held on average over the run; the model's
// endTime). The JSON report has them for every group; the HTML page, whose data must stay
// small, for the totals (its script divides a group's spaces by the run length itself).
void putHeld(Json& j, const analyses::lifetime::Stats& s, uint64_t runLength);

// putStats's and putHeld's keys, then "percent": each phase's percentage of the total space,
// "dragPercent": each drag part's, "spaceExact" and "dragSpaceExact": the spaces in exact
// decimal digits (strings: the doubles round above 2^53), and "held" and "dragHeld": the
// averages as the text report writes them (heldText).
Json statsJson(const analyses::lifetime::Stats& s, uint64_t runLength);

// Average bytes held, readable: "512 bytes", "12.34 KB", "7.22 MB", "1.50 GB" (1 KB = 2^10).
std::string heldText(double averageBytes);

// "format", "version", "complete", "settings", "endTime", "precision", "totals"
// (statsJson) and every other number and note the text report's header prints: the text
// report renders its header from this object (report.cpp), the HTML page embeds it.
Json header(const analyses::lifetime::Model& m);

}  // namespace dragnet::report::lifetime_json
