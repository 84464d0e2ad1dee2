// Mode cost's chunks (CostDefs, CostThread): written with the Writer, read by the reader;
// CostDefs chunks add to each other, later counts of a thread replace earlier ones key by
// key; the bytes are the documented layout; a damaged or malformed chunk costs itself only
// and is reported; a profile whose Meta chunk is lost reads as mode cost.
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

class CostChunks : public ChunkFileTest {};

constexpr uint64_t kMax64 = std::numeric_limits<uint64_t>::max();
using Records = std::map<std::pair<uint64_t, uint64_t>, uint64_t>;

// id, kind, method, index, line, field, site, block, reference.
const CostNode kN1{1, 0, 10, 0, 5, 0, 0, 0, false};
const CostNode kN2{2, 3, 10, 4, 6, 2, 0, 1, true};
const CostNode kN3{3, kMaxCostNodeKind, 11, 7, -1, kElmField, 0, 2, false};
const CostNode kN4{4, 5, 11, 9, 70000, 0, kTagSiteMask, 0xFFFFFFFFu, false};

// Meta, FlowDefs, CostDefs x 2, Thread, CostDefs (edges only), CostThread x 3 (thread 1
// twice, thread 2), End.
fs::path writeCosts(const fs::path& dir) {
  fs::path path = dir / "cost.dragnet";
  Writer w;
  std::string error;
  if (!w.open(path.string(), error)) throw std::runtime_error(error);
  w.meta({{"mode", "cost"}, {"cost.slots", "4"}, {"cost.arrayShadow", "element"}});
  w.flowDefs({{2, "Node", "next", "LNode;", false}}, {});
  w.costDefs({kN1, kN2}, {{2, 1, true}});
  w.costDefs({kN3, kN4}, {{3, 2, false}, {4, 3, true}});
  ThreadChunk t;
  t.thread = 1;
  t.name = "main";
  t.firstNode = 1;
  t.nodes = {{0, 10}};
  t.counters = {{1, {1, 0, 0, 0}}};
  w.thread(t);
  w.costDefs({}, {{1, 4, false}});  // classes loaded later add edges between known nodes
  CostThreadChunk c;
  c.thread = 1;
  c.records = {{1, 2, 10}, {1, 3, 7}, {kMax64, 5, 1}};
  w.costThread(c);
  c.records = {{1, 2, 999}};  // replaces 10; (1, 3) and (max, 5) keep theirs
  c.ended = true;
  w.costThread(c);
  CostThreadChunk d;
  d.thread = 2;
  d.records = {{4, 0, kMax64}};
  w.costThread(d);
  w.end({{"cost.cuts", "3"},
         {"cost.tableBytes", "4096"},
         {"cost.shadowBytes", "1024"},
         {"cost.unknownTags", "0"}});
  return path;
}

TEST_F(CostChunks, RoundTripAndLaterCountsReplaceEarlierOnes) {
  Profile p = read(writeCosts(dir_));
  EXPECT_FALSE(p.corrupt());
  EXPECT_TRUE(p.complete);
  EXPECT_EQ(p.unknownChunks, 0u);
  EXPECT_EQ(p.chunks, 10u);
  EXPECT_EQ(p.meta.at("cost.arrayShadow"), "element");
  ASSERT_EQ(p.costNodes.size(), 4u);
  EXPECT_EQ(p.costNodes.at(1), kN1);
  EXPECT_EQ(p.costNodes.at(2), kN2);
  EXPECT_EQ(p.costNodes.at(3), kN3);
  EXPECT_EQ(p.costNodes.at(4), kN4);
  EXPECT_EQ(p.costEdges,
            (std::vector<CostEdge>{{2, 1, true}, {3, 2, false}, {4, 3, true}, {1, 4, false}}));
  EXPECT_EQ(p.fields.at(2).name, "next");
  ASSERT_EQ(p.costThreads.size(), 2u);
  const ThreadCosts& t1 = p.costThreads.at(1);
  EXPECT_EQ(t1.records, (Records{{{1, 2}, 999}, {{1, 3}, 7}, {{kMax64, 5}, 1}}));
  EXPECT_TRUE(t1.ended);
  const ThreadCosts& t2 = p.costThreads.at(2);
  EXPECT_EQ(t2.records, (Records{{{4, 0}, kMax64}}));
  EXPECT_FALSE(t2.ended);
  EXPECT_EQ(p.totals.at("cost.shadowBytes"), "1024");
  EXPECT_TRUE(p.flows.empty());
}

