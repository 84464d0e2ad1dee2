// Pieces of the lifetime text report (report.cpp) that `dragnet shell`
// (shell.cpp) also shows on their own, so that both print the same numbers the
// same way.
#pragma once

#include <cstddef>
#include <nlohmann/json.hpp>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "analyses/lifetime/model/aggregate.h"

namespace dragnet::report::lifetime_text {

// The report's start: the header (settings, precision of deaths) and the totals, rendered
// from the JSON header (lifetime_json::header).
void writeSummary(std::ostream& out, const analyses::lifetime::Model& m);
// The same from the header alone: every number it prints is a value of the header.
void writeSummary(std::ostream& out, const nlohmann::ordered_json& header);

// What the header's "sampled" line says of a sampled profile ("one object per ~64 bytes
// allocated, 7 tracked: counts and spaces are estimates (...)"), from the JSON header
// (lifetime_json::header); "" for an exact one. The HTML report shows the same text.
std::string sampledNote(const nlohmann::ordered_json& header);

// The objects line, the total space and each phase's space with its share of `s.total` and
// the bytes it held on average over the run, then drag's three parts (the totals' lines;
// for a group its own), from lifetime_json::statsJson's object.
void writeStats(std::ostream& out, const nlohmann::ordered_json& stats);
void writeStats(std::ostream& out, const analyses::lifetime::Stats& s, uint64_t runLength);

// What the drag parts are called in text ("actionable", "below death precision", "until exit").
const char* dragPartLabel(analyses::lifetime::DragPart d);

// Frames joined innermost first: "a < b < c", at most `limit` (0: all) and then "< ...";
// "(not recorded)" when there are none.
std::string joined(const std::vector<std::string>& frames, size_t limit);

// "app.Point at app.Main.build(Main.java:10) < ..." (frames cut after `limit`, 0: all).
std::string nestedName(const analyses::lifetime::Model& m, const analyses::lifetime::NestedSite& s,
                       size_t limit);

// The line that stands for the lifetime patterns in a profile recorded without use contexts.
inline constexpr const char* kPatternsNotRecorded =
    "Lifetime patterns (first get, last get): not recorded in this profile; dragnet run --mode "
    "lifetime --use-contexts records where first and last gets happen (exact variant only)";

// "`title` by <phase> space": a ranking's heading.
std::string byPhase(std::string_view title, analyses::lifetime::Phase p);

// "lagged", "used", "dragged", "void": the objects with some time in the phase.
const char* countName(analyses::lifetime::Phase p);

// One row of a ranking table: a group's id, its stats and what names it.
struct RankRow {
  uint32_t id = 0;
  const analyses::lifetime::Stats* stats = nullptr;
  std::string name;
};
// Rows of classes or methods (a ClassGroup or MethodGroup vector) at `indices`.
template <class G>
std::vector<RankRow> groupRows(const std::vector<G>& groups, const std::vector<uint32_t>& indices) {
  std::vector<RankRow> rows;
  for (uint32_t i : indices) rows.push_back({groups[i].id, &groups[i].stats, groups[i].name});
  return rows;
}
std::vector<RankRow> nestedRows(const analyses::lifetime::Model& m,
                                const std::vector<uint32_t>& indices, size_t frames);

// A ranking table: the line `title`, then the column titles (the last one `column`) and a
// line per row with its space in phase p, the bytes that held on average over the run and
// that space's share of all of it; "  (none)" without rows.
void writeRanking(std::ostream& out, const analyses::lifetime::Model& m, std::string_view title,
                  std::string_view column, analyses::lifetime::Phase p,
                  const std::vector<RankRow>& rows);

// A nested site's line and its lifetime patterns ranked by phase p (at most `limit`), each
// with its first and last get stacks cut after `frames` (0: all).
void writeSitePatterns(std::ostream& out, const analyses::lifetime::Model& m,
                       const analyses::lifetime::NestedSite& s, analyses::lifetime::Phase p,
                       size_t limit, size_t frames);

}  // namespace dragnet::report::lifetime_text
