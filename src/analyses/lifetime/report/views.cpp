#include "analyses/lifetime/report/views.h"

#include <cstdio>
#include <map>
#include <memory>
#include <unordered_map>

#include "analyses/lifetime/model/paths.h"
#include "contexts/model.h"
#include "report/text_format.h"

namespace dragnet::report::lifetime_views {

using analyses::lifetime::Model;
using analyses::lifetime::NestedSite;
using analyses::lifetime::Stats;

analyses::lifetime::ContextFilter contextFilter(const profile::Profile& p, FrameMatcher& matcher) {
  if (matcher.filter().empty()) return {};
  // Objects of one context share the verdict: judged once per context.
  auto verdicts = std::make_shared<std::unordered_map<uint64_t, bool>>();
  return [&p, &matcher, verdicts](uint32_t thread, uint32_t node) {
    auto [it, fresh] = verdicts->try_emplace(uint64_t{thread} << 32 | node, false);
    if (fresh) {
      it->second = matcher.judge(analyses::lifetime::contextKeys(p, thread, node, 0)).kept;
    }
    return it->second;
  };
}

std::string firstAppFrame(const Model& m, const NestedSite& s, const AppFrames& app, bool line) {
  const profile::Profile& p = *m.profile;
  StackFilter none;
  FrameMatcher matcher(p, none, app);
  const std::vector<uint32_t>& keys = m.paths.at(s.context);
  std::optional<size_t> at = matcher.firstApp(keys);
  if (!at) return std::string(kNoAppFrame);
  auto site = p.sites.find(s.key);
  bool allocates = *at == 0 && site != p.sites.end() && site->second.method == keys[0];
  return contexts::frameName(p, keys[*at], line && allocates ? site->second.line : -1);
}

std::vector<std::pair<std::string, Stats>> byFirstAppFrame(const Model& m, const AppFrames& app) {
  std::map<std::string, Stats> sums;
  for (const NestedSite& s : m.nested) sums[firstAppFrame(m, s, app, false)].add(s.stats);
  return {sums.begin(), sums.end()};
}

nlohmann::ordered_json filterJson(const Model& m, const StackFilter& f) {
  if (f.empty()) return nullptr;
  Stats all = m.totals;
  all.add(m.filteredOut);
  auto amounts = [](const Stats& s) {
    return nlohmann::ordered_json{{"objects", s.objects}, {"bytes", s.bytes}};
  };
  return {{"include", f.include},
          {"exclude", f.exclude},
          {"focus", f.focus},
          {"kept", amounts(m.totals)},
          {"total", amounts(all)},
          {"keptShare",
           all.bytes ? static_cast<double>(m.totals.bytes) / static_cast<double>(all.bytes) : 0.0}};
}

}  // namespace dragnet::report::lifetime_views
