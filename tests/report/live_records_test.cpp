// Live records (mode lifetime, profile format 3): what the reader makes of the objects a
// killed JVM's flushes wrote as alive. Per object its death record wins wherever it is in
// the file, else its newest Live record, which reads as alive at the end (deathGc 0, death
// = that flush's time); a complete profile's Live records change nothing.
#include <gtest/gtest.h>

#include <stdexcept>

#include "known_profile.h"
#include "profile/reader.h"
#include "profile/writer.h"

namespace fs = std::filesystem;
using namespace dragnet::profile;

namespace {

ObjectRecord object(uint64_t id, uint64_t alloc, uint64_t lastGet = kNoTime) {
  ObjectRecord r;
  r.id = id;
  r.thread = 1;
  r.size = 16 * id;
  r.alloc = alloc;
  r.death = alloc;
  r.firstGet = lastGet == kNoTime ? kNoTime : alloc + 1;
  r.lastGet = lastGet;
  return r;
}

Profile read(const fs::path& p) {
  Profile out;
  std::string error;
  if (!readProfile(p.string(), out, error)) throw std::runtime_error(error);
  return out;
}

// Object 1 dies after the first flush; 2 is written by both flushes (the second with a
// later use); 3 only by the second; 4 died before the first flush; 5 dies, its death
// written before its (stale, racy) Live record.
fs::path writeFlushes(const fs::path& dir, bool complete) {
  fs::path path = dir / (complete ? "complete.dragnet" : "killed.dragnet");
  Writer w;
  std::string error;
  if (!w.open(path.string(), error)) throw std::runtime_error(error);
  w.meta({{"mode", "lifetime"}});
  w.gcs(1, {{500, true}});
  ObjectRecord four = object(4, 100);
  four.death = 500;
  four.deathGc = 1;
  ObjectRecord five = object(5, 150);
  five.death = 500;
  five.deathGc = 1;
  w.objects({four, five});
  w.live(1000, {object(1, 200), object(2, 300, 900), object(5, 150)});
  w.gcs(2, {{1500, true}});
  ObjectRecord one = object(1, 200);
  one.death = 1500;
  one.deathGc = 2;
  w.objects({one});
  w.live(2000, {object(2, 300, 1900), object(3, 1200)});
  if (complete) {
    ObjectRecord two = object(2, 300, 1900), three = object(3, 1200);
    two.death = three.death = 2500;
    w.objects({two, three});
    w.end({});
  }
  return path;
}

TEST(LiveRecords, NewestLiveRecordOfObjectsWithoutADeath) {
  fs::path dir = dragnet::test::testDir();
  Profile p = read(writeFlushes(dir, false));
  EXPECT_FALSE(p.complete);
  EXPECT_FALSE(p.corrupt());
  EXPECT_EQ(p.liveAtFlush, 2u);
  EXPECT_EQ(p.liveTime, 2000u);
  ASSERT_EQ(p.objects.size(), 5u);
  std::map<uint64_t, ObjectRecord> byId;
  for (const ObjectRecord& r : p.objects) byId[r.id] = r;
  ASSERT_EQ(byId.size(), 5u);
  EXPECT_EQ(byId[1].death, 1500u);  // died: its death, not the first flush's record
  EXPECT_EQ(byId[1].deathGc, 2u);
  EXPECT_EQ(byId[2].deathGc, 0u);  // alive: the second flush's record
  EXPECT_EQ(byId[2].death, 2000u);
  EXPECT_EQ(byId[2].lastGet, 1900u);
  EXPECT_EQ(byId[2].size, 32u);
  EXPECT_EQ(byId[3].death, 2000u);
  EXPECT_EQ(byId[3].alloc, 1200u);
  EXPECT_EQ(byId[4].deathGc, 1u);
  EXPECT_EQ(byId[5].death, 500u);  // its death came first in the file and still wins
  EXPECT_EQ(byId[5].deathGc, 1u);
}

TEST(LiveRecords, CompleteProfileIgnoresThem) {
  fs::path dir = dragnet::test::testDir();
  Profile p = read(writeFlushes(dir, true));
  EXPECT_TRUE(p.complete);
  EXPECT_EQ(p.liveAtFlush, 0u);
  ASSERT_EQ(p.objects.size(), 5u);
  for (const ObjectRecord& r : p.objects) {
    if (r.id == 2 || r.id == 3) {
      EXPECT_EQ(r.death, 2500u) << r.id;
    }
  }
}

}  // namespace
