// Mode cost's model on CostOracle (../shared/notes/bloat-analysis-spec.md section 2.2): its
// G_cost built by hand from the bytecode of `javac --release 11` by the Fig. 12 rules and the
// spec's node mapping (cost_oracle.h), at s = 1 and s = 16, and every value the spec
// lists. Reading the bytecode gave the spec's values everywhere; what the spec leaves out
// is said where the graph has it (getstatic System.out, the getfield arr -> putfield arr
// edge, the default value of pos).
#include "cost_oracle.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "analyses/cost/model/model.h"

namespace dragnet::analyses::cost {
namespace {

using namespace test::cost;

class CostOracle : public ::testing::TestWithParam<uint32_t> {
 protected:
  uint32_t v(const CostModel& m, uint32_t node) const {
    uint32_t i = m.graph().find(oracle().at(node));
    EXPECT_NE(i, kNone) << node;
    return i;
  }
  Oracle oracle() const { return {GetParam()}; }
  const LocationCost& loc(const CostModel& m, Object o, uint32_t field) const {
    uint32_t l = m.findLocation({false, o, field});
    EXPECT_NE(l, kNone);
    return m.locations().at(l);
  }
};

TEST_P(CostOracle, FrequenciesAndSize) {
  CostModel m(costOracle(1000, GetParam()));
  EXPECT_EQ(m.graph().freq(v(m, kIfCmp)), 1001u);
  for (uint32_t node : {kMul, kAdd1, kInc}) EXPECT_EQ(m.graph().freq(v(m, node)), 1000u);
  for (uint32_t node : {kNewList, kNewA, kAssignV, kGetOut, kNewArray, kPutArr, kAssignS, kAssignI,
                        kPutT, kGetTField, kGetArr, kGetPos, kAddPos, kPutPos, kStoreElm})
    EXPECT_EQ(m.graph().freq(v(m, node)), 1u) << node;
  EXPECT_EQ(m.size().instances, 19u);
  EXPECT_EQ(m.size().edges, 17u);  // 18 listed, one twice
  EXPECT_EQ(m.size().defsRan, 19u);
  EXPECT_EQ(m.graph().dropped(), 0u);
  EXPECT_DOUBLE_EQ(m.conflictRatio(), 0.0);  // one chain per method
}

TEST_P(CostOracle, CostsOfInstances) {
  CostModel m(costOracle(1000, GetParam()));
  // 1 + 1000 (iadd) + 1000 (imul) + 1000 (iinc) + 1 (s = 0) + 1 (i = 0)
  EXPECT_EQ(m.relativeCost(v(m, kPutT)), 3003u);
  EXPECT_EQ(m.absoluteCost(v(m, kPutT)), 3003u);
  EXPECT_EQ(m.absoluteCost(v(m, kGetTField)), 3004u);
  EXPECT_EQ(m.absoluteCost(v(m, kAssignV)), 3005u);
  EXPECT_EQ(m.relativeCost(v(m, kAssignV)), 1u);  // getfield t reads the heap
  EXPECT_EQ(m.absoluteCost(v(m, kStoreElm)), 3006u);
  EXPECT_EQ(m.relativeCost(v(m, kStoreElm)), 2u);      // iastore, ASSIGN v
  EXPECT_EQ(m.relativeCost(v(m, kGetTField)), 3004u);  // the end point itself is passed
  Benefit b = m.relativeBenefit(v(m, kGetTField));
  EXPECT_EQ(b.value, 2u);  // getfield t, ASSIGN v; the iastore writes the heap
  EXPECT_FALSE(b.consumed);
  b = m.relativeBenefit(v(m, kAssignI));               // i = 0 reaches the loop test
  EXPECT_EQ(b.value, 1u + 1001 + 1000 + 1000 + 1000);  // i=0, if, iinc, imul, iadd
  EXPECT_TRUE(b.consumed);
}

TEST_P(CostOracle, Locations) {
  CostModel m(costOracle(1000, GetParam()));
  const Oracle o = oracle();
  ASSERT_EQ(m.locations().size(), 5u);  // and System.out
  const LocationCost& t = loc(m, o.a(), kT);
  EXPECT_DOUBLE_EQ(t.rac, 3003);
  EXPECT_DOUBLE_EQ(t.rab, 2);
  EXPECT_EQ(t.writers, std::vector<uint32_t>{v(m, kPutT)});
  EXPECT_EQ(t.readers, std::vector<uint32_t>{v(m, kGetTField)});
  EXPECT_EQ(m.absoluteCost(t), 3003u);
  const LocationCost& elm = loc(m, o.array(), kElmField);
  EXPECT_DOUBLE_EQ(elm.rac, 2);  // iastore, ASSIGN v
  EXPECT_DOUBLE_EQ(elm.rab, 0);  // never read
  EXPECT_TRUE(elm.readers.empty());
  EXPECT_EQ(m.absoluteCost(elm), 3006u);
  const LocationCost& arr = loc(m, o.list(), kArr);
  EXPECT_DOUBLE_EQ(arr.rac, 2);  // putfield, newarray
  EXPECT_DOUBLE_EQ(arr.rab, 1);
  const LocationCost& pos = loc(m, o.list(), kPos);
  EXPECT_DOUBLE_EQ(pos.rac, 2);  // putfield pos, iadd
  EXPECT_DOUBLE_EQ(pos.rab, 2);  // getfield pos, iadd
  // System.out is read, never written here (its value goes to println, outside the graph).
  ASSERT_EQ(m.locations().back().loc, (Location{true, {}, kOut}));
  EXPECT_DOUBLE_EQ(m.locations().back().rac, 0);
  EXPECT_DOUBLE_EQ(m.locations().back().rab, 1);
  for (const LocationCost& l : m.locations()) EXPECT_FALSE(l.consumed);
}

TEST_P(CostOracle, Structures) {
  CostModel m(costOracle(1000, GetParam()));
  const Oracle o = oracle();
  auto check = [&](Object obj, uint32_t height, double rac, double rab) {
    Structure s = m.structure(obj, height);
    EXPECT_DOUBLE_EQ(s.nRac, rac) << obj.site << " height " << height;
    EXPECT_DOUBLE_EQ(s.nRab, rab) << obj.site << " height " << height;
  };
  check(o.a(), 1, 3003, 2);
  check(o.list(), 1, 4, 3);
  check(o.array(), 1, 2, 0);
  check(o.list(), 2, 6, 3);
  check(o.list(), 4, 6, 3);
  check(o.a(), 4, 3003, 2);
  check(o.array(), 4, 2, 0);
  EXPECT_EQ(m.structure(o.list(), 2).objects, (std::vector<Object>{o.list(), o.array()}));
  EXPECT_EQ(m.structure(o.list(), 1).objects, std::vector<Object>{o.list()});
}

TEST_P(CostOracle, Ranking) {
  CostModel m(costOracle(1000, GetParam()));
  const Oracle o = oracle();
  // Rates at n = 4: A 3004/3, int[] 3/1, IntList 7/4.
  ASSERT_EQ(m.objects().size(), 3u);
  EXPECT_EQ(m.objects()[0].object, o.a());
  EXPECT_EQ(m.objects()[1].object, o.array());
  EXPECT_EQ(m.objects()[2].object, o.list());
  EXPECT_DOUBLE_EQ(m.objects()[0].rate, 3004.0 / 3);
  EXPECT_DOUBLE_EQ(m.objects()[1].rate, 3.0);
  EXPECT_DOUBLE_EQ(m.objects()[2].rate, 7.0 / 4);
  EXPECT_EQ(m.objects()[0].births, 1u);
  EXPECT_FALSE(m.objects()[0].consumed);
  const ObjectRow* list = m.object(o.list());
  ASSERT_NE(list, nullptr);
  EXPECT_DOUBLE_EQ(list->nRac, 6);
  EXPECT_DOUBLE_EQ(list->nRab, 3);
  EXPECT_EQ(list->locations.size(), 3u);  // arr, pos and the array's ELM
  ASSERT_EQ(m.sites().size(), 3u);
  EXPECT_EQ(m.sites()[0].site, kASite);
  EXPECT_EQ(m.sites()[1].site, kArraySite);
  EXPECT_EQ(m.sites()[2].site, kListSite);
  EXPECT_DOUBLE_EQ(m.sites()[0].nRac, 3003);
  EXPECT_EQ(m.sites()[0].objects, std::vector<uint32_t>{0});
  // At height 1 IntList (5/4) still ranks last.
  CostModel m1(costOracle(1000, GetParam()), {.consumerRab = 1 << 20, .height = 1});
  EXPECT_EQ(m1.objects()[2].object, o.list());
  EXPECT_DOUBLE_EQ(m1.objects()[2].rate, 5.0 / 4);
}

TEST_P(CostOracle, ReferenceEdges) {
  CostModel m(costOracle(1000, GetParam()));
  std::vector<ReferenceEdge> want = {{v(m, kPutArr), v(m, kNewList)},
                                     {v(m, kPutT), v(m, kNewA)},
                                     {v(m, kPutPos), v(m, kNewList)},
                                     {v(m, kStoreElm), v(m, kNewArray)}};
  std::sort(want.begin(), want.end());
  EXPECT_EQ(m.referenceEdges(), want);
  const Oracle o = oracle();
  ASSERT_EQ(m.allocations(o.array()).size(), 1u);
  EXPECT_EQ(m.allocations(o.array())[0], v(m, kNewArray));
}

// 3n + 3: the loop's three nodes run n times each.
TEST_P(CostOracle, ScalesWithTheLoop) {
  for (uint32_t n : {1000u, 2000u}) {
    CostModel m(costOracle(n, GetParam()));
    EXPECT_DOUBLE_EQ(loc(m, oracle().a(), kT).rac, 3.0 * n + 3);
    EXPECT_EQ(m.absoluteCost(v(m, kGetTField)), 3u * n + 4);
    EXPECT_EQ(m.objects()[0].object, oracle().a());
  }
}

// Dead values: every node but the loop test, i = 0 and iinc produces a value that reaches no
// consumer (the program prints a constant). I = 15·1 + 1001 + 3·1000.
TEST_P(CostOracle, Bloat) {
  CostModel m(costOracle(1000, GetParam()));
  const Bloat& b = m.bloat();
  EXPECT_EQ(b.instructions, 4016u);
  EXPECT_EQ(b.deadInstances, 16u);
  EXPECT_EQ(b.deadFreq, 14u + 2000);    // imul and iadd included
  EXPECT_EQ(b.predicateInstances, 1u);  // i = 0 and iinc also feed the dead sum
  EXPECT_EQ(b.predicateFreq, 1001u);
  EXPECT_DOUBLE_EQ(b.ipd, 2014.0 / 4016);
  EXPECT_DOUBLE_EQ(b.ipp, 1001.0 / 4016);
  EXPECT_DOUBLE_EQ(b.nld, 16.0 / 19);
}

INSTANTIATE_TEST_SUITE_P(Slots, CostOracle, ::testing::Values(1u, 16u), [](const auto& info) {
  std::string name = "s";  // not "s" + to_string(...): GCC 12 warns (-Wrestrict) about it
  name += std::to_string(info.param);
  return name;
});

// With 16 slots the objects are told apart by slot: the array is allocated in IntList's
// context (19 mod 16 = 3), and its name at slot 0 names nothing.
TEST(CostOracleSlots, ArrayIsNamedByItsAllocationContext) {
  CostModel m(costOracle(1000, 16));
  EXPECT_NE(m.object({kArraySite, 3}), nullptr);
  EXPECT_EQ(m.object({kArraySite, 0}), nullptr);
  EXPECT_NE(m.graph().find({kPutT, 4}), kNone);  // A's methods: 20 mod 16
  EXPECT_EQ(m.graph().find({kPutT, 0}), kNone);
}

}  // namespace
}  // namespace dragnet::analyses::cost
