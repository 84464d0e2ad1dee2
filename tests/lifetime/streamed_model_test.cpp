// A lifetime profile read with its objects left in the file (profile::ReadOptions::
// streamObjects, what `dragnet report` does): the profile holds no object, the model no
// per-object index, and every report (text, JSON, HTML) is the same byte for byte as from
// the profile read whole: groups, patterns and their representatives, precision, the heap
// over time and at the GCs, the chart's series and the peak of objects alive at once.
#include <gtest/gtest.h>

#include <random>
#include <sstream>

#include "analyses/lifetime/model/aggregate.h"
#include "analyses/lifetime/model/heap.h"
#include "analyses/lifetime/report/report.h"
#include "lifetime_profile.h"
#include "profile/objects_codec.h"

namespace {

using namespace dragnet::analyses::lifetime;
using dragnet::profile::ObjectRecord;
using dragnet::profile::Profile;
using dragnet::test::lifetimeProfile;

// The hand-computed profile plus many random objects over the same contexts and sites,
// with deaths at its GCs and at the end: more than two Objects chunks.
Profile largeProfile() {
  Profile p = lifetimeProfile();
  std::mt19937_64 random(7);
  const uint32_t keys[] = {dragnet::test::kPoint, dragnet::test::kInts, dragnet::test::kNode};
  uint64_t id = 100;
  for (size_t i = 0; i < 2 * dragnet::profile::kObjectsPerChunk + 500; ++i) {
    ObjectRecord r;
    r.id = id += 1 + random() % 3;
    r.thread = 1 + static_cast<uint32_t>(random() % 2);
    r.node = 1 + static_cast<uint32_t>(random() % 5);
    r.key = keys[random() % 3];
    r.size = 16 + random() % 100;
    r.alloc = random() % 1900;
    r.deathGc = static_cast<uint32_t>(random() % 6);
    r.death = r.deathGc == 0 ? 2000 : std::max(r.alloc, p.gcs[r.deathGc - 1].time);
    if (random() % 3 != 0) {
      r.firstGet = r.alloc + random() % 50;
      r.lastGet = r.firstGet + random() % 300;
      r.firstGetAt = {1, static_cast<uint32_t>(1 + random() % 5)};
      r.lastGetAt = {2, static_cast<uint32_t>(1 + random() % 5)};
    }
    p.objects.push_back(r);
  }
  return p;
}

Profile readBack(const std::filesystem::path& path, bool stream) {
  Profile p;
  std::string error;
  EXPECT_TRUE(dragnet::profile::readProfile(path.string(), p, error, {}, {.streamObjects = stream}))
      << error;
  return p;
}

std::string reports(const Model& m) {
  std::ostringstream out;
  dragnet::report::writeLifetimeText(out, m, {.top = 50});
  dragnet::report::writeLifetimeJson(out, m, {});
  dragnet::report::writeLifetimeHtml(out, m, {.top = 50});
  return out.str();
}

TEST(LifetimeStreamedObjects, ReportsEqualThoseOfTheProfileReadWhole) {
  Profile original = largeProfile();
  std::filesystem::path path = dragnet::test::testDir() / "large.dragnet";
  dragnet::test::writeProfile(original, path);
  Profile whole = readBack(path, false), streamed = readBack(path, true);
  ASSERT_EQ(whole.objects.size(), original.objects.size());
  EXPECT_TRUE(streamed.objects.empty());
  EXPECT_EQ(dragnet::profile::objectCount(streamed), original.objects.size());
  Model a = buildModel(whole), b = buildModel(streamed);
  EXPECT_TRUE(a.indexed);
  EXPECT_FALSE(b.indexed);
  EXPECT_TRUE(b.members.empty() && b.byId.empty() && b.nestedOf.empty());
  EXPECT_EQ(peakObjects(a), peakObjects(b));
  EXPECT_GT(peakObjects(b), 1000u);
  EXPECT_EQ(reports(a), reports(b));
  // Each pattern's representative record is the member the indexed model finds by its id.
  for (const NestedSite& s : b.nested) {
    for (const Pattern& pat : s.patterns) {
      EXPECT_EQ(pat.representativeRecord, object(a, *objectIndex(a, pat.representative)));
    }
  }
}

TEST(LifetimeStreamedObjects, AProfileWithoutItsEndIsReadWhole) {
  Profile original = largeProfile();
  original.complete = false;  // writeProfile leaves out the End chunk
  std::filesystem::path path = dragnet::test::testDir() / "killed.dragnet";
  dragnet::test::writeProfile(original, path);
  Profile p = readBack(path, true);
  EXPECT_FALSE(p.objectChunks);
  EXPECT_EQ(p.objects.size(), original.objects.size());
  EXPECT_TRUE(buildModel(p).indexed);
}

}  // namespace
