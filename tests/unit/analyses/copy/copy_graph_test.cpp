// Mode copy's graph building from a profile: threads merged, the bytes of each edge from
// the static types, edges that cannot be dropped and counted, unknown objects kept apart,
// copies of contexts missing from the tree counted as lost, cuts per callee.
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <random>

#include "analyses/copy/model/model.h"
#include "fig6_profile.h"
#include "profile/writer.h"

namespace fs = std::filesystem;

namespace dragnet::analyses::copy {
namespace {

using namespace profile;

constexpr uint32_t kLong = 2, kByte = 3, kStaticChar = 4, kRef = 5;

uint64_t obj(uint32_t site, uint32_t slot, uint32_t field) {
  return flowNode(FlowKind::Object, field, slot << kTagSiteBits | site);
}

class CopyGraph : public test::copy::WrittenProfileTest {
 protected:
  void SetUp() override {
    dir_ = test::copy::freshDir();
    fs::path path = dir_ / "small.dragnet";
    Writer w;
    std::string error;
    ASSERT_TRUE(w.open(path.string(), error)) << error;
    w.meta({{"mode", "copy"}, {"flow.slots", "2"}, {"flow.refBytes", "8"}});
    w.methods({{1, "app/C", "run", "()V", "C.java"}});
    w.sites({{kAllocBit | 5u << 4 | 5, 1, 0, 10, SiteKind::NewArray, "[S"},
             {kAllocBit | 6u << 4, 1, 4, 11, SiteKind::New, "app/C"}});
    w.flowDefs({{kLong, "app/C", "l", "J", false},
                {kByte, "app/C", "b", "B", false},
                {kStaticChar, "app/C", "S", "C", true},
                {kRef, "app/C", "ref", "Ljava/lang/Object;", false}},
               {});
    ThreadChunk t;
    t.thread = 1;
    t.name = "main";
    t.firstNode = 1;
    t.nodes = {{0, 1}};
    t.counters = {{1, {1, 0, 0, 0}}};
    w.thread(t);
    t.thread = 2;
    t.name = "worker";
    w.thread(t);
    const uint64_t c = flowNode(FlowKind::Consumer, 0, 0);
    const uint64_t s = flowNode(FlowKind::Static, kStaticChar, 0);
    FlowThreadChunk f;
    f.thread = 1;
    f.edges = {
        {obj(6, 0, kLong), obj(6, 1, kLong), 3},      // 8 bytes
        {obj(6, 0, kByte), c, 4},                     // 1 byte (the source's type)
        {s, obj(5, 1, kElmField), 5},                 // a short[] element: 2 bytes
        {obj(6, 0, 0), obj(6, 1, kRef), 6},           // a reference: flow.refBytes
        {obj(5, 0, kElmField), s, 7},                 // a char: 2
        {0, obj(6, 1, kLong), 100},                   // from bottom: dropped
        {c, obj(6, 1, kLong), 100},                   // from C: dropped
        {obj(6, 0, kLong), obj(6, 1, 0), 100},        // to an allocation: dropped
        {obj(6, 0, 9), c, 100},                       // field 9 is not defined: dropped
        {flowNode(FlowKind::Static, 11, 0), c, 100},  // nor static 11
        {flowNode(FlowKind::Object, kLong, 0), obj(6, 0, kLong), 8},  // tag 0: unknown
    };
    f.births = {{6, 0, 2}, {6, 1, 1}, {6, 3, 4}, {5, 7, 1}};
    f.copies = {{1, 5}};
    f.cuts = {{7, 2}};
    w.flowThread(f);
    FlowThreadChunk g;
    g.thread = 2;
    g.edges = {{obj(6, 0, kLong), obj(6, 1, kLong), 4}};
    g.copies = {{9, 2}};  // node 9 is not in thread 2's tree
    g.cuts = {{7, 3}, {8, 10}};
    w.flowThread(g);
    FlowThreadChunk h;
    h.thread = 3;  // no tree at all
    h.copies = {{1, 1}};
    w.flowThread(h);
    w.end({{"flow.cuts", "15"}, {"flow.unknownTags", "4"}});
    w.close();
    profile_ = test::copy::readProfile(path);
  }
};

using test::copy::fieldNode;

TEST_F(CopyGraph, EdgesTheirBytesAndWhatIsDropped) {
  Model m = buildModel(profile_);
  EXPECT_EQ(m.settings.slots, 2u);
  EXPECT_EQ(m.settings.refBytes, 8u);
  EXPECT_EQ(m.graphStats.edges, 11u);
  EXPECT_EQ(m.graphStats.dropped, 5u);
  EXPECT_EQ(m.graphStats.unknownEdges, 1u);
  const Graph& cs = m.sensitive.graph;
  auto edge = [&](const Graph& g, const Node& a, const Node& b) {
    const Edge* e = g.edge(g.find(a), g.find(b));
    return e ? std::make_pair(e->freq, e->bytes) : std::make_pair(uint64_t{0}, 0u);
  };
  using P = std::pair<uint64_t, uint32_t>;
  const Node s{NodeKind::Static, {}, kStaticChar};
  const Node c{NodeKind::Consumer, {}, 0};
  EXPECT_EQ(edge(cs, fieldNode(6, 0, kLong), fieldNode(6, 1, kLong)), (P{7, 8}));  // both threads
  EXPECT_EQ(edge(cs, fieldNode(6, 0, kByte), c), (P{4, 1}));
  EXPECT_EQ(edge(cs, s, fieldNode(5, 1, kElmField)), (P{5, 2}));
  EXPECT_EQ(edge(cs, {NodeKind::Alloc, {6, 0}, 0}, fieldNode(6, 1, kRef)), (P{6, 8}));
  EXPECT_EQ(edge(cs, fieldNode(5, 0, kElmField), s), (P{7, 2}));
  EXPECT_EQ(edge(cs, fieldNode(0, 0, kLong), fieldNode(6, 0, kLong)), (P{8, 8}));
  EXPECT_EQ(cs.edges().size(), 6u);
  // CI: slots dropped; O6.l -> O6.l becomes a self edge.
  const Graph& ci = m.insensitive.graph;
  EXPECT_EQ(edge(ci, fieldNode(6, 0, kLong), fieldNode(6, 0, kLong)), (P{7, 8}));
  EXPECT_EQ(edge(ci, fieldNode(0, 0, kLong), fieldNode(6, 0, kLong)), (P{8, 8}));
  EXPECT_EQ(ci.edges().size(), 6u);
  // Births: receiver site 3 lands in slot 1 (3 mod 2), with receiver 1's objects.
  EXPECT_EQ(cs.births(cs.allocOf({6, 1})), 5u);
  EXPECT_EQ(cs.births(cs.allocOf({6, 0})), 2u);
  EXPECT_EQ(ci.births(ci.allocOf({6, 0})), 7u);
  EXPECT_EQ(m.contexts.at(6), (std::vector<uint32_t>{0, 1, 3}));
  // The heap-to-heap copies the graph holds: l -> l (7), S -> ELM (5), ELM -> S (7),
  // the unknown object's l (8).
  EXPECT_EQ(m.totals.heapCopies, 27u);
}

TEST_F(CopyGraph, CopiesAndCuts) {
  Model m = buildModel(profile_);
  EXPECT_EQ(m.copies.total, 5u);
  EXPECT_EQ(m.copies.lost, 3u);
  ASSERT_EQ(m.copies.methods.size(), 1u);
  EXPECT_EQ(m.copies.methods[0].method, 1u);
  EXPECT_EQ(m.copies.methods[0].self, 5u);  // the method of both threads' node 1
  EXPECT_EQ(m.cuts, (std::vector<std::pair<uint32_t, uint64_t>>{{8, 10}, {7, 5}}));
  EXPECT_EQ(m.totals.cuts, 15u);
  EXPECT_EQ(m.totals.flowCuts, 15u);
  EXPECT_EQ(m.totals.unknownTags, 4u);
  EXPECT_TRUE(isCopyProfile(profile_));
}

// Flows no agent would write (any kind, field, tag; names of unknown sites; nodes and
// sites out of range) never break the model, and both namings keep every copy the graph
// holds: the frequencies of the kept edges add up the same in both.
TEST(CopyModelFuzz, RandomFlowsKeepTheirFrequencies) {
  fs::path dir = test::copy::freshDir();
  std::mt19937_64 rng(32);
  for (uint32_t slots : {0u, 1u, 4u}) {
    for (int round = 0; round < 20; ++round) {
      fs::path path = dir / "random.dragnet";
      {
        Writer w;
        std::string error;
        ASSERT_TRUE(w.open(path.string(), error)) << error;
        w.meta({{"mode", "copy"}, {"flow.slots", std::to_string(slots)}});
        w.sites({{kAllocBit | 3u << 4 | 1, 1, 0, 1, SiteKind::ANewArray, "[J"}});
        w.flowDefs({{2, "A", "f", "I", false}, {3, "A", "s", "J", true}},
                   {{1, 3, 0}, {2, 3, 7}, {3, 99, 3}});
        FlowThreadChunk f;
        f.thread = 1 + static_cast<uint32_t>(rng() % 2);
        auto node = [&] {
          uint32_t tag = static_cast<uint32_t>(rng() % 5);
          if (slots > 0) tag |= static_cast<uint32_t>(rng() % 8) << kTagSiteBits;
          return flowNode(static_cast<FlowKind>(rng() % 4), static_cast<uint32_t>(rng() % 5), tag);
        };
        for (int i = 0; i < 60; ++i) f.edges.push_back({node(), node(), 1 + rng() % 100});
        for (int i = 0; i < 10; ++i) {
          f.births.push_back(
              {static_cast<uint32_t>(rng() % 5), static_cast<uint32_t>(rng() % 9), rng() % 3});
          f.copies.push_back({static_cast<uint32_t>(rng() % 50), rng() % 10});
          f.cuts.push_back({static_cast<uint32_t>(rng() % 4), rng() % 10});
        }
        w.flowThread(f);
      }
      Profile p = test::copy::readProfile(path);
      Model m = buildModel(p);
      std::map<std::pair<uint64_t, uint64_t>, uint64_t> merged;
      for (const auto& [t, flows] : p.flows) {
        for (const auto& [key, n] : flows.edges) merged[key] += n;
      }
      ASSERT_EQ(m.graphStats.edges, merged.size());
      uint64_t ci = 0, cs = 0;
      for (const Edge& e : m.insensitive.graph.edges()) ci += e.freq;
      for (const Edge& e : m.sensitive.graph.edges()) cs += e.freq;
      EXPECT_EQ(ci, cs) << slots << " " << round;
      EXPECT_LE(m.sensitive.graph.edges().size(), merged.size() - m.graphStats.dropped);
      EXPECT_EQ(m.copies.total + m.copies.lost, [&] {
        uint64_t n = 0;
        for (const auto& [t, flows] : p.flows) {
          for (const auto& [node, c] : flows.copies) n += c;
        }
        return n;
      }());
      for (const View* v : {&m.insensitive, &m.sensitive}) {
        for (const Chain& c : v->chains.top) EXPECT_GE(c.nodes.size(), 2u);
        for (const ClonePair& c : v->clones.top) EXPECT_GE(c.volume, c.direct);
      }
    }
  }
  fs::remove_all(dir);
}

TEST(CopySettings, MetaOrDefaults) {
  Profile p;
  EXPECT_EQ(settingsOf(p).slots, 16u);
  EXPECT_EQ(settingsOf(p).refBytes, 4u);
  p.meta = {{"flow.slots", "0"}, {"flow.refBytes", "8"}};
  EXPECT_EQ(settingsOf(p).slots, 0u);
  EXPECT_EQ(settingsOf(p).refBytes, 8u);
  p.meta = {{"flow.slots", "33"}, {"flow.refBytes", "5"}};  // out of range: defaults
  EXPECT_EQ(settingsOf(p).slots, 16u);
  EXPECT_EQ(settingsOf(p).refBytes, 4u);
  EXPECT_EQ(bytesOfDescriptor("D", 4), 8u);
  EXPECT_EQ(bytesOfDescriptor("[I", 8), 8u);
  EXPECT_EQ(bytesOfDescriptor("Z", 4), 1u);
  EXPECT_EQ(bytesOfDescriptor("", 4), 0u);
  EXPECT_FALSE(isCopyProfile(p));
}

}  // namespace
}  // namespace dragnet::analyses::copy
