#include "analyses/lifetime/report/report.h"

#include <cstdio>
#include <string>
#include <vector>

#include "analyses/lifetime/model/heap.h"
#include "analyses/lifetime/report/text.h"
#include "report/text_format.h"

namespace dragnet::report {

using analyses::lifetime::kAllPhases;
using analyses::lifetime::Model;
using analyses::lifetime::NestedSite;
using analyses::lifetime::Pattern;
using analyses::lifetime::Phase;
using analyses::lifetime::phaseName;
using analyses::lifetime::Space;
using analyses::lifetime::Stats;

namespace {

std::string num(uint64_t v) { return grouped(v); }

// "12.34%", padded to 7 characters for tables.
std::string percent(Space part, Space whole, bool padded = true) {
  char buf[32];
  std::snprintf(buf, sizeof buf, padded ? "%6.2f%%" : "%.2f%%", Stats::percent(part, whole));
  return buf;
}

// Average bytes, rounded: "12,345".
std::string bytes(double v) { return v <= 0 ? "0" : num(static_cast<uint64_t>(v + 0.5)); }

void writePrecision(std::ostream& out, const Model& m) {
  const auto& pr = m.precision;
  out << "  precision    deaths known to within " << num(pr.maxGap) << " bytes (largest gap), "
      << bytes(pr.meanGap) << " on average, over " << num(pr.freed) << " freed objects; "
      << num(pr.aliveAtEnd) << " objects alive at the end (they die at the end time"
      << (m.profile->liveAtFlush > 0 ? ": the last flush before the JVM was killed; their drag "
                                       "after it is unknown)\n"
                                     : ")\n");
}

void writeHeader(std::ostream& out, const Model& m) {
  const profile::Profile& p = *m.profile;
  writeHeading(out, p, "lifetime");
  const auto& s = m.settings;
  out << "  time         " << num(m.endTime) << " bytes allocated (time is bytes allocated"
      << (s.sample ? ", estimated from the samples)\n" : ")\n");
  if (s.sample) out << "  sampled      " << lifetime_text::sampledNote(m) << "\n";
  out << "  gc interval  "
      << (s.gcInterval ? num(s.gcInterval) + " bytes" : std::string("not recorded")) << "; "
      << num(m.precision.gcs) << " GCs, " << num(m.precision.forcedGcs) << " forced";
  if (s.gcBudget < 100) {
    out << "; budget " << s.gcBudget << "% of the run: " << num(s.gcDeferred)
        << " thresholds passed over";
  }
  out << "\n";
  out << "  use epoch    " << num(s.useEpoch)
      << " bytes (a last use counts until the end of its epoch)\n";
  out << "  stack        "
      << (s.stack ? std::to_string(s.stack) + " frames" : std::string("unlimited"))
      << " per nested allocation site";
  if (auto it = p.meta.find("stacks"); it != p.meta.end() && it->second == "off") {
    out << "; places of uses not recorded (use-contexts=off): one pattern per site";
  }
  out << "\n";
  writePrecision(out, m);
  if (s.sample == 0) {
    uint64_t peak = analyses::lifetime::peakObjects(m);
    out << "  java heap    the agent keeps a phantom reference per tracked object, "
        << analyses::lifetime::kRefHeapBytes << " bytes: " << num(peak)
        << " objects tracked at the peak, " << num(peak * analyses::lifetime::kRefHeapBytes)
        << " bytes\n";
  }
}

}  // namespace

namespace lifetime_text {

std::string sampledNote(const Model& m) {
  if (m.settings.sample == 0) return "";
  return "one object per ~" + num(m.settings.sample) + " bytes allocated, " +
         num(m.profile->objects.size()) +
         " tracked: counts and spaces are estimates (each object stands for the objects of its "
         "size the sampler skipped)" +
         leftOutSamplesNote(*m.profile);
}

std::string joined(const std::vector<std::string>& frames, size_t limit) {
  if (frames.empty()) return "(not recorded)";
  std::string s;
  for (size_t i = 0; i < frames.size(); ++i) {
    if (i > 0) s += " < ";
    if (limit != 0 && i == limit) return s += "...";
    s += frames[i];
  }
  return s;
}

std::string nestedName(const Model& m, const NestedSite& s, size_t limit) {
  std::string name = analyses::lifetime::typeOf(m, s);
  name += " at ";
  name += joined(analyses::lifetime::nestedFrames(m, s), limit);
  return name;
}

const char* countName(Phase p) {
  switch (p) {
    case Phase::Lag:
      return "lagged";
    case Phase::Use:
      return "used";
    case Phase::Drag:
      return "dragged";
    case Phase::Void:
      return "void";
  }
  return "";
}

void writeStats(std::ostream& out, const Stats& t) {
  out << "  objects      " << num(t.objects) << " (" << num(t.bytes) << " bytes): " << num(t.lagged)
      << " lagged, " << num(t.dragged) << " dragged, " << num(t.voids) << " void\n";
  out << "  total space  " << grouped(t.total) << "\n";
  for (Phase p : kAllPhases) {
    char label[16];
    std::snprintf(label, sizeof label, "%-12s", p == Phase::Use ? "in use" : phaseName(p));
    char line[96];
    std::snprintf(line, sizeof line, "  %s %26s %s", label, grouped(t[p]).c_str(),
                  percent(t[p], t.total).c_str());
    out << line << " of the total space is " << (p == Phase::Use ? "in use" : phaseName(p)) << "\n";
  }
}

void writeSummary(std::ostream& out, const Model& m) {
  writeHeader(out, m);
  out << "\nTotals (space = bytes x time; time in bytes allocated)\n";
  writeStats(out, m.totals);
}

std::string byPhase(std::string_view title, Phase p) {
  return std::string(title) + " by " + phaseName(p) + " space";
}

std::vector<RankRow> nestedRows(const Model& m, const std::vector<uint32_t>& indices,
                                size_t frames) {
  std::vector<RankRow> rows;
  for (uint32_t i : indices) {
    const NestedSite& s = m.nested[i];
    rows.push_back({s.id, &s.stats, nestedName(m, s, frames)});
  }
  return rows;
}

void writeRanking(std::ostream& out, const Model& m, std::string_view title,
                  std::string_view column, Phase p, const std::vector<RankRow>& rows) {
  out << title << "\n";
  if (rows.empty()) {
    out << "  (none)\n";
    return;
  }
  // A sampled profile's rows also say how many samples each estimate rests on.
  const bool sampled = m.settings.sample != 0;
  char head[128];
  std::snprintf(head, sizeof head, "  %-6s %26s %7s %10s %10s  ", "id",
                (std::string(phaseName(p)) + " space").c_str(), "% all", countName(p), "objects");
  out << head << (sampled ? "samples  " : "") << column << "\n";
  for (const RankRow& row : rows) {
    const Stats& s = *row.stats;
    char line[160];
    std::snprintf(line, sizeof line, "  %-6u %26s %s %10s %10s  ", row.id, grouped(s[p]).c_str(),
                  percent(s[p], m.totals[p]).c_str(), num(s.count(p)).c_str(),
                  num(s.objects).c_str());
    out << line;
    if (sampled) {
      std::snprintf(line, sizeof line, "%7s  ", num(s.records).c_str());
      out << line;
    }
    out << row.name << "\n";
  }
}

void writeSitePatterns(std::ostream& out, const Model& m, const NestedSite& s, Phase p,
                       size_t limit, size_t frames) {
  out << "  nested " << s.id << ": " << nestedName(m, s, frames) << "\n";
  for (uint32_t pi : analyses::lifetime::rankBy(s.patterns, p, limit)) {
    const Pattern& pat = s.patterns[pi];
    out << "    pattern " << pat.id << ": " << grouped(pat.stats[p]) << " " << phaseName(p)
        << " space (" << percent(pat.stats[p], s.stats[p], false) << " of the site's), "
        << num(pat.stats.objects) << " objects, " << num(pat.stats.count(p)) << " " << countName(p)
        << ", e.g. object " << pat.representative << "\n"
        << "      first get  " << joined(analyses::lifetime::pathFrames(m, pat.firstGet), frames)
        << "\n"
        << "      last get   " << joined(analyses::lifetime::pathFrames(m, pat.lastGet), frames)
        << "\n";
  }
}

}  // namespace lifetime_text

namespace {

namespace lt = lifetime_text;

// One table of the report: the top groups by a phase's space.
void writeTable(std::ostream& out, const Model& m, const char* table, const char* column, Phase p,
                const std::vector<lt::RankRow>& rows) {
  out << "\n";
  lt::writeRanking(out, m, lt::byPhase(table, p), column, p, rows);
}

void writePatterns(std::ostream& out, const Model& m, Phase p, const LifetimeTextOptions& o) {
  std::vector<uint32_t> sites = analyses::lifetime::rankBy(m.nested, p, o.patternSites);
  if (sites.empty()) return;
  out << "\nLifetime patterns (first get, last get) of the top nested sites by " << phaseName(p)
      << "\n";
  for (uint32_t si : sites) lt::writeSitePatterns(out, m, m.nested[si], p, o.patterns, o.frames);
}

void writeGroups(std::ostream& out, const Model& m, const LifetimeTextOptions& o) {
  using analyses::lifetime::rankBy;
  for (Phase p : {Phase::Drag, Phase::Void, Phase::Lag}) {
    writeTable(out, m, "Classes", "class", p,
               lt::groupRows(m.classes, rankBy(m.classes, p, o.top)));
    writeTable(out, m, "Allocation sites", "method", p,
               lt::groupRows(m.methods, rankBy(m.methods, p, o.top)));
    writeTable(out, m, "Nested allocation sites", "type at stack", p,
               lt::nestedRows(m, rankBy(m.nested, p, o.top), o.frames));
    if (p != Phase::Void) writePatterns(out, m, p, o);  // void objects have no gets
  }
}

void writeHeap(std::ostream& out, const Model& m, size_t rows) {
  std::vector<analyses::lifetime::HeapBucket> buckets = heapOverTime(m, rows);
  if (buckets.empty()) return;
  out << "\nReachable heap over time (average bytes in each interval)\n";
  char line[160];
  std::snprintf(line, sizeof line, "  %16s %16s %14s %14s %14s %14s\n", "from", "to", "in use",
                "lag", "drag", "void");
  out << line;
  for (const auto& b : buckets) {
    std::snprintf(line, sizeof line, "  %16s %16s %14s %14s %14s %14s\n", num(b.start).c_str(),
                  num(b.end).c_str(), bytes(b.average(Phase::Use)).c_str(),
                  bytes(b.average(Phase::Lag)).c_str(), bytes(b.average(Phase::Drag)).c_str(),
                  bytes(b.average(Phase::Void)).c_str());
    out << line;
  }
}

}  // namespace

void writeLifetimeText(std::ostream& out, const Model& m, const LifetimeTextOptions& o) {
  lifetime_text::writeSummary(out, m);
  writeGroups(out, m, o);
  writeHeap(out, m, o.heapRows);
  writeNotRewritten(out, *m.profile, o.top);
}

}  // namespace dragnet::report