// The bytes are the layout docs/PROFILE_FORMAT.md gives, both ways: what the Writer writes
// and what the reader reads.
TEST_F(CostChunks, BytesAreTheDocumentedLayout) {
  Encoder defs;
  // count 1; id 3, kind 2, method 812, index 4, line 33 (zigzag 66), field 2, site 0,
  // block 1, reference 1; count 1; dst 3, src 1, srcInFrame 0.
  for (uint64_t v : {1, 3, 2, 812, 4, 66, 2, 0, 1, 1, 1, 3, 1, 0}) defs.u(v);
  Encoder costs;
  // thread 1, ended 1, count 2: (7, 9) 300 and (2^40, 0) 1.
  for (uint64_t v : {1, 1, 2, 7, 9, 300}) costs.u(v);
  for (uint64_t v : {uint64_t{1} << 40, uint64_t{0}, uint64_t{1}}) costs.u(v);
  const Bytes want = chunkBytes(13, defs.bytes()) + chunkBytes(14, costs.bytes());

  fs::path path = dir_ / "layout.dragnet";
  {
    Writer w;
    std::string error;
    ASSERT_TRUE(w.open(path.string(), error)) << error;
    w.costDefs({{3, 2, 812, 4, 33, 2, 0, 1, true}}, {{3, 1, false}});
    w.costThread({1, {{7, 9, 300}, {uint64_t{1} << 40, 0, 1}}, true});
  }
  const Bytes file = slurp(path);
  EXPECT_EQ(file.substr(kHeaderSize), want);

  spit(path, file.substr(0, kHeaderSize) + want);
  Profile p = read(path);
  EXPECT_FALSE(p.corrupt());
  EXPECT_EQ(p.costNodes.at(3), (CostNode{3, 2, 812, 4, 33, 2, 0, 1, true}));
  EXPECT_EQ(p.costEdges, (std::vector<CostEdge>{{3, 1, false}}));
  EXPECT_EQ(p.costThreads.at(1).records, (Records{{{7, 9}, 300}, {{uint64_t{1} << 40, 0}, 1}}));
  EXPECT_TRUE(p.costThreads.at(1).ended);
}

// One bit flipped in a cost chunk costs that chunk only: the other cost chunks read as they
// would without it.
TEST_F(CostChunks, AFlippedBitCostsItsChunkOnly) {
  fs::path path = writeCosts(dir_);
  const Bytes good = slurp(path);
  const std::vector<Chunk> chunks = chunksOf(good);
  ASSERT_EQ(chunks.size(), 10u);
  int tried = 0;
  for (size_t i = 0; i < chunks.size(); ++i) {
    const Chunk& c = chunks[i];
    if (c.type != uint8_t(ChunkType::CostDefs) && c.type != uint8_t(ChunkType::CostThread)) {
      continue;
    }
    ++tried;
    Bytes without = good;
    without.erase(c.offset, c.size);
    spit(dir_ / "without.dragnet", without);
    const Profile want = read(dir_ / "without.dragnet");
    for (size_t at : {size_t{0}, size_t{2}, size_t{6}, size_t{9}, c.size / 2, c.size - 1}) {
      SCOPED_TRACE("chunk " + std::to_string(i) + " byte " + std::to_string(at));
      Bytes bad = good;
      bad[c.offset + at] = static_cast<char>(bad[c.offset + at] ^ 0x10);
      spit(dir_ / "bad.dragnet", bad);
      const Profile got = read(dir_ / "bad.dragnet");
      ASSERT_EQ(got.skipped.size(), 1u);
      EXPECT_EQ(got.skipped[0].offset, c.offset);
      EXPECT_EQ(got.skipped[0].bytes, c.size);
      EXPECT_EQ(got.costNodes, want.costNodes);
      EXPECT_EQ(got.costEdges, want.costEdges);
      ASSERT_EQ(got.costThreads.size(), want.costThreads.size());
      for (const auto& [id, t] : want.costThreads) {
        EXPECT_EQ(got.costThreads.at(id).records, t.records);
        EXPECT_EQ(got.costThreads.at(id).ended, t.ended);
      }
    }
  }
  EXPECT_EQ(tried, 6);
}

// Every bit of the file flipped and every cut: read, never a crash; a lost Meta chunk
// leaves the mode inferred from the cost chunks (cost, though FlowDefs was read too).
TEST_F(CostChunks, EveryBitFlippedReads) {
  fs::path path = writeCosts(dir_);
  const Bytes good = slurp(path);
  const size_t metaEnd = chunksOf(good)[1].offset;
  for (size_t byte = kHeaderSize; byte < good.size(); ++byte) {
    for (int bit = 0; bit < 8; ++bit) {
      Bytes bad = good;
      bad[byte] = static_cast<char>(bad[byte] ^ (1 << bit));
      spit(dir_ / "bad.dragnet", bad);
      Profile p = read(dir_ / "bad.dragnet");
      ASSERT_EQ(p.skipped.size(), 1u) << byte << ":" << bit;
      if (byte < metaEnd) {
        EXPECT_TRUE(p.metaLost) << byte << ":" << bit;
        EXPECT_EQ(p.meta.at("mode"), "cost") << byte << ":" << bit;
      }
    }
  }
  for (size_t n = kHeaderSize; n < good.size(); ++n) {
    spit(dir_ / "cut.dragnet", good.substr(0, n));
    EXPECT_FALSE(read(dir_ / "cut.dragnet").corrupt()) << n;
  }
}

