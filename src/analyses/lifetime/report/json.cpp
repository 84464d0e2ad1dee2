// The JSON report of a lifetime profile (docs/REPORTS.md, "lifetime json"). Spaces (byte x
// byte) can exceed 2^64 and are written as doubles.
#include "analyses/lifetime/report/json.h"

#include <algorithm>
#include <cstdio>
#include <iterator>

#include "analyses/lifetime/model/heap.h"
#include "analyses/lifetime/report/report.h"
#include "analyses/lifetime/report/views.h"
#include "report/coverage.h"
#include "report/json_text.h"
#include "report/text_format.h"

namespace dragnet::report {

using analyses::lifetime::averageBytes;
using analyses::lifetime::DragPart;
using analyses::lifetime::dragPartName;
using analyses::lifetime::kAllDragParts;
using analyses::lifetime::kAllPhases;
using analyses::lifetime::Model;
using analyses::lifetime::Phase;
using analyses::lifetime::phaseName;
using analyses::lifetime::Space;
using analyses::lifetime::Stats;
using analyses::lifetime::toDouble;
using lifetime_json::exactDigits;
using lifetime_json::Json;
using lifetime_json::putHeld;
using lifetime_json::putStats;

std::string lifetime_json::exactDigits(Space v) {
  std::string d;
  do {
    d.insert(d.begin(), static_cast<char>('0' + static_cast<int>(v % 10)));
    v /= 10;
  } while (v);
  return d;
}

namespace {

// {"total", "lag", "use", "drag", "void"} of f(space), and the drag parts of f(drag space).
template <class F>
std::pair<Json, Json> bySpace(const Stats& s, F f) {
  Json phases, parts;
  phases["total"] = f(s.total);
  for (Phase p : kAllPhases) phases[phaseName(p)] = f(s[p]);
  for (DragPart d : kAllDragParts) parts[dragPartName(d)] = f(s[d]);
  return {std::move(phases), std::move(parts)};
}

}  // namespace

void lifetime_json::putStats(Json& j, const Stats& s) {
  j["objects"] = s.objects;
  j["records"] = s.records;
  j["lagged"] = s.lagged;
  j["dragged"] = s.dragged;
  j["void"] = s.voids;
  j["bytes"] = s.bytes;
  j["space"] = bySpace(s, toDouble).first;
}

void lifetime_json::putHeld(Json& j, const Stats& s, uint64_t runLength) {
  j["dragSpace"] = bySpace(s, toDouble).second;
  auto [average, dragAverage] = bySpace(s, [&](Space v) { return averageBytes(v, runLength); });
  j["averageBytes"] = std::move(average);
  j["dragAverageBytes"] = std::move(dragAverage);
}

Json lifetime_json::statsJson(const Stats& s, uint64_t runLength) {
  Json j;
  putStats(j, s);
  putHeld(j, s, runLength);
  auto [pct, dragPct] = bySpace(s, [&](Space v) { return Stats::percent(v, s.total); });
  pct.erase("total");
  j["percent"] = std::move(pct);
  j["dragPercent"] = std::move(dragPct);
  auto [exact, dragExact] = bySpace(s, exactDigits);
  j["spaceExact"] = std::move(exact);
  j["dragSpaceExact"] = std::move(dragExact);
  auto [held, dragHeld] =
      bySpace(s, [&](Space v) { return lifetime_json::heldText(averageBytes(v, runLength)); });
  j["held"] = std::move(held);
  j["dragHeld"] = std::move(dragHeld);
  return j;
}

std::string lifetime_json::heldText(double v) {
  if (v < 1024) return grouped(static_cast<uint64_t>(std::max(0.0, v) + 0.5)) + " bytes";
  const char* units[] = {"KB", "MB", "GB", "TB"};
  size_t u = 0;
  for (v /= 1024; v >= 1024 && u + 1 < std::size(units); ++u) v /= 1024;
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f %s", v, units[u]);
  return buf;
}

Json lifetime_json::header(const Model& m) {
  Json j = jsonHead(*m.profile, "dragnet-lifetime");
  if (m.profile->liveAtFlush > 0) {
    j["liveAtFlush"] = {{"objects", m.profile->liveAtFlush}, {"time", m.profile->liveTime}};
  }
  j["settings"] = {{"useEpoch", m.settings.useEpoch}, {"gcInterval", m.settings.gcInterval},
                   {"gcBudget", m.settings.gcBudget}, {"gcDeferred", m.settings.gcDeferred},
                   {"stack", m.settings.stack},       {"sample", m.settings.sample}};
  // use-contexts=off: the places of uses were not recorded (one pattern per site).
  auto stacks = m.profile->meta.find("stacks");
  j["useContexts"] = stacks == m.profile->meta.end() || stacks->second != "off";
  j["trackedObjects"] = profile::objectCount(*m.profile);
  j["samplesLeftOut"] = leftOutSamplesJson(*m.profile);
  j["endTime"] = m.endTime;
  const auto& pr = m.precision;
  j["precision"] = {{"maxGap", pr.maxGap}, {"meanGap", pr.meanGap},
                    {"freed", pr.freed},   {"aliveAtEnd", pr.aliveAtEnd},
                    {"gcs", pr.gcs},       {"forcedGcs", pr.forcedGcs}};
  // The exact mode's Java heap per tracked object (the sampled mode tags objects instead).
  if (m.settings.sample == 0) {
    uint64_t peak = analyses::lifetime::peakObjects(m);
    j["javaHeap"] = {{"bytesPerObject", analyses::lifetime::kRefHeapBytes},
                     {"peakObjects", peak},
                     {"peakBytes", peak * analyses::lifetime::kRefHeapBytes}};
  } else {
    j["javaHeap"] = nullptr;
  }
  j["totals"] = statsJson(m.totals, m.endTime);
  j["hiddenClasses"] = hiddenClassesJson(*m.profile);
  return j;
}

namespace {

Json ids(const std::vector<uint32_t>& indices) {
  Json a = Json::array();
  for (uint32_t i : indices) a.push_back(i + 1);
  return a;
}

Json classes(const Model& m) {
  Json a = Json::array();
  for (const auto& c : m.classes) {
    Json j{{"id", c.id}, {"name", c.name}};
    putStats(j, c.stats);
    putHeld(j, c.stats, m.endTime);
    j["nested"] = ids(c.nested);
    a.push_back(std::move(j));
  }
  return a;
}

Json methods(const Model& m) {
  Json a = Json::array();
  for (const auto& g : m.methods) {
    Json j{{"id", g.id}, {"name", g.name}};
    auto def = m.profile->methods.find(g.methodId);
    if (def != m.profile->methods.end()) j["descriptor"] = def->second.descriptor;
    putStats(j, g.stats);
    putHeld(j, g.stats, m.endTime);
    j["nested"] = ids(g.nested);
    a.push_back(std::move(j));
  }
  return a;
}

Json patterns(const Model& m, const analyses::lifetime::NestedSite& s) {
  Json a = Json::array();
  for (const auto& pat : s.patterns) {
    Json j{{"id", pat.id},
           {"firstGet", analyses::lifetime::pathFrames(m, pat.firstGet)},
           {"lastGet", analyses::lifetime::pathFrames(m, pat.lastGet)},
           {"representative", pat.representative}};
    putStats(j, pat.stats);
    putHeld(j, pat.stats, m.endTime);
    a.push_back(std::move(j));
  }
  return a;
}

Json nested(const Model& m, const AppFrames& app) {
  Json a = Json::array();
  for (const auto& s : m.nested) {
    Json j{{"id", s.id},
           {"type", analyses::lifetime::typeOf(m, s)},
           {"class", s.cls + 1},
           {"method", s.method + 1},
           {"frames", analyses::lifetime::nestedFrames(m, s)},
           {"firstAppFrame", lifetime_views::firstAppFrame(m, s, app)}};
    putStats(j, s.stats);
    putHeld(j, s.stats, m.endTime);
    j["patterns"] = patterns(m, s);
    a.push_back(std::move(j));
  }
  return a;
}

Json heap(const Model& m, size_t buckets) {
  Json a = Json::array();
  for (const auto& b : heapOverTime(m, buckets)) {
    Json j{{"start", b.start}, {"end", b.end}};
    for (Phase p : kAllPhases) j[phaseName(p)] = b.average(p);
    a.push_back(std::move(j));
  }
  return a;
}

Json gcs(const Model& m) {
  Json a = Json::array();
  for (const auto& h : heapAtGcs(m)) {
    Json j{{"gc", h.gc}, {"time", h.time}, {"forced", h.forced}};
    for (Phase p : kAllPhases) j[phaseName(p)] = h.bytes[static_cast<size_t>(p)];
    a.push_back(std::move(j));
  }
  return a;
}

}  // namespace

void writeLifetimeJson(std::ostream& out, const Model& m, const LifetimeJsonOptions& o) {
  Json j = lifetime_json::header(m);
  j["filter"] = lifetime_views::filterJson(m, o.views.filter);
  j["appExclude"] = o.views.app.prefixes;
  j["classes"] = classes(m);
  j["methods"] = methods(m);
  j["nested"] = nested(m, o.views.app);
  Json& apps = j["byFirstAppFrame"] = Json::array();
  for (const auto& [frame, stats] : lifetime_views::byFirstAppFrame(m, o.views.app)) {
    Json row{{"frame", frame}};
    putStats(row, stats);
    putHeld(row, stats, m.endTime);
    apps.push_back(std::move(row));
  }
  j["heap"] = heap(m, o.heapBuckets);
  j["gcs"] = gcs(m);
  out << jsonText(j, 1) << "\n";
}

}  // namespace dragnet::report
