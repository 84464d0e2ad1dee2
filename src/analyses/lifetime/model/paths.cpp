#include "analyses/lifetime/model/paths.h"

namespace dragnet::analyses::lifetime {

PathTable::PathTable(const profile::Profile& p, uint32_t stack,
                     std::vector<std::vector<uint32_t>>& paths)
    : p_(p), stack_(stack), paths_(paths) {
  if (paths_.empty()) paths_.emplace_back();
  for (PathId i = 0; i < paths_.size(); ++i) byKeys_.emplace(paths_[i], i);
}

PathId PathTable::of(uint32_t thread, uint32_t node) {
  if (thread != lastThread_ || lastCache_ == nullptr) {
    auto t = p_.threads.find(thread);
    if (t == p_.threads.end()) return 0;
    lastThread_ = thread;
    lastCache_ = &byContext_[thread];
    lastCache_->resize(t->second.nodes.size(), 0);
  }
  if (node >= lastCache_->size()) return 0;
  PathId& cached = (*lastCache_)[node];
  if (cached == 0) {
    std::vector<uint32_t> keys = contextKeys(p_, thread, node, stack_);
    auto [it, fresh] = byKeys_.try_emplace(keys, static_cast<PathId>(paths_.size()));
    if (fresh) paths_.push_back(std::move(keys));
    cached = it->second + 1;
  }
  return cached - 1;
}

std::vector<uint32_t> contextKeys(const profile::Profile& p, uint32_t thread, uint32_t node,
                                  uint32_t stack) {
  std::vector<uint32_t> keys;
  auto t = p.threads.find(thread);
  if (t == p.threads.end()) return keys;
  const std::vector<profile::NodeDef>& nodes = t->second.nodes;
  uint32_t methods = 0;
  // Parents precede their children; the step bound only guards against a malformed tree.
  for (size_t steps = 0; node != 0 && node < nodes.size() && steps < nodes.size(); ++steps) {
    uint32_t key = nodes[node].key;
    keys.push_back(key);
    if (!profile::isAllocKey(key) && ++methods == stack) break;
    node = nodes[node].parent;
  }
  return keys;
}

}  // namespace dragnet::analyses::lifetime
