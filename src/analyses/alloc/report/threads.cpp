#include "analyses/alloc/report/threads.h"

#include <fnmatch.h>

#include <algorithm>
#include <cstdio>

#include "report/text_format.h"

namespace dragnet::report {

using Json = nlohmann::ordered_json;

namespace {

bool sampled(const profile::Profile& p) { return p.meta.contains("sample"); }

// "app.Main.build(Main.java:10) byte[]", as the site tables name a site (sums.h siteOf);
// an allocation without a bytecode is named by its caller, node `parent` of tree `t`.
std::string siteLabel(const profile::Profile& p, const profile::ThreadTree& t, uint32_t parent,
                      uint32_t key) {
  auto s = p.sites.find(key);
  if (s == p.sites.end()) return "?";
  const profile::SiteDef& d = s->second;
  std::string where;
  bool native = d.kind == profile::SiteKind::Vm || d.kind == profile::SiteKind::Jni;
  if (!native || d.method != 0) {
    where = contexts::frameName(p, d.method, d.line);
  } else {
    uint32_t caller = parent < t.nodes.size() ? t.nodes[parent].key : profile::kRootKey;
    where = parent == 0 ? "<thread root>" : contexts::frameName(p, caller, -1);
  }
  if (native) where += d.kind == profile::SiteKind::Vm ? " [jvm]" : " [jni]";
  return where + " " + contexts::javaTypeName(d.type);
}

bool selected(const std::set<uint32_t>* only, uint32_t id) { return !only || only->contains(id); }

std::string pct(uint64_t part, uint64_t whole) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "%5.1f%%",
                whole ? 100.0 * static_cast<double>(part) / static_cast<double>(whole) : 0.0);
  return buf;
}

// "12.5 MB/s": a rate in decimal units.
std::string rateText(double bytesPerSecond) {
  const char* units[] = {"B/s", "KB/s", "MB/s", "GB/s"};
  size_t u = 0;
  while (bytesPerSecond >= 1000 && u + 1 < std::size(units)) {
    bytesPerSecond /= 1000;
    ++u;
  }
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f %s", bytesPerSecond, units[u]);
  return buf;
}

std::string seconds(uint64_t ms) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f s", static_cast<double>(ms) / 1000);
  return buf;
}

std::string threadName(const profile::Profile& p, uint32_t id) {
  auto t = p.threads.find(id);
  return t == p.threads.end() ? "thread " + std::to_string(id) : t->second.name;
}

}  // namespace

std::set<uint32_t> threadsMatching(const profile::Profile& p, std::string_view pattern) {
  std::string glob(pattern);
  std::set<uint32_t> out;
  for (const auto& [id, t] : p.threads) {
    if (fnmatch(glob.c_str(), t.name.c_str(), 0) == 0 ||
        fnmatch(glob.c_str(), std::to_string(id).c_str(), 0) == 0) {
      out.insert(id);
    }
  }
  return out;
}

std::optional<uint64_t> allocBytes(const profile::Profile& p, uint32_t key,
                                   const profile::Counters& c) {
  // Arrays; sampled estimates; objects of merged profiles, sized by their own JVM.
  if ((key & 15) != 0 || sampled(p) || c.bytes > 0) return c.bytes;
  auto s = p.sites.find(key);
  auto size = s == p.sites.end() ? p.classSizes.end() : p.classSizes.find(s->second.type);
  if (size == p.classSizes.end()) {
    if (c.count == 0) return 0;
    return std::nullopt;
  }
  return c.count * size->second;
}

std::vector<ThreadRow> threadRows(const profile::Profile& p, const std::set<uint32_t>* only) {
  std::vector<ThreadRow> rows;
  for (const auto& [id, t] : p.threads) {
    if (!selected(only, id)) continue;
    ThreadRow r;
    r.id = id;
    r.name = t.name;
    r.ended = t.ended;
    std::map<std::string, uint64_t> bySite;
    for (size_t i = 1; i < t.nodes.size() && i < t.counters.size(); ++i) {
      uint32_t key = t.nodes[i].key;
      if (!profile::isAllocKey(key) || key == profile::kLostKey) continue;
      uint64_t bytes = allocBytes(p, key, t.counters[i]).value_or(0);
      r.bytes += bytes;
      r.objects += t.counters[i].count;
      bySite[siteLabel(p, t, t.nodes[i].parent, key)] += bytes;
    }
    for (const auto& [site, bytes] : bySite) {
      if (bytes > r.topSiteBytes) r.topSite = site, r.topSiteBytes = bytes;
    }
    rows.push_back(std::move(r));
  }
  std::stable_sort(rows.begin(), rows.end(), [](const ThreadRow& a, const ThreadRow& b) {
    return a.bytes != b.bytes ? a.bytes > b.bytes : a.objects > b.objects;
  });
  return rows;
}

RateSeries rateSeries(const profile::Profile& p, const std::set<uint32_t>* only, uint64_t width) {
  RateSeries s;
  if (width == 0) {
    std::optional<uint64_t> flush = profile::metaNumber(p, "flush");
    width = flush && *flush > 0 && *flush < 86400 ? *flush * 1000 : 1000;
  }
  s.width = width;
  uint64_t slack = width / 10;
  for (const profile::RateChunk& r : p.rates) {
    if (!selected(only, r.thread)) continue;
    uint64_t k = r.time > slack ? (r.time - slack - 1) / width : 0;
    if (k >= s.intervals.size()) {
      if (k > 10'000'000) continue;  // a corrupt time: never written
      s.intervals.resize(k + 1);
    }
    RateSeries::Interval& in = s.intervals[k];
    for (const auto& [key, c] : r.keys) {
      uint64_t bytes = allocBytes(p, key, c).value_or(0);
      in.bytes += bytes;
      in.objects += c.count;
      auto& t = in.threads[r.thread];
      t.first += bytes;
      t.second += c.count;
      auto& all = s.threads[r.thread];
      all.first += bytes;
      all.second += c.count;
      s.bytes += bytes;
      s.objects += c.count;
    }
  }
  return s;
}

