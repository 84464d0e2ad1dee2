// The HTML report of a lifetime profile: src/analyses/lifetime/templates/page.{html,css,js} (after
// the shared report.css and report.js) with the data below embedded once as JSON
// (docs/REPORTS.md, "lifetime html"). The numbers are the model's, as in the text and JSON
// reports (the header and the groups' counts and spaces come from lifetime_json's code);
// the page's script only formats, sorts and draws them.
#include <map>
#include <unordered_map>

#include "analyses/lifetime/model/flame.h"
#include "analyses/lifetime/model/heap.h"
#include "analyses/lifetime/report/json.h"
#include "analyses/lifetime/report/report.h"
#include "analyses/lifetime/report/text.h"
#include "analyses/lifetime/report/views.h"
#include "report/html_page.h"
#include "report/json_text.h"
#include "report/text_format.h"

namespace dragnet::report {

using analyses::lifetime::Model;
using lifetime_json::Json;

namespace {

// The model's types and functions (ranking, stacks, heap series) are used throughout
// (`object` stays qualified: DataWriter has a member of that name).
using namespace analyses::lifetime;
using lifetime_json::putStats;

// Stack frames repeat across sites, patterns and objects: each string is stored once and a
// stack is an array of indices into "strings".
class Strings {
 public:
  uint32_t id(const std::string& s) {
    auto [it, fresh] = index_.try_emplace(s, static_cast<uint32_t>(all_.size()));
    if (fresh) all_.push_back(s);
    return it->second;
  }
  Json ids(const std::vector<std::string>& frames) {
    Json a = Json::array();
    for (const std::string& f : frames) a.push_back(id(f));
    return a;
  }
  const std::vector<std::string>& all() const { return all_; }

 private:
  std::unordered_map<std::string, uint32_t> index_;
  std::vector<std::string> all_;
};

// Which of `groups` (sorted by descending total space) the page gets: the first `limit`, and
// the first `limit` by each phase's space, so every ranking the page offers is right at
// least that far. In index order.
template <class G>
std::vector<uint32_t> chosen(const std::vector<G>& groups, size_t limit) {
  std::vector<bool> keep(groups.size());
  for (size_t i = 0; i < groups.size() && i < limit; ++i) keep[i] = true;
  for (Phase p : kAllPhases) {
    for (uint32_t i : rankBy(groups, p, limit)) keep[i] = true;
  }
  std::vector<uint32_t> out;
  for (uint32_t i = 0; i < keep.size(); ++i) {
    if (keep[i]) out.push_back(i);
  }
  return out;
}

// A time, or null when the event was not recorded.
Json timeOf(uint64_t t) { return t == profile::kNoTime ? Json(nullptr) : Json(t); }

class DataWriter {
 public:
  DataWriter(const Model& m, const LifetimeHtmlOptions& o)
      : m_(m), o_(o), nested_(chosen(m.nested, o.groups)), nestedId_(m.nested.size()) {
    for (uint32_t i : nested_) nestedId_[i] = i + 1;
  }

  Json json() {
    Json j = lifetime_json::header(m_);
    j["format"] = "dragnet-lifetime-html";
    putProfile(j);
    j["counts"] = {{"classes", m_.classes.size()},
                   {"methods", m_.methods.size()},
                   {"nested", m_.nested.size()}};
    j["classes"] = groups(m_.classes, [](const ClassGroup&, Json&) {});
    j["methods"] = groups(m_.methods, [&](const MethodGroup& g, Json& e) {
      auto def = m_.profile->methods.find(g.methodId);
      if (def != m_.profile->methods.end()) e["descriptor"] = def->second.descriptor;
    });
    j["nested"] = nested();
    j["heap"] = heap();
    j["flame"] = flame();
    j["strings"] = strings_.all();
    return j;
  }

