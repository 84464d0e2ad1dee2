#include "report/diff.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <unordered_map>

#include "report/normal_names.h"
#include "report/text_format.h"

namespace dragnet::report {

namespace {

void addValues(std::vector<double>& row, const std::vector<double>& values) {
  if (row.size() < values.size()) row.resize(values.size());
  for (size_t i = 0; i < values.size(); ++i) row[i] += values[i];
}

// normalName of a frame, each distinct frame once: contexts repeat their callers' frames.
const std::string& normalFrame(const std::string& frame) {
  thread_local std::unordered_map<std::string, std::string> cache;
  auto it = cache.find(frame);
  if (it == cache.end()) it = cache.emplace(frame, normalName(frame)).first;
  return it->second;
}

Change changeOf(const DiffRow& r, size_t rank) {
  if (!r.inA) return Change::Appeared;
  if (!r.inB) return Change::Vanished;
  double d = r.delta(rank);
  return d > 0 ? Change::Grew : d < 0 ? Change::Shrank : Change::Same;
}

// A's and B's rows of one table paired by key, ranked.
TableDiff pairRows(const DiffTable& ta, const DiffTable& tb, size_t rank, const DiffOptions& o) {
  TableDiff t;
  t.table = &ta;
  t.rank = rank;
  size_t n = ta.measures.size();
  auto row = [&](const std::string& key) -> DiffRow& {
    if (t.rows.empty() || t.rows.back().key != key) {
      t.rows.push_back({key, std::vector<double>(n), std::vector<double>(n)});
    }
    return t.rows.back();
  };
  // Both maps are sorted: merge them.
  auto ia = ta.rows.begin(), ib = tb.rows.begin();
  while (ia != ta.rows.end() || ib != tb.rows.end()) {
    bool takeA = ib == tb.rows.end() || (ia != ta.rows.end() && ia->first <= ib->first);
    bool takeB = ia == ta.rows.end() || (ib != tb.rows.end() && ib->first <= ia->first);
    DiffRow& r = row(takeA ? ia->first : ib->first);
    if (takeA) {
      addValues(r.a, ia++->second);
      r.inA = true;
    }
    if (takeB) {
      addValues(r.b, ib++->second);
      r.inB = true;
    }
  }
  for (DiffRow& r : t.rows) {
    r.change = changeOf(r, rank);
    ++t.counts[static_cast<size_t>(r.change)];
  }
  std::erase_if(t.rows, [&](const DiffRow& r) {
    return r.change == Change::Same || std::fabs(r.delta(rank)) < o.minDelta;
  });
  // By the ranking measure's |delta|, then the other measures' in order, then key.
  std::sort(t.rows.begin(), t.rows.end(), [&](const DiffRow& x, const DiffRow& y) {
    double dx = std::fabs(x.delta(rank)), dy = std::fabs(y.delta(rank));
    if (dx != dy) return dx > dy;
    for (size_t m = 0; m < n; ++m) {
      dx = std::fabs(x.delta(m)), dy = std::fabs(y.delta(m));
      if (dx != dy) return dx > dy;
    }
    return x.key < y.key;
  });
  return t;
}

// The contexts of A and B merged into one tree, inclusive values of the first measure.
std::vector<FlameNode> mergeFlame(const DiffTable& ta, const DiffTable& tb) {
  std::vector<FlameNode> nodes(1);
  nodes[0].name = "all";
  std::map<std::pair<uint32_t, std::string>, uint32_t> child;
  auto add = [&](const DiffTable& t, bool isA) {
    for (const auto& [key, values] : t.rows) {
      double v = values.empty() ? 0 : values[0];
      uint32_t at = 0;
      (isA ? nodes[0].a : nodes[0].b) += v;
      for (std::string& frame : contextFrames(key)) {
        auto [it, added] = child.try_emplace({at, frame}, static_cast<uint32_t>(nodes.size()));
        if (added) {
          nodes.emplace_back();
          nodes.back().name = std::move(frame);
          nodes.back().parent = at;
          nodes[at].children.push_back(it->second);
        }
        at = it->second;
        (isA ? nodes[at].a : nodes[at].b) += v;
      }
    }
  };
  add(ta, true);
  add(tb, false);
  return nodes;
}

}  // namespace

void DiffTable::add(std::string_view key, const std::vector<double>& values) {
  if (!contexts) {
    addValues(rows[normalName(key)], values);
    return;
  }
  std::string normal;
  for (const std::string& f : contextFrames(std::string(key))) {
    if (!normal.empty()) normal += ';';
    normal += normalFrame(f);
  }
  addValues(rows[normal], values);
}

void DiffTable::addContext(const std::vector<std::string>& frames,
                           const std::vector<double>& values) {
  std::string key;
  for (const std::string& f : frames) {
    // A frame cannot hold the separator: Java names have no ';' in source spelling.
    std::string normal = normalFrame(f);
    std::replace(normal.begin(), normal.end(), ';', ',');
    if (!key.empty()) key += ';';
    key += normal;
  }
  addValues(rows[key], values);
}

std::vector<std::string> contextFrames(const std::string& key) {
  std::vector<std::string> frames;
  for (size_t at = 0;;) {
    size_t end = key.find(';', at);
    frames.push_back(key.substr(at, end - at));
    if (end == std::string::npos) return frames;
    at = end + 1;
  }
}

const char* changeName(Change c) {
  switch (c) {
    case Change::Grew:
      return "grew";
    case Change::Shrank:
      return "shrank";
    case Change::Appeared:
      return "appeared";
    case Change::Vanished:
      return "vanished";
    case Change::Same:
      break;
  }
  return "same";
}

namespace {

// "an alloc", "a lifetime".
std::string withArticle(const std::string& word) {
  bool vowel = !word.empty() && std::string_view("aeiou").find(word[0]) != std::string_view::npos;
  return (vowel ? "an " : "a ") + word;
}

}  // namespace

bool comparable(const DiffSide& a, const DiffSide& b, std::string& error) {
  if (a.mode != b.mode) {
    error = "A is " + withArticle(a.mode) + " profile and B " + withArticle(b.mode) +
            " profile: a diff compares two profiles of one mode";
    return false;
  }
  if (a.variant != b.variant) {
    error = "A is " + withArticle(a.variant) + " " + a.mode + " profile and B " +
            withArticle(b.variant) +
            " one: they count different things (docs/REPORTS.md); compare profiles recorded "
            "the same way";
    return false;
  }
  bool same = a.tables.size() == b.tables.size();
  for (size_t i = 0; same && i < a.tables.size(); ++i) {
    same = a.tables[i].id == b.tables[i].id && a.tables[i].measures == b.tables[i].measures;
  }
  if (!same) error = "the profiles' " + a.mode + " tables differ";
  return same;
}

bool diffSides(DiffSide a, DiffSide b, const DiffOptions& o, Diff& out, std::string& error) {
  if (!comparable(a, b, error)) return false;
  out.a = std::move(a);
  out.b = std::move(b);
  bool sorted = o.sort.empty();
  for (size_t i = 0; i < out.a.tables.size(); ++i) {
    const DiffTable& ta = out.a.tables[i];
    const auto& ms = ta.measures;
    size_t rank = std::find(ms.begin(), ms.end(), o.sort) - ms.begin();
    if (rank == ms.size()) {
      rank = 0;
    } else {
      sorted = true;
    }
    out.tables.push_back(pairRows(ta, out.b.tables[i], rank, o));
    if (ta.contexts && out.flame.empty()) {
      out.flameMeasure = ms.empty() ? "" : ms[0];
      out.flame = mergeFlame(ta, out.b.tables[i]);
    }
  }
  if (!sorted) {
    std::string all;
    for (const DiffTable& t : out.a.tables) {
      for (const std::string& m : t.measures) {
        if (all.find(" " + m + ",") == std::string::npos) all.append(" ").append(m).append(",");
      }
    }
    all.pop_back();
    error = "--sort " + o.sort + ": no " + out.a.mode + " table has that measure (" +
            all.substr(1) + ")";
    return false;
  }
  return true;
}

std::string percentText(double a, double b) {
  if (a == 0) return b == 0 ? "0%" : "new";
  if (b == 0) return "gone";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%+.1f%%", 100 * (b - a) / std::fabs(a));
  return buf;
}

std::string valueText(double v, bool sign) {
  if (std::fabs(v - std::round(v)) > 1e-9 && std::fabs(v) < 1e6) {
    // A ratio (cost-benefit rates) or an average.
    char buf[32];
    std::snprintf(buf, sizeof buf, sign ? "%+.2f" : "%.2f", v);
    return buf;
  }
  double r = std::round(std::fabs(v));
  std::string digits = r < 1.7e38 ? grouped(static_cast<unsigned __int128>(r)) : "inf";
  if (v < 0 && r > 0) return "-" + digits;
  return sign && r > 0 ? "+" + digits : digits;
}

}  // namespace dragnet::report
