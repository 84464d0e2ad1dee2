#include "analyses/alloc/report/html_report.h"

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>
#include <unordered_map>

#include "analyses/alloc/report/alloc_report.h"
#include "analyses/alloc/report/sums.h"
#include "analyses/alloc/report/threads.h"
#include "report/coverage.h"
#include "report/html_page.h"
#include "report/json_text.h"
#include "report/text_format.h"

namespace dragnet::report {

using contexts::AllocModel;
using contexts::MergedNode;
using Json = nlohmann::ordered_json;

namespace {

// Per merged node: the flame graph's metrics, own (self) and inclusive (kinds: 0 root,
// 1 method, 2 object type, 3 array type, 4 thread).
struct Metrics {
  uint64_t bytes = 0, objects = 0, insns = 0;
  void add(const Metrics& o) {
    bytes += o.bytes;
    objects += o.objects;
    insns += o.insns;
  }
};

Metrics selfOf(const MergedNode& n) {
  if (profile::isAllocKey(n.key)) return {n.c.bytes, n.c.count, 0};
  return {0, 0, n.c.insns};
}

// The frame table: what a node shows (name, detail, kind), shared by all nodes of the same
// method or site, with the strings in a table of their own. Kinds: 0 root, 1 method,
// 2 object type, 3 array type.
class Frames {
 public:
  explicit Frames(const profile::Profile& p) : p_(p) {}

  uint32_t of(uint32_t key) {
    auto it = byKey_.find(key);
    if (it != byKey_.end()) return it->second;
    uint32_t f = describe(key);
    byKey_.emplace(key, f);
    return f;
  }

  Json json() const { return {{"strings", strings_}, {"frames", frames_}}; }

  // A thread's node of a tree rooted by thread (kind 4).
  uint32_t thread(uint32_t id) {
    auto t = p_.threads.find(id);
    return add(t == p_.threads.end() ? "thread " + std::to_string(id) : t->second.name,
               "thread #" + std::to_string(id), 4);
  }

 private:
  uint32_t describe(uint32_t key) {
    if (key == profile::kRootKey) return add("all threads", "", 0);
    if (!profile::isAllocKey(key)) {
      auto m = p_.methods.find(key);
      if (m == p_.methods.end()) return add(contexts::frameName(p_, key, -1), "", 1);
      const profile::MethodDef& d = m->second;
      return add(contexts::javaTypeName(d.cls) + "." + d.name,
                 d.source.empty() ? "Unknown Source" : d.source, 1);
    }
    int kind = (key & 15) ? 3 : 2;
    auto s = p_.sites.find(key);
    if (s == p_.sites.end()) return add("?", "", kind);
    const profile::SiteDef& site = s->second;
    std::string where = "Unknown Source";
    if (auto m = p_.methods.find(site.method); m != p_.methods.end() && !m->second.source.empty()) {
      where = m->second.source;
    }
    // append, not `+ std::to_string`: GCC 12 reports a false -Wrestrict for the latter.
    if (site.line >= 0) where.append(":").append(std::to_string(site.line));
    where.append(" (").append(contexts::originName(site.kind)).append(")");
    return add(contexts::javaTypeName(site.type), where, kind);
  }

  uint32_t add(const std::string& name, const std::string& detail, int kind) {
    std::string key = std::to_string(kind) + '\0' + name + '\0' + detail;
    auto [it, fresh] = unique_.try_emplace(key, static_cast<uint32_t>(frames_.size() / 3));
    if (fresh) {
      frames_.push_back(str(name));
      frames_.push_back(str(detail));
      frames_.push_back(static_cast<uint32_t>(kind));
    }
    return it->second;
  }

  uint32_t str(const std::string& s) {
    auto [it, fresh] = stringIds_.try_emplace(s, static_cast<uint32_t>(strings_.size()));
    if (fresh) strings_.push_back(s);
    return it->second;
  }

  const profile::Profile& p_;
  std::unordered_map<uint32_t, uint32_t> byKey_;
  std::unordered_map<std::string, uint32_t> unique_, stringIds_;
  std::vector<std::string> strings_;
  std::vector<uint32_t> frames_;
};

// The merged tree in preorder (children by inclusive bytes, then objects, then bytecodes),
// as columns: parent as the distance back to it (small numbers), the frame, the own values,
// and calls. Contexts below `minFraction` of every metric are pruned: a subtree's values
// are then added to the kept caller's own values, so every total stays exact.
class TreeEncoder {
 public:
  TreeEncoder(const AllocModel& m, double minFraction)
      : m_(m), frames_(*m.profile), minFraction_(minFraction) {
    inc_.resize(m.nodes.size());
    for (size_t i = 0; i < m.nodes.size(); ++i) inc_[i] = selfOf(m.nodes[i]);
    for (size_t i = m.nodes.size(); i-- > 1;) inc_[m.nodes[i].parent].add(inc_[i]);
    const Metrics& all = inc_[0];
    floor_ = {threshold(all.bytes, minFraction), threshold(all.objects, minFraction),
              threshold(all.insns, minFraction)};
  }

  Json json() {
    emit();
    Json j = frames_.json();
    j["parent"] = parent_;
    j["frame"] = frame_;
    j["bytes"] = bytes_;
    j["objects"] = objects_;
    j["calls"] = calls_;
    if (m_.insns) j["insns"] = insns_;
    j["contexts"] = m_.nodes.size() - 1;
    j["shown"] = frame_.size() - 1;
    j["minFraction"] = minFraction_;
    return j;
  }

 private:
  static uint64_t threshold(uint64_t total, double fraction) {
    return std::max<uint64_t>(1, static_cast<uint64_t>(static_cast<double>(total) * fraction));
  }

