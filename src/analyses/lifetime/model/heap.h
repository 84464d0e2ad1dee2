// Mode lifetime: the reachable heap over time, split by phase (HUP Fig. 5), and the heap
// at each garbage collection (HUP's `stat long`). Each function reads the profile's objects
// again (profile::forEachObject; heapSeries twice), holding none of them. An object is reachable
// over [alloc, death) and counts as lag over [alloc, firstUse), in use over [firstUse, lastUse),
// drag over [lastUse, death), or void over [alloc, death) (lifetime::Life).
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "analyses/lifetime/model/aggregate.h"

namespace dragnet::analyses::lifetime {

// One time bucket [start, end). `space` is the exact integral of the reachable bytes of
// each phase over the bucket (byte x byte), so the buckets' spaces add up to the model's
// totals exactly; `average` is the mean reachable bytes over the bucket.
struct HeapBucket {
  uint64_t start = 0, end = 0;
  std::array<Space, kPhases> space{};
  double average(Phase p) const;
  double averageTotal() const;  // all phases
};

// `buckets` buckets (fewer when the end time is smaller) covering [0, Model::endTime]:
// bucket i starts at floor(i * end / buckets). O(objects + buckets): each phase interval
// adds its full buckets to a difference array and its two partial edge buckets directly.
std::vector<HeapBucket> heapOverTime(const Model& m, size_t buckets);

// The reachable bytes just after a GC (the objects it freed excluded: they died at its
// time), per phase.
struct HeapAtGc {
  uint32_t gc = 0;  // 1-based, as ObjectRecord::deathGc
  uint64_t time = 0;
  bool forced = false;
  std::array<uint64_t, kPhases> bytes{};
  uint64_t total() const;
};

// One entry per GC, in GC order. O(objects x log GCs).
std::vector<HeapAtGc> heapAtGcs(const Model& m);

// The reachable bytes per phase at each of `times` (ascending): an object counts at t when
// t is in its phase's [from, to), so an object that dies at t no longer counts.
// O(objects x log times).
std::vector<std::array<uint64_t, kPhases>> heapAt(const Model& m, std::span<const uint64_t> times);

// The reachable heap at one instant; it holds until the next point of a series.
struct HeapPoint {
  uint64_t time = 0;
  std::array<uint64_t, kPhases> bytes{};
  uint64_t total() const;
};

// The heap over time for a chart (HUP Fig. 5), downsampled: [0, Model::endTime] cut into
// `buckets` buckets as heapOverTime, and per bucket the instants of its start, of its
// highest and of its lowest total (the first of equals), then the end time. Averages would
// flatten the peaks a reader looks for; these points keep every bucket's extremes, so the
// series' highest total is exactly the peak reachable heap. Ascending times, at most
// 3 x buckets + 1 points. The totals fall only at death times (Model::deathTimes), so the
// extremes are found between them and the buckets' starts: O(objects x log(death times +
// buckets)) time, O(death times + buckets) memory.
std::vector<HeapPoint> heapSeries(const Model& m, size_t buckets);

// The most objects recorded alive at once (allocated at or before t, dying after t):
// while alive, the exact mode keeps a phantom reference per object in the Java heap
// (kRefHeapBytes, the agent's DragnetLife.Ref with compressed references). Found just before
// a death time: O(objects x log death times) time, O(death times) memory.
uint64_t peakObjects(const Model& m);
inline constexpr uint64_t kRefHeapBytes = 32;

}  // namespace dragnet::analyses::lifetime
