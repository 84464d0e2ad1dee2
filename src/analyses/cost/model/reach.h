// Mode cost: the costs and benefits of one instance (Xu et al. Defs. 4.2-4.4) by walks of
// the instance graph. A walk stamps what it visits with its own epoch, so that it costs only
// what it visits, and nothing is kept between walks (no recursion: a queue).
#pragma once

#include <cstdint>
#include <vector>

#include "analyses/cost/model/graph.h"

namespace dragnet::analyses::cost {

struct Benefit {
  uint64_t value = 0;     // HRAB
  bool consumed = false;  // its set holds a Predicate or Native instance
};

class Reach {
 public:
  explicit Reach(const InstanceGraph& g) : g_(&g), stamp_(g.size(), 0) {}

  // AC(n): freq(n) + the frequencies of every instance with a path to n.
  uint64_t absoluteCost(uint32_t n);
  // HRAC(n): freq(n) + Σ freq(a), a ≠ n, over paths a = v0 → … → vk = n on which no v0..v(k−1)
  // reads the heap: backward from n, neither counting nor passing a heap reader (n is always
  // counted and passed).
  uint64_t relativeCost(uint32_t n);
  // HRAB(n): freq(n) + Σ freq(a), a ≠ n, over paths n = v0 → … → vk = a on which no v1..vk
  // writes the heap: forward from n, neither counting nor passing a heap writer.
  Benefit relativeBenefit(uint32_t n);

 private:
  enum class Way : uint8_t { Back, BackHeapless, Forward };
  // The frequencies of what the walk from n reaches (n included); consumed: whether a
  // consumer is among them.
  uint64_t walk(uint32_t n, Way way, bool* consumed);
  void nextEpoch();

  const InstanceGraph* g_;
  std::vector<uint32_t> stamp_;  // epoch of the walk that last visited the instance
  uint32_t epoch_ = 0;
  std::vector<uint32_t> queue_;
};

}  // namespace dragnet::analyses::cost
