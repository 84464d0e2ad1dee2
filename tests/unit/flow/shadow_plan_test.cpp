// The flow engine's shadow plan (src/flow/shadow_plan.h) on javac's code for
// tests/data/java/dragnet/testdata/Shadows.java: where shadows stay static, where they need
// canonical locals and moves, and the parallel moves' sequencing.
#include "flow/shadow_plan.h"

#include <gtest/gtest.h>

#include <map>
#include <string>

#include "../support/javac_fixture.h"
#include "instrument/bit.h"

namespace dragnet::test {
namespace {

namespace inst = dragnet::instrument;
using flow::Move;
using flow::Shadow;
using flow::ShadowPlan;

// A field load makes a node known only at run time; nothing else makes one.
class LoadsOnly : public flow::ShadowRules {
 public:
  flow::ResultRule result(const inst::Routine& r, uint32_t i) override {
    if (r.insn(i).op == cf::Op::getfield) return {flow::ResultRule::Kind::Produced, 0};
    return {};
  }
};

class ShadowPlanTest : public JavacTest {
 protected:
  // Plans method `name` of dragnet/testdata/Shadows and calls `check` with it.
  template <class Check>
  void plan(const std::string& name, Check check) {
    std::string why;
    for (const CompiledClass& c : javacClasses(&why)) {
      if (c.path != "dragnet/testdata/Shadows.class") continue;
      auto parsed = cf::parseClass(c.bytes);
      ASSERT_TRUE(parsed.ok());
      cf::ClassFile cls = std::move(parsed).value();
      inst::ClassInstrumenter ci(cls);
      for (inst::Routine& r : ci.routines()) {
        if (r.name() != name) continue;
        LoadsOnly rules;
        ShadowPlan p = flow::planShadows(r, rules);
        ASSERT_TRUE(p.ok) << p.why;
        check(r, p);
        return;
      }
      FAIL() << "no method " << name;
    }
    FAIL() << "Shadows.class not compiled: " << why;
  }