 private:
  void putProfile(Json& j) const {
    const profile::Profile& p = *m_.profile;
    auto meta = [&](const char* key) {
      auto it = p.meta.find(key);
      return it == p.meta.end() ? Json(nullptr) : Json(it->second);
    };
    j["stacks"] = meta("stacks");
    // A sampled profile: the text report's "sampled" line (null for an exact profile).
    std::string sampled = lifetime_text::sampledNote(j);
    j["sampled"] = sampled.empty() ? Json(nullptr) : Json(sampled);
    j["corrupt"] = p.corrupt() ? Json(corruptionNote(p)) : Json(nullptr);
    j["meta"] = p.meta;
  }

  // The ids of the embedded nested sites among `indices` (the group's, by total space).
  Json nestedIds(const std::vector<uint32_t>& indices) const {
    Json a = Json::array();
    for (uint32_t i : indices) {
      if (nestedId_[i] != 0) a.push_back(nestedId_[i]);
    }
    return a;
  }

  template <class G, class Extra>
  Json groups(const std::vector<G>& all, Extra extra) {
    Json a = Json::array();
    for (uint32_t i : chosen(all, o_.groups)) {
      const G& g = all[i];
      Json e{{"id", g.id}, {"name", g.name}};
      extra(g, e);
      putStats(e, g.stats);
      e["nested"] = nestedIds(g.nested);
      e["nestedCount"] = g.nested.size();
      a.push_back(std::move(e));
    }
    return a;
  }

  Json nested() {
    Json a = Json::array();
    for (uint32_t i : nested_) {
      const NestedSite& s = m_.nested[i];
      Json e{{"id", s.id},
             {"type", typeOf(m_, s)},
             {"class", s.cls + 1},
             {"method", s.method + 1},
             {"frames", strings_.ids(nestedFrames(m_, s))},
             {"firstAppFrame", lifetime_views::firstAppFrame(m_, s, o_.views.app)}};
      putStats(e, s.stats);
      Json patterns = Json::array();
      for (uint32_t k : chosen(s.patterns, o_.patterns)) patterns.push_back(pattern(s.patterns[k]));
      e["patterns"] = std::move(patterns);
      e["patternCount"] = s.patterns.size();
      a.push_back(std::move(e));
    }
    return a;
  }

  Json pattern(const Pattern& pat) {
    Json e{{"id", pat.id},
           {"firstGet", strings_.ids(pathFrames(m_, pat.firstGet))},
           {"lastGet", strings_.ids(pathFrames(m_, pat.lastGet))}};
    putStats(e, pat.stats);
    e["representative"] = object(pat);
    return e;
  }

  // The pattern's representative: its times and where its first and last puts were (gets
  // are the pattern's own stacks).
  Json object(const Pattern& pat) {
    if (pat.representative == 0) return nullptr;
    const profile::ObjectRecord& r = pat.representativeRecord;
    auto frames = [&](const profile::EventAt& at) { return strings_.ids(eventFrames(m_, at)); };
    return {{"id", r.id},
            {"size", r.size},
            {"weight", weightOf(r, m_.settings.sample)},
            {"alloc", r.alloc},
            {"death", r.death},
            {"deathGc", r.deathGc},
            {"firstGet", timeOf(r.firstGet)},
            {"lastGet", timeOf(r.lastGet)},
            {"firstPut", timeOf(r.firstPut)},
            {"lastPut", timeOf(r.lastPut)},
            {"firstPutAt", frames(r.firstPutAt)},
            {"lastPutAt", frames(r.lastPutAt)}};
  }

