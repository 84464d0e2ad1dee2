#include "analyses/lifetime/model/flame.h"

#include <algorithm>
#include <map>
#include <unordered_map>

#include "analyses/lifetime/model/paths.h"
#include "contexts/model.h"

namespace dragnet::analyses::lifetime {

std::vector<FlameRow> flameRows(const Model& m) {
  std::vector<std::vector<uint32_t>> paths;
  PathTable whole(*m.profile, 0, paths);  // stack 0: every frame
  std::unordered_map<uint64_t, uint32_t> rowOf;
  std::map<std::pair<std::vector<uint32_t>, uint32_t>, uint32_t> cutRowOf;  // with flameCut
  std::vector<FlameRow> rows;
  for (const ContextSite& c : m.contextSites) {
    PathId path = whole.of(c.thread, c.node);
    uint32_t at = static_cast<uint32_t>(rows.size());
    if (m.flameCut) {  // contexts cut to the same frames are one row
      std::vector<uint32_t> keys = whole.keys(path);
      keys.resize(std::min(keys.size(), m.flameCut(keys)));
      auto [it, fresh] = cutRowOf.try_emplace({keys, c.key}, at);
      if (fresh) rows.push_back({std::move(keys), c.key, {}});
      at = it->second;
    } else {
      auto [it, fresh] = rowOf.try_emplace(uint64_t{path} << 32 | c.key, at);
      if (fresh) rows.push_back({whole.keys(path), c.key, {}});
      at = it->second;
    }
    FlameRow& row = rows[at];
    for (size_t i = 0; i < kPhases; ++i) row.space[i] += c.space[i];
  }
  return rows;
}

std::vector<std::string> flameFrames(const Model& m, const FlameRow& row, bool typeFrame) {
  std::vector<std::string> frames = siteFrames(m, row.keys, row.key);
  std::reverse(frames.begin(), frames.end());
  if (typeFrame) frames.push_back(siteTypeName(m, row.key));
  return frames;
}

std::string siteTypeName(const Model& m, uint32_t key) {
  auto site = m.profile->sites.find(key);
  return site == m.profile->sites.end() ? "<unknown>" : contexts::javaTypeName(site->second.type);
}

}  // namespace dragnet::analyses::lifetime
