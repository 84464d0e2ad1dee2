// Mode copy's clients on small graphs computed by hand: chain enumeration (ranking, the
// limits and what they cut), the clone detector's reference depth, NATH, fan-out, CCR.
#include <gtest/gtest.h>

#include <set>

#include "analyses/copy/model/chains.h"
#include "analyses/copy/model/clients.h"

namespace dragnet::analyses::copy {
namespace {

Node stat(uint32_t f) { return {NodeKind::Static, {}, f}; }
Node alloc(uint32_t site) { return {NodeKind::Alloc, {site, 0}, 0}; }
Node field(uint32_t site, uint32_t f) { return {NodeKind::Field, {site, 0}, f}; }

// Three static fields in a cycle: A -(10)-> B -(5)-> C -(20)-> A, 4 bytes each. Trails of
// up to 5 edges: from each node the paths of 1, 2 and 3 edges (a fourth would repeat one).
//   A>B 40, A>B>C 40, A>B>C>A 60 | B>C 20, B>C>A 40, B>C>A>B 60 | C>A 80, C>A>B 80, C>A>B>C 60
Graph cycle() {
  Graph g(Naming::Insensitive);
  uint32_t a = g.intern(stat(2)), b = g.intern(stat(3)), c = g.intern(stat(4));
  g.addEdge(a, b, 10, 4);
  g.addEdge(b, c, 5, 4);
  g.addEdge(c, a, 20, 4);
  g.finish();
  return g;
}

std::vector<uint64_t> wfs(const Chains& c) {
  std::vector<uint64_t> out;
  for (const Chain& x : c.top) out.push_back(x.wf);
  return out;
}

TEST(CopyChains, AllTrailsRankedByWasteFactor) {
  Graph g = cycle();
  Chains c = hotChains(g, {});
  EXPECT_EQ(c.total, 9u);
  EXPECT_EQ(c.lengths, 3u * (1 + 2 + 3));
  EXPECT_EQ(c.cut, 0u);
  EXPECT_EQ(wfs(c), (std::vector<uint64_t>{80, 80, 60, 60, 60, 40, 40, 40, 20}));
  // Ties: the longer first (C>A>B before C>A), then node order.
  EXPECT_EQ(c.top[0].nodes, (std::vector<uint32_t>{3, 1, 2}));
  EXPECT_EQ(c.top[1].nodes, (std::vector<uint32_t>{3, 1}));
  EXPECT_EQ(c.top[2].nodes, (std::vector<uint32_t>{1, 2, 3, 1}));
  EXPECT_EQ(c.top[2].freq, 5u);
  EXPECT_EQ(c.top[7].nodes, (std::vector<uint32_t>{1, 2}));  // the 40 of length 1 last
  EXPECT_EQ(c.top[0].producer, kNoNode);
  // At most two edges: 6 chains.
  EXPECT_EQ(hotChains(g, {.maxEdges = 2}).total, 6u);
  // The four hottest kept.
  Chains four = hotChains(g, {.keep = 4});
  EXPECT_EQ(four.total, 9u);
  EXPECT_EQ(wfs(four), (std::vector<uint64_t>{80, 80, 60, 60}));
}

// Limits: the starts go hottest edge first (C: 80, A: 40, B: 20). In all at most 4: C's
// three chains, then A>B; A>B>C is cut there, and B is not started (its one edge cut).
// At most 2 per start: each start's third chain is cut.
TEST(CopyChains, LimitsCountWhatTheyCut) {
  Graph g = cycle();
  Chains all = hotChains(g, {.limit = 4});
  EXPECT_EQ(all.total, 4u);
  EXPECT_EQ(all.cut, 2u);
  EXPECT_EQ(wfs(all), (std::vector<uint64_t>{80, 80, 60, 40}));
  Chains each = hotChains(g, {.perStart = 2});
  EXPECT_EQ(each.total, 6u);
  EXPECT_EQ(each.cut, 3u);
}

// Chains run through heap nodes only; producers and the consumer annotate them.
TEST(CopyChains, ProducerAndConsumer) {
  Graph g(Naming::Insensitive);
  uint32_t o1 = g.intern(alloc(1)), o2 = g.intern(alloc(2));
  uint32_t f = g.intern(field(5, 2)), h = g.intern(field(6, 3));
  g.addEdge(o1, f, 3, 4);
  g.addEdge(o2, f, 7, 4);
  g.addEdge(f, h, 7, 8);
  g.addEdge(h, kConsumer, 2, 8);
  g.finish();
  Chains c = hotChains(g, {});
  ASSERT_EQ(c.total, 1u);
  EXPECT_EQ(c.top[0].nodes, (std::vector<uint32_t>{f, h}));
  EXPECT_EQ(c.top[0].bytes, 8u);
  EXPECT_EQ(c.top[0].wf, 56u);
  EXPECT_EQ(c.top[0].producer, o2);
  EXPECT_EQ(c.top[0].producers, 2u);
  EXPECT_EQ(c.top[0].consumed, 2u);
}

// A chain of ownership four deep: O1.f <- O2, O2.f <- O3, O3.f <- O4 (each Ok stored into
// O(k-1)'s field), the same for O11..O14; 10 copies of 8 bytes from O4.g to O14.g, and one
// from O1.g to O11.g. With depth 3 the large flow reaches (O1, O11); with depth 2 it stops
// at (O2, O12). A limit of 5 attributions lets the large flow (to its 16 pairs) through and
// cuts the small one.
TEST(CopyClones, VolumeFollowsReferencesToTheDepth) {
  Graph g(Naming::Insensitive);
  auto chain = [&](uint32_t base) {
    for (uint32_t k = 1; k <= 3; ++k) {
      g.addEdge(g.intern(alloc(base + k + 1)), g.intern(field(base + k, 2)), 1, 4);
    }
  };
  chain(0);
  chain(10);
  g.addEdge(g.intern(field(4, 3)), g.intern(field(14, 3)), 10, 8);
  g.addEdge(g.intern(field(1, 3)), g.intern(field(11, 3)), 1, 8);
  g.finish();
  auto pair = [&](const Clones& c, uint32_t a, uint32_t b) -> const ClonePair* {
    for (const ClonePair& p : c.top) {
      if (p.from == g.allocOf({a, 0}) && p.to == g.allocOf({b, 0})) return &p;
    }
    return nullptr;
  };
  Clones three = detectClones(g, {});
  EXPECT_EQ(pair(three, 4, 14)->volume, 80u);
  EXPECT_EQ(pair(three, 1, 14)->volume, 80u);
  EXPECT_EQ(pair(three, 1, 11)->volume, 88u);
  EXPECT_EQ(pair(three, 1, 11)->direct, 8u);
  EXPECT_EQ(three.pairs, 16u);  // 4 x 4 owners
  EXPECT_EQ(three.top[0].from, g.allocOf({1, 0}));
  EXPECT_EQ(three.top[0].to, g.allocOf({11, 0}));
  EXPECT_EQ(three.top[0].depth, 6u);
  EXPECT_EQ(three.top.back().direct, 80u);  // (O4, O14): the direct pair, depth 0, last
  EXPECT_EQ(three.cut, 0u);
  Clones two = detectClones(g, {.depth = 2});
  EXPECT_EQ(pair(two, 2, 12)->volume, 80u);
  EXPECT_EQ(pair(two, 1, 11)->volume, 8u);
  EXPECT_EQ(two.pairs, 10u);
  Clones capped = detectClones(g, {.limit = 5});
  EXPECT_EQ(capped.pairs, 16u);
  EXPECT_EQ(capped.cut, 1u);
  EXPECT_EQ(pair(capped, 1, 11)->volume, 80u);
  Clones narrow = detectClones(g, {.maxAncestors = 2});  // O4 from O3 only, O14 from O13
  EXPECT_EQ(narrow.pairs, 5u);
  EXPECT_EQ(narrow.truncated, 2u);
}

// "O' points to O" along a chain produced by O: O9 stored into O1.f, copied on to O2.f and
// O3.f, so O1, O2 and O3 all point to O9, and O9's 40 bytes copied to O20 count for all
// three; followed at most 2 heap nodes from O9, O3 is not reached.
TEST(CopyClones, PointsToAlongChains) {
  Graph g(Naming::Insensitive);
  g.addEdge(g.intern(alloc(9)), g.intern(field(1, 2)), 1, 4);
  g.addEdge(g.intern(field(1, 2)), g.intern(field(2, 2)), 1, 4);
  g.addEdge(g.intern(field(2, 2)), g.intern(field(3, 2)), 1, 4);
  g.addEdge(g.intern(field(9, 3)), g.intern(field(20, 3)), 10, 4);
  g.finish();
  auto from = [](const Clones& c, uint32_t to) {
    std::set<uint32_t> out;
    for (const ClonePair& p : c.top) {
      if (p.to == to && p.volume == 40) out.insert(p.from);
    }
    return out;
  };
  uint32_t o20 = g.allocOf({20, 0});
  Clones all = detectClones(g, {});
  EXPECT_EQ(from(all, o20), (std::set<uint32_t>{g.allocOf({9, 0}), g.allocOf({1, 0}),
                                                g.allocOf({2, 0}), g.allocOf({3, 0})}));
  EXPECT_EQ(all.pairs, 6u);  // and (O1, O2), (O2, O3): 4 bytes each
  EXPECT_EQ(all.truncated, 0u);
  Clones near = detectClones(g, {.maxReach = 2});
  EXPECT_EQ(from(near, o20),
            (std::set<uint32_t>{g.allocOf({9, 0}), g.allocOf({1, 0}), g.allocOf({2, 0})}));
  EXPECT_EQ(near.truncated, 1u);
  // With chains of one heap edge, O3.f is two copies away.
  Clones shorter = detectClones(g, {.pointsToEdges = 1});
  EXPECT_EQ(from(shorter, o20).size(), 3u);
}

// NATH: with births, and no edge to a heap node; an edge to C flags it.
TEST(CopyNath, AllocationsThatNeverReachTheHeap) {
  Graph g(Naming::Insensitive);
  uint32_t stored = g.intern(alloc(1)), temp = g.intern(alloc(2)), used = g.intern(alloc(3));
  g.intern(alloc(4));  // no births: not instantiated while recording
  g.addEdge(stored, g.intern(stat(2)), 5, 4);
  g.addEdge(used, kConsumer, 7, 4);
  g.addBirths({1, 0}, 5);
  g.addBirths({2, 0}, 3);
  g.addBirths({3, 0}, 9);
  g.addBirths({0, 0}, 100);  // the unknown object is no site
  g.finish();
  std::vector<NathRow> rows = notAssignedToHeap(g);
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0].node, used);
  EXPECT_EQ(rows[0].births, 9u);
  EXPECT_EQ(rows[0].consumed, 7u);
  EXPECT_EQ(rows[1].node, temp);
  EXPECT_EQ(rows[1].consumed, 0u);
}