  // The chart's series as rows [time, lag, use, drag, void] (bytes), the peak, and the GCs
  // as [time, forced] (HUP Fig. 5).
  Json heap() const {
    Json points = Json::array();
    uint64_t peak = 0, peakTime = 0;
    for (const auto& h : heapSeries(m_, o_.heapBuckets)) {
      Json row{h.time};
      for (Phase p : kAllPhases) row.push_back(h.bytes[static_cast<size_t>(p)]);
      points.push_back(std::move(row));
      if (h.total() > peak) {
        peak = h.total();
        peakTime = h.time;
      }
    }
    Json gcs = Json::array();
    for (const profile::GcEvent& g : m_.profile->gcs) gcs.push_back({g.time, g.forced});
    Json phases = Json::array();
    for (Phase p : kAllPhases) phases.push_back(phaseName(p));
    return {{"phases", phases},     {"points", points},          {"peak", peak},
            {"peakTime", peakTime}, {"buckets", o_.heapBuckets}, {"gcs", gcs}};
  }

  // The flame graphs' tree (docs/REPORTS.md, "lifetime html"): the rows of flameRows merged
  // into a tree of frames, root first, each row's spaces on its type's node; rows below
  // o_.flameMinShare of every measure are folded into one "(small contexts)" node.
  Json flame() {
    std::vector<FlameRow> rows = flameRows(m_);
    Json parents = Json::array({-1}), names = Json::array({strings_.id("all")});
    std::vector<std::array<double, kFlamePhases.size()>> values(1);
    std::map<std::pair<size_t, uint32_t>, size_t> children;
    auto child = [&](size_t parent, uint32_t name) {
      auto [it, fresh] = children.try_emplace({parent, name}, values.size());
      if (fresh) {
        parents.push_back(parent);
        names.push_back(name);
        values.emplace_back();
      }
      return it->second;
    };
    size_t shown = 0;
    for (const FlameRow& row : rows) {
      bool small = true;
      for (Phase p : kFlamePhases)
        small &= toDouble(row[p]) < o_.flameMinShare * toDouble(m_.totals[p]);
      size_t node = 0;
      if (small) {
        node = child(0, strings_.id("(small contexts)"));
      } else {
        ++shown;
        for (const std::string& f : flameFrames(m_, row, true)) node = child(node, strings_.id(f));
      }
      for (size_t k = 0; k < kFlamePhases.size(); ++k)
        values[node][k] += toDouble(row[kFlamePhases[k]]);
    }
    Json measures = Json::array(), own = Json::object();
    for (size_t k = 0; k < kFlamePhases.size(); ++k) {
      measures.push_back(phaseName(kFlamePhases[k]));
      Json v = Json::array();
      for (const auto& node : values) v.push_back(node[k]);
      own[phaseName(kFlamePhases[k])] = std::move(v);
    }
    return {{"measures", measures},
            {"parent", parents},
            {"name", names},
            {"own", own},
            {"rows", rows.size()},
            {"shown", shown},
            {"minShare", o_.flameMinShare}};
  }

  const Model& m_;
  const LifetimeHtmlOptions& o_;
  std::vector<uint32_t> nested_;    // indices of the embedded nested sites
  std::vector<uint32_t> nestedId_;  // per nested index: its id if embedded, else 0
  Strings strings_;
};

}  // namespace

std::string lifetimeHtmlData(const Model& m, const LifetimeHtmlOptions& o) {
  Json j = DataWriter(m, o).json();
  j["filter"] = lifetime_views::filterJson(m, o.views.filter);
  j["appExclude"] = o.views.app.prefixes;
  Json& apps = j["byFirstAppFrame"] = Json::array();
  for (const auto& [frame, stats] : lifetime_views::byFirstAppFrame(m, o.views.app)) {
    Json row{{"id", apps.size() + 1}, {"name", frame}};
    lifetime_json::putStats(row, stats);
    apps.push_back(std::move(row));
  }
  j["top"] = o.top;
  j["groupLimit"] = o.groups;
  return scriptSafe(jsonText(j, -1));
}

void writeLifetimeHtml(std::ostream& out, const Model& m, const LifetimeHtmlOptions& o) {
  writePage(out, lifetimePageFiles(), "dragnet lifetime profile", lifetimeHtmlData(m, o));
}

}  // namespace dragnet::report
