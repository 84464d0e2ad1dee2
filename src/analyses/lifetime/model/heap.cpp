#include "analyses/lifetime/model/heap.h"

#include <algorithm>
#include <numeric>
#include <utility>

namespace dragnet::analyses::lifetime {

using profile::ObjectRecord;

double HeapBucket::average(Phase p) const {
  return end > start ? toDouble(space[static_cast<size_t>(p)]) / static_cast<double>(end - start)
                     : 0.0;
}

double HeapBucket::averageTotal() const {
  Space all = 0;
  for (Space s : space) all += s;
  return end > start ? toDouble(all) / static_cast<double>(end - start) : 0.0;
}

uint64_t HeapAtGc::total() const {
  return std::accumulate(bytes.begin(), bytes.end(), uint64_t{0});
}

namespace {

using Signed = __int128;

// Each phase interval of an object as [from, to) with its phase.
template <class Fn>
void forEachInterval(const Life& l, Fn fn) {
  if (!l.used) {
    fn(Phase::Void, l.alloc, l.death);
    return;
  }
  fn(Phase::Lag, l.alloc, l.firstUse);
  fn(Phase::Use, l.firstUse, l.lastUse);
  fn(Phase::Drag, l.lastUse, l.death);
}

// The buckets [bounds[i], bounds[i + 1]) and the integrals being summed per phase: `full`
// is a difference array of sizes covering whole buckets, `partial` the exact space of the
// edge buckets.
class Integrator {
 public:
  Integrator(uint64_t end, size_t n) : bounds_(n + 1), full_(n + 1), partial_(n) {
    for (size_t i = 0; i <= n; ++i) {
      bounds_[i] = static_cast<uint64_t>(Space{end} * i / n);
    }
  }

  void add(Phase p, uint64_t from, uint64_t to, uint64_t size) {
    to = std::min(to, bounds_.back());
    if (from >= to || size == 0) return;
    size_t k = static_cast<size_t>(p);
    size_t a = bucketOf(from), b = bucketOf(to - 1);
    if (a == b) {
      partial_[a][k] += Space{to - from} * size;
      return;
    }
    partial_[a][k] += Space{bounds_[a + 1] - from} * size;
    partial_[b][k] += Space{to - bounds_[b]} * size;
    full_[a + 1][k] += size;
    full_[b][k] -= size;
  }

  std::vector<HeapBucket> finish() const {
    std::vector<HeapBucket> out(partial_.size());
    std::array<Signed, kPhases> running{};
    for (size_t i = 0; i < out.size(); ++i) {
      HeapBucket& b = out[i];
      b.start = bounds_[i];
      b.end = bounds_[i + 1];
      for (size_t k = 0; k < kPhases; ++k) {
        running[k] += full_[i][k];
        b.space[k] = static_cast<Space>(running[k]) * (b.end - b.start) + partial_[i][k];
      }
    }
    return out;
  }

 private:
  // The bucket holding time t (< end): the last i with bounds_[i] <= t.
  size_t bucketOf(uint64_t t) const {
    auto it = std::upper_bound(bounds_.begin(), bounds_.end() - 1, t);
    return static_cast<size_t>(it - bounds_.begin()) - 1;
  }

