// The lifetime model (src/analyses/lifetime/model/aggregate.h) of the hand-computed profile in
// lifetime_profile.h: per-object phases, totals, precision, grouping and patterns.
#include "analyses/lifetime/model/aggregate.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>

#include "lifetime_profile.h"
#include "report/text_format.h"

namespace {

using namespace dragnet::analyses::lifetime;
using dragnet::profile::kNoTime;
using dragnet::profile::ObjectRecord;
using dragnet::test::lifetimeProfile;

const ObjectRecord& byId(const Model& m, uint64_t id) {
  auto index = objectIndex(m, id);
  EXPECT_TRUE(index.has_value()) << id;
  return object(m, *index);
}

Life lifeOfId(const Model& m, uint64_t id) {
  return lifeOf(byId(m, id), m.settings.useEpoch, m.forcedGcs);
}

std::vector<uint64_t> idsOf(const Model& m, std::span<const uint32_t> indices) {
  std::vector<uint64_t> ids;
  for (uint32_t i : indices) ids.push_back(object(m, i).id);
  return ids;
}

TEST(LifetimeSettings, FromMetaWithDefaultsAndSuffixes) {
  Settings s = settingsOf(lifetimeProfile());
  EXPECT_EQ(s.useEpoch, 100u);
  EXPECT_EQ(s.gcInterval, 1024u);
  EXPECT_EQ(s.stack, 2u);
  s = settingsOf(lifetimeProfile({{"use.epoch", ""}, {"gc.interval", ""}, {"stack", ""}}));
  EXPECT_EQ(s.useEpoch, 65536u);
  EXPECT_EQ(s.gcInterval, 0u);
  EXPECT_EQ(s.stack, 8u);
  s = settingsOf(lifetimeProfile({{"use.epoch", "64k"}, {"gc.interval", "2M"}, {"stack", "0"}}));
  EXPECT_EQ(s.useEpoch, 65536u);
  EXPECT_EQ(s.gcInterval, 2u << 20);
  EXPECT_EQ(s.stack, 0u);
  s = settingsOf(lifetimeProfile({{"use.epoch", "12q"}, {"stack", "-1"}}));
  EXPECT_EQ(s.useEpoch, 65536u);  // malformed: the default
  EXPECT_EQ(s.stack, 8u);
}

TEST(LifetimeObject, EpochEnd) {
  EXPECT_EQ(epochEnd(250, 100), 300u);
  EXPECT_EQ(epochEnd(300, 100), 400u);  // a use at an epoch's start may last all of it
  EXPECT_EQ(epochEnd(0, 100), 100u);
  EXPECT_EQ(epochEnd(1234, 0), 1234u);                            // epoch 0: exact last uses
  EXPECT_EQ(epochEnd(~uint64_t{0} - 1, 1u << 20), ~uint64_t{0});  // saturates
}

TEST(LifetimeObject, PhasesOfEachKind) {
  dragnet::profile::Profile p = lifetimeProfile();
  Model m = buildModel(p);
  // Void: never got (its puts do not count): void time = death - alloc.
  Life one = lifeOfId(m, 1);
  EXPECT_FALSE(one.used);
  EXPECT_EQ(one.time(Phase::Void), 400u);
  EXPECT_EQ(one.time(Phase::Lag) + one.time(Phase::Use) + one.time(Phase::Drag), 0u);
  // Dragged, not lagged: got at allocation; last get 250 counts until its epoch's end 300.
  Life two = lifeOfId(m, 2);
  EXPECT_TRUE(two.used);
  EXPECT_FALSE(two.lagged());
  EXPECT_TRUE(two.dragged());
  EXPECT_EQ(two.lastUse, 300u);
  EXPECT_EQ(two.time(Phase::Lag), 0u);
  EXPECT_EQ(two.time(Phase::Use), 100u);
  EXPECT_EQ(two.time(Phase::Drag), 700u);
  EXPECT_EQ(two.time(Phase::Void), 0u);
  // Lag 150, not lagged: no forced GC between its allocation (300) and first get (450). The
  // last get's epoch ends at its death: lastUse = min(death, 500), no drag.
  Life three = lifeOfId(m, 3);
  EXPECT_FALSE(three.lagged());
  EXPECT_FALSE(three.dragged());
  EXPECT_EQ(three.time(Phase::Lag), 150u);
  EXPECT_EQ(three.time(Phase::Use), 50u);
  EXPECT_EQ(three.time(Phase::Drag), 0u);
  // Lagged once GC 1 (at 400) is a forced one: it sat unused through it.
  dragnet::profile::Profile forced = lifetimeProfile();
  forced.gcs[0].forced = true;
  Model withForced = buildModel(forced);
  EXPECT_TRUE(lifeOfId(withForced, 3).lagged());
  EXPECT_FALSE(lifeOfId(withForced, 2).lagged());  // got at its allocation
  EXPECT_EQ(withForced.totals.lagged, 1u);
  // Epoch rounding: one get at 1010 is in use until 1100.
  Life four = lifeOfId(m, 4);
  EXPECT_EQ(four.firstUse, 1010u);
  EXPECT_EQ(four.lastUse, 1100u);
  EXPECT_EQ(four.time(Phase::Use), 90u);
  EXPECT_EQ(four.time(Phase::Drag), 400u);
  // Alive at the end: dies at the end time 2000, epoch end 2000 -> no drag.
  Life five = lifeOfId(m, 5);
  EXPECT_EQ(five.death, 2000u);
  EXPECT_EQ(five.time(Phase::Lag), 100u);
  EXPECT_EQ(five.time(Phase::Use), 700u);
  EXPECT_FALSE(five.dragged());
}

TEST(LifetimeObject, ClampsInconsistentTimesIntoTheLifetime) {
  ObjectRecord r;
  r.alloc = 100;
  r.death = 200;
  r.firstGet = 250;  // after the death
  r.lastGet = 260;
  Life l = lifeOf(r, 100);
  EXPECT_EQ(l.time(Phase::Lag), 100u);
  EXPECT_EQ(l.time(Phase::Use), 0u);
  EXPECT_EQ(l.time(Phase::Drag), 0u);
  r.firstGet = 150;
  r.lastGet = kNoTime;  // no last get recorded: the first one's epoch
  l = lifeOf(r, 100);
  EXPECT_EQ(l.lastUse, 200u);
  EXPECT_EQ(l.time(Phase::Use), 50u);
}

TEST(LifetimeModel, Totals) {
  dragnet::profile::Profile p = lifetimeProfile();
  Model m = buildModel(p);
  const Stats& t = m.totals;
  EXPECT_EQ(m.endTime, 2000u);
  EXPECT_EQ(t.objects, 7u);
  EXPECT_EQ(t.bytes, 224u);
  EXPECT_EQ(t.lagged, 0u);  // no first get after a forced GC that followed the allocation
  EXPECT_EQ(t.dragged, 3u);
  EXPECT_EQ(t.voids, 2u);
  EXPECT_EQ(t.count(Phase::Use), 5u);
  EXPECT_TRUE(t.total == 104800);
  EXPECT_TRUE(t[Phase::Lag] == 8560);
  EXPECT_TRUE(t[Phase::Use] == 32240);
  EXPECT_TRUE(t[Phase::Drag] == 46400);
  EXPECT_TRUE(t[Phase::Void] == 17600);
  EXPECT_NEAR(Stats::percent(t[Phase::Drag], t.total), 44.2748, 1e-4);
  EXPECT_EQ(dragnet::report::grouped(t.total), "104,800");
}

TEST(LifetimeModel, SpacesBeyond64Bits) {
  dragnet::profile::Profile p = lifetimeProfile();
  ObjectRecord big;
  big.id = 99;
  big.size = uint64_t{1} << 40;
  big.alloc = 0;
  big.death = uint64_t{1} << 40;
  p.objects = {big};
  p.gcs.clear();
  Model m = buildModel(p);
  EXPECT_TRUE(m.totals.total == (Space{1} << 80));
  EXPECT_TRUE(m.totals[Phase::Void] == (Space{1} << 80));
  EXPECT_EQ(dragnet::report::grouped(Space{1} << 80), "1,208,925,819,614,629,174,706,176");
  EXPECT_DOUBLE_EQ(toDouble(m.totals.total), 1208925819614629174706176.0);
}

TEST(LifetimeModel, PrecisionCountsOnlyForcedGcsBeforeTheFreeingOne) {
  dragnet::profile::Profile p = lifetimeProfile();
  Model m = buildModel(p);
  const Precision& pr = m.precision;
  // Gaps: 1: 500-100 (GC 1 at 400 was not forced), 3: 500-300, 2: 1000-500,
  // 4: 1500-1000, 7: 1500-1100, 6: 1800-1600 (forced GC 4 at 1500 < alloc).
  EXPECT_EQ(pr.maxGap, 500u);
  EXPECT_DOUBLE_EQ(pr.meanGap, 2200.0 / 6);
  EXPECT_EQ(pr.freed, 6u);
  EXPECT_EQ(pr.aliveAtEnd, 1u);
  EXPECT_EQ(pr.gcs, 5u);
  EXPECT_EQ(pr.forcedGcs, 2u);
  // All GCs forced: the gaps of objects 1 and 3 start at GC 1 (400).
  for (auto& g : p.gcs) g.forced = true;
  Model all = buildModel(p);
  EXPECT_EQ(all.precision.maxGap, 500u);  // object 2: 1000 - 500
  EXPECT_DOUBLE_EQ(all.precision.meanGap, (100.0 + 100 + 500 + 500 + 400 + 200) / 6);
}

TEST(LifetimeModel, ClassesByTotalSpace) {
  dragnet::profile::Profile p = lifetimeProfile();
  Model m = buildModel(p);
  ASSERT_EQ(m.classes.size(), 4u);
  const ClassGroup& point = m.classes[0];
  EXPECT_EQ(point.id, 1u);
  EXPECT_EQ(point.name, "app.Point");
  EXPECT_EQ(point.stats.objects, 4u);
  EXPECT_EQ(point.stats.lagged, 0u);
  EXPECT_EQ(point.stats.dragged, 2u);  // 2, 7
  EXPECT_EQ(point.stats.voids, 1u);    // 1
  EXPECT_TRUE(point.stats.total == 43200);
  EXPECT_TRUE(point.stats[Phase::Lag] == 4800);
  EXPECT_TRUE(point.stats[Phase::Use] == 4800);
  EXPECT_TRUE(point.stats[Phase::Drag] == 24000);
  EXPECT_TRUE(point.stats[Phase::Void] == 9600);
  EXPECT_EQ(m.classes[1].name, "int[]");
  EXPECT_TRUE(m.classes[1].stats.total == 28000);
  EXPECT_EQ(m.classes[2].name, "app.Node");
  EXPECT_EQ(m.classes[3].name, "java.lang.String");
  EXPECT_TRUE(m.classes[3].stats[Phase::Void] == 8000);
  EXPECT_EQ(classByName(m, "int[]"), &m.classes[1]);
  EXPECT_EQ(classById(m, 3), &m.classes[2]);
  EXPECT_EQ(classById(m, 0), nullptr);
  EXPECT_EQ(classById(m, 5), nullptr);
  EXPECT_EQ(point.nested, std::vector<uint32_t>{0});
}

TEST(LifetimeModel, AllocationSitesAreMethods) {
  dragnet::profile::Profile p = lifetimeProfile();
  Model m = buildModel(p);
  ASSERT_EQ(m.methods.size(), 2u);
  // build: the Point and int[] sites (lines 10 and 11 are one allocation site).
  EXPECT_EQ(m.methods[0].methodId, dragnet::test::kBuild);
  EXPECT_EQ(m.methods[0].name, "app.Main.build(Main.java)");
  EXPECT_EQ(m.methods[0].stats.objects, 5u);
  EXPECT_TRUE(m.methods[0].stats.total == 71200);
  EXPECT_TRUE(m.methods[0].stats[Phase::Drag] == 46400);
  EXPECT_EQ(m.methods[0].nested, (std::vector<uint32_t>{0, 1}));
  // helper: its Node and the JNI String its context allocated.
  EXPECT_EQ(m.methods[1].methodId, dragnet::test::kHelper);
  EXPECT_TRUE(m.methods[1].stats.total == 33600);
  EXPECT_EQ(m.methods[1].stats.voids, 1u);
  EXPECT_EQ(m.methods[1].nested, (std::vector<uint32_t>{2, 3}));
  EXPECT_EQ(methodById(m, 2), &m.methods[1]);
}

TEST(LifetimeModel, NestedSitesTruncatedToTheStackDepthAndMergedAcrossThreads) {
  dragnet::profile::Profile p = lifetimeProfile();
  Model m = buildModel(p);
  ASSERT_EQ(m.nested.size(), 4u);
  using dragnet::test::kBuild, dragnet::test::kMain, dragnet::test::kRun, dragnet::test::kHelper;
  // Thread 1's main>build and thread 2's run>main>build are both [build, main] at depth 2.
  const NestedSite& points = m.nested[0];
  EXPECT_EQ(points.id, 1u);
  EXPECT_EQ(points.key, dragnet::test::kPoint);
  EXPECT_EQ(m.paths[points.context], (std::vector<uint32_t>{kBuild, kMain}));
  EXPECT_EQ(points.cls, 0u);
  EXPECT_EQ(points.method, 0u);
  EXPECT_TRUE(points.stats.total == 43200);
  EXPECT_EQ(idsOf(m, objectsOf(m, points)), (std::vector<uint64_t>{2, 7, 1, 3}));
  EXPECT_EQ(nestedFrames(m, points),
            (std::vector<std::string>{"app.Main.build(Main.java:10)", "app.Main.main(Main.java)"}));
  EXPECT_EQ(typeOf(m, points), "app.Point");
  const NestedSite& ints = m.nested[1];
  EXPECT_EQ(m.paths[ints.context], (std::vector<uint32_t>{kBuild, kRun}));
  EXPECT_TRUE(ints.stats.total == 28000);
  const NestedSite& node = m.nested[2];
  EXPECT_EQ(m.paths[node.context], (std::vector<uint32_t>{kHelper, kBuild}));
  EXPECT_EQ(node.cls, 2u);
  const NestedSite& jni = m.nested[3];
  EXPECT_EQ(jni.context, node.context);  // run>main>build>helper truncated
  EXPECT_EQ(jni.method, 1u);             // the context's method: helper
  EXPECT_EQ(nestedFrames(m, jni),
            (std::vector<std::string>{"app.Main.helper(Main.java)", "app.Main.build(Main.java)"}));
  EXPECT_EQ(nestedById(m, 4), &jni);
  for (uint64_t id : {2, 7, 1, 3}) EXPECT_EQ(m.nestedOf[*objectIndex(m, id)], 0u);
  EXPECT_EQ(m.nestedOf[*objectIndex(m, 6)], 3u);
}

TEST(LifetimeModel, UnlimitedStackSeparatesCallers) {
  dragnet::profile::Profile p = lifetimeProfile({{"stack", "0"}});
  Model m = buildModel(p);
  ASSERT_EQ(m.nested.size(), 5u);
  // The Point site splits into main>build (1, 2: 28,800) and run>main>build (3, 7: 14,400).
  EXPECT_EQ(idsOf(m, objectsOf(m, m.nested[0])), (std::vector<uint64_t>{2, 1}));
  EXPECT_TRUE(m.nested[0].stats.total == 28800);
  EXPECT_EQ(
      m.paths[m.nested[3].context],
      (std::vector<uint32_t>{dragnet::test::kBuild, dragnet::test::kMain, dragnet::test::kRun}));
  EXPECT_EQ(idsOf(m, objectsOf(m, m.nested[3])), (std::vector<uint64_t>{7, 3}));
  EXPECT_TRUE(m.nested[3].stats.total == 14400);
  EXPECT_EQ(m.classes[0].nested, (std::vector<uint32_t>{0, 3}));
}

TEST(LifetimeModel, LifetimePatternsOfANestedSite) {
  dragnet::profile::Profile p = lifetimeProfile();
  Model m = buildModel(p);
  const NestedSite& points = m.nested[0];
  ASSERT_EQ(points.patterns.size(), 3u);
  // 1: first get in use < main, last in other < use: objects 2 and 7.
  const Pattern& dragged = points.patterns[0];
  EXPECT_EQ(dragged.id, 1u);
  EXPECT_EQ(pathFrames(m, dragged.firstGet),
            (std::vector<std::string>{"app.Main.use(Main.java)", "app.Main.main(Main.java)"}));
  EXPECT_EQ(pathFrames(m, dragged.lastGet),
            (std::vector<std::string>{"app.Main.other(Main.java)", "app.Main.use(Main.java)"}));
  EXPECT_EQ(dragged.representative, 2u);  // 19,200 > 9,600
  EXPECT_TRUE(dragged.stats.total == 28800);
  EXPECT_TRUE(dragged.stats[Phase::Drag] == 24000);
  EXPECT_EQ(idsOf(m, objectsOf(m, dragged)), (std::vector<uint64_t>{2, 7}));
  // 2: never got (no places).
  const Pattern& unused = points.patterns[1];
  EXPECT_EQ(unused.firstGet, 0u);
  EXPECT_EQ(unused.lastGet, 0u);
  EXPECT_TRUE(pathFrames(m, 0).empty());
  EXPECT_EQ(unused.representative, 1u);
  EXPECT_TRUE(unused.stats[Phase::Void] == 9600);
  // 3: first and last get in use < main: object 3.
  const Pattern& lagged = points.patterns[2];
  EXPECT_EQ(lagged.firstGet, lagged.lastGet);
  EXPECT_EQ(lagged.firstGet, dragged.firstGet);
  EXPECT_EQ(lagged.representative, 3u);
  EXPECT_TRUE(lagged.stats[Phase::Lag] == 3600);
  EXPECT_EQ(m.patternOf[*objectIndex(m, 7)], 0u);
  EXPECT_EQ(m.patternOf[*objectIndex(m, 3)], 2u);
  // Sorted by a phase: only patterns with some of it.
  EXPECT_EQ(rankBy(points.patterns, Phase::Drag), std::vector<uint32_t>{0});
  EXPECT_EQ(rankBy(points.patterns, Phase::Lag), (std::vector<uint32_t>{2, 0}));
  EXPECT_EQ(rankBy(points.patterns, Phase::Void), std::vector<uint32_t>{1});
}

TEST(LifetimeModel, RankingsByPhase) {
  dragnet::profile::Profile p = lifetimeProfile();
  Model m = buildModel(p);
  // Drag: Point 24,000, int[] 22,400; Node and String have none.
  EXPECT_EQ(rankBy(m.classes, Phase::Drag), (std::vector<uint32_t>{0, 1}));
  // Void: Point 9,600, String 8,000.
  EXPECT_EQ(rankBy(m.classes, Phase::Void), (std::vector<uint32_t>{0, 3}));
  // Lag: Point 4,800, Node 3,200, int[] 560; limited to 2.
  EXPECT_EQ(rankBy(m.classes, Phase::Lag, 2), (std::vector<uint32_t>{0, 2}));
  // Nested sites of method helper by void: only the JNI String.
  EXPECT_EQ(rankBy(m.nested, m.methods[1].nested, Phase::Void), std::vector<uint32_t>{3});
}

TEST(LifetimeModel, ObjectLookupById) {
  dragnet::profile::Profile p = lifetimeProfile();
  Model m = buildModel(p);
  EXPECT_EQ(objectIndex(m, 7), std::optional<uint32_t>(4));  // written fifth
  EXPECT_EQ(objectIndex(m, 1), std::optional<uint32_t>(0));
  EXPECT_FALSE(objectIndex(m, 8).has_value());
  EXPECT_FALSE(objectIndex(m, 0).has_value());
}

TEST(LifetimeModel, ObjectsOfClassesAndMethodsAndWhereEventsHappened) {
  dragnet::profile::Profile p = lifetimeProfile();
  Model m = buildModel(p);
  EXPECT_EQ(idsOf(m, objectsOf(m, m.classes[0])), (std::vector<uint64_t>{2, 7, 1, 3}));
  EXPECT_EQ(idsOf(m, objectsOf(m, m.methods[0])), (std::vector<uint64_t>{2, 7, 1, 3, 4}));
  EXPECT_EQ(idsOf(m, objectsOf(m, m.methods[1])), (std::vector<uint64_t>{5, 6}));
  uint32_t seven = *objectIndex(m, 7);
  EXPECT_EQ(lifeOf(m, seven).time(Phase::Drag), 300u);
  // Object 1's put and its allocation context (thread 2's contexts are cut at depth 2).
  EXPECT_EQ(eventFrames(m, object(m, *objectIndex(m, 1)).firstPutAt),
            (std::vector<std::string>{"app.Main.use(Main.java)", "app.Main.main(Main.java)"}));
  EXPECT_EQ(eventFrames(m, {2, 5}),
            (std::vector<std::string>{"app.Main.helper(Main.java)", "app.Main.build(Main.java)"}));
  EXPECT_TRUE(eventFrames(m, {}).empty());      // not recorded
  EXPECT_TRUE(eventFrames(m, {3, 1}).empty());  // no such thread
  EXPECT_TRUE(eventFrames(m, {1, 9}).empty());  // no such node
}

TEST(LifetimeModel, AllocProfileHasNoObjects) {
  dragnet::profile::Profile p = lifetimeProfile({{"mode", "alloc"}});
  p.objects.clear();
  p.gcs.clear();
  EXPECT_FALSE(isLifetimeProfile(p));
  Model m = buildModel(p);
  EXPECT_EQ(m.totals.objects, 0u);
  EXPECT_TRUE(m.totals.total == 0);
  EXPECT_TRUE(m.classes.empty());
  EXPECT_TRUE(m.nested.empty());
  EXPECT_EQ(m.endTime, 0u);
  EXPECT_EQ(m.precision.freed, 0u);
  EXPECT_TRUE(isLifetimeProfile(lifetimeProfile()));
}

}  // namespace

