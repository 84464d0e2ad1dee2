// Mode cost's model on hand-made graphs: the consumer rule (a location read into a
// predicate or a native gets RAB = K), the walks stopping at heap readers and writers,
// n-RAC/n-RAB over reference cycles and second paths, the ranking's ties, malformed input.
#include <gtest/gtest.h>

#include <vector>

#include "analyses/cost/model/model.h"
#include "graph_builder.h"

namespace dragnet::analyses::cost {
namespace {

using test::cost::GraphBuilder;

constexpr uint32_t kF = 20, kG = 21, kH = 22;
constexpr Object kO{7, 0};
constexpr uint64_t kK = uint64_t{1} << 20;

// O.F: written once; read by r1 (5 times, into a compare and a predicate) and by r2 (once,
// unused). O.G: read by r3 into a computation stored in O.H. O.H: read by r4 into a native.
GraphInput consumers() {
  GraphBuilder b;
  uint32_t w = b.ran(NodeKind::StoreField, 1, kF);
  uint32_t r1 = b.ran(NodeKind::LoadField, 5, kF);
  uint32_t c1 = b.ran(NodeKind::Compute, 5);
  uint32_t p = b.ran(NodeKind::Predicate, 5);
  uint32_t r2 = b.ran(NodeKind::LoadField, 1, kF);
  b.dep(r1, w);
  b.dep(r2, w);
  b.dep(c1, r1);
  b.dep(p, c1);
  uint32_t r3 = b.ran(NodeKind::LoadField, 2, kG);
  uint32_t c3 = b.ran(NodeKind::Compute, 2);
  uint32_t s3 = b.ran(NodeKind::StoreField, 2, kH);
  uint32_t r4 = b.ran(NodeKind::LoadField, 3, kH);
  uint32_t nat = b.ran(NodeKind::Native, 3);
  b.dep(c3, r3);
  b.dep(s3, c3);
  b.dep(r4, s3);
  b.dep(nat, r4);
  for (uint32_t n : {w, r1, r2, r3, s3, r4}) b.effect(n, kO);
  b.in.births = {{kO, 4}};
  return b.in;
}

const LocationCost& at(const CostModel& m, uint32_t field) {
  return m.locations().at(m.findLocation({false, kO, field}));
}

TEST(CostConsumers, ReadIntoAPredicateHasRabK) {
  CostModel m(consumers());
  const LocationCost& f = at(m, kF);
  EXPECT_TRUE(f.consumed);
  EXPECT_DOUBLE_EQ(f.rabMean, 8);  // (15 + 1) / 2
  EXPECT_DOUBLE_EQ(f.rab, double(kK));
  EXPECT_DOUBLE_EQ(f.rac, 1);
  EXPECT_EQ(f.readers.size(), 2u);
}

TEST(CostConsumers, RuleOffKeepsTheMean) {
  CostModel m(consumers(), {.consumerRab = 0});
  const LocationCost& f = at(m, kF);
  EXPECT_DOUBLE_EQ(f.rab, 8);
  EXPECT_TRUE(f.consumed);  // still flagged: the reports say why a RAB would be large
  const ObjectRow* o = m.object(kO);
  ASSERT_NE(o, nullptr);
  EXPECT_DOUBLE_EQ(o->nRab, 8 + 4 + 6);
  EXPECT_DOUBLE_EQ(o->nRac, 1 + 0 + 4);
  EXPECT_TRUE(o->consumed);
  EXPECT_EQ(o->births, 4u);
}

TEST(CostConsumers, KIsALowerBound) {
  EXPECT_DOUBLE_EQ(at(CostModel(consumers(), {.consumerRab = 4}), kF).rab, 8);
  EXPECT_DOUBLE_EQ(at(CostModel(consumers(), {.consumerRab = 10}), kF).rab, 10);
}

TEST(CostConsumers, NativeConsumesAndWritersEndTheWalk) {
  CostModel m(consumers());
  const LocationCost& g = at(m, kG);
  EXPECT_FALSE(g.consumed);    // its value reaches the native only through O.H
  EXPECT_DOUBLE_EQ(g.rab, 4);  // r3, c3; s3 writes the heap
  EXPECT_DOUBLE_EQ(g.rac, 0);  // no writer
  const LocationCost& h = at(m, kH);
  EXPECT_TRUE(h.consumed);
  EXPECT_DOUBLE_EQ(h.rabMean, 6);  // r4, the native
  EXPECT_DOUBLE_EQ(h.rab, double(kK));
  EXPECT_DOUBLE_EQ(h.rac, 4);  // s3, c3; r3 reads the heap
  const ObjectRow* o = m.object(kO);
  EXPECT_DOUBLE_EQ(o->nRab, 2.0 * kK + 4);
}

// Objects A..D, one field each with RAC 1, 10, 100, 1000 (a store of that frequency);
// A.f -> B, B.f -> A (a cycle), B.g -> C, A.h -> C (a second path), C.f -> D.
GraphInput tree() {
  GraphBuilder b;
  const Object objs[] = {{1, 0}, {2, 0}, {3, 0}, {4, 0}};
  uint64_t f = 1;
  for (Object o : objs) {
    uint32_t s = b.ran(NodeKind::StoreField, f, 30);
    b.effect(s, o);
    f *= 10;
  }
  b.in.pointsTo = {{objs[0], 40, objs[1]},
                   {objs[1], 40, objs[0]},
                   {objs[1], 41, objs[2]},
                   {objs[0], 42, objs[2]},
                   {objs[2], 40, objs[3]}};
  return b.in;
}

TEST(CostStructures, DistanceCyclesAndSecondPaths) {
  CostModel m(tree());
  const Object a{1, 0}, b{2, 0}, c{3, 0}, d{4, 0};
  EXPECT_DOUBLE_EQ(m.structure(a, 1).nRac, 1);
  EXPECT_DOUBLE_EQ(m.structure(a, 2).nRac, 111);
  EXPECT_DOUBLE_EQ(m.structure(a, 3).nRac, 1111);
  EXPECT_DOUBLE_EQ(m.structure(a, 8).nRac, 1111);
  EXPECT_DOUBLE_EQ(m.structure(b, 2).nRac, 111);  // B, A, C
  EXPECT_DOUBLE_EQ(m.structure(d, 4).nRac, 1000);
  EXPECT_EQ(m.structure(a, 3).objects, (std::vector<Object>{a, b, c, d}));
  EXPECT_DOUBLE_EQ(m.structure(a, 0).nRac, 1);       // clamped to 1
  EXPECT_DOUBLE_EQ(m.structure({9, 9}, 4).nRac, 0);  // not named: nothing
  EXPECT_DOUBLE_EQ(m.structure({9, 9}, 4).rate, 1);
  // Default height 4: every row counts what its object reaches.
  EXPECT_DOUBLE_EQ(m.object(a)->nRac, 1111);
  EXPECT_DOUBLE_EQ(m.object(c)->nRac, 1100);
  EXPECT_EQ(m.objects()[0].object, a);  // 1112, A < B by name
  EXPECT_EQ(m.objects()[1].object, b);
  EXPECT_EQ(m.objects()[2].object, c);
  EXPECT_EQ(m.objects()[3].object, d);
  EXPECT_EQ(m.options().height, 4u);
  EXPECT_EQ(CostModel(tree(), {.height = 99}).options().height, kMaxHeight);
}

// Equal rates: the larger n-RAC first, then by name; sites sum their slots.
TEST(CostRanking, TiesAndSites) {
  GraphBuilder b;
  auto field = [&b](Object o, uint64_t rac, uint64_t rab) {
    uint32_t s = b.ran(NodeKind::StoreField, rac, 30);
    b.effect(s, o);
    if (rab == 0) return;
    uint32_t r = b.ran(NodeKind::LoadField, rab, 30);
    b.effect(r, o);
  };
  field({5, 1}, 1, 0);  // rate 2
  field({5, 0}, 1, 0);  // rate 2
  field({6, 0}, 3, 1);  // rate 2, larger cost
  field({8, 0}, 9, 0);  // rate 10
  CostModel m(b.in);
  ASSERT_EQ(m.objects().size(), 4u);
  EXPECT_EQ(m.objects()[0].object, (Object{8, 0}));
  EXPECT_EQ(m.objects()[1].object, (Object{6, 0}));
  EXPECT_EQ(m.objects()[2].object, (Object{5, 0}));
  EXPECT_EQ(m.objects()[3].object, (Object{5, 1}));
  ASSERT_EQ(m.sites().size(), 3u);
  EXPECT_EQ(m.sites()[0].site, 8u);
  EXPECT_EQ(m.sites()[1].site, 5u);  // (2 + 1) / (0 + 1) = 3 > 2
  EXPECT_DOUBLE_EQ(m.sites()[1].nRac, 2);
  EXPECT_DOUBLE_EQ(m.sites()[1].rate, 3);
  EXPECT_EQ(m.sites()[1].objects, (std::vector<uint32_t>{2, 3}));
  EXPECT_EQ(m.sites()[2].site, 6u);
}

// Instances naming no def, edges to them, effects of nodes that access no field: dropped or
// ignored, never a crash; a contextless node's slot is 0; the model survives a move.
TEST(CostInput, MalformedIsDroppedAndContextlessMerged) {
  GraphBuilder b;
  uint32_t c = b.ran(NodeKind::Compute, 2);
  uint32_t p = b.node(NodeKind::Predicate);
  b.in.freq.push_back({{p, 3}, 4});  // a predicate with a slot
  b.in.freq.push_back({{p, 0}, 1});
  b.in.freq.push_back({{0, 0}, 9});   // node 0
  b.in.freq.push_back({{77, 0}, 9});  // no def
  b.in.edges.push_back({{p, 5}, {c, 0}});
  b.in.edges.push_back({{77, 1}, {c, 0}});
  b.in.effects.push_back({{c, 0}, {3, 0}});  // a compute has no field effect
  b.in.effects.push_back({{99, 0}, {3, 0}});
  b.in.pointsTo.push_back({{3, 0}, 40, {3, 0}});  // a self reference
  CostModel m0(b.in);
  CostModel m(std::move(m0));
  EXPECT_EQ(m.graph().size(), 2u);
  EXPECT_EQ(m.graph().dropped(), 3u);
  uint32_t pv = m.graph().find({p, 7});
  ASSERT_NE(pv, kNone);
  EXPECT_EQ(m.graph().freq(pv), 5u);
  EXPECT_EQ(m.absoluteCost(pv), 7u);
  EXPECT_TRUE(m.locations().empty());
  EXPECT_DOUBLE_EQ(m.structure({3, 0}, 8).nRac, 0);
  EXPECT_EQ(m.size().edges, 1u);
}

}  // namespace
}  // namespace dragnet::analyses::cost
