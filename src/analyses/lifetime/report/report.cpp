#include "analyses/lifetime/report/report.h"

#include <cstdio>
#include <string>
#include <vector>

#include "analyses/lifetime/model/heap.h"
#include "analyses/lifetime/report/json.h"
#include "analyses/lifetime/report/text.h"
#include "analyses/lifetime/report/views.h"
#include "report/text_format.h"

namespace dragnet::report {

using analyses::lifetime::DragPart;
using analyses::lifetime::dragPartName;
using analyses::lifetime::kAllDragParts;
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

using Json = nlohmann::ordered_json;

uint64_t u64(const Json& v) { return v.get<uint64_t>(); }

void writePrecision(std::ostream& out, const Json& h) {
  const Json& pr = h.at("precision");
  out << "  precision    deaths known to within " << num(u64(pr.at("maxGap")))
      << " bytes (largest gap), " << bytes(pr.at("meanGap").get<double>()) << " on average, over "
      << num(u64(pr.at("freed"))) << " freed objects; " << num(u64(pr.at("aliveAtEnd")))
      << " objects alive at the end (they die at the end time"
      << (h.contains("liveAtFlush") ? ": the last flush before the JVM was killed; their drag "
                                      "after it is unknown)\n"
                                    : ")\n");
}

// The lines before the totals, every number from the JSON header (lifetime_json::header),
// so that the text cannot say what the JSON does not.
void writeHeader(std::ostream& out, const Json& h) {
  writeHeading(out, h, "lifetime");
  const Json& s = h.at("settings");
  const uint64_t sample = u64(s.at("sample")), gcInterval = u64(s.at("gcInterval"));
  out << "  time         " << num(u64(h.at("endTime")))
      << " bytes allocated (time is bytes allocated"
      << (sample ? ", estimated from the samples)\n" : ")\n");
  if (sample) out << "  sampled      " << lifetime_text::sampledNote(h) << "\n";
  out << "  gc interval  "
      << (gcInterval ? num(gcInterval) + " bytes" : std::string("not recorded")) << "; "
      << num(u64(h.at("precision").at("gcs"))) << " GCs, "
      << num(u64(h.at("precision").at("forcedGcs"))) << " forced";
  if (uint64_t budget = u64(s.at("gcBudget")); budget < 100) {
    out << "; budget " << budget << "% of the run: " << num(u64(s.at("gcDeferred")))
        << " thresholds passed over";
  }
  out << "\n";
  out << "  use epoch    " << num(u64(s.at("useEpoch")))
      << " bytes (a last use counts until the end of its epoch)\n";
  const uint64_t stack = u64(s.at("stack"));
  out << "  stack        " << (stack ? std::to_string(stack) + " frames" : std::string("unlimited"))
      << " per nested allocation site";
  if (!h.at("useContexts").get<bool>()) {
    out << "; places of uses not recorded (use-contexts=off): one pattern per site";
  }
  out << "\n";
  writePrecision(out, h);
  if (const Json& heap = h.at("javaHeap"); !heap.is_null()) {
    out << "  java heap    the agent keeps a phantom reference per tracked object, "
        << u64(heap.at("bytesPerObject")) << " bytes: " << num(u64(heap.at("peakObjects")))
        << " objects tracked at the peak, " << num(u64(heap.at("peakBytes"))) << " bytes\n";
  }
}

}  // namespace