namespace {

// Sampled profiles (meta sample=S): a record stands for 1 / (1 - exp(-size / S)) objects,
// an integer rounded up or down by a hash of its id.
TEST(LifetimeSampled, WeightIsTheInverseSamplingChanceRoundedWithoutBias) {
  ObjectRecord r;
  r.size = 1000;
  EXPECT_EQ(weightOf(r, 0), 1u);  // exact profile
  r.size = 1u << 20;
  EXPECT_EQ(weightOf(r, 1024), 1u);  // far larger than the interval: always sampled
  r.size = 24;
  const double expected = 1.0 / -std::expm1(-24.0 / 16384.0);  // 683.17
  double sum = 0;
  uint64_t lo = ~uint64_t{0}, hi = 0;
  const int n = 20000;
  for (int id = 1; id <= n; ++id) {
    r.id = static_cast<uint64_t>(id);
    uint64_t w = weightOf(r, 16384);
    sum += static_cast<double>(w);
    lo = std::min(lo, w);
    hi = std::max(hi, w);
  }
  EXPECT_EQ(lo, 683u);
  EXPECT_EQ(hi, 684u);
  EXPECT_NEAR(sum / n, expected, 0.01);  // the mean is the expectation (0.17 above 683)
}

// The hand-computed profile read as a sample at interval 64: every count and space is
// the sum of its objects' weights times their own. The weights, 1 / (1 - exp(-size / 64))
// rounded by splitmix64 of the id, computed apart (Python): ids 1-7 (sizes 24, 24, 24,
// 56, 32, 40, 24) stand for 3, 3, 4, 2, 3, 2, 3 objects.
TEST(LifetimeSampled, ModelWeightsCountsAndSpaces) {
  dragnet::profile::Profile p = lifetimeProfile({{"sample", "64"}});
  Model m = buildModel(p);
  EXPECT_EQ(m.settings.sample, 64u);
  const std::map<uint64_t, uint64_t> weights{{1, 3}, {2, 3}, {3, 4}, {4, 2},
                                             {5, 3}, {6, 2}, {7, 3}};
  for (uint32_t i = 0; i < p.objects.size(); ++i) {
    EXPECT_EQ(weightOf(m, i), weights.at(object(m, i).id)) << object(m, i).id;
  }
  EXPECT_EQ(m.totals.objects, 20u);
  EXPECT_EQ(m.totals.bytes, 600u);  // 24 x 13 + 56 x 2 + 32 x 3 + 40 x 2
  EXPECT_EQ(m.totals.voids, 5u);    // objects 1 and 6
  EXPECT_EQ(m.totals.dragged, 8u);  // objects 2, 4 and 7
  // Drag: 700 x 24 x 3 + 400 x 56 x 2 + 300 x 24 x 3; total: each lifetime x size x weight.
  EXPECT_TRUE(m.totals[Phase::Drag] == 116800);
  EXPECT_TRUE(m.totals.total == 283200);
  // The precision of deaths counts the objects too: all but object 5 freed; gaps 400, 200,
  // 500, 500, 400, 200 (ids 1, 3, 2, 4, 7, 6) weighted 3, 4, 3, 2, 3, 2: 6,100 / 17.
  EXPECT_EQ(m.precision.freed, 17u);
  EXPECT_EQ(m.precision.aliveAtEnd, 3u);
  EXPECT_EQ(m.precision.maxGap, 500u);
  EXPECT_NEAR(m.precision.meanGap, 6100.0 / 17.0, 1e-9);
  // Patterns still hold their records (the member ranges), not the weighted counts.
  uint32_t records = 0;
  for (const NestedSite& s : m.nested) {
    for (const Pattern& pat : s.patterns) records += objectsOf(m, pat).size();
  }
  EXPECT_EQ(records, p.objects.size());
}

}  // namespace
