// `dragnet diff`'s JSON (docs/REPORTS.md, "diff json"), which the HTML page also embeds.
#include <algorithm>
#include <cmath>

#include "report/diff.h"
#include "report/json_text.h"

namespace dragnet::report {
namespace {

using Json = nlohmann::ordered_json;

// Rows embedded per table in the HTML page, and the flame graph's nodes.
constexpr size_t kHtmlRows = 1000;
constexpr size_t kFlameNodes = 20000;
// A node narrower than this share of the wider side's total is left out of the graph.
constexpr double kFlameMinShare = 1e-4;

// Percent change (null: no A value to compare with).
Json percent(double a, double b) {
  if (a == 0) return nullptr;
  return 100 * (b - a) / std::fabs(a);
}

Json values(const std::vector<double>& v) {
  Json j = Json::array();
  for (double x : v) j.push_back(x);
  return j;
}

Json tableJson(const TableDiff& t, size_t rows) {
  const DiffTable& table = *t.table;
  Json counts;
  for (Change c : {Change::Grew, Change::Shrank, Change::Appeared, Change::Vanished}) {
    counts[changeName(c)] = t.counts[static_cast<size_t>(c)];
  }
  Json list = Json::array();
  for (size_t n = 0; n < t.rows.size() && n < rows; ++n) {
    const DiffRow& r = t.rows[n];
    std::vector<double> delta(r.a.size());
    for (size_t i = 0; i < delta.size(); ++i) delta[i] = r.delta(i);
    list.push_back({{"key", r.key},
                    {"change", changeName(r.change)},
                    {"a", values(r.a)},
                    {"b", values(r.b)},
                    {"delta", values(delta)},
                    {"percent", percent(r.a[t.rank], r.b[t.rank])}});
  }
  return {{"id", table.id},
          {"title", table.title},
          {"keyName", table.keyName},
          {"measures", table.measures},
          {"rankedBy", table.measures[t.rank]},
          {"contexts", table.contexts},
          {"counts", std::move(counts)},
          {"rowsChanged", t.rows.size()},
          {"rows", std::move(list)}};
}

// The merged tree as [name, parent index, a, b] rows, parents first: the nodes at least
// kFlameMinShare of the larger total wide, widest first within a parent, at most
// kFlameNodes.
Json flameJson(const Diff& d) {
  Json nodes = Json::array();
  if (d.flame.empty()) return nodes;
  double min = kFlameMinShare * std::max(std::fabs(d.flame[0].a), std::fabs(d.flame[0].b));
  std::vector<std::pair<uint32_t, uint32_t>> queue = {{0, 0}};  // (node, parent's row)
  for (size_t q = 0; q < queue.size() && nodes.size() < kFlameNodes; ++q) {
    auto [n, parent] = queue[q];
    const FlameNode& f = d.flame[n];
    uint32_t row = static_cast<uint32_t>(nodes.size());
    nodes.push_back({f.name, parent, f.a, f.b});
    std::vector<uint32_t> kids = f.children;
    std::sort(kids.begin(), kids.end(), [&](uint32_t x, uint32_t y) {
      return std::max(d.flame[x].a, d.flame[x].b) > std::max(d.flame[y].a, d.flame[y].b);
    });
    for (uint32_t k : kids) {
      if (std::max(std::fabs(d.flame[k].a), std::fabs(d.flame[k].b)) >= min) {
        queue.push_back({k, row});
      }
    }
  }
  return nodes;
}

Json sideJson(const DiffSide& s, const std::string& path) {
  return {{"path", path}, {"pid", s.pid.empty() ? Json(nullptr) : Json(s.pid)}};
}

}  // namespace

Json diffJson(const Diff& d, const DiffOptions& o, bool html) {
  Json j;
  j["format"] = html ? "dragnet-diff-html" : "dragnet-diff";
  j["version"] = 1;
  j["mode"] = d.a.mode;
  j["variant"] = d.a.variant;
  j["a"] = sideJson(d.a, d.pathA);
  j["b"] = sideJson(d.b, d.pathB);
  j["minDelta"] = o.minDelta;
  Json totals = Json::array();
  for (size_t i = 0; i < d.a.totals.size() && i < d.b.totals.size(); ++i) {
    double a = d.a.totals[i].second, b = d.b.totals[i].second;
    totals.push_back({{"measure", d.a.totals[i].first},
                      {"a", a},
                      {"b", b},
                      {"delta", b - a},
                      {"percent", percent(a, b)}});
  }
  j["totals"] = std::move(totals);
  Json tables = Json::array();
  for (const TableDiff& t : d.tables) {
    tables.push_back(tableJson(t, html ? kHtmlRows : t.rows.size()));
  }
  j["tables"] = std::move(tables);
  if (html) {
    j["top"] = o.top;
    j["flame"] = {{"measure", d.flameMeasure}, {"nodes", flameJson(d)}};
  }
  return j;
}

void writeDiffJson(std::ostream& out, const Diff& d, const DiffOptions& o) {
  out << jsonText(diffJson(d, o, false), 1) << "\n";
}

}  // namespace dragnet::report
