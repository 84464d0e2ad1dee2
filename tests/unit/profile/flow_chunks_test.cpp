// Mode copy's chunks (FlowDefs, FlowThread): written with the Writer, read by the reader;
// later values of a thread replace earlier ones key by key; a damaged chunk costs itself
// only; a chunk of a type the reader does not know (a newer writer's) is skipped without
// calling the profile corrupt.
#include <gtest/gtest.h>

#include "chunk_files.h"
#include "profile/codec.h"
#include "profile/reader.h"
#include "profile/writer.h"

using namespace dragnet::profile;
using namespace dragnet::profile::testing;

namespace {

class FlowChunks : public ChunkFileTest {};

const uint64_t kObjElems = flowNode(FlowKind::Object, 2, 7);        // tag 7 .elems
const uint64_t kObjElm = flowNode(FlowKind::Object, kElmField, 9);  // tag 9 .ELM
const uint64_t kAlloc = flowNode(FlowKind::Object, 0, 7);
const uint64_t kStatic = flowNode(FlowKind::Static, 3, 0);
const uint64_t kC = flowNode(FlowKind::Consumer, 0, 0);

// Meta, FlowDefs x 2, Thread, FlowThread x 3 (thread 1 twice, thread 2), End.
fs::path writeFlows(const fs::path& dir) {
  fs::path path = dir / "copy.dragnet";
  Writer w;
  std::string error;
  if (!w.open(path.string(), error)) throw std::runtime_error(error);
  w.meta({{"mode", "copy"}, {"flow.slots", "0"}, {"flow.refBytes", "4"}});
  w.flowDefs({{2, "List", "elems", "[Ljava/lang/Object;", false}}, {{7, 3, 39}, {9, 3, 0}});
  w.flowDefs({{3, "app/Main", "COUNT", "I", true}, {4, "app/Sub", "x", "J", false}}, {},
             {{"app/Sub", "List", {4}}, {"List", "", {2}}});
  ThreadChunk t;
  t.thread = 1;
  t.name = "main";
  t.firstNode = 1;
  t.nodes = {{0, 5}, {1, 6}};
  t.counters = {{1, {1, 0, 0, 0}}, {2, {3, 0, 0, 0}}};
  w.thread(t);
  FlowThreadChunk f;
  f.thread = 1;
  f.edges = {{kAlloc, kObjElems, 1}, {kObjElm, kObjElm, 10}, {kStatic, kC, 4}};
  f.births = {{3, 39, 1}, {3, 0, 2}};
  f.copies = {{2, 10}};
  f.cuts = {{6, 1}};
  f.clones = {{2, 134217000, 3}, {1, 5, 1}};
  w.flowThread(f);
  f.edges = {{kObjElm, kObjElm, 999}};  // replaces 10; the other edges stay
  f.births = {{3, 0, 5}};
  f.copies = {{1, 2}, {2, 999}};
  f.cuts = {};
  f.clones = {{2, 134217000, 4}};  // replaces 3; (1, 5) stays
  f.ended = true;
  w.flowThread(f);
  FlowThreadChunk g;
  g.thread = 2;
  g.edges = {{kObjElm, kC, 1ull << 40}};
  w.flowThread(g);
  w.end({{"flow.cuts", "1"}, {"flow.unknownTags", "0"}});
  return path;
}

TEST_F(FlowChunks, RoundTripAndLaterValuesReplaceEarlierOnes) {
  Profile p = read(writeFlows(dir_));
  EXPECT_FALSE(p.corrupt());
  EXPECT_TRUE(p.complete);
  EXPECT_EQ(p.chunks, 8u);
  ASSERT_EQ(p.fields.size(), 3u);
  EXPECT_EQ(p.fields.at(2), (FieldDef{2, "List", "elems", "[Ljava/lang/Object;", false}));
  EXPECT_EQ(p.fields.at(3), (FieldDef{3, "app/Main", "COUNT", "I", true}));
  ASSERT_EQ(p.classes.size(), 2u);
  EXPECT_EQ(p.classes.at("app/Sub"), (ClassLayout{"app/Sub", "List", {4}}));
  EXPECT_EQ(p.classes.at("List"), (ClassLayout{"List", "", {2}}));
  ASSERT_EQ(p.objectNames.size(), 2u);
  EXPECT_EQ(p.objectNames.at(7), (ObjectName{7, 3, 39}));
  EXPECT_EQ(p.objectNames.at(9), (ObjectName{9, 3, 0}));
  ASSERT_EQ(p.flows.size(), 2u);
  const ThreadFlows& t1 = p.flows.at(1);
  using EdgeMap = std::map<std::pair<uint64_t, uint64_t>, uint64_t>;
  EXPECT_EQ(t1.edges,
            (EdgeMap{{{kAlloc, kObjElems}, 1}, {{kObjElm, kObjElm}, 999}, {{kStatic, kC}, 4}}));
  using BirthMap = std::map<std::pair<uint32_t, uint32_t>, uint64_t>;
  EXPECT_EQ(t1.births, (BirthMap{{{3, 0}, 5}, {{3, 39}, 1}}));
  EXPECT_EQ(t1.copies, (std::map<uint32_t, uint64_t>{{1, 2}, {2, 999}}));
  EXPECT_EQ(t1.cuts, (std::map<uint32_t, uint64_t>{{6, 1}}));
  EXPECT_EQ(t1.clones, (BirthMap{{{1, 5}, 1}, {{2, 134217000}, 4}}));
  EXPECT_TRUE(t1.ended);
  const ThreadFlows& t2 = p.flows.at(2);
  EXPECT_EQ(t2.edges, (EdgeMap{{{kObjElm, kC}, 1ull << 40}}));
  EXPECT_TRUE(t2.clones.empty());
  EXPECT_FALSE(t2.ended);
  EXPECT_EQ(p.totals.at("flow.cuts"), "1");
}

TEST(FlowNode, EncodingFollowsTheDesign) {
  EXPECT_EQ(flowNode(FlowKind::Object, kElmField, 0x12345678), 0x4000000112345678ull);
  EXPECT_EQ(flowNode(FlowKind::Consumer, 0, 0), 0xC000000000000000ull);
  uint64_t n = flowNode(FlowKind::Static, kFieldMask, 0);
  EXPECT_EQ(flowKind(n), FlowKind::Static);
  EXPECT_EQ(flowField(n), kFieldMask);
  EXPECT_EQ(flowTag(kObjElems), 7u);
  EXPECT_EQ(flowField(kObjElems), 2u);
  EXPECT_EQ(siteIndexOf(kAllocBit | 0x1234u << 4 | 1), 0x1234u);
}

// One bit flipped in a flow chunk costs that chunk only: the other flow chunks read as
// they would without it.
TEST_F(FlowChunks, AFlippedBitCostsItsChunkOnly) {
  fs::path path = writeFlows(dir_);
  const Bytes good = slurp(path);
  const std::vector<Chunk> chunks = chunksOf(good);
  ASSERT_EQ(chunks.size(), 8u);
  for (size_t i = 0; i < chunks.size(); ++i) {
    const Chunk& c = chunks[i];
    if (c.type != uint8_t(ChunkType::FlowDefs) && c.type != uint8_t(ChunkType::FlowThread)) {
      continue;
    }
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
      EXPECT_EQ(got.fields.size(), want.fields.size());
      EXPECT_EQ(got.objectNames.size(), want.objectNames.size());
      EXPECT_EQ(got.classes, want.classes);
      ASSERT_EQ(got.flows.size(), want.flows.size());
      for (const auto& [id, f] : want.flows) {
        EXPECT_EQ(got.flows.at(id).edges, f.edges);
        EXPECT_EQ(got.flows.at(id).births, f.births);
        EXPECT_EQ(got.flows.at(id).copies, f.copies);
        EXPECT_EQ(got.flows.at(id).cuts, f.cuts);
        EXPECT_EQ(got.flows.at(id).clones, f.clones);
      }
    }
  }
}

