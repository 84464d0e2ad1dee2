// The heap over time and at each GC (src/analyses/lifetime/model/heap.h) of the profile in
// lifetime_profile.h, with hand-computed buckets.
#include "analyses/lifetime/model/heap.h"

#include <gtest/gtest.h>

#include "lifetime_profile.h"

namespace {

using namespace dragnet::analyses::lifetime;
using dragnet::test::lifetimeProfile;

Space sum(const std::vector<HeapBucket>& buckets, Phase p) {
  Space s = 0;
  for (const HeapBucket& b : buckets) s += b.space[static_cast<size_t>(p)];
  return s;
}

TEST(LifetimeHeap, FourBucketsByHand) {
  dragnet::profile::Profile p = lifetimeProfile();
  Model m = buildModel(p);
  std::vector<HeapBucket> b = heapOverTime(m, 4);
  ASSERT_EQ(b.size(), 4u);
  EXPECT_EQ(b[0].start, 0u);
  EXPECT_EQ(b[0].end, 500u);
  EXPECT_EQ(b[3].start, 1500u);
  EXPECT_EQ(b[3].end, 2000u);
  // [0, 500): void 1; in use 2 [200,300) + 3 [450,500); lag 3; drag 2 [300,500).
  EXPECT_TRUE(b[0].space[3] == 9600);
  EXPECT_TRUE(b[0].space[1] == 3600);
  EXPECT_TRUE(b[0].space[0] == 3600);
  EXPECT_TRUE(b[0].space[2] == 4800);
  // [500, 1000): only 2's drag: 24 bytes all along.
  EXPECT_DOUBLE_EQ(b[1].average(Phase::Drag), 24.0);
  EXPECT_DOUBLE_EQ(b[1].averageTotal(), 24.0);
  // [1000, 1500): lag 4, 5, 7 = 560 + 3,200 + 1,200; in use 5,040 + 6,400 + 1,200;
  // drag 22,400 + 7,200.
  EXPECT_TRUE(b[2].space[0] == 4960);
  EXPECT_TRUE(b[2].space[1] == 12640);
  EXPECT_TRUE(b[2].space[2] == 29600);
  EXPECT_TRUE(b[2].space[3] == 0);
  // [1500, 2000): 5 in use all along (32 bytes), 6 void for 200 (40 bytes).
  EXPECT_DOUBLE_EQ(b[3].average(Phase::Use), 32.0);
  EXPECT_DOUBLE_EQ(b[3].average(Phase::Void), 16.0);
  EXPECT_DOUBLE_EQ(b[3].average(Phase::Lag), 0.0);
}

TEST(LifetimeHeap, FractionalEdgeBuckets) {
  dragnet::profile::Profile p = lifetimeProfile();
  Model m = buildModel(p);
  std::vector<HeapBucket> b = heapOverTime(m, 3);  // [0,666) [666,1333) [1333,2000)
  ASSERT_EQ(b.size(), 3u);
  EXPECT_EQ(b[1].start, 666u);
  EXPECT_EQ(b[1].end, 1333u);
  // Drag in [666, 1333): 2 until 1000 (334 x 24), 4 from 1100 (233 x 56), 7 from 1200
  // (133 x 24).
  EXPECT_TRUE(b[1].space[2] == 8016 + 13048 + 3192);
  EXPECT_TRUE(b[0].space[2] == 366 * 24);
}

TEST(LifetimeHeap, FullBucketsFromTheDifferenceArray) {
  dragnet::profile::Profile p = lifetimeProfile();
  Model m = buildModel(p);
  std::vector<HeapBucket> b = heapOverTime(m, 20);  // width 100
  ASSERT_EQ(b.size(), 20u);
  // Object 2 drags over [300, 1000): buckets 3..9 are full of it, 5..9 hold nothing else.
  for (size_t i = 5; i < 10; ++i) {
    EXPECT_DOUBLE_EQ(b[i].average(Phase::Drag), 24.0) << i;
    EXPECT_DOUBLE_EQ(b[i].averageTotal(), 24.0) << i;
  }
  // [1000, 1100): 4 lags 10 then is in use 90 (56 bytes); 5 and 7 are not yet allocated.
  EXPECT_DOUBLE_EQ(b[10].average(Phase::Lag), 5.6);
  EXPECT_DOUBLE_EQ(b[10].average(Phase::Use), 50.4);
}

TEST(LifetimeHeap, BucketsAddUpToTheTotalSpace) {
  dragnet::profile::Profile p = lifetimeProfile();
  Model m = buildModel(p);
  for (size_t n : {1, 3, 4, 7, 20, 400, 1999, 2000, 5000}) {
    std::vector<HeapBucket> b = heapOverTime(m, n);
    EXPECT_EQ(b.size(), std::min<size_t>(n, 2000)) << n;
    Space all = 0;
    double approx = 0;
    for (Phase ph : kAllPhases) {
      EXPECT_TRUE(sum(b, ph) == m.totals[ph]) << n << " " << phaseName(ph);
      all += sum(b, ph);
    }
    for (const HeapBucket& x : b) approx += x.averageTotal() * static_cast<double>(x.end - x.start);
    EXPECT_TRUE(all == m.totals.total) << n;
    EXPECT_NEAR(approx, 104800.0, 1e-6) << n;
    EXPECT_EQ(b.back().end, 2000u);
  }
  dragnet::profile::Profile none = lifetimeProfile();
  none.objects.clear();
  none.gcs.clear();
  EXPECT_TRUE(heapOverTime(buildModel(none), 400).empty());  // end time 0
  EXPECT_TRUE(heapAtGcs(buildModel(none)).empty());
}

TEST(LifetimeHeap, AtEachGc) {
  dragnet::profile::Profile p = lifetimeProfile();
  Model m = buildModel(p);
  std::vector<HeapAtGc> h = heapAtGcs(m);
  ASSERT_EQ(h.size(), 5u);
  using Bytes = std::array<uint64_t, kPhases>;    // lag, use, drag, void
  EXPECT_EQ(h[0].bytes, (Bytes{24, 0, 24, 24}));  // @400: 3 lags, 2 drags, 1 void
  EXPECT_EQ(h[1].bytes, (Bytes{0, 0, 24, 0}));    // @500: 1 and 3 freed
  EXPECT_EQ(h[2].bytes, (Bytes{56, 0, 0, 0}));    // @1000: 4 just allocated
  EXPECT_EQ(h[3].bytes, (Bytes{0, 32, 0, 0}));    // @1500: 5 in use
  EXPECT_EQ(h[4].bytes, (Bytes{0, 32, 0, 0}));    // @1800: 6 freed
  EXPECT_EQ(h[1].gc, 2u);
  EXPECT_EQ(h[1].time, 500u);
  EXPECT_TRUE(h[1].forced);
  EXPECT_EQ(h[0].total(), 72u);
}

}  // namespace
