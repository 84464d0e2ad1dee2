#include "analyses/alloc/report/sums.h"

#include <algorithm>
#include <map>

#include "report/context_views.h"

namespace dragnet::report {

using contexts::AllocModel;
using contexts::SiteRow;

namespace {

template <class KeyFn>
Sums sumBy(const AllocModel& m, KeyFn key) {
  std::map<std::string, Sum> sums;  // by key, so equal sums come out in a stable order
  for (const SiteRow& r : m.rows) {
    Sum& s = sums[key(r)];
    s.count += r.count;
    s.elements += r.elements;
    s.bytes += r.bytes;
    s.bytesKnown = s.bytesKnown && r.bytesKnown;
    if (!s.any) s.any = &r;
  }
  Sums v(sums.begin(), sums.end());
  std::stable_sort(v.begin(), v.end(), [](const auto& a, const auto& b) {
    return a.second.bytes != b.second.bytes ? a.second.bytes > b.second.bytes
                                            : a.second.count > b.second.count;
  });
  return v;
}

}  // namespace

std::string typeOf(const SiteRow& r) {
  return r.site ? contexts::javaTypeName(r.site->type) : std::string("?");
}

std::string siteOf(const AllocModel& m, const SiteRow& r) { return contexts::siteName(m, r); }

Sums sumBySite(const AllocModel& m, const std::vector<uint32_t>* firstApp) {
  auto key = [&](const SiteRow& r) { return r.site ? siteOf(m, r) + " " + typeOf(r) : "?"; };
  Sums sums = sumBy(m, key);
  if (!firstApp) return sums;
  // Per site: its first application frames' bytes and counts.
  std::map<std::string, std::map<std::string, std::pair<uint64_t, uint64_t>>> frames;
  for (const SiteRow& r : m.rows) {
    auto& f = frames[key(r)][firstAppFrame(m, r, *firstApp)];
    f.first += r.bytes;
    f.second += r.count;
  }
  for (auto& [site, s] : sums) {
    const auto& of = frames[site];
    auto top = std::max_element(of.begin(), of.end(), [](const auto& a, const auto& b) {
      return a.second < b.second;  // (bytes, count); ties: the first by name
    });
    s.firstApp = top->first;
    s.firstAppOthers = of.size() - 1;
  }
  return sums;
}

Sums sumByFirstApp(const AllocModel& m, const std::vector<uint32_t>& firstApp) {
  return sumBy(m, [&](const SiteRow& r) { return firstAppFrame(m, r, firstApp, false); });
}

Sums sumByType(const AllocModel& m) { return sumBy(m, typeOf); }

Sums byCount(Sums sums) {
  std::stable_sort(sums.begin(), sums.end(), [](const auto& a, const auto& b) {
    return a.second.count != b.second.count ? a.second.count > b.second.count
                                            : a.second.bytes > b.second.bytes;
  });
  return sums;
}

}  // namespace dragnet::report