  std::vector<uint64_t> bounds_;
  std::vector<std::array<Signed, kPhases>> full_;
  std::vector<std::array<Space, kPhases>> partial_;
};

}  // namespace

std::vector<HeapBucket> heapOverTime(const Model& m, size_t buckets) {
  uint64_t end = m.endTime;
  size_t n = static_cast<size_t>(std::min<uint64_t>(buckets, end));
  if (n == 0) return {};
  Integrator integrator(end, n);
  for (const ObjectRecord& r : m.profile->objects) {
    Life l = lifeOf(r, m.settings.useEpoch);
    uint64_t size = r.size * weightOf(r, m.settings.sample);
    forEachInterval(
        l, [&](Phase p, uint64_t from, uint64_t to) { integrator.add(p, from, to, size); });
  }
  return integrator.finish();
}

std::vector<std::array<uint64_t, kPhases>> heapAt(const Model& m, std::span<const uint64_t> times) {
  // Difference array over the times: an interval [from, to) covers the times in it.
  std::vector<std::array<Signed, kPhases>> diff(times.size() + 1);
  for (const ObjectRecord& r : m.profile->objects) {
    Life l = lifeOf(r, m.settings.useEpoch);
    auto size = static_cast<Signed>(r.size * weightOf(r, m.settings.sample));
    forEachInterval(l, [&](Phase p, uint64_t from, uint64_t to) {
      if (from >= to) return;
      size_t lo = std::lower_bound(times.begin(), times.end(), from) - times.begin();
      size_t hi = std::lower_bound(times.begin(), times.end(), to) - times.begin();
      diff[lo][static_cast<size_t>(p)] += size;
      diff[hi][static_cast<size_t>(p)] -= size;
    });
  }
  std::vector<std::array<uint64_t, kPhases>> out(times.size());
  std::array<Signed, kPhases> running{};
  for (size_t i = 0; i < times.size(); ++i) {
    for (size_t k = 0; k < kPhases; ++k) {
      running[k] += diff[i][k];
      out[i][k] = static_cast<uint64_t>(running[k]);
    }
  }
  return out;
}

std::vector<HeapAtGc> heapAtGcs(const Model& m) {
  const auto& gcs = m.profile->gcs;
  std::vector<uint32_t> order(gcs.size());  // GC indices by time
  std::iota(order.begin(), order.end(), 0u);
  std::stable_sort(order.begin(), order.end(),
                   [&](uint32_t a, uint32_t b) { return gcs[a].time < gcs[b].time; });
  std::vector<uint64_t> times(order.size());
  for (size_t i = 0; i < order.size(); ++i) times[i] = gcs[order[i]].time;
  std::vector<std::array<uint64_t, kPhases>> bytes = heapAt(m, times);
  std::vector<HeapAtGc> out(gcs.size());
  for (size_t i = 0; i < order.size(); ++i) {
    HeapAtGc& h = out[order[i]];
    h.gc = order[i] + 1;
    h.time = times[i];
    h.forced = gcs[order[i]].forced;
    h.bytes = bytes[i];
  }
  return out;
}

uint64_t peakObjects(const Model& m) {
  std::vector<std::pair<uint64_t, int>> steps;  // (time, +1 allocated / -1 died)
  steps.reserve(2 * m.profile->objects.size());
  for (const ObjectRecord& r : m.profile->objects) {
    if (r.alloc >= r.death) continue;
    steps.emplace_back(r.alloc, 1);
    steps.emplace_back(r.death, -1);
  }
  std::sort(steps.begin(), steps.end());  // deaths before allocations at equal times
  int64_t alive = 0, peak = 0;
  for (const auto& [t, d] : steps) peak = std::max(peak, alive += d);
  return static_cast<uint64_t>(peak);
}

namespace {

// A change of the reachable total: +size at an allocation, -size at a death.
struct Step {
  uint64_t time;
  int64_t delta;
};

std::vector<Step> totalSteps(const Model& m) {
  std::vector<Step> steps;
  steps.reserve(2 * m.profile->objects.size());
  for (const ObjectRecord& r : m.profile->objects) {
    Life l = lifeOf(r, m.settings.useEpoch);
    auto size = static_cast<int64_t>(r.size * weightOf(r, m.settings.sample));
    if (l.alloc >= l.death || size == 0) continue;
    steps.push_back({l.alloc, size});
    steps.push_back({l.death, -size});
  }
  std::sort(steps.begin(), steps.end(),
            [](const Step& a, const Step& b) { return a.time < b.time; });
  return steps;
}

// Walks the sorted steps bucket by bucket and keeps the times of each bucket's start,
// highest and lowest total. The total at t includes every step at t.
class ExtremaFinder {
 public:
  explicit ExtremaFinder(std::vector<Step> steps) : steps_(std::move(steps)) {}

  void bucket(uint64_t start, uint64_t end) {
    advance(start);
    uint64_t high = start, low = start;
    int64_t highest = total_, lowest = total_;
    while (next_ < steps_.size() && steps_[next_].time < end) {
      uint64_t t = steps_[next_].time;
      advance(t);
      if (total_ > highest) {
        highest = total_;
        high = t;
      }
      if (total_ < lowest) {
        lowest = total_;
        low = t;
      }
    }
    for (uint64_t t : {start, std::min(high, low), std::max(high, low)}) {
      if (times_.empty() || times_.back() != t) times_.push_back(t);
    }
  }

  std::vector<uint64_t> finish(uint64_t end) {
    if (times_.empty() || times_.back() != end) times_.push_back(end);
    return std::move(times_);
  }

 private:
  // Applies every step at or before t.
  void advance(uint64_t t) {
    while (next_ < steps_.size() && steps_[next_].time <= t) total_ += steps_[next_++].delta;
  }

  std::vector<Step> steps_;
  size_t next_ = 0;
  int64_t total_ = 0;
  std::vector<uint64_t> times_;
};

}  // namespace

uint64_t HeapPoint::total() const {
  return std::accumulate(bytes.begin(), bytes.end(), uint64_t{0});
}

std::vector<HeapPoint> heapSeries(const Model& m, size_t buckets) {
  uint64_t end = m.endTime;
  size_t n = static_cast<size_t>(std::min<uint64_t>(buckets, end));
  if (n == 0) return {};
  ExtremaFinder finder(totalSteps(m));
  for (size_t i = 0; i < n; ++i) {
    finder.bucket(static_cast<uint64_t>(Space{end} * i / n),
                  static_cast<uint64_t>(Space{end} * (i + 1) / n));
  }
  std::vector<uint64_t> times = finder.finish(end);
  std::vector<std::array<uint64_t, kPhases>> bytes = heapAt(m, times);
  std::vector<HeapPoint> out(times.size());
  for (size_t i = 0; i < times.size(); ++i) out[i] = {times[i], bytes[i]};
  return out;
}

}  // namespace dragnet::analyses::lifetime