Bytes costDefsPayload(std::initializer_list<uint64_t> values) {
  Encoder e;
  for (uint64_t v : values) e.u(v);
  return chunkBytes(uint8_t(ChunkType::CostDefs), e.bytes());
}

Bytes costThreadPayload(std::initializer_list<uint64_t> values) {
  Encoder e;
  for (uint64_t v : values) e.u(v);
  return chunkBytes(uint8_t(ChunkType::CostThread), e.bytes());
}

// Chunks whose CRC holds but whose content breaks the format's rules (values out of range,
// cut short inside a record, item counts past the payload) are skipped whole and reported;
// the chunks around them read.
TEST_F(CostChunks, MalformedChunksAreSkippedAndReported) {
  fs::path path = dir_ / "malformed.dragnet";
  {
    Writer w;
    std::string error;
    ASSERT_TRUE(w.open(path.string(), error)) << error;
    w.meta({{"mode", "cost"}});
    w.costDefs({{0, 1, 1, 1, 1, 0, 0, 0, false}}, {});
    w.costDefs({{5, kMaxCostNodeKind + 1, 1, 1, 1, 0, 0, 0, false}}, {});
    w.costDefs({{6, 255, 1, 1, 1, 0, 0, 0, false}}, {});
    w.costDefs({{7, 1, 1, 1, 1, kFieldMask + 1, 0, 0, false}}, {});
    w.costDefs({{8, 1, 1, 1, 1, 0, kTagSiteMask + 1, 0, false}}, {});
    w.costDefs({{9, 1, 1, 1, 1, 0, 0, 0, false}}, {{0, 9, true}});  // node 9 goes too
    w.costDefs({{10, 4, 1, 2, 3, 0, 0, 0, false}}, {{10, 10, true}});
    w.costThread({1, {{5, 6, 1}}, false});
  }
  Bytes file = slurp(path);
  // A line past 32 bits (zigzag 2^41: line 2^40).
  file += costDefsPayload({1, 11, 1, 1, 1, uint64_t{1} << 41, 0, 0, 0, 0, 0});
  // Edges cut short: two announced, one and a half given.
  file += costDefsPayload({0, 2, 10, 10, 1, 10});
  // Records cut short: (1, 2) 77 whole, then a only: nothing of the chunk is kept.
  file += costThreadPayload({1, 0, 2, 1, 2, 77, 4});
  // An item count far past the payload (2^40 records).
  file += costThreadPayload({1, 0, uint64_t{1} << 40, 1, 2, 3});
  // A thread id over 32 bits.
  file += costThreadPayload({uint64_t{1} << 32, 0, 1, 1, 2, 3});
  // A count varint longer than 10 bytes.
  Bytes longVarint =
      chunkBytes(uint8_t(ChunkType::CostThread),
                 {3, 0, 1, 1, 2, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01});
  file += longVarint;
  spit(path, file);

  Profile p = read(path);
  ASSERT_EQ(p.skipped.size(), 12u);
  const char* want[] = {
      "malformed CostDefs chunk: cost node id 0",
      "malformed CostDefs chunk: cost node 5: kind 9 out of range",
      "malformed CostDefs chunk: cost node 6: kind 255 out of range",
      "malformed CostDefs chunk: cost node 7: field id out of range",
      "malformed CostDefs chunk: cost node 8: site index out of range",
      "malformed CostDefs chunk: cost edge to or from node 0",
      "malformed CostDefs chunk: cost node 11: line out of range",
      "malformed CostDefs chunk: varint runs past the end at payload offset 6",
      "malformed CostThread chunk: varint runs past the end at payload offset 7",
      "malformed CostThread chunk: item count exceeds the payload at payload offset 8",
      "malformed CostThread chunk: value over 32 bits at payload offset 5",
      "malformed CostThread chunk: varint longer than 10 bytes at payload offset 15",
  };
  for (size_t i = 0; i < p.skipped.size(); ++i) EXPECT_EQ(p.skipped[i].reason, want[i]) << i;
  EXPECT_EQ(p.skipped.back().bytes, longVarint.size());
  EXPECT_EQ(p.skipped.back().offset, file.size() - longVarint.size());
  EXPECT_FALSE(p.metaLost);
  ASSERT_EQ(p.costNodes.size(), 1u);
  EXPECT_EQ(p.costNodes.at(10), (CostNode{10, 4, 1, 2, 3, 0, 0, 0, false}));
  EXPECT_EQ(p.costEdges, (std::vector<CostEdge>{{10, 10, true}}));
  ASSERT_EQ(p.costThreads.size(), 1u);
  EXPECT_EQ(p.costThreads.at(1).records, (Records{{{5, 6}, 1}}));
}

}  // namespace
