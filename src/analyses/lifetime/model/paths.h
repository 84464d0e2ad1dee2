// Mode lifetime: context paths. A (thread, node) of a thread's calling-context tree becomes
// the keys from that node up to the thread's root, innermost first, truncated to the
// innermost `stack` method frames (0: unlimited); equal key sequences get one PathId, so
// contexts of different threads merge. Path 0 is the empty path (not recorded or unknown).
#pragma once

#include <cstdint>
#include <map>
#include <unordered_map>
#include <vector>

#include "analyses/lifetime/model/aggregate.h"

namespace dragnet::analyses::lifetime {

// The keys of the context (thread, node), innermost first, up to `stack` method frames
// (0: all); empty when the thread or node is not in the profile, or node is the root.
std::vector<uint32_t> contextKeys(const profile::Profile& p, uint32_t thread, uint32_t node,
                                  uint32_t stack);

class PathTable {
 public:
  // Paths are appended to `paths` (which gets path 0 if it is empty).
  PathTable(const profile::Profile& p, uint32_t stack, std::vector<std::vector<uint32_t>>& paths);

  PathId of(uint32_t thread, uint32_t node);  // 0 for a thread or node not in the profile
  PathId of(const profile::EventAt& at) { return at.thread == 0 ? 0 : of(at.thread, at.node); }
  const std::vector<uint32_t>& keys(PathId id) const { return paths_[id]; }

 private:
  const profile::Profile& p_;
  uint32_t stack_;
  std::vector<std::vector<uint32_t>>& paths_;
  // Per thread, per node: its PathId + 1 (0: not computed yet). Flat, as every object
  // record looks up up to three contexts.
  std::unordered_map<uint32_t, std::vector<PathId>> byContext_;
  uint32_t lastThread_ = 0;
  std::vector<PathId>* lastCache_ = nullptr;
  std::map<std::vector<uint32_t>, PathId> byKeys_;
};

}  // namespace dragnet::analyses::lifetime