namespace lifetime_text {

std::string sampledNote(const Json& h) {
  const uint64_t sample = u64(h.at("settings").at("sample"));
  if (sample == 0) return "";
  return "one object per ~" + num(sample) + " bytes allocated, " +
         num(u64(h.at("trackedObjects"))) +
         " tracked: counts and spaces are estimates (each object stands for the objects of its "
         "size the sampler skipped)" +
         leftOutSamplesNote(h.at("samplesLeftOut"));
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

const char* dragPartLabel(DragPart d) {
  static const char* const kLabels[] = {"actionable", "below precision", "until exit"};
  return kLabels[static_cast<size_t>(d)];
}

namespace {

// What a part of drag is, after "...% of the total space is ".
const char* dragPartMeaning(DragPart d) {
  static const char* const kMeanings[] = {
      "actionable drag (reachable at a forced GC after the last use)",
      "drag below the death precision (not told from 0 by the GCs)",
      "drag until exit (alive at the end, after the last GC that saw it)"};
  return kMeanings[static_cast<size_t>(d)];
}

// "  drag                279,960,715,184,768  36.92% of the total space is drag; 6.88 MB held
// on average": `label` and the exact space right-aligned to column 41, the share, `what` and
// the average.
void writeSpaceLine(std::ostream& out, const std::string& label, const std::string& exact,
                    double pct, const std::string& what, const std::string& held) {
  char line[160];
  std::snprintf(line, sizeof line, "  %-12s %*s %6.2f%%", label.c_str(),
                static_cast<int>(std::max<size_t>(1, 39 - std::max<size_t>(12, label.size()) - 1)),
                groupedDigits(exact).c_str(), pct);
  out << line << " of the total space is " << what << "; " << held << " held on average\n";
}

}  // namespace

void writeStats(std::ostream& out, const Json& t) {
  out << "  objects      " << num(u64(t.at("objects"))) << " (" << num(u64(t.at("bytes")))
      << " bytes): " << num(u64(t.at("lagged"))) << " lagged (unused through a forced GC), "
      << num(u64(t.at("dragged"))) << " dragged, " << num(u64(t.at("void"))) << " void\n";
  const Json& exact = t.at("spaceExact");
  const Json& held = t.at("held");
  out << "  total space  " << groupedDigits(exact.at("total").get<std::string>()) << "; "
      << held.at("total").get<std::string>() << " reachable on average\n";
  for (Phase p : kAllPhases) {
    const char* name = p == Phase::Use ? "in use" : phaseName(p);
    writeSpaceLine(out, name, exact.at(phaseName(p)).get<std::string>(),
                   t.at("percent").at(phaseName(p)).get<double>(), name,
                   held.at(phaseName(p)).get<std::string>());
    if (p != Phase::Drag) continue;
    for (DragPart d : kAllDragParts) {
      const char* key = dragPartName(d);
      writeSpaceLine(out, std::string("  ") + dragPartLabel(d),
                     t.at("dragSpaceExact").at(key).get<std::string>(),
                     t.at("dragPercent").at(key).get<double>(), dragPartMeaning(d),
                     t.at("dragHeld").at(key).get<std::string>());
    }
  }
}

void writeStats(std::ostream& out, const Stats& t, uint64_t runLength) {
  writeStats(out, lifetime_json::statsJson(t, runLength));
}

void writeSummary(std::ostream& out, const Model& m) {
  writeSummary(out, lifetime_json::header(m));
}

void writeSummary(std::ostream& out, const Json& h) {
  writeHeader(out, h);
  out << "\nTotals (space = bytes x time; time in bytes allocated)\n";
  writeStats(out, h.at("totals"));
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
  std::snprintf(head, sizeof head, "  %-6s %26s %11s %7s %10s %10s  ", "id",
                (std::string(phaseName(p)) + " space").c_str(), "avg held", "% all", countName(p),
                "objects");
  out << head << (sampled ? "samples  " : "") << column << "\n";
  for (const RankRow& row : rows) {
    const Stats& s = *row.stats;
    char line[160];
    std::snprintf(
        line, sizeof line, "  %-6u %26s %11s %s %10s %10s  ", row.id, grouped(s[p]).c_str(),
        lifetime_json::heldText(analyses::lifetime::averageBytes(s[p], m.endTime)).c_str(),
        percent(s[p], m.totals[p]).c_str(), num(s.count(p)).c_str(), num(s.objects).c_str());
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

// The nested sites' rows with their first application frames ("type at stack | frame").
std::vector<lt::RankRow> nestedAppRows(const Model& m, const std::vector<uint32_t>& indices,
                                       const LifetimeTextOptions& o) {
  std::vector<lt::RankRow> rows = lt::nestedRows(m, indices, o.frames);
  for (size_t i = 0; i < rows.size(); ++i) {
    rows[i].name += "  | " + lifetime_views::firstAppFrame(m, m.nested[indices[i]], o.views.app);
  }
  return rows;
}

void writeGroups(std::ostream& out, const Model& m, const LifetimeTextOptions& o) {
  using analyses::lifetime::rankBy;
  auto apps = lifetime_views::byFirstAppFrame(m, o.views.app);
  std::vector<analyses::lifetime::ClassGroup> appGroups;  // rankBy and groupRows take groups
  for (auto& [name, stats] : apps) {
    appGroups.push_back({static_cast<uint32_t>(appGroups.size() + 1), name, stats, {}});
  }
  for (Phase p : {Phase::Drag, Phase::Void, Phase::Lag}) {
    writeTable(out, m, "Classes", "class", p,
               lt::groupRows(m.classes, rankBy(m.classes, p, o.top)));
    writeTable(out, m, "Allocation sites", "method", p,
               lt::groupRows(m.methods, rankBy(m.methods, p, o.top)));
    writeTable(out, m, "Nested allocation sites", "type at stack  | first application frame", p,
               nestedAppRows(m, rankBy(m.nested, p, o.top), o));
    writeTable(out, m, "First application frames (not JDK, not --app-exclude)",
               "first application frame", p, lt::groupRows(appGroups, rankBy(appGroups, p, o.top)));
    if (p == Phase::Void) continue;  // void objects have no gets
    if (m.settings.useContexts) {
      writePatterns(out, m, p, o);
    } else if (p == Phase::Drag) {  // once: the patterns would only say "not recorded"
      out << "\n" << lt::kPatternsNotRecorded << "\n";
    }
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
  if (auto filter = lifetime_views::filterJson(m, o.views.filter); !filter.is_null()) {
    out << "  filter     " << filterNote(filter, "objects") << "\n";
  }
  writeGroups(out, m, o);
  writeHeap(out, m, o.heapRows);
  writeNotRewritten(out, *m.profile, o.top);
}

}  // namespace dragnet::report