TEST(CopyFanOut, OutgoingEdgesPerNode) {
  Graph g(Naming::Insensitive);
  uint32_t o = g.intern(alloc(1));
  uint32_t a = g.intern(stat(2)), b = g.intern(stat(3));
  g.intern(alloc(5));  // a producer without edges counts
  g.addEdge(o, a, 1, 4);
  g.addEdge(o, b, 1, 4);
  g.addEdge(a, b, 1, 4);
  g.addEdge(a, kConsumer, 1, 4);
  g.addEdge(b, kConsumer, 1, 4);
  g.finish();
  FanOut f = fanOut(g);
  EXPECT_EQ(f.nodes, 4u);
  EXPECT_EQ(f.edges, 5u);
  EXPECT_DOUBLE_EQ(f.average, 1.25);
  EXPECT_EQ(f.max, 2u);
  EXPECT_EQ(f.maxNode, o);
}

// CCR-s: nc[k] = distinct contexts c with c mod s = k.
TEST(CopyConflictRatio, ByHand) {
  // 4 slots: 1, 5, 9 -> slot 1 (3); 2 -> slot 2: 3 / 4.
  EXPECT_DOUBLE_EQ(contextConflictRatio({1, 5, 9, 2, 5}, 4), 0.75);
  EXPECT_DOUBLE_EQ(contextConflictRatio({1, 2, 3}, 4), 0.0);  // no slot shared
  EXPECT_DOUBLE_EQ(contextConflictRatio({0, 16}, 16), 1.0);   // both in slot 0
  EXPECT_DOUBLE_EQ(contextConflictRatio({7}, 1), 0.0);        // one context
  EXPECT_DOUBLE_EQ(contextConflictRatio({0, 16}, 0), 0.0);    // exact: no sharing
  std::map<uint32_t, std::vector<uint32_t>> sites{{1, {1, 5, 9, 2}}, {2, {3}}, {3, {0, 8}}};
  EXPECT_DOUBLE_EQ(averageConflictRatio(sites, 4), (0.75 + 0 + 1.0) / 3);
  EXPECT_DOUBLE_EQ(averageConflictRatio({}, 4), 0.0);
}

}  // namespace
}  // namespace dragnet::analyses::copy
