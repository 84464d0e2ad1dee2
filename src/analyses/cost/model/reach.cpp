#include "analyses/cost/model/reach.h"

#include <algorithm>

namespace dragnet::analyses::cost {

void Reach::nextEpoch() {
  if (++epoch_ == 0) {  // wrapped: stamps of old walks would look current
    std::fill(stamp_.begin(), stamp_.end(), 0);
    epoch_ = 1;
  }
}

uint64_t Reach::walk(uint32_t n, Way way, bool* consumed) {
  nextEpoch();
  queue_.clear();
  queue_.push_back(n);
  stamp_[n] = epoch_;
  uint64_t sum = g_->freq(n);
  bool seen = g_->def(n).consumer();
  for (size_t head = 0; head < queue_.size(); ++head) {
    uint32_t u = queue_[head];
    auto next = way == Way::Forward ? g_->succs(u) : g_->preds(u);
    for (uint32_t w : next) {
      if (stamp_[w] == epoch_) continue;
      const NodeDef& d = g_->def(w);
      // A heap reader (writer) ends the walk: the value was produced (is used) by another
      // hop of the flow, whose cost (benefit) is another location's.
      if (way == Way::BackHeapless && d.readsHeap()) continue;
      if (way == Way::Forward && d.writesHeap()) continue;
      stamp_[w] = epoch_;
      sum += g_->freq(w);
      seen = seen || d.consumer();
      queue_.push_back(w);
    }
  }
  if (consumed) *consumed = seen;
  return sum;
}

uint64_t Reach::absoluteCost(uint32_t n) { return walk(n, Way::Back, nullptr); }

uint64_t Reach::relativeCost(uint32_t n) { return walk(n, Way::BackHeapless, nullptr); }

Benefit Reach::relativeBenefit(uint32_t n) {
  Benefit b;
  b.value = walk(n, Way::Forward, &b.consumed);
  return b;
}

}  // namespace dragnet::analyses::cost
