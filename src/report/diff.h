// `dragnet diff A B`: what grew, shrank, appeared and vanished between two profiles of one
// mode. Each analysis describes a profile as keyed tables (report/analysis.h, `diff`): per
// table a key (a site, a class, a method, a calling context, a chain...) with the mode's
// measures, the first of which ranks; names normalised (normal_names.h) so that two runs
// compare. This file pairs the rows of A and B, ranks them by absolute change and merges
// the calling contexts into one tree for the differential flame graph; diff_text.cpp,
// diff_json.cpp and diff_html.cpp write the result.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <ostream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace dragnet::report {

// One table of a profile: rows by key, each with one value per measure.
struct DiffTable {
  std::string id;       // "sites" (JSON key, HTML ids)
  std::string title;    // "Allocation sites"
  std::string keyName;  // what a key is: "site", "type", "chain" (text and HTML column)
  std::vector<std::string> measures;  // "bytes", "count": the first ranks the rows
  // The keys are calling contexts: frames root first joined by ';' (the collapsed-stack
  // format), the last frame what the context allocates or holds. Such a table is also the
  // flame graph's (by its first measure).
  bool contexts = false;
  std::map<std::string, std::vector<double>> rows = {};

  // Adds `values` to the row of `key` once normalised (normalName; frame by frame for a
  // context key); rows whose keys normalise alike are summed.
  void add(std::string_view key, const std::vector<double>& values);
  // The same for a context given as frames, root first.
  void addContext(const std::vector<std::string>& frames, const std::vector<double>& values);
};

// What an analysis makes of one profile.
struct DiffSide {
  std::string mode;     // "alloc"
  std::string variant;  // "exact" or "sampled": profiles of different variants do not compare
  std::string pid;
  std::vector<std::pair<std::string, double>> totals;  // the profile's totals, in order
  std::vector<DiffTable> tables;
};

struct DiffOptions {
  size_t top = 20;      // rows per table (text, html; JSON: all that pass min-delta)
  double minDelta = 0;  // rows whose ranking measure changed by less are left out
  std::string sort;     // the measure that ranks (empty: each table's first)
};

// The frames of a context key, root first.
std::vector<std::string> contextFrames(const std::string& key);

enum class Change { Grew, Shrank, Appeared, Vanished, Same };
const char* changeName(Change c);  // "grew", "shrank", "appeared", "vanished", "same"

struct DiffRow {
  std::string key;
  std::vector<double> a, b;  // per measure; 0 where the row is absent
  bool inA = false, inB = false;
  Change change = Change::Same;
  double delta(size_t measure) const { return b[measure] - a[measure]; }
};

struct TableDiff {
  const DiffTable* table = nullptr;  // A's (B's has the same id, title and measures)
  size_t rank = 0;                   // the measure that ranks
  std::vector<DiffRow> rows = {};    // by |delta| of `rank` descending, then the next
                                     // measures' |delta|, then key; only |delta| >= minDelta
  size_t counts[5] = {};             // rows per Change, before min-delta and top
};

// A node of the merged calling-context tree: the inclusive values of A and B.
struct FlameNode {
  std::string name;
  uint32_t parent = 0;
  double a = 0, b = 0;
  std::vector<uint32_t> children = {};
};

struct Diff {
  DiffSide a, b;
  std::string pathA, pathB;
  std::vector<TableDiff> tables;
  std::string flameMeasure;      // the contexts table's first measure ("" without one)
  std::vector<FlameNode> flame;  // node 0: the root ("all"); empty without a contexts table
};

// Whether A and B compare (same mode and variant, the same tables); false with `error`.
bool comparable(const DiffSide& a, const DiffSide& b, std::string& error);
// The diff of two comparable sides (the sides are moved into it). `error` for a `sort`
// that no table has.
bool diffSides(DiffSide a, DiffSide b, const DiffOptions& o, Diff& out, std::string& error);

// Percent change of b over a ("+12.5%"), "new" when a is 0 and b is not, "gone" when b is 0
// and a is not, "0%" when both are 0.
std::string percentText(double a, double b);
// A measure's value: grouped digits, rounded ("1,234,567"); with a sign for a delta.
std::string valueText(double v, bool sign = false);

void writeDiffText(std::ostream& out, const Diff& d, const DiffOptions& o);
nlohmann::ordered_json diffJson(const Diff& d, const DiffOptions& o, bool html);
void writeDiffJson(std::ostream& out, const Diff& d, const DiffOptions& o);
void writeDiffHtml(std::ostream& out, const Diff& d, const DiffOptions& o);

}  // namespace dragnet::report
