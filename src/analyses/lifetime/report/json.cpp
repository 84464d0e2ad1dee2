// The JSON report of a lifetime profile (docs/REPORTS.md, "lifetime json"). Spaces (byte x
// byte) can exceed 2^64 and are written as doubles.
#include "analyses/lifetime/report/json.h"

#include "analyses/lifetime/model/heap.h"
#include "analyses/lifetime/report/report.h"
#include "report/coverage.h"
#include "report/json_text.h"
#include "report/text_format.h"

namespace dragnet::report {

using analyses::lifetime::kAllPhases;
using analyses::lifetime::Model;
using analyses::lifetime::Phase;
using analyses::lifetime::phaseName;
using analyses::lifetime::Stats;
using analyses::lifetime::toDouble;
using lifetime_json::Json;
using lifetime_json::putStats;

void lifetime_json::putStats(Json& j, const Stats& s) {
  j["objects"] = s.objects;
  j["records"] = s.records;
  j["lagged"] = s.lagged;
  j["dragged"] = s.dragged;
  j["void"] = s.voids;
  j["bytes"] = s.bytes;
  Json space;
  space["total"] = toDouble(s.total);
  for (Phase p : kAllPhases) space[phaseName(p)] = toDouble(s[p]);
  j["space"] = std::move(space);
}

Json lifetime_json::statsJson(const Stats& s) {
  Json j;
  putStats(j, s);
  Json pct, exact;
  for (Phase p : kAllPhases) pct[phaseName(p)] = Stats::percent(s[p], s.total);
  j["percent"] = std::move(pct);
  auto digits = [](analyses::lifetime::Space v) {
    std::string d;
    do {
      d.insert(d.begin(), static_cast<char>('0' + static_cast<int>(v % 10)));
      v /= 10;
    } while (v);
    return d;
  };
  exact["total"] = digits(s.total);
  for (Phase p : kAllPhases) exact[phaseName(p)] = digits(s[p]);
  j["spaceExact"] = std::move(exact);
  return j;
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
  j["totals"] = statsJson(m.totals);
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
    a.push_back(std::move(j));
  }
  return a;
}

Json nested(const Model& m) {
  Json a = Json::array();
  for (const auto& s : m.nested) {
    Json j{{"id", s.id},
           {"type", analyses::lifetime::typeOf(m, s)},
           {"class", s.cls + 1},
           {"method", s.method + 1},
           {"frames", analyses::lifetime::nestedFrames(m, s)}};
    putStats(j, s.stats);
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
  j["classes"] = classes(m);
  j["methods"] = methods(m);
  j["nested"] = nested(m);
  j["heap"] = heap(m, o.heapBuckets);
  j["gcs"] = gcs(m);
  out << jsonText(j, 1) << "\n";
}

}  // namespace dragnet::report
