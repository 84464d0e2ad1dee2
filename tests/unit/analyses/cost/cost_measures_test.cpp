// Mode cost's graph-wide measures on hand-made graphs: IPD, IPP and NLD (dead values,
// values only compared, values passed to a native), the context conflict ratio, and a graph
// of a million instances (one cycle, one chain) that recursion could not walk.
#include <gtest/gtest.h>

#include <vector>

#include "analyses/cost/model/model.h"
#include "graph_builder.h"

namespace dragnet::analyses::cost {
namespace {

using test::cost::GraphBuilder;

// - a dead loop counter: i = 0 (1) -> iinc (100, on itself), which nothing else reads;
// - a value only compared: getfield (10) -> sub (10) -> if (10);
// - a value passed to a native: mul (7) -> native (7), whose result (7) is stored in a static
//   nothing reads;
// - a dead sink: add (4) -> putstatic (4);
// - mixed: x (3) feeds the `if` and the dead iinc; y (2) feeds the `if` and the native.
struct Fixture {
  GraphBuilder b;
  uint32_t i0, inc, get, sub, cmp, mul, nat, res, add, put, x, y;
  Fixture() {
    i0 = b.ran(NodeKind::Assign, 1);
    inc = b.ran(NodeKind::Compute, 100);
    get = b.ran(NodeKind::LoadField, 10, 30);
    sub = b.ran(NodeKind::Compute, 10);
    cmp = b.ran(NodeKind::Predicate, 10);
    mul = b.ran(NodeKind::Compute, 7);
    nat = b.ran(NodeKind::Native, 7);
    res = b.ran(NodeKind::StoreStatic, 7, 50);
    add = b.ran(NodeKind::Compute, 4);
    put = b.ran(NodeKind::StoreStatic, 4, 51);
    x = b.ran(NodeKind::Compute, 3);
    y = b.ran(NodeKind::Compute, 2);
    b.dep(inc, i0);
    b.dep(inc, inc);
    b.dep(sub, get);
    b.dep(cmp, sub);
    b.dep(nat, mul);
    b.dep(res, nat);
    b.dep(put, add);
    b.dep(cmp, x);
    b.dep(inc, x);
    b.dep(cmp, y);
    b.dep(nat, y);
  }
};

TEST(CostBloat, DeadPredicateOnlyAndNative) {
  Fixture f;
  CostModel m(f.b.in);
  const Bloat& b = m.bloat();
  // I = 1 + 100 + 10 + 10 + 10 + 7 + 7 + 7 + 4 + 4 + 3 + 2
  EXPECT_EQ(b.instructions, 165u);
  // D* = {i0, iinc, res, add, put}: the loop reaches no consumer, nor does the native's result.
  EXPECT_EQ(b.deadInstances, 5u);
  EXPECT_EQ(b.deadFreq, 1u + 100 + 7 + 4 + 4);
  // P* = {get, sub, if}. Not x: besides the `if` it reaches the dead loop (by the brief's
  // wording, "no non-consumer sink reachable", x would be in P*: the loop has no sink; but
  // its values are dead, and P* is "can lead only to predicates"). Not y, mul, the native.
  EXPECT_EQ(b.predicateInstances, 3u);
  EXPECT_EQ(b.predicateFreq, 30u);
  EXPECT_DOUBLE_EQ(b.ipd, 116.0 / 165);
  EXPECT_DOUBLE_EQ(b.ipp, 30.0 / 165);
  EXPECT_DOUBLE_EQ(b.nld, 5.0 / 12);
  auto in = [&](uint32_t node) { return b.membership[m.graph().find({node, 0})]; };
  EXPECT_EQ(in(f.inc), kDead);
  EXPECT_EQ(in(f.res), kDead);
  EXPECT_EQ(in(f.nat), 0);
  EXPECT_EQ(in(f.mul), 0);
  EXPECT_EQ(in(f.x), 0);
  EXPECT_EQ(in(f.y), 0);
  EXPECT_EQ(in(f.cmp), kPredicateOnly);
  EXPECT_EQ(in(f.get), kPredicateOnly);
}

TEST(CostBloat, EmptyGraph) {
  CostModel m(GraphInput{});
  EXPECT_EQ(m.bloat().instructions, 0u);
  EXPECT_DOUBLE_EQ(m.bloat().ipd, 0);
  EXPECT_DOUBLE_EQ(m.bloat().nld, 0);
  EXPECT_DOUBLE_EQ(m.conflictRatio(), 0);
  EXPECT_TRUE(m.objects().empty());
}

// Methods 1..4: dc = {1, 1} (no conflict: 0), {3, 1} (3/4), {2, 2} (1/2), none (0). Nodes
// that ran: one of method 1, two of method 2, one of method 3, one of method 4; a node of
// method 2 that never ran does not count.
TEST(CostConflictRatio, MeanOverNodesThatRan) {
  GraphBuilder b;
  auto ran = [&b](uint32_t method, uint64_t freq) {
    uint32_t n = b.node(NodeKind::Compute, 0, 0, method);
    b.in.freq.push_back({{n, 0}, freq});
    return n;
  };
  ran(1, 1);
  uint32_t m2 = ran(2, 5);
  ran(2, 1);
  ran(3, 2);
  ran(4, 1);
  uint32_t idle = ran(2, 0);
  b.dep(m2, idle);
  b.in.chains = {{1, 0, 1}, {1, 1, 1}, {2, 0, 3}, {2, 5, 1},
                 {3, 2, 2}, {3, 3, 2}, {3, 2, 1}};  // (3, 2) twice: the larger count
  CostModel m(b.in);
  EXPECT_DOUBLE_EQ(m.conflictRatio(), (0 + 0.75 + 0.75 + 0.5 + 0) / 5);
  EXPECT_EQ(m.size().defsRan, 5u);
  EXPECT_EQ(m.size().instances, 6u);
}

// A cycle of 500,000 instances (one strongly connected component) and a chain of 500,000
// into a predicate: a recursive Tarjan or walk would need a stack 500,000 frames deep.
TEST(CostLarge, MillionInstances) {
  constexpr uint32_t kCycle = 500'000, kChain = 500'000;
  GraphBuilder b;
  b.in.slots = 1;
  b.in.defs.reserve(kCycle + kChain + 2);
  b.in.freq.reserve(kCycle + kChain + 1);
  b.in.edges.reserve(kCycle + kChain + 1);
  uint64_t cycleSum = 0, chainSum = 0;
  for (uint32_t i = 0; i < kCycle; ++i) {
    uint32_t n = b.ran(NodeKind::Compute, i % 7 + 1);
    cycleSum += i % 7 + 1;
    b.dep(n + 1 == kCycle + 1 ? 1 : n + 1, n);  // i -> i + 1, the last back to the first
  }
  for (uint32_t i = 0; i < kChain; ++i) {
    uint32_t n = b.ran(NodeKind::Compute, i % 3 + 1);
    chainSum += i % 3 + 1;
    b.dep(n + 1, n);  // into the next, the last into the predicate
  }
  uint32_t pred = b.ran(NodeKind::Predicate, 5);
  CostModel m(b.in);
  ASSERT_EQ(m.graph().size(), kCycle + kChain + 1);
  EXPECT_EQ(m.size().edges, uint64_t{kCycle} + kChain);
  const Bloat& bl = m.bloat();
  EXPECT_EQ(bl.instructions, cycleSum + chainSum + 5);
  EXPECT_EQ(bl.deadInstances, kCycle);
  EXPECT_EQ(bl.deadFreq, cycleSum);
  EXPECT_EQ(bl.predicateInstances, kChain + 1u);
  EXPECT_EQ(bl.predicateFreq, chainSum + 5);
  uint32_t count = 0;
  std::vector<uint32_t> comp = components(m.graph(), &count);
  EXPECT_EQ(count, 1u + kChain + 1);
  EXPECT_EQ(m.absoluteCost(m.graph().find({pred, 0})), chainSum + 5);
  EXPECT_EQ(m.absoluteCost(m.graph().find({1, 0})), cycleSum);
  Benefit first = m.relativeBenefit(m.graph().find({kCycle + 1, 0}));
  EXPECT_EQ(first.value, chainSum + 5);
  EXPECT_TRUE(first.consumed);
}

}  // namespace
}  // namespace dragnet::analyses::cost
