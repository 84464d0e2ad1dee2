// The downsampled heap series of the HTML chart (heapSeries, src/analyses/lifetime/model/heap.h):
// by hand on the profile of lifetime_profile.h, and against a brute-force sweep on many
// random objects (the peak stays exact, the point count bounded).
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <random>

#include "analyses/lifetime/model/heap.h"
#include "lifetime_profile.h"

namespace {

using namespace dragnet::analyses::lifetime;
using dragnet::test::lifetimeProfile;
using Bytes = std::array<uint64_t, kPhases>;  // lag, use, drag, void

uint64_t peakOf(const std::vector<HeapPoint>& points) {
  uint64_t peak = 0;
  for (const HeapPoint& p : points) peak = std::max(peak, p.total());
  return peak;
}

TEST(LifetimeHeapSeries, TwoBucketsByHand) {
  dragnet::profile::Profile p = lifetimeProfile();
  Model m = buildModel(p);
  // [0, 1000): 0 at the start (lowest), 72 from 300 (highest: 1, 2 and 3 alive).
  // [1000, 2000): 56 at the start (2 died, 4 allocated at 1000), 112 from 1200 (4, 7, 5),
  // 32 from 1500 (lowest: 5 alone); then the end.
  std::vector<HeapPoint> s = heapSeries(m, 2);
  std::vector<uint64_t> times, totals;
  for (const HeapPoint& x : s) {
    times.push_back(x.time);
    totals.push_back(x.total());
  }
  EXPECT_EQ(times, (std::vector<uint64_t>{0, 300, 1000, 1200, 1500, 2000}));
  EXPECT_EQ(totals, (std::vector<uint64_t>{0, 72, 56, 112, 32, 0}));
  // @300: 1 void, 2 dragging (its last use ended at 300), 3 lagging.
  EXPECT_EQ(s[1].bytes, (Bytes{24, 0, 24, 24}));
  // @1200: 5 lags (32), 4 and 7 drag (56 + 24; 7's use epoch ended at 1200).
  EXPECT_EQ(s[3].bytes, (Bytes{32, 0, 80, 0}));
  EXPECT_LE(s.size(), 3u * 2 + 1);
}

TEST(LifetimeHeapSeries, OneBucketPerByteIsTheExactStepFunction) {
  dragnet::profile::Profile p = lifetimeProfile();
  Model m = buildModel(p);
  std::vector<HeapPoint> s = heapSeries(m, 5000);  // capped at the end time: 2,000 buckets
  ASSERT_EQ(s.size(), 2001u);
  EXPECT_EQ(s[150].total(), 24u);
  EXPECT_EQ(s[1199].total(), 80u);
  EXPECT_EQ(s[1200].total(), 112u);
  EXPECT_EQ(s[1999].total(), 32u);
  EXPECT_EQ(peakOf(s), 112u);
  EXPECT_EQ(peakOf(heapSeries(m, 1)), 112u);
  dragnet::profile::Profile none = lifetimeProfile();
  none.objects.clear();
  none.gcs.clear();
  EXPECT_TRUE(heapSeries(buildModel(none), 400).empty());  // end time 0
}

// Random objects (void, so every phase is one interval): the series' totals are the exact
// totals at their times, its highest is the exact peak, each bucket's highest and lowest
// totals are among its points, and it has at most 3 points a bucket plus the end.
TEST(LifetimeHeapSeries, PeakExactAndPointsBoundedOnRandomObjects) {
  dragnet::profile::Profile p = lifetimeProfile();
  p.gcs.clear();
  p.objects.clear();
  std::mt19937_64 random(42);
  std::map<uint64_t, int64_t> steps;  // time -> change of the total
  for (uint64_t id = 1; id <= 20000; ++id) {
    dragnet::profile::ObjectRecord r;
    r.id = id;
    r.thread = 1;
    r.node = 2;
    r.key = dragnet::test::kPoint;
    r.size = 16 + random() % 1000;
    r.alloc = random() % 10'000'000;
    bool longLived = random() % 8 == 0;  // peaks well above the short-lived background
    r.death = r.alloc + random() % (longLived ? 5'000'000 : 20'000);
    p.objects.push_back(r);
    if (r.death > r.alloc) {
      steps[r.alloc] += static_cast<int64_t>(r.size);
      steps[r.death] -= static_cast<int64_t>(r.size);
    }
  }
  std::map<uint64_t, uint64_t> exact;  // time -> total from then on
  int64_t total = 0, peak = 0;
  for (const auto& [t, d] : steps) {
    total += d;
    exact[t] = static_cast<uint64_t>(total);
    peak = std::max(peak, total);
  }
  auto at = [&](uint64_t t) {
    auto it = exact.upper_bound(t);
    return it == exact.begin() ? 0 : std::prev(it)->second;
  };
  Model m = buildModel(p);
  for (size_t buckets : {1, 7, 100, 1000}) {
    std::vector<HeapPoint> s = heapSeries(m, buckets);
    EXPECT_LE(s.size(), 3 * buckets + 1) << buckets;
    EXPECT_EQ(peakOf(s), static_cast<uint64_t>(peak)) << buckets;
    EXPECT_EQ(s.front().time, 0u);
    EXPECT_EQ(s.back().time, m.endTime);
    for (size_t i = 0; i < s.size(); ++i) {
      EXPECT_EQ(s[i].total(), at(s[i].time)) << buckets << " " << s[i].time;
      if (i > 0) {
        EXPECT_LT(s[i - 1].time, s[i].time);
      }
    }
    // Each bucket's highest and lowest totals (at its start or at a change within it) are
    // among its points.
    for (size_t b = 0; b < buckets; ++b) {
      uint64_t start = m.endTime * b / buckets, end = m.endTime * (b + 1) / buckets;
      uint64_t high = at(start), low = high;
      for (auto it = exact.upper_bound(start); it != exact.end() && it->first < end; ++it) {
        high = std::max(high, it->second);
        low = std::min(low, it->second);
      }
      std::vector<uint64_t> totals;
      for (const HeapPoint& x : s) {
        if (x.time >= start && x.time < end) totals.push_back(x.total());
      }
      EXPECT_NE(std::find(totals.begin(), totals.end(), high), totals.end()) << buckets << " " << b;
      EXPECT_NE(std::find(totals.begin(), totals.end(), low), totals.end()) << buckets << " " << b;
    }
  }
}

// The most objects alive at once (the exact mode's phantom references): against a sweep
// of every allocation time, by hand on the small profile and on many random objects.
TEST(LifetimeHeapSeries, PeakObjectsIsTheMostAliveAtOnce) {
  auto brute = [](const dragnet::profile::Profile& p) {
    uint64_t peak = 0;
    for (const auto& at : p.objects) {
      uint64_t alive = 0;
      for (const auto& r : p.objects) alive += r.alloc <= at.alloc && at.alloc < r.death;
      peak = std::max(peak, alive);
    }
    return peak;
  };
  dragnet::profile::Profile p = lifetimeProfile();
  EXPECT_EQ(peakObjects(buildModel(p)), 3u);  // 1, 2 and 3 from 300; 4, 7 and 5 from 1200
  EXPECT_EQ(peakObjects(buildModel(p)), brute(p));
  std::mt19937_64 random(7);
  for (auto& r : p.objects) {
    r.alloc = random() % 1000;
    r.death = r.alloc + random() % 300;
  }
  for (int i = 0; i < 300; ++i) {
    auto r = p.objects[static_cast<size_t>(i) % p.objects.size()];
    r.alloc = random() % 1000;
    r.death = r.alloc + random() % 300;
    p.objects.push_back(r);
  }
  EXPECT_EQ(peakObjects(buildModel(p)), brute(p));
}

}  // namespace