// Every bit of the file flipped and every cut: read, never a crash; a lost Meta chunk
// leaves the mode inferred from the flow chunks.
TEST_F(FlowChunks, EveryBitFlippedReads) {
  fs::path path = writeFlows(dir_);
  const Bytes good = slurp(path);
  for (size_t byte = kHeaderSize; byte < good.size(); ++byte) {
    for (int bit = 0; bit < 8; ++bit) {
      Bytes bad = good;
      bad[byte] = static_cast<char>(bad[byte] ^ (1 << bit));
      spit(dir_ / "bad.dragnet", bad);
      Profile p = read(dir_ / "bad.dragnet");
      ASSERT_EQ(p.skipped.size(), 1u) << byte << ":" << bit;
      if (byte < chunksOf(good)[1].offset) {
        EXPECT_EQ(p.meta.at("mode"), "copy");
      }
    }
  }
  for (size_t n = kHeaderSize; n < good.size(); ++n) {
    spit(dir_ / "cut.dragnet", good.substr(0, n));
    EXPECT_FALSE(read(dir_ / "cut.dragnet").corrupt()) << n;
  }
}

// A chunk whose CRC holds but whose content breaks the format's rules is skipped whole.
TEST_F(FlowChunks, ReservedIdsMakeAMalformedChunk) {
  fs::path path = dir_ / "reserved.dragnet";
  {
    Writer w;
    std::string error;
    ASSERT_TRUE(w.open(path.string(), error)) << error;
    w.flowDefs({{kElmField, "C", "f", "I", false}}, {});
    w.flowDefs({{2, "C", "g", "I", false}}, {{0, 1, 2}});
    w.flowDefs({{3, "C", "h", "J", false}}, {{5, 1, 2}});
    w.flowDefs({{4, "C", "k", "J", false}}, {}, {{"C", "", {4, kElmField}}});
    w.flowDefs({}, {}, {{"D", "C", {}}});
  }
  Profile p = read(path);
  ASSERT_EQ(p.skipped.size(), 3u);
  EXPECT_EQ(p.skipped[0].reason, "malformed FlowDefs chunk: field id 1 out of range");
  EXPECT_EQ(p.skipped[1].reason, "malformed FlowDefs chunk: object name for tag 0");
  EXPECT_EQ(p.skipped[2].reason, "malformed FlowDefs chunk: field id 1 of class C out of range");
  ASSERT_EQ(p.fields.size(), 1u);
  EXPECT_EQ(p.fields.at(3).descriptor, "J");
  EXPECT_EQ(p.objectNames.at(5), (ObjectName{5, 1, 2}));
  ASSERT_EQ(p.classes.size(), 1u);
  EXPECT_EQ(p.classes.at("D"), (ClassLayout{"D", "C", {}}));
}

