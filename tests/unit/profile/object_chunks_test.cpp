// Mode lifetime's Objects and Live chunks in format 4 (src/profile/objects_codec.h): the
// records read back exactly, a large batch is split into chunks of kObjectsPerChunk
// records, a typical object takes at most 8 bytes of the file, a damaged zstd frame or an
// oversized column block costs its chunk only, and a format 3 file (records uncompressed)
// still reads.
#include <gtest/gtest.h>

#include <random>

#include "chunk_files.h"
#include "profile/codec.h"
#include "profile/objects_codec.h"
#include "profile/reader.h"
#include "profile/writer.h"

using namespace dragnet::profile;
using namespace dragnet::profile::testing;

namespace {

class ObjectChunks : public ChunkFileTest {};

// Records as the exact agent writes them: ids handed out in blocks per thread, a few
// dozen sites and contexts, allocation times growing by the objects' sizes, deaths at the
// GCs (every 8 MB), uses shortly after the allocation, a quarter never got.
std::vector<ObjectRecord> typicalRecords(size_t n) {
  std::mt19937_64 rng(42);
  std::vector<ObjectRecord> out;
  uint64_t clock = 0;
  constexpr uint32_t kSizes[] = {16, 24, 32, 48, 64, 128};
  for (size_t i = 0; i < n; ++i) {
    ObjectRecord r;
    r.id = (i / 1024) * 2048 + (i % 1024) + 1 + (i % 2048 >= 1024 ? 1024 : 0);
    r.thread = 1 + static_cast<uint32_t>(rng() % 4);
    uint32_t site = static_cast<uint32_t>(rng() % 36);
    r.node = 10 + site * 3;
    r.key = kAllocBit | (site + 1) << 4;
    r.size = kSizes[site % 6];
    r.alloc = clock += r.size;
    r.deathGc = static_cast<uint32_t>(r.alloc / (8 << 20)) + 1 + (rng() % 8 == 0 ? 1 : 0);
    r.death = uint64_t{r.deathGc} * (8 << 20);
    if (rng() % 4 != 0) {
      r.firstGet = r.alloc + rng() % 64;
      r.lastGet = r.firstGet + (rng() % 2 ? 0 : rng() % 4096);
    }
    r.firstPut = r.alloc;
    r.lastPut = r.alloc + rng() % 8;
    out.push_back(r);
  }
  return out;
}

fs::path writeObjects(const fs::path& dir, const std::vector<ObjectRecord>& records) {
  fs::path path = dir / "objects.dragnet";
  Writer w;
  std::string error;
  if (!w.open(path.string(), error)) throw std::runtime_error(error);
  w.meta({{"mode", "lifetime"}});
  w.objects(records);
  w.end({});
  w.close();
  return path;
}

TEST_F(ObjectChunks, RecordsReadBackAcrossChunks) {
  std::vector<ObjectRecord> records = typicalRecords(2 * kObjectsPerChunk + 100);
  records[5].firstGetAt = {2, 7};
  records[5].lastPutAt = {3, 0};
  records[6].id = 1;                        // ids need not grow
  records[7].death = records[7].alloc - 1;  // nor deaths follow allocations (wrapping deltas)
  records[8].deathGc = UINT32_MAX;
  fs::path path = writeObjects(dir_, records);
  int objectChunks = 0;
  for (const Chunk& c : chunksOf(slurp(path))) objectChunks += c.type == 8 ? 1 : 0;
  EXPECT_EQ(objectChunks, 3);
  Profile p = read(path);
  EXPECT_EQ(p.version, 4u);
  EXPECT_FALSE(p.corrupt());
  EXPECT_EQ(p.objects, records);
}

TEST_F(ObjectChunks, ATypicalObjectTakesAtMostEightBytes) {
  constexpr size_t kCount = 500000;
  fs::path path = writeObjects(dir_, typicalRecords(kCount));
  uint64_t bytes = fs::file_size(path);
  EXPECT_LE(bytes, 8 * kCount) << static_cast<double>(bytes) / kCount << " bytes per object";
  EXPECT_EQ(read(path).objects.size(), kCount);
}

// The Objects chunk of `records` with its payload changed by `damage`, CRC recomputed.
template <class Damage>
Bytes damagedObjectsChunk(const fs::path& dir, const std::vector<ObjectRecord>& records,
                          Damage damage) {
  Bytes file = slurp(writeObjects(dir, records));
  for (const Chunk& c : chunksOf(file)) {
    if (c.type != 8) continue;
    std::vector<uint8_t> payload(file.begin() + c.offset + kChunkHeaderSize,
                                 file.begin() + c.offset + c.size);
    damage(payload);
    return file.substr(0, c.offset) + chunkBytes(8, payload) + file.substr(c.offset + c.size);
  }
  return file;
}

TEST_F(ObjectChunks, ADamagedFrameCostsItsChunkOnly) {
  std::vector<ObjectRecord> records = typicalRecords(1000);
  Bytes file = damagedObjectsChunk(dir_, records, [](std::vector<uint8_t>& payload) {
    payload[payload.size() / 2] ^= 0x40;  // inside the zstd frame
  });
  spit(dir_ / "damaged.dragnet", file);
  Profile p = read(dir_ / "damaged.dragnet");
  ASSERT_EQ(p.skipped.size(), 1u);
  EXPECT_NE(p.skipped[0].reason.find("malformed Objects chunk"), std::string::npos)
      << p.skipped[0].reason;
  EXPECT_TRUE(p.objects.empty());
  EXPECT_TRUE(p.complete);  // the End chunk after it was read
}

TEST_F(ObjectChunks, AColumnSizeOverTheLimitIsRefused) {
  Bytes file = damagedObjectsChunk(dir_, typicalRecords(10), [](std::vector<uint8_t>& payload) {
    Decoder d(payload.data(), payload.size());
    d.u();  // the columns' size, replaced by one past the limit
    std::span<const uint8_t> frame = d.rest();
    Encoder e;
    e.u(kMaxObjectColumns + 1);
    e.raw(frame);
    payload = e.bytes();
  });
  spit(dir_ / "huge.dragnet", file);
  Profile p = read(dir_ / "huge.dragnet");
  ASSERT_EQ(p.skipped.size(), 1u);
  EXPECT_NE(p.skipped[0].reason.find("object columns of"), std::string::npos)
      << p.skipped[0].reason;
}

// Format 3: record after record, uncompressed (the layout of docs/PROFILE_FORMAT.md).
TEST_F(ObjectChunks, FormatThreeStillReads) {
  Encoder e;
  e.u(1);                                                                     // count
  for (uint64_t v : {9u, 1u, 3u, 0x80000010u, 24u, 1000u, 500u, 2u}) e.u(v);  // id .. deathGc
  for (uint64_t v : {11, 0, 1, 3}) e.u(v);    // firstGet alloc+10, none, firstPut alloc, lastPut
  for (uint64_t v : {1, 4, 0, 0, 0}) e.u(v);  // firstGetAt (1, 4), the others not recorded
  Bytes meta;
  {
    Encoder m;
    m.u(1);
    m.str("mode");
    m.str("lifetime");
    meta = chunkBytes(1, m.bytes());
  }
  Bytes header(kMagic, sizeof kMagic);
  header += Bytes("\x03\0\0\0\0\0\0\0", 8);
  spit(dir_ / "v3.dragnet", header + meta + chunkBytes(8, e.bytes()));
  Profile p = read(dir_ / "v3.dragnet");
  EXPECT_EQ(p.version, 3u);
  ObjectRecord r;
  r.id = 9;
  r.thread = 1;
  r.node = 3;
  r.key = 0x80000010u;
  r.size = 24;
  r.alloc = 1000;
  r.death = 1500;
  r.deathGc = 2;
  r.firstGet = 1010;
  r.firstPut = 1000;
  r.lastPut = 1002;
  r.firstGetAt = {1, 4};
  EXPECT_EQ(p.objects, std::vector<ObjectRecord>{r});
}

}  // namespace