  bool kept(uint32_t i) const {
    const Metrics& v = inc_[i];
    return v.bytes >= floor_.bytes || v.objects >= floor_.objects || v.insns >= floor_.insns;
  }

  // The kept children of `node`, largest first; the pruned ones' values go to `own`.
  std::vector<uint32_t> keptChildren(uint32_t node, Metrics& own) const {
    std::vector<uint32_t> kids;
    for (uint32_t k : m_.nodes[node].children) {
      if (kept(k)) {
        kids.push_back(k);
      } else {
        own.add(inc_[k]);
      }
    }
    std::stable_sort(kids.begin(), kids.end(), [&](uint32_t a, uint32_t b) {
      const Metrics &x = inc_[a], &y = inc_[b];
      if (x.bytes != y.bytes) return x.bytes > y.bytes;
      if (x.objects != y.objects) return x.objects > y.objects;
      return x.insns > y.insns;
    });
    return kids;
  }

  // Iterative preorder: a recursion as deep as the deepest context could overflow the stack.
  void emit() {
    std::vector<std::pair<uint32_t, uint32_t>> stack{{0, 0}};  // (node, its parent's index)
    while (!stack.empty()) {
      auto [node, parent] = stack.back();
      stack.pop_back();
      uint32_t index = static_cast<uint32_t>(frame_.size());
      const MergedNode& n = m_.nodes[node];
      Metrics own = selfOf(n);
      std::vector<uint32_t> kids = keptChildren(node, own);
      parent_.push_back(index - parent);  // the root's: 0
      frame_.push_back(n.thread ? frames_.thread(n.thread) : frames_.of(n.key));
      bytes_.push_back(own.bytes);
      objects_.push_back(own.objects);
      insns_.push_back(own.insns);
      calls_.push_back(profile::isAllocKey(n.key) ? 0 : n.c.count);
      for (size_t k = kids.size(); k-- > 0;) stack.emplace_back(kids[k], index);
    }
  }

  const AllocModel& m_;
  Frames frames_;
  std::vector<Metrics> inc_;  // inclusive values per merged node
  double minFraction_;
  Metrics floor_;
  std::vector<uint64_t> parent_, frame_, bytes_, objects_, insns_, calls_;
};

Json bytesJson(const Sum& s) { return s.bytesKnown ? Json(s.bytes) : Json(nullptr); }

// Rows [site, type, count, elements, bytes, first application frame, how many others] of a
// site table.
Json siteRows(const AllocModel& m, const Sums& sums, size_t top) {
  Json rows = Json::array();
  for (size_t i = 0; i < sums.size() && i < top; ++i) {
    const Sum& s = sums[i].second;
    std::string site = s.any ? siteOf(m, *s.any) : "?", type = s.any ? typeOf(*s.any) : "?";
    rows.push_back({site, type, s.count, s.elements, bytesJson(s), s.firstApp, s.firstAppOthers});
  }
  return rows;
}

Json typeRows(const Sums& sums, size_t top) {
  Json rows = Json::array();
  for (size_t i = 0; i < sums.size() && i < top; ++i) {
    const Sum& s = sums[i].second;
    rows.push_back({sums[i].first, s.count, s.elements, bytesJson(s)});
  }
  return rows;
}

Json header(const AllocModel& m, const AllocView* view) {
  const profile::Profile& p = *m.profile;
  Json j = allocHeaderJson(m);  // "pid" among its keys
  addViewHeader(j, view);
  j["meta"] = p.meta;
  return j;
}

Json failures(const profile::Profile& p) {
  Json rows = Json::array();
  for (const profile::Failure& f : p.failures) {
    if (profile::isHidden(f)) continue;  // hiddenClasses
    rows.push_back({contexts::javaTypeName(f.cls), f.method, f.reason});
  }
  return rows;
}

}  // namespace

std::string htmlData(const AllocModel& m, const HtmlOptions& o) {
  Json j = header(m, o.view);
  std::vector<uint32_t> firstApp = firstAppNodes(m, o.view);
  Sums sites = sumBySite(m, &firstApp);
  j["top"] = o.top;
  j["sitesByBytes"] = siteRows(m, sites, o.top);
  j["sitesByObjects"] = siteRows(m, byCount(sites), o.top);
  j["types"] = typeRows(sumByType(m), o.top);
  j["byFirstAppFrame"] = typeRows(sumByFirstApp(m, firstApp), o.top);
  j["notRewritten"] = failures(*m.profile);
  j["hiddenClasses"] = hiddenClassesJson(*m.profile);
  const profile::Profile& p = *m.profile;
  uint64_t all = 0;
  for (const ThreadRow& r : threadRows(p, nullptr)) all += r.bytes;
  j["threadFilter"] = o.threads.only ? Json(o.threads.pattern) : Json(nullptr);
  j["threads"] = threadsRecorded(p) ? threadsJson(threadRows(p, o.threads.only), all) : Json();
  j["rate"] = rateJson(p, rateSeries(p, o.threads.only), 8);
  // The trees last: growing an ordered_json object copies its values (alloc_report.cpp).
  // With several threads also the tree rooted by thread (the page's "by thread" view).
  j["tree"] = TreeEncoder(m, o.minFraction).json();
  if (threadsRecorded(p) && p.threads.size() > 1) {
    contexts::AllocModel byThread =
        contexts::buildModel(p, nullptr, {.only = o.threads.only, .byThread = true});
    j["threadTree"] = TreeEncoder(byThread, o.minFraction).json();
  } else {
    j["threadTree"] = nullptr;
  }
  return scriptSafe(jsonText(j, -1));
}

void writeHtml(std::ostream& out, const AllocModel& m, const HtmlOptions& o) {
  writePage(out, allocPageFiles(), "dragnet allocation profile", htmlData(m, o));
}

}  // namespace dragnet::report
