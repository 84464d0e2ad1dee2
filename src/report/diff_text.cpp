// `dragnet diff`'s text: the totals, then per table the rows that changed most.
#include <algorithm>

#include "report/diff.h"

namespace dragnet::report {
namespace {

// A context key innermost frame first, at most `frames` of them: "byte[] < app.Main.f(...)
// < ...".
std::string contextText(const std::string& key, size_t frames) {
  std::vector<std::string> f = contextFrames(key);
  std::string out;
  for (size_t shown = 0; shown < f.size(); ++shown) {
    if (shown == frames) return out + " < ...";
    out += (shown ? " < " : "") + f[f.size() - 1 - shown];
  }
  return out;
}

// Rows of cells written in columns: the first `leftAligned` columns padded on the right,
// the others on the left, the last column as it is.
void writeColumns(std::ostream& out, const std::vector<std::vector<std::string>>& rows,
                  size_t leftAligned) {
  std::vector<size_t> width;
  for (const auto& r : rows) {
    width.resize(std::max(width.size(), r.size()));
    for (size_t c = 0; c + 1 < r.size(); ++c) width[c] = std::max(width[c], r[c].size());
  }
  for (const auto& r : rows) {
    out << " ";
    for (size_t c = 0; c < r.size(); ++c) {
      std::string pad(c + 1 < r.size() ? width[c] - r[c].size() : 0, ' ');
      out << " " << (c < leftAligned || c + 1 == r.size() ? r[c] + pad : pad + r[c]);
    }
    out << "\n";
  }
}

void writeTotals(std::ostream& out, const Diff& d) {
  out << "Totals\n";
  std::vector<std::vector<std::string>> rows = {{"", "A", "B", "delta", "%"}};
  for (size_t i = 0; i < d.a.totals.size() && i < d.b.totals.size(); ++i) {
    double a = d.a.totals[i].second, b = d.b.totals[i].second;
    rows.push_back({d.a.totals[i].first, valueText(a), valueText(b), valueText(b - a, true),
                    percentText(a, b)});
  }
  writeColumns(out, rows, 1);
}

void writeTable(std::ostream& out, const TableDiff& t, const DiffOptions& o) {
  const DiffTable& table = *t.table;
  const std::string& m = table.measures[t.rank];
  out << "\n" << table.title << " by |delta " << m << "|: ";
  for (Change c : {Change::Grew, Change::Shrank, Change::Appeared, Change::Vanished}) {
    out << (c == Change::Grew ? "" : ", ") << t.counts[static_cast<size_t>(c)] << " "
        << changeName(c);
  }
  out << "\n";
  if (t.rows.empty()) {
    out << "  (no change" << (o.minDelta > 0 ? " of at least the minimum delta" : "") << ")\n";
    return;
  }
  std::vector<std::string> head = {"change", "A " + m, "B " + m, "delta " + m, "%"};
  for (size_t i = 0; i < table.measures.size(); ++i) {
    if (i != t.rank) head.push_back("delta " + table.measures[i]);
  }
  head.push_back(table.contexts ? table.keyName + ", innermost frame first" : table.keyName);
  std::vector<std::vector<std::string>> rows = {head};
  for (size_t n = 0; n < t.rows.size() && n < o.top; ++n) {
    const DiffRow& r = t.rows[n];
    std::vector<std::string> cells = {changeName(r.change), valueText(r.a[t.rank]),
                                      valueText(r.b[t.rank]), valueText(r.delta(t.rank), true),
                                      percentText(r.a[t.rank], r.b[t.rank])};
    for (size_t i = 0; i < table.measures.size(); ++i) {
      if (i != t.rank) cells.push_back(valueText(r.delta(i), true));
    }
    cells.push_back(table.contexts ? contextText(r.key, 6) : r.key);
    rows.push_back(std::move(cells));
  }
  writeColumns(out, rows, 1);
  if (t.rows.size() > o.top) out << "  ... " << t.rows.size() - o.top << " more (--top)\n";
}

}  // namespace

void writeDiffText(std::ostream& out, const Diff& d, const DiffOptions& o) {
  out << "dragnet diff: " << d.a.mode << " profiles (" << d.a.variant << ")\n"
      << "  A: " << d.pathA << (d.a.pid.empty() ? "" : " (pid " + d.a.pid + ")") << "\n"
      << "  B: " << d.pathB << (d.b.pid.empty() ? "" : " (pid " + d.b.pid + ")") << "\n\n";
  writeTotals(out, d);
  for (const TableDiff& t : d.tables) writeTable(out, t, o);
}

}  // namespace dragnet::report
