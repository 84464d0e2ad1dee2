#include "analyses/cost/model/graph.h"

#include <algorithm>

namespace dragnet::analyses::cost {

namespace {

// Compressed adjacency: for each v, the `to` of the pairs (v, to), ascending; pairs sorted.
void compress(const std::vector<std::pair<uint32_t, uint32_t>>& pairs, uint32_t n,
              std::vector<uint32_t>& to, std::vector<uint32_t>& begin) {
  begin.assign(n + 1, 0);
  to.clear();
  to.reserve(pairs.size());
  for (const auto& [from, dst] : pairs) {
    ++begin[from + 1];
    to.push_back(dst);
  }
  for (uint32_t i = 0; i < n; ++i) begin[i + 1] += begin[i];
}

}  // namespace

Inst InstanceGraph::canonical(Inst i) const {
  if (i.node == 0 || i.node >= defs_.size()) return {0, 0};
  if (defs_[i.node].contextless()) i.slot = 0;
  return i;
}

uint32_t InstanceGraph::find(Inst i) const {
  i = canonical(i);
  auto it = std::lower_bound(insts_.begin(), insts_.end(), i);
  if (i.node == 0 || it == insts_.end() || *it != i) return kNone;
  return static_cast<uint32_t>(it - insts_.begin());
}

InstanceGraph::InstanceGraph(const GraphInput& in) : defs_(in.defs) {
  auto add = [this](Inst i) {
    i = canonical(i);
    if (i.node != 0) insts_.push_back(i);
  };
  for (const auto& [i, f] : in.freq) add(i);
  for (const auto& [dst, src] : in.edges) {
    add(dst);
    add(src);
  }
  for (const auto& [i, o] : in.effects) add(i);
  std::sort(insts_.begin(), insts_.end());
  insts_.erase(std::unique(insts_.begin(), insts_.end()), insts_.end());

  freq_.assign(insts_.size(), 0);
  for (const auto& [i, f] : in.freq) {
    uint32_t v = find(i);
    if (v == kNone) {
      ++dropped_;
      continue;
    }
    freq_[v] += f;
  }

  std::vector<std::pair<uint32_t, uint32_t>> forward;  // (src, dst)
  forward.reserve(in.edges.size());
  for (const auto& [dst, src] : in.edges) {
    uint32_t d = find(dst), s = find(src);
    if (d == kNone || s == kNone) {
      ++dropped_;
      continue;
    }
    forward.emplace_back(s, d);
  }
  std::sort(forward.begin(), forward.end());
  forward.erase(std::unique(forward.begin(), forward.end()), forward.end());
  compress(forward, size(), succ_, succBegin_);
  for (auto& [s, d] : forward) std::swap(s, d);
  std::sort(forward.begin(), forward.end());
  compress(forward, size(), pred_, predBegin_);
}

}  // namespace dragnet::analyses::cost
