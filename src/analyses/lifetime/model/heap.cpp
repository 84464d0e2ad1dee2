#include "analyses/lifetime/model/heap.h"

#include <algorithm>
#include <numeric>
#include <span>
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

// Every object's phases and the bytes it stands for (size x weight), read again from the
// profile (profile::forEachObject).
template <class Fn>
void forEachLife(const Model& m, Fn fn) {
  profile::forEachObject(*m.profile, [&](std::span<const ObjectRecord> batch) {
    for (const ObjectRecord& r : batch) {
      fn(lifeOf(r, m.settings.useEpoch), r.size * weightOf(r, m.settings.sample));
    }
  });
}

}  // namespace

std::vector<HeapBucket> heapOverTime(const Model& m, size_t buckets) {
  uint64_t end = m.endTime;
  size_t n = static_cast<size_t>(std::min<uint64_t>(buckets, end));
  if (n == 0) return {};
  Integrator integrator(end, n);
  forEachLife(m, [&](const Life& l, uint64_t size) {
    forEachInterval(
        l, [&](Phase p, uint64_t from, uint64_t to) { integrator.add(p, from, to, size); });
  });
  return integrator.finish();
}

std::vector<std::array<uint64_t, kPhases>> heapAt(const Model& m, std::span<const uint64_t> times) {
  // Difference array over the times: an interval [from, to) covers the times in it.
  std::vector<std::array<Signed, kPhases>> diff(times.size() + 1);
  forEachLife(m, [&](const Life& l, uint64_t bytes) {
    auto size = static_cast<Signed>(bytes);
    forEachInterval(l, [&](Phase p, uint64_t from, uint64_t to) {
      if (from >= to) return;
      size_t lo = std::lower_bound(times.begin(), times.end(), from) - times.begin();
      size_t hi = std::lower_bound(times.begin(), times.end(), to) - times.begin();
      diff[lo][static_cast<size_t>(p)] += size;
      diff[hi][static_cast<size_t>(p)] -= size;
    });
  });
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

// Counts and totals fall only at death times, so the most objects alive at once are alive
// just before one: at death time D, the objects with alloc < D <= death.
uint64_t peakObjects(const Model& m) {
  const std::vector<uint64_t>& deaths = m.deathTimes;
  std::vector<int64_t> diff(deaths.size() + 1, 0);
  forEachLife(m, [&](const Life& l, uint64_t) {
    if (l.alloc >= l.death) return;
    diff[std::upper_bound(deaths.begin(), deaths.end(), l.alloc) - deaths.begin()] += 1;
    diff[std::upper_bound(deaths.begin(), deaths.end(), l.death) - deaths.begin()] -= 1;
  });
  int64_t alive = 0, peak = 0;
  for (int64_t d : diff) peak = std::max(peak, alive += d);
  return static_cast<uint64_t>(peak);
}

namespace {

// The reachable total at the cuts (the death times, the buckets' starts and the end) and
// between them, where it only grows: the allocations between two cuts and the last of
// them. An object counts in [alloc, death).
class Cuts {
 public:
  explicit Cuts(std::vector<uint64_t> cuts)
      : cuts_(std::move(cuts)),
        diff_(cuts_.size() + 1),
        grown_(cuts_.size()),
        lastAlloc_(cuts_.size()) {}

  void add(uint64_t alloc, uint64_t death, int64_t size) {
    size_t lo = at(alloc), hi = at(death);
    diff_[lo] += size;
    diff_[hi] -= size;
    if (lo == 0 || (lo < cuts_.size() && cuts_[lo] == alloc)) return;
    grown_[lo - 1] += size;  // allocated between cut lo - 1 and cut lo
    lastAlloc_[lo - 1] = std::max(lastAlloc_[lo - 1], alloc);
  }

  // The times of each bucket's start, highest and lowest total (the first of equals), as
  // a walk over every change of the total would find them: the highest total between two
  // cuts is reached at the last allocation there, the lowest is at a cut.
  std::vector<uint64_t> extrema(const std::vector<uint64_t>& bounds) const {
    std::vector<int64_t> total(cuts_.size());
    int64_t running = 0;
    for (size_t i = 0; i < cuts_.size(); ++i) total[i] = running += diff_[i];
    std::vector<uint64_t> times;
    auto push = [&](uint64_t t) {
      if (times.empty() || times.back() != t) times.push_back(t);
    };
    for (size_t b = 0; b + 1 < bounds.size(); ++b) {
      size_t i = at(bounds[b]), end = at(bounds[b + 1]);
      uint64_t high = bounds[b], low = bounds[b];
      int64_t highest = total[i], lowest = total[i];
      for (; i < end; ++i) {
        if (grown_[i] > 0 && total[i] + grown_[i] > highest) {
          highest = total[i] + grown_[i];
          high = lastAlloc_[i];
        }
        if (i + 1 == end) break;
        if (total[i + 1] > highest) {
          highest = total[i + 1];
          high = cuts_[i + 1];
        }
        if (total[i + 1] < lowest) {
          lowest = total[i + 1];
          low = cuts_[i + 1];
        }
      }
      for (uint64_t t : {bounds[b], std::min(high, low), std::max(high, low)}) push(t);
    }
    push(bounds.back());
    return times;
  }

 private:
  // The index of the first cut at or after t.
  size_t at(uint64_t t) const {
    return static_cast<size_t>(std::lower_bound(cuts_.begin(), cuts_.end(), t) - cuts_.begin());
  }

  std::vector<uint64_t> cuts_;
  std::vector<int64_t> diff_, grown_;
  std::vector<uint64_t> lastAlloc_;
};

}  // namespace

uint64_t HeapPoint::total() const {
  return std::accumulate(bytes.begin(), bytes.end(), uint64_t{0});
}

std::vector<HeapPoint> heapSeries(const Model& m, size_t buckets) {
  uint64_t end = m.endTime;
  size_t n = static_cast<size_t>(std::min<uint64_t>(buckets, end));
  if (n == 0) return {};
  std::vector<uint64_t> bounds(n + 1), cuts = m.deathTimes;
  for (size_t i = 0; i <= n; ++i) bounds[i] = static_cast<uint64_t>(Space{end} * i / n);
  cuts.insert(cuts.end(), bounds.begin(), bounds.end());
  std::sort(cuts.begin(), cuts.end());
  cuts.erase(std::unique(cuts.begin(), cuts.end()), cuts.end());
  Cuts totals(std::move(cuts));
  forEachLife(m, [&](const Life& l, uint64_t size) {
    if (l.alloc < l.death && size > 0) totals.add(l.alloc, l.death, static_cast<int64_t>(size));
  });
  std::vector<uint64_t> times = totals.extrema(bounds);
  std::vector<std::array<uint64_t, kPhases>> bytes = heapAt(m, times);
  std::vector<HeapPoint> out(times.size());
  for (size_t i = 0; i < times.size(); ++i) out[i] = {times[i], bytes[i]};
  return out;
}

}  // namespace dragnet::analyses::lifetime
