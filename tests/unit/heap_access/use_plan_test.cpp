// The lifetime planner (src/heap_access/use_sites.h): which uses of objects get a
// probe in javac's code for tests/data/java/dragnet/testdata/Uses.java, whose comments say
// which ones must. A use is left out only when the same kind of use of the object in the
// same local was probed on every path to it since the last call or allocation.
#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "../support/javac_fixture.h"
#include "heap_access/use_sites.h"
#include "instrument/bit.h"

namespace dragnet::test {
namespace {

namespace inst = dragnet::instrument;
namespace ha = dragnet::heap_access;
using ha::Clock;
using ha::UseKind;

using Probe = std::pair<cf::Op, UseKind>;

// The planned probes of method `name` of dragnet/testdata/Uses: each use's instruction and kind.
std::vector<Probe> planned(const std::string& name, Clock clock) {
  std::string why;
  const auto& classes = javacClasses(&why);
  for (const CompiledClass& c : classes) {
    if (c.path != "dragnet/testdata/Uses.class") continue;
    auto parsed = cf::parseClass(c.bytes);
    EXPECT_TRUE(parsed.ok());
    if (!parsed.ok()) return {};
    cf::ClassFile cls = std::move(parsed).value();
    inst::ClassInstrumenter ci(cls);
    for (inst::Routine& r : ci.routines()) {
      if (r.name() != name) continue;
      bool receiver = (r.access() & 0x0008) == 0;
      ha::UsePlan plan = ha::planUses(r, receiver, clock);
      std::vector<Probe> out;
      for (const ha::UseProbe& u : plan.uses) out.emplace_back(r.insn(u.index).op, u.kind);
      return out;
    }
    ADD_FAILURE() << "no method " << name;
    return {};
  }
  ADD_FAILURE() << "Uses.class not compiled: " << why;
  return {};
}

constexpr UseKind G = UseKind::Get, P = UseKind::Put;
using cf::Op;

class UsePlanTest : public JavacTest {};

TEST_F(UsePlanTest, UsesAfterAProbeOnEveryPathNeedNone) {
  for (Clock clock : {Clock::PerThread, Clock::Global}) {
    EXPECT_EQ(planned("branches", clock), (std::vector<Probe>{{Op::getfield, G}}));
    EXPECT_EQ(planned("getThenPut", clock),
              (std::vector<Probe>{{Op::getfield, G}, {Op::putfield, P}}));
    EXPECT_EQ(planned("twice", clock), std::vector<Probe>{});
    EXPECT_EQ(planned("self", clock), std::vector<Probe>{});
  }
}

TEST_F(UsePlanTest, CallsMergesStoresAndHandlersNeedProbesAgain) {
  for (Clock clock : {Clock::PerThread, Clock::Global}) {
    const std::vector<Probe> twoGets{{Op::getfield, G}, {Op::getfield, G}};
    EXPECT_EQ(planned("afterCall", clock), twoGets);
    EXPECT_EQ(planned("oneBranch", clock), twoGets);
    EXPECT_EQ(planned("reassigned", clock), twoGets);
    EXPECT_EQ(planned("handler", clock), twoGets);
  }
}

TEST_F(UsePlanTest, ValuesOnTheStackAreObjectsToo) {
  for (Clock clock : {Clock::PerThread, Clock::Global}) {
    EXPECT_EQ(planned("table", clock), (std::vector<Probe>{{Op::iastore, P}}));
    EXPECT_EQ(planned("names", clock), (std::vector<Probe>{{Op::aastore, P}}));
    EXPECT_EQ(planned("withCall", clock), (std::vector<Probe>{{Op::aastore, P}, {Op::aastore, P}}));
    EXPECT_EQ(planned("cast", clock), (std::vector<Probe>{{Op::checkcast, G}}));
  }
}

TEST_F(UsePlanTest, OnlyTheThreadsClockCarriesProbesAroundALoop) {
  EXPECT_EQ(planned("loop", Clock::PerThread), (std::vector<Probe>{{Op::arraylength, G}}));
  EXPECT_EQ(planned("loop", Clock::Global),
            (std::vector<Probe>{{Op::arraylength, G}, {Op::iaload, G}}));
}

}  // namespace
}  // namespace dragnet::test