Json threadsJson(const std::vector<ThreadRow>& rows, uint64_t allBytes) {
  Json out = Json::array();
  for (const ThreadRow& r : rows) {
    out.push_back(
        {{"id", r.id},
         {"name", r.name},
         {"bytes", r.bytes},
         {"objects", r.objects},
         {"share", allBytes ? static_cast<double>(r.bytes) / static_cast<double>(allBytes) : 0.0},
         {"topSite", r.topSite.empty() ? Json(nullptr) : Json(r.topSite)},
         {"topSiteBytes", r.topSiteBytes},
         {"ended", r.ended}});
  }
  return out;
}

Json rateJson(const profile::Profile& p, const RateSeries& s, size_t topThreads) {
  if (s.intervals.empty()) return nullptr;  // not recorded (an older profile) or no allocation
  std::vector<std::pair<uint64_t, uint32_t>> order;  // (bytes, id)
  for (const auto& [id, v] : s.threads) order.emplace_back(v.first, id);
  std::stable_sort(order.begin(), order.end(), [](auto& a, auto& b) { return a.first > b.first; });
  if (order.size() > topThreads) order.resize(topThreads);
  Json j;
  j["intervalMs"] = s.width;
  j["bytes"] = s.bytes;
  j["objects"] = s.objects;
  Json bytes = Json::array(), objects = Json::array();
  for (const auto& in : s.intervals) {
    bytes.push_back(in.bytes);
    objects.push_back(in.objects);
  }
  j["series"] = {{"bytes", bytes}, {"objects", objects}};
  Json threads = Json::array();
  for (const auto& [total, id] : order) {
    Json tb = Json::array(), to = Json::array();
    for (const auto& in : s.intervals) {
      auto t = in.threads.find(id);
      tb.push_back(t == in.threads.end() ? 0 : t->second.first);
      to.push_back(t == in.threads.end() ? 0 : t->second.second);
    }
    threads.push_back({{"id", id},
                       {"name", threadName(p, id)},
                       {"bytes", total},
                       {"objects", s.threads.at(id).second},
                       {"series", {{"bytes", tb}, {"objects", to}}}});
  }
  j["threads"] = threads;
  return j;
}

void writeThreadsText(std::ostream& out, const std::vector<ThreadRow>& rows, uint64_t allBytes,
                      size_t top) {
  out << "\nThreads by bytes\n  bytes            %      objects/arrays   thread, top site\n";
  for (size_t i = 0; i < rows.size() && i < top; ++i) {
    const ThreadRow& r = rows[i];
    char line[96];
    std::snprintf(line, sizeof line, "  %-16s %s %-16s ", grouped(r.bytes).c_str(),
                  pct(r.bytes, allBytes).c_str(), grouped(r.objects).c_str());
    out << line << r.name << " (#" << r.id << ")";
    if (!r.topSite.empty()) out << ", " << r.topSite << " " << pct(r.topSiteBytes, r.bytes);
    out << "\n";
  }
  if (rows.size() > top) out << "  ... " << rows.size() - top << " more threads\n";
}

void writeRateText(std::ostream& out, const profile::Profile& p, const RateSeries& s) {
  out << "\nAllocation rate (per " << seconds(s.width) << ")\n";
  if (s.intervals.empty()) {
    out << "  not recorded (a profile without Rate chunks, or no allocation)\n";
    return;
  }
  uint64_t span = s.intervals.size() * s.width;
  if (auto d = profile::metaNumber(p, "duration.ms"); d && *d > 0) span = std::min(span, *d);
  size_t peak = 0;
  for (size_t i = 0; i < s.intervals.size(); ++i) {
    if (s.intervals[i].bytes > s.intervals[peak].bytes) peak = i;
  }
  double width = static_cast<double>(s.width) / 1000;
  out << "  average    "
      << rateText(static_cast<double>(s.bytes) /
                  (static_cast<double>(std::max<uint64_t>(span, 1)) / 1000))
      << " (" << grouped(s.bytes) << " bytes, " << grouped(s.objects) << " objects/arrays in "
      << seconds(span) << ")\n";
  out << "  peak       " << rateText(static_cast<double>(s.intervals[peak].bytes) / width) << " in "
      << seconds(peak * s.width) << " - " << seconds((peak + 1) * s.width) << "\n";
  // At most kRows rows: a long run's intervals k at a time (the JSON has each).
  constexpr size_t kRows = 60;
  size_t k = (s.intervals.size() + kRows - 1) / kRows;
  out << "  up to      bytes            objects/arrays";
  if (k > 1) out << "  (" << k << " intervals a row)";
  out << "\n";
  for (size_t i = 0; i < s.intervals.size(); i += k) {
    uint64_t bytes = 0, objects = 0;
    size_t end = std::min(s.intervals.size(), i + k);
    for (size_t j = i; j < end; ++j)
      bytes += s.intervals[j].bytes, objects += s.intervals[j].objects;
    char line[96];
    std::snprintf(line, sizeof line, "  %-10s %-16s %s\n", seconds(end * s.width).c_str(),
                  grouped(bytes).c_str(), grouped(objects).c_str());
    out << line;
  }
}

}  // namespace dragnet::report
