// Mode copy's model on the paper's Fig. 6 program (fig6_profile.h): the assertions of the
// spec's section 2.1 (../shared/notes/bloat-analysis-spec.md), on a profile written with
// the Writer and read with the reader.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <tuple>

#include "analyses/copy/model/model.h"
#include "fig6_profile.h"

namespace fs = std::filesystem;

namespace dragnet::analyses::copy {
namespace {

using namespace dragnet::test::copy;
using profile::kElmField;

class Fig6 : public ::testing::Test {
 protected:
  void SetUp() override { dir_ = freshDir(); }
  void TearDown() override { fs::remove_all(dir_); }
  Model model(uint32_t slots, bool wholeList = false) {
    profiles_.push_back(
        std::make_unique<profile::Profile>(readProfile(writeFig6(dir_, slots, wholeList))));
    return buildModel(*profiles_.back());
  }
  fs::path dir_;
  std::vector<std::unique_ptr<profile::Profile>> profiles_;
};

Node alloc(uint32_t site, uint32_t ctx = 0) { return {NodeKind::Alloc, {site, ctx}, 0}; }
Node field(uint32_t site, uint32_t ctx, uint32_t f) { return {NodeKind::Field, {site, ctx}, f}; }
const Node kC{NodeKind::Consumer, {}, 0};

using EdgeRow = std::tuple<Node, Node, uint64_t, uint32_t>;

std::set<EdgeRow> rows(const Graph& g) {
  std::set<EdgeRow> out;
  for (const Edge& e : g.edges()) out.insert({g.node(e.src), g.node(e.dst), e.freq, e.bytes});
  return out;
}

// The spec's table, in the sensitive naming with exact contexts (ctx = receiver's site);
// `ci` drops the contexts.
std::set<EdgeRow> table(bool ci) {
  auto x = [ci](uint32_t ctx) { return ci ? 0 : ctx; };
  return {
      {alloc(3, x(39)), field(39, 0, kElems), 1, 4},
      {alloc(3, x(42)), field(42, 0, kElems), 1, 4},
      {alloc(3, x(31)), field(31, x(46), kElems), 1, 4},
      {alloc(41), field(3, x(39), kElmField), 1000, 4},
      {alloc(44), field(3, x(42), kElmField), 5, 4},
      {field(3, x(39), kElmField), field(3, x(31), kElmField), 999, 4},
      {field(3, x(42), kElmField), kC, 10, 4},
      {field(39, 0, kCount), kC, 2000, 4},
      {field(42, 0, kCount), kC, 5, 4},
      {field(31, x(46), kCount), kC, 999, 4},
      {field(16, x(39), kPos), kC, 1999, 4},
      {alloc(39), field(46, 0, kMyList), 1, 4},
      {alloc(42), field(47, 0, kMyList), 1, 4},
      {alloc(31, x(46)), field(32, x(46), kMyList), 1, 4},
      {field(47, 0, kMyList), field(35, x(47), kMyList), 1, 4},
      {field(46, 0, kMyList), field(16, x(39), kList), 1, 4},
  };
}

// Assertion 1: both graphs are the table's, edge for edge (in CI, rows 6 and 7 become
// O3.ELM -> O3.ELM and O3.ELM -> C; no two rows merge).
TEST_F(Fig6, BothGraphsAreTheTable) {
  Model m = model(0);
  EXPECT_EQ(rows(m.sensitive.graph), table(false));
  EXPECT_EQ(rows(m.insensitive.graph), table(true));
  EXPECT_EQ(m.graphStats.edges, 16u);
  EXPECT_EQ(m.graphStats.dropped, 0u);
  EXPECT_EQ(m.graphStats.unknownEdges, 0u);
  EXPECT_EQ(m.totals.heapCopies, 999u + 1 + 1);
  EXPECT_EQ(m.totals.births, 1016u);
}

// Assertion 2 (the paper's point of 3.3): CI has paths O41 -> ... -> C and O44 -> ... -> C;
// CS has O44 -> O3@42.ELM -> C but no path from O41 to C.
TEST_F(Fig6, OnlyTheInsensitiveGraphConsumesO41) {
  Model m = model(0);
  const Graph& ci = m.insensitive.graph;
  const Graph& cs = m.sensitive.graph;
  EXPECT_TRUE(reaches(ci, ci.find(alloc(41)), kConsumer));
  EXPECT_TRUE(reaches(ci, ci.find(alloc(44)), kConsumer));
  EXPECT_TRUE(reaches(cs, cs.find(alloc(44)), kConsumer));
  EXPECT_NE(cs.edge(cs.find(field(3, 42, kElmField)), kConsumer), nullptr);
  EXPECT_FALSE(reaches(cs, cs.find(alloc(41)), kConsumer));
}

// Assertion 3: NATH = {16, 32, 35, 46, 47}, one instance each, none consumed.
TEST_F(Fig6, NathSites) {
  Model m = model(0);
  for (const View* v : {&m.insensitive, &m.sensitive}) {
    std::set<uint32_t> sites;
    for (const NathRow& r : v->nath) {
      sites.insert(v->graph.node(r.node).object.site);
      EXPECT_EQ(r.births, 1u);
      EXPECT_EQ(r.consumed, 0u);
    }
    EXPECT_EQ(sites, (std::set<uint32_t>{16, 32, 35, 46, 47}));
    EXPECT_EQ(v->nath.size(), 5u);
  }
}

uint64_t volume(const View& v, const Node& a, const Node& b) {
  uint32_t x = v.graph.find(a), y = v.graph.find(b);
  for (const ClonePair& p : v.clones.top) {
    if (p.from == x && p.to == y) return p.volume;
  }
  return 0;
}

// Assertion 4: volume(O46, O32) = volume(O39, O31) = volume(O3@39, O3@31) = 3996 (999
// copies of 4 bytes), the largest; the top pair is (O46, O32@46): the ListClients whose
// cloning the copies serve. (O16@39, O32@46), the iterator over data1, has the same volume
// and depth: the ListIterator points to data1 as O46 does; it ranks after the pair of one
// type.
TEST_F(Fig6, CloneVolumes) {
  Model m = model(0);
  const View& cs = m.sensitive;
  EXPECT_EQ(volume(cs, alloc(46), alloc(32, 46)), 3996u);
  EXPECT_EQ(volume(cs, alloc(39), alloc(31, 46)), 3996u);
  EXPECT_EQ(volume(cs, alloc(3, 39), alloc(3, 31)), 3996u);
  EXPECT_EQ(volume(cs, alloc(16, 39), alloc(32, 46)), 3996u);
  EXPECT_EQ(volume(cs, alloc(46), alloc(16, 39)), 4u);  // row 16: myList -> list
  EXPECT_EQ(volume(cs, alloc(47), alloc(35, 47)), 4u);  // row 15
  EXPECT_EQ(volume(cs, alloc(32, 46), alloc(46)), 0u);  // no flow back
  ASSERT_FALSE(cs.clones.top.empty());
  const ClonePair& top = cs.clones.top[0];
  EXPECT_EQ(top.from, cs.graph.find(alloc(46)));
  EXPECT_EQ(top.to, cs.graph.find(alloc(32, 46)));
  EXPECT_EQ(top.volume, 3996u);
  EXPECT_EQ(top.direct, 0u);
  EXPECT_EQ(top.depth, 4u);
  EXPECT_TRUE(top.sameType);
  // 4 x 3 owners of the two arrays share the 3996; the two 4-byte pairs.
  EXPECT_EQ(cs.clones.pairs, 14u);
  EXPECT_EQ(cs.clones.cut, 0u);

  // CI: the same 3996; but all O3 arrays are one object there, so every owner of one owns
  // them all, and the pairs whose own 4 bytes of rows 15 and 16 add to it come first.
  const View& ci = m.insensitive;
  EXPECT_EQ(volume(ci, alloc(46), alloc(32)), 3996u);
  EXPECT_EQ(volume(ci, alloc(39), alloc(31)), 3996u);
  EXPECT_EQ(volume(ci, alloc(3), alloc(3)), 3996u);
  EXPECT_EQ(volume(ci, alloc(46), alloc(16)), 4000u);
  EXPECT_EQ(volume(ci, alloc(47), alloc(35)), 4000u);
  EXPECT_EQ(ci.clones.top[0].volume, 4000u);
  EXPECT_EQ(ci.clones.top[2].volume, 3996u);
}

// Assertion 4: the hot chain on top is O3@39.ELM -> O3@31.ELM, freq 999, 4 bytes, WF 3996,
// produced by O41 and never consumed; in CI the self edge O3.ELM -> O3.ELM, consumed.
TEST_F(Fig6, HotChain) {
  Model m = model(0);
  const View& cs = m.sensitive;
  ASSERT_EQ(cs.chains.top.size(), 3u);
  EXPECT_EQ(cs.chains.total, 3u);
  const Chain& top = cs.chains.top[0];
  EXPECT_EQ(top.nodes, (std::vector<uint32_t>{cs.graph.find(field(3, 39, kElmField)),
                                              cs.graph.find(field(3, 31, kElmField))}));
  EXPECT_EQ(top.freq, 999u);
  EXPECT_EQ(top.bytes, 4u);
  EXPECT_EQ(top.wf, 3996u);
  EXPECT_EQ(top.length(), 1u);
  EXPECT_EQ(top.producer, cs.graph.find(alloc(41)));
  EXPECT_EQ(top.producers, 1u);
  EXPECT_EQ(top.consumed, 0u);
  EXPECT_EQ(cs.chains.top[1].wf, 4u);

  const View& ci = m.insensitive;
  const Chain& self = ci.chains.top[0];
  uint32_t elm = ci.graph.find(field(3, 0, kElmField));
  EXPECT_EQ(self.nodes, (std::vector<uint32_t>{elm, elm}));
  EXPECT_EQ(self.wf, 3996u);
  EXPECT_EQ(self.producer, ci.graph.find(alloc(41)));  // 1000 stores against O44's 5
  EXPECT_EQ(self.producers, 2u);
  EXPECT_EQ(self.consumed, 10u);
}

// Assertion 5: flat List.add 999, ListIterator.<init> 1, ListClient.<init> 1; cumulative
// deepClone 1000, shallowClone 1.
TEST_F(Fig6, FlatAndCumulativeProfiles) {
  Model m = model(0);
  const CopyProfile& c = m.copies;
  EXPECT_EQ(c.total, 1001u);
  EXPECT_EQ(c.lost, 0u);
  // The three that copy; main, deepClone, List.<init>(List), List.iterator, shallowClone
  // (cumulative only).
  ASSERT_EQ(c.methods.size(), 8u);
  std::map<uint32_t, std::pair<uint64_t, uint64_t>> byMethod;
  for (const MethodCopies& x : c.methods) byMethod[x.method] = {x.self, x.total};
  using P = std::pair<uint64_t, uint64_t>;
  EXPECT_EQ(byMethod[kListAdd], (P{999, 999}));
  EXPECT_EQ(byMethod[kIteratorInit], (P{1, 1}));
  EXPECT_EQ(byMethod[kClientInit], (P{1, 1}));
  EXPECT_EQ(byMethod[kDeepClone], (P{0, 1000}));
  EXPECT_EQ(byMethod[kShallowClone], (P{0, 1}));
  EXPECT_EQ(byMethod[kListCopyInit], (P{0, 1000}));
  EXPECT_EQ(byMethod[kMain], (P{0, 1001}));
  EXPECT_EQ(byMethod[kListIterator], (P{0, 1}));
  EXPECT_EQ(c.methods[0].method, kListAdd);
  // Per context: deepClone's and shallowClone's subtrees.
  const auto& nodes = m.tree.nodes;
  std::map<uint32_t, uint64_t> underMain;  // method -> its context's total below main
  for (uint32_t n = 1; n < nodes.size(); ++n) {
    if (nodes[nodes[n].parent].key == kMain) underMain[nodes[n].key] = c.contexts[n].total;
  }
  EXPECT_EQ(underMain, (std::map<uint32_t, uint64_t>{{kListInit, 0},
                                                     {kListAdd, 0},
                                                     {kClientInit, 0},
                                                     {kDeepClone, 1000},
                                                     {kShallowClone, 1},
                                                     {kListGet, 0}}));
  EXPECT_EQ(c.contexts[0].total, 1001u);
  // Fig. 5(a): the top method explains 999 of 1001 copies, the top three all.
  EXPECT_EQ(c.concentration, (std::vector<uint64_t>{999, 1000, 1001}));
  EXPECT_DOUBLE_EQ(c.share(1), 999.0 / 1001.0);
  EXPECT_DOUBLE_EQ(c.share(3), 1.0);
  EXPECT_DOUBLE_EQ(c.share(10), 1.0);
}

// Assertion 6: with `pos < list.count` deepClone copies all 1000 elements: the paper's
// volumes of 4000, and rows 8 and 11 at 2001.
TEST_F(Fig6, WholeListVariant) {
  Model m = model(0, true);
  const View& cs = m.sensitive;
  EXPECT_EQ(volume(cs, alloc(46), alloc(32, 46)), 4000u);
  EXPECT_EQ(volume(cs, alloc(39), alloc(31, 46)), 4000u);
  EXPECT_EQ(cs.clones.top[0].volume, 4000u);
  EXPECT_EQ(cs.chains.top[0].freq, 1000u);
  EXPECT_EQ(cs.chains.top[0].wf, 4000u);
  const Graph& g = cs.graph;
  EXPECT_EQ(g.edge(g.find(field(39, 0, kCount)), kConsumer)->freq, 2001u);
  EXPECT_EQ(g.edge(g.find(field(16, 39, kPos)), kConsumer)->freq, 2001u);
  EXPECT_EQ(g.edge(g.find(field(31, 46, kCount)), kConsumer)->freq, 1000u);
  EXPECT_EQ(m.copies.total, 1002u);
  EXPECT_FALSE(reaches(g, g.find(alloc(41)), kConsumer));
}

// Fan-out and CCR by hand. CS: 28 nodes besides C (13 allocation, 15 field nodes), 16 edges,
// none with two. CI: 24 nodes, 16 edges, O3 with three (its arrays' three owners). O3's
// contexts 39, 42, 31: with 4 and 8 slots 39 and 31 share one (CCR 2/3), with 16 none; the
// 10 other sites have one context each.
TEST_F(Fig6, FanOutAndConflictRatio) {
  Model m = model(0);
  EXPECT_EQ(m.sensitive.fanOut.nodes, 28u);
  EXPECT_EQ(m.sensitive.fanOut.edges, 16u);
  EXPECT_DOUBLE_EQ(m.sensitive.fanOut.average, 16.0 / 28.0);
  EXPECT_EQ(m.sensitive.fanOut.max, 1u);
  EXPECT_EQ(m.insensitive.fanOut.nodes, 24u);
  EXPECT_DOUBLE_EQ(m.insensitive.fanOut.average, 16.0 / 24.0);
  EXPECT_EQ(m.insensitive.fanOut.max, 3u);
  EXPECT_EQ(m.insensitive.fanOut.maxNode, m.insensitive.graph.find(alloc(3)));
  EXPECT_EQ(m.contexts.at(3), (std::vector<uint32_t>{31, 39, 42}));
  ASSERT_EQ(m.conflictRatios.size(), 3u);  // slots=0: 4, 8, 16 only
  EXPECT_EQ(m.conflictRatios[0].first, 4u);
  EXPECT_DOUBLE_EQ(m.conflictRatios[0].second, 2.0 / 3.0 / 11.0);
  EXPECT_DOUBLE_EQ(m.conflictRatios[1].second, 2.0 / 3.0 / 11.0);
  EXPECT_EQ(m.conflictRatios[2].first, 16u);
  EXPECT_DOUBLE_EQ(m.conflictRatios[2].second, 0.0);
}

// Recorded with 16 slots, where every site's contexts fall in distinct slots: the same
// graph, each exact context replaced by its slot.
TEST_F(Fig6, SixteenSlotsGiveTheSameGraph) {
  Model m = model(16);
  EXPECT_EQ(m.settings.slots, 16u);
  std::set<EdgeRow> want;
  for (auto [a, b, f, bytes] : table(false)) {
    a.object.context %= 16;
    b.object.context %= 16;
    want.insert({a, b, f, bytes});
  }
  EXPECT_EQ(rows(m.sensitive.graph), want);
  EXPECT_EQ(rows(m.insensitive.graph), table(true));
  EXPECT_FALSE(reaches(m.sensitive.graph, m.sensitive.graph.find(alloc(41)), kConsumer));
  EXPECT_EQ(m.sensitive.clones.top[0].volume, 3996u);
  EXPECT_EQ(m.conflictRatios.back(), (std::pair<uint32_t, double>{16, 0.0}));
}

// Recorded with 4 slots: O3's contexts 39 and 31 share slot 3, so data1's and the clone's
// arrays are one node with a self edge, as in CI; 42 keeps slot 2, so O41 still does not
// reach C. The report's CCR-4 says so (> 0).
TEST_F(Fig6, FourSlotsMergeConflictingContexts) {
  Model m = model(4);
  const Graph& cs = m.sensitive.graph;
  uint32_t merged = cs.find(field(3, 3, kElmField));
  ASSERT_NE(merged, kNoNode);
  const Edge* self = cs.edge(merged, merged);
  ASSERT_NE(self, nullptr);
  EXPECT_EQ(self->freq, 999u);
  EXPECT_EQ(cs.find(alloc(3, 3)), cs.find(alloc(3, 39 % 4)));
  EXPECT_EQ(cs.births(cs.find(alloc(3, 3))), 2u);  // the arrays of O39 and O31
  EXPECT_EQ(cs.births(cs.find(alloc(3, 2))), 1u);
  EXPECT_FALSE(reaches(cs, cs.find(alloc(41)), kConsumer));
  EXPECT_EQ(cs.edges().size(), 16u);
  ASSERT_EQ(m.conflictRatios.size(), 3u);  // 4 is the profile's own
  EXPECT_GT(m.conflictRatios[0].second, 0.0);
}

TEST_F(Fig6, Names) {
  Model m = model(0);
  const Graph& cs = m.sensitive.graph;
  EXPECT_EQ(nodeName(m, cs, cs.find(field(3, 39, kElmField))),
            "<java.lang.Object[] List.<init>(ListClient.java:3) @ List "
            "ListClient.main(ListClient.java:39)>.ELM");
  EXPECT_EQ(nodeName(m, cs, cs.find(alloc(46))),
            "ListClient ListClient.main(ListClient.java:46) @ static");
  EXPECT_EQ(nodeName(m, cs, cs.find(field(46, 0, kMyList))),
            "<ListClient ListClient.main(ListClient.java:46) @ static>.myList");
  EXPECT_EQ(nodeName(m, cs, kConsumer), "C");
  EXPECT_EQ(nodeName(m, m.insensitive.graph, m.insensitive.graph.find(alloc(41))),
            "java.lang.Integer ListClient.main(ListClient.java:41)");
  Model four = model(4);
  EXPECT_EQ(objectName(four, Naming::Sensitive, {3, 3}),
            "java.lang.Object[] List.<init>(ListClient.java:3) @ slot 3");
}

}  // namespace
}  // namespace dragnet::analyses::copy
