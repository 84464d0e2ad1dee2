// CallSites chunks (type 16): written with the Writer, read back; the slot of a method
// node (NodeDef::slot) travels in bits 22-29 of its key in profiles whose meta says
// call.slots, and only there; a malformed chunk costs itself only and is reported; damaged
// and truncated files never crash the reader.
#include <gtest/gtest.h>

#include <cstdint>

#include "chunk_files.h"
#include "profile/codec.h"
#include "profile/reader.h"
#include "profile/writer.h"

using namespace dragnet::profile;
using namespace dragnet::profile::testing;

namespace {

class CallSiteChunks : public ChunkFileTest {};

const CallSite kS1{10, 1, 4, 7, 184, "app/Main", "make", "()Ljava/lang/Object;"};
const CallSite kS2{10, 2, 9, 8, 184, "app/Main", "make", "()Ljava/lang/Object;"};
const CallSite kS3{11, kMaxCallSlot, 65535, -1, 0, "", "", ""};

fs::path writeSites(const fs::path& dir, bool slots) {
  fs::path path = dir / "calls.dragnet";
  Writer w;
  std::string error;
  if (!w.open(path.string(), error)) throw std::runtime_error(error);
  std::map<std::string, std::string> meta{{"mode", "alloc"}};
  if (slots) meta[kCallSlotsMeta] = "on";
  w.meta(meta);
  w.methods({{10, "app/Main", "main", "()V", "Main.java"}, {12, "app/Main", "make", "()V", ""}});
  w.callSites({kS1, kS2});
  w.callSites({kS3});
  ThreadChunk t;
  t.thread = 1;
  t.name = "main";
  t.firstNode = 1;
  // main; make from site 1; make from site 2; make from no site; an allocation.
  t.nodes = {{0, 10}, {1, 12, 1}, {1, 12, 2}, {1, 12}, {2, kAllocBit | 5 << 4}};
  t.counters = {{2, {3, 0, 0, 0}}, {3, {1, 0, 0, 0}}};
  w.thread(t);
  w.end({});
  return path;
}

TEST_F(CallSiteChunks, RoundTripWithSlotsInTheKeys) {
  Profile p = read(writeSites(dir_, true));
  EXPECT_FALSE(p.corrupt());
  EXPECT_EQ(p.unknownChunks, 0u);
  ASSERT_EQ(p.callSites.size(), 3u);
  EXPECT_EQ(p.callSites.at({10, 1}), kS1);
  EXPECT_EQ(p.callSites.at({10, 2}), kS2);
  EXPECT_EQ(p.callSites.at({11, kMaxCallSlot}), kS3);
  const ThreadTree& t = p.threads.at(1);
  ASSERT_EQ(t.nodes.size(), 6u);
  EXPECT_EQ(t.nodes[2].key, 12u);
  EXPECT_EQ(t.nodes[2].slot, 1);
  EXPECT_EQ(t.nodes[3].key, 12u);
  EXPECT_EQ(t.nodes[3].slot, 2);
  EXPECT_EQ(t.nodes[4].slot, 0);
  EXPECT_EQ(t.nodes[5].key, kAllocBit | 5 << 4);  // allocation keys are never split
  EXPECT_EQ(t.nodes[5].slot, 0);
  EXPECT_EQ(t.counters[2].count, 3u);
}

// The documented layout: method, number, bci, line (zigzag), opcode, owner, name, descriptor.
TEST_F(CallSiteChunks, Layout) {
  Bytes b = slurp(writeSites(dir_, true));
  std::vector<Chunk> chunks = chunksOf(b);
  ASSERT_GE(chunks.size(), 4u);
  ASSERT_EQ(chunks[2].type, 16);
  Bytes payload = b.substr(chunks[2].offset + kChunkHeaderSize, chunks[2].size - kChunkHeaderSize);
  Bytes want = {2,   10,  1,   4,   14,  char(184), 1,   8,   'a', 'p', 'p',
                '/', 'M', 'a', 'i', 'n', 4,         'm', 'a', 'k', 'e'};
  EXPECT_EQ(payload.substr(0, want.size()), want);
}

// Without meta call.slots a key is a method id as it is, whatever its bits.
TEST_F(CallSiteChunks, KeysAreSplitOnlyInProfilesWithSlots) {
  Profile p = read(writeSites(dir_, false));
  const ThreadTree& t = p.threads.at(1);
  EXPECT_EQ(t.nodes[2].key, 12u | 1u << kCallSlotShift);
  EXPECT_EQ(t.nodes[2].slot, 0);
}

// A profile whose Meta chunk was lost still has its slots split off (it has call sites).
TEST_F(CallSiteChunks, SlotsAreSplitWithoutTheMetaChunk) {
  Bytes b = slurp(writeSites(dir_, true));
  std::vector<Chunk> chunks = chunksOf(b);
  ASSERT_EQ(chunks[0].type, uint8_t(ChunkType::Meta));
  b[chunks[0].offset + kChunkHeaderSize] ^= 1;  // its CRC fails
  spit(dir_ / "nometa.dragnet", b);
  Profile p = read(dir_ / "nometa.dragnet");
  EXPECT_TRUE(p.metaLost);
  EXPECT_EQ(p.threads.at(1).nodes[3].key, 12u);
  EXPECT_EQ(p.threads.at(1).nodes[3].slot, 2);
}

Bytes callSitesPayload(std::initializer_list<uint64_t> values) {
  Encoder e;
  for (uint64_t v : values) e.u(v);
  return chunkBytes(uint8_t(ChunkType::CallSites), e.bytes());
}

TEST_F(CallSiteChunks, MalformedChunksAreSkippedAndReported) {
  fs::path path = writeSites(dir_, true);
  Bytes file = slurp(path);
  // method, number, bci, line (zigzag), op, three empty strings.
  file += callSitesPayload({1, 20, 0, 0, 2, 182, 0, 0, 0});                  // number 0
  file += callSitesPayload({1, 20, 1, 0, 2, 256, 0, 0, 0});                  // opcode
  file += callSitesPayload({1, 20, 1, 0, uint64_t{1} << 33, 182, 0, 0, 0});  // line
  file += callSitesPayload({2, 20, 1, 0, 2, 182, 0, 0, 0, 20, 2, 0});        // cut short
  file += callSitesPayload({uint64_t{1} << 40, 20, 1, 0, 2, 182, 0, 0, 0});  // count
  file += callSitesPayload({1, uint64_t{1} << 32, 1, 0, 2, 182, 0, 0, 0});   // method
  file += callSitesPayload({1, 20, 3, 0, 2, 182, 0, 0, 0});                  // good
  spit(path, file);
  Profile p = read(path);
  ASSERT_EQ(p.skipped.size(), 6u);
  const char* want[] = {
      "malformed CallSites chunk: call site number 0",
      "malformed CallSites chunk: call site opcode out of range",
      "malformed CallSites chunk: call site line out of range",
      "malformed CallSites chunk: varint runs past the end at payload offset 13",
      "malformed CallSites chunk: item count exceeds the payload at payload offset 6",
      "malformed CallSites chunk: value over 32 bits at payload offset 6",
  };
  for (size_t i = 0; i < p.skipped.size(); ++i) EXPECT_EQ(p.skipped[i].reason, want[i]) << i;
  EXPECT_EQ(p.callSites.size(), 4u);  // the file's three and the good one
  EXPECT_EQ(p.callSites.count({20, 3}), 1u);
  EXPECT_EQ(p.callSites.count({20, 1}), 0u);
}

TEST_F(CallSiteChunks, DamagedAndTruncatedFilesNeverCrash) {
  Bytes good = slurp(writeSites(dir_, true));
  std::vector<Chunk> chunks = chunksOf(good);
  for (size_t byte = chunks[2].offset; byte < chunks[2].offset + chunks[2].size; ++byte) {
    for (int bit = 0; bit < 8; ++bit) {
      Bytes bad = good;
      bad[byte] = static_cast<char>(bad[byte] ^ (1 << bit));
      spit(dir_ / "bad.dragnet", bad);
      Profile p = read(dir_ / "bad.dragnet");
      EXPECT_TRUE(p.corrupt()) << byte << ":" << bit;
      EXPECT_EQ(p.threads.at(1).nodes[2].slot, 1) << byte << ":" << bit;
    }
  }
  for (size_t n = kHeaderSize; n < good.size(); ++n) {
    spit(dir_ / "cut.dragnet", good.substr(0, n));
    EXPECT_FALSE(read(dir_ / "cut.dragnet").corrupt()) << n;
  }
}

}  // namespace