  static uint32_t first(const inst::Routine& r, cf::Op op) {
    for (const inst::Instruction& in : r.instructions()) {
      if (r.insn(in.index).op == op) return in.index;
    }
    ADD_FAILURE() << "no such instruction";
    return 0;
  }
  static const Shadow& top(const ShadowPlan& p, uint32_t i) { return p.stack[i].back(); }
  static size_t moves(const ShadowPlan& p) {
    size_t n = 0;
    for (const auto& e : p.ends) n += e.moves.size();
    return n;
  }
};

TEST_F(ShadowPlanTest, MovesThroughLocalsCostNothing) {
  plan("straight", [](inst::Routine& r, const ShadowPlan& p) {
    uint32_t load = first(r, cf::Op::getfield), ret = first(r, cf::Op::areturn);
    ASSERT_NE(p.produced[load], ShadowPlan::kNone);
    EXPECT_EQ(top(p, ret), Shadow::inLocal(p.produced[load]));
    EXPECT_EQ(moves(p), 0u);
    EXPECT_EQ(p.canonical.size(), 1u);  // the parameter's
    EXPECT_EQ(p.params.size(), 1u);
  });
}

TEST_F(ShadowPlanTest, AMergeOfProducersLivesInTheCanonicalLocal) {
  plan("pick", [](inst::Routine& r, const ShadowPlan& p) {
    uint32_t ret = first(r, cf::Op::areturn);
    const Shadow& s = top(p, ret);
    ASSERT_EQ(s.kind, Shadow::Kind::Local);
    uint32_t loads = 0;
    for (const inst::Instruction& in : r.instructions()) {
      if (r.insn(in.index).op != cf::Op::getfield) continue;
      ++loads;
      EXPECT_NE(s.local, p.produced[in.index]);  // not a branch's own scratch local
    }
    EXPECT_EQ(loads, 2u);
    // Each branch's end copies its load into the merge's local.
    uint32_t into = 0;
    for (const auto& e : p.ends) {
      for (const Move& m : e.moves) {
        if (m.to == s.local) ++into;
      }
    }
    EXPECT_EQ(into, 2u);
  });
}

TEST_F(ShadowPlanTest, ComputedValuesHaveNoNode) {
  plan("computed", [](inst::Routine& r, const ShadowPlan& p) {
    EXPECT_TRUE(top(p, first(r, cf::Op::ireturn)).isBottom());
    // iadd's operands: the parameter, whose shadow its caller gives (its canonical local),
    // and the constant 1, which has none.
    const auto& st = p.stack[first(r, cf::Op::iadd)];
    ASSERT_EQ(st.size(), 2u);
    ASSERT_EQ(p.params.size(), 1u);
    EXPECT_EQ(st[0], Shadow::inLocal(p.params[0].second));
    EXPECT_TRUE(st[1].isBottom());
  });
}

TEST_F(ShadowPlanTest, HandlersStartWithBottomShadows) {
  plan("handler", [](inst::Routine& r, const ShadowPlan& p) {
    bool seen = false;
    for (const inst::BasicBlock& b : r.blocks()) {
      if (!b.isHandlerEntry) continue;
      seen = true;
      ASSERT_TRUE(p.reached[b.first]);
      ASSERT_EQ(p.stack[b.first].size(), 1u);
      EXPECT_TRUE(p.stack[b.first][0].isBottom());
      for (const Shadow& l : p.locals[b.first]) EXPECT_TRUE(l.isBottom());
    }
    EXPECT_TRUE(seen);
  });
}

TEST_F(ShadowPlanTest, ASwapAroundALoopIsACycleThroughTheSpare) {
  plan("swapLoop", [](inst::Routine&, const ShadowPlan& p) {
    ASSERT_NE(p.spare, ShadowPlan::kNone);
    bool viaSpare = false;
    for (const auto& e : p.ends) {
      for (const Move& m : e.moves) viaSpare = viaSpare || m.to == p.spare;
    }
    EXPECT_TRUE(viaSpare);
  });
}

// Runs `moves` on a register file and returns it.
std::map<uint16_t, uint64_t> run(const std::vector<Move>& moves,
                                 std::map<uint16_t, uint64_t> regs) {
  for (const Move& m : moves) {
    regs[m.to] = m.from.kind == Shadow::Kind::Local   ? regs[m.from.local]
                 : m.from.kind == Shadow::Kind::Const ? m.from.value
                                                      : 0;
  }
  return regs;
}

TEST(SequenceMoves, ReadsEverySourceBeforeItIsOverwritten) {
  // a <- b, b <- c, c <- 7, d <- d: a chain, a constant and a self move.
  std::vector<Move> m{{1, Shadow::inLocal(2)},
                      {2, Shadow::inLocal(3)},
                      {3, Shadow::constant(7)},
                      {4, Shadow::inLocal(4)}};
  auto out = run(flow::sequenceMoves(m, 99), {{1, 10}, {2, 20}, {3, 30}, {4, 40}});
  EXPECT_EQ(out[1], 20u);
  EXPECT_EQ(out[2], 30u);
  EXPECT_EQ(out[3], 7u);
  EXPECT_EQ(out[4], 40u);
  EXPECT_EQ(flow::sequenceMoves(m, 99).size(), 3u);  // the self move is dropped
}

TEST(SequenceMoves, ACycleGoesThroughTheSpare) {
  std::vector<Move> m{{1, Shadow::inLocal(2)}, {2, Shadow::inLocal(3)}, {3, Shadow::inLocal(1)}};
  std::vector<Move> seq = flow::sequenceMoves(m, 99);
  EXPECT_EQ(seq.size(), 4u);
  auto out = run(seq, {{1, 10}, {2, 20}, {3, 30}});
  EXPECT_EQ(out[1], 20u);
  EXPECT_EQ(out[2], 30u);
  EXPECT_EQ(out[3], 10u);
}

}  // namespace
}  // namespace dragnet::test
