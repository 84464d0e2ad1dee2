// Mode alloc's Rate chunks (the allocation-rate series): written with the Writer, read by
// the reader in file order; the bytes are the documented layout; a damaged or malformed
// chunk costs itself only and is reported; no flipped bit or cut crashes the reader.
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>

#include "chunk_files.h"
#include "profile/codec.h"
#include "profile/reader.h"
#include "profile/writer.h"

using namespace dragnet::profile;
using namespace dragnet::profile::testing;

namespace {

class RateChunks : public ChunkFileTest {};

constexpr uint32_t kObj = kAllocBit | 1u << 4;  // site 1, object
constexpr uint32_t kInts = kAllocBit | 2u << 4 | static_cast<uint32_t>(ElemKind::Int);  // int[]
constexpr uint64_t kMax64 = std::numeric_limits<uint64_t>::max();

const RateChunk kR1{1, 100, {{kObj, {3, 0, 0, 0}}, {kInts, {2, 20, 96, 0}}}};
const RateChunk kR2{2, 150, {{kObj, {kMax64, 0, 0, 0}}}};
const RateChunk kR3{1, 5000, {}};

// Meta, Thread, Rate x 3, End.
fs::path writeRates(const fs::path& dir) {
  fs::path path = dir / "rate.dragnet";
  Writer w;
  std::string error;
  if (!w.open(path.string(), error)) throw std::runtime_error(error);
  w.meta({{"mode", "alloc"}});
  ThreadChunk t;
  t.thread = 1;
  t.name = "main";
  t.firstNode = 1;
  t.nodes = {{0, 10}, {1, kObj}};
  t.counters = {{2, {3, 0, 0, 0}}};
  w.thread(t);
  w.rate(kR1);
  w.rate(kR2);
  w.rate(kR3);
  w.end({{"threads", "2"}});
  return path;
}

TEST_F(RateChunks, RoundTripInFileOrder) {
  Profile p = read(writeRates(dir_));
  EXPECT_FALSE(p.corrupt());
  EXPECT_TRUE(p.complete);
  EXPECT_EQ(p.unknownChunks, 0u);
  EXPECT_EQ(p.chunks, 6u);
  EXPECT_EQ(p.rates, (std::vector<RateChunk>{kR1, kR2, kR3}));
}

// The bytes are the layout docs/PROFILE_FORMAT.md gives, both ways.
TEST_F(RateChunks, BytesAreTheDocumentedLayout) {
  Encoder e;
  // thread 3, time 1234, count 2: (kObj: 7 objects) and (kInts: 1 array, 4 elements, 32 bytes).
  for (uint64_t v : {3, 1234, 2}) e.u(v);
  for (uint64_t v : {uint64_t{kObj}, uint64_t{7}, uint64_t{0}, uint64_t{0}}) e.u(v);
  for (uint64_t v : {uint64_t{kInts}, uint64_t{1}, uint64_t{4}, uint64_t{32}}) e.u(v);
  const Bytes want = chunkBytes(15, e.bytes());
  const RateChunk r{3, 1234, {{kObj, {7, 0, 0, 0}}, {kInts, {1, 4, 32, 0}}}};

  fs::path path = dir_ / "layout.dragnet";
  {
    Writer w;
    std::string error;
    ASSERT_TRUE(w.open(path.string(), error)) << error;
    w.rate(r);
  }
  const Bytes file = slurp(path);
  EXPECT_EQ(file.substr(kHeaderSize), want);
  spit(path, file.substr(0, kHeaderSize) + want);
  Profile p = read(path);
  EXPECT_FALSE(p.corrupt());
  EXPECT_EQ(p.rates, (std::vector<RateChunk>{r}));
}

// One bit flipped in a Rate chunk costs that chunk only.
TEST_F(RateChunks, AFlippedBitCostsItsChunkOnly) {
  fs::path path = writeRates(dir_);
  const Bytes good = slurp(path);
  const std::vector<Chunk> chunks = chunksOf(good);
  ASSERT_EQ(chunks.size(), 6u);
  const RateChunk all[] = {kR1, kR2, kR3};
  for (size_t i = 2; i < 5; ++i) {
    const Chunk& c = chunks[i];
    ASSERT_EQ(c.type, uint8_t(ChunkType::Rate));
    std::vector<RateChunk> want;
    for (size_t j = 0; j < 3; ++j) {
      if (j + 2 != i) want.push_back(all[j]);
    }
    for (size_t at : {size_t{0}, size_t{2}, size_t{6}, size_t{9}, c.size - 1}) {
      SCOPED_TRACE("chunk " + std::to_string(i) + " byte " + std::to_string(at));
      Bytes bad = good;
      bad[c.offset + at] = static_cast<char>(bad[c.offset + at] ^ 0x10);
      spit(dir_ / "bad.dragnet", bad);
      const Profile got = read(dir_ / "bad.dragnet");
      ASSERT_EQ(got.skipped.size(), 1u);
      EXPECT_EQ(got.skipped[0].offset, c.offset);
      EXPECT_EQ(got.rates, want);
    }
  }
}

// Every bit of the file flipped and every cut: read, never a crash.
TEST_F(RateChunks, EveryBitFlippedAndEveryCutReads) {
  const Bytes good = slurp(writeRates(dir_));
  for (size_t byte = kHeaderSize; byte < good.size(); ++byte) {
    for (int bit = 0; bit < 8; ++bit) {
      Bytes bad = good;
      bad[byte] = static_cast<char>(bad[byte] ^ (1 << bit));
      spit(dir_ / "bad.dragnet", bad);
      Profile p = read(dir_ / "bad.dragnet");
      ASSERT_EQ(p.skipped.size(), 1u) << byte << ":" << bit;
      EXPECT_LE(p.rates.size(), 3u);
    }
  }
  for (size_t n = kHeaderSize; n < good.size(); ++n) {
    spit(dir_ / "cut.dragnet", good.substr(0, n));
    Profile p = read(dir_ / "cut.dragnet");
    EXPECT_FALSE(p.corrupt()) << n;
    EXPECT_LE(p.rates.size(), 3u);
  }
}

Bytes ratePayload(std::initializer_list<uint64_t> values) {
  Encoder e;
  for (uint64_t v : values) e.u(v);
  return chunkBytes(uint8_t(ChunkType::Rate), e.bytes());
}

// Chunks whose CRC holds but whose content breaks the format's rules are skipped whole and
// reported; the chunks around them read.
TEST_F(RateChunks, MalformedChunksAreSkippedAndReported) {
  fs::path path = dir_ / "malformed.dragnet";
  {
    Writer w;
    std::string error;
    ASSERT_TRUE(w.open(path.string(), error)) << error;
    w.meta({{"mode", "alloc"}});
    w.rate(kR1);
  }
  Bytes file = slurp(path);
  file += ratePayload({0, 5, 0});                        // thread 0
  file += ratePayload({1, 5, 1, 10, 1, 0, 0});           // a method id, not an allocation key
  file += ratePayload({1, 5, 1, kRootKey, 1, 0, 0});     // the root key
  file += ratePayload({1, 5, 2, kObj, 1, 0, 0, kObj});   // cut short in its second record
  file += ratePayload({1, 5, uint64_t{1} << 40, kObj});  // a count far past the payload
  file += ratePayload({uint64_t{1} << 32, 5, 0});        // a thread id over 32 bits
  spit(path, file);
  Profile p = read(path);
  const char* want[] = {
      "malformed Rate chunk: rate record of thread 0",
      "malformed Rate chunk: rate record of key 10",
      "malformed Rate chunk: rate record of key 4294967295",
      "malformed Rate chunk: varint runs past the end at payload offset 16",
      "malformed Rate chunk: item count exceeds the payload at payload offset 8",
      "malformed Rate chunk: value over 32 bits at payload offset 5",
  };
  ASSERT_EQ(p.skipped.size(), std::size(want));
  for (size_t i = 0; i < p.skipped.size(); ++i) EXPECT_EQ(p.skipped[i].reason, want[i]) << i;
  EXPECT_EQ(p.rates, (std::vector<RateChunk>{kR1}));
}

}  // namespace