// FlowDefs and FlowThread chunks as written before class layouts and clones per context
// (their last lists absent) read as before, with none of either.
TEST_F(FlowChunks, ChunksWithoutTheirNewListsRead) {
  fs::path path = dir_ / "old.dragnet";
  {
    Writer w;
    std::string error;
    ASSERT_TRUE(w.open(path.string(), error)) << error;
    w.meta({{"mode", "copy"}});
  }
  Encoder defs;
  for (uint64_t v : {1, 2}) defs.u(v);  // one field: id 2
  for (const char* v : {"List", "elems", "[Ljava/lang/Object;"}) defs.str(v);
  for (uint64_t v : {0, 1, 7, 3, 39}) defs.u(v);  // not static; one name: 7 = (3, 39)
  Encoder flows;
  for (uint64_t v : {1, 0, 1}) flows.u(v);  // thread 1, not ended, one edge
  for (uint64_t v : {kAlloc, kObjElems, uint64_t{5}}) flows.u(v);
  for (uint64_t v : {0, 1, 2, 8, 0}) flows.u(v);  // no births, copies {2: 8}, no cuts
  spit(path, slurp(path) + chunkBytes(uint8_t(ChunkType::FlowDefs), defs.bytes()) +
                 chunkBytes(uint8_t(ChunkType::FlowThread), flows.bytes()));
  Profile p = read(path);
  EXPECT_FALSE(p.corrupt());
  EXPECT_EQ(p.fields.at(2).name, "elems");
  EXPECT_EQ(p.objectNames.at(7), (ObjectName{7, 3, 39}));
  EXPECT_TRUE(p.classes.empty());
  const ThreadFlows& t = p.flows.at(1);
  EXPECT_EQ(t.edges.at({kAlloc, kObjElems}), 5u);
  EXPECT_EQ(t.copies, (std::map<uint32_t, uint64_t>{{2, 8}}));
  EXPECT_TRUE(t.clones.empty());
}

// A chunk of a type this reader does not know, with a CRC that holds, is what a newer
// writer adds: skipped and counted, the profile not corrupt.
TEST_F(FlowChunks, UnknownChunkTypeIsSkippedNotCorrupt) {
  fs::path path = writeFlows(dir_);
  Bytes good = slurp(path);
  const std::vector<Chunk> chunks = chunksOf(good);
  Bytes with = good;
  with.insert(chunks[2].offset, chunkBytes(kMaxChunkType + 1, {5, 'h', 'e', 'l', 'l', 'o'}));
  spit(path, with);
  Profile p = read(path);
  EXPECT_FALSE(p.corrupt());
  EXPECT_EQ(p.unknownChunks, 1u);
  EXPECT_EQ(p.chunks, chunks.size());
  EXPECT_EQ(p.fields.size(), 3u);
  EXPECT_EQ(p.flows.at(1).edges.size(), 3u);
  // Its CRC broken, it is corrupt as any chunk.
  with[chunks[2].offset + kChunkHeaderSize] ^= 1;
  spit(path, with);
  p = read(path);
  EXPECT_TRUE(p.corrupt());
  EXPECT_EQ(p.unknownChunks, 0u);
  EXPECT_EQ(p.chunks, chunks.size());
}

}  // namespace
