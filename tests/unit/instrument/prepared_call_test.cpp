// Routine::prepare / before(index, PreparedCall, values): the fast form of a call with Int
// constant arguments must write exactly the bytes the Call form writes, on every method
// of real javac output, for values of every encoding (iconst, bipush, sipush, ldc); and it
// must refuse what it cannot do rather than insert something else.
#include <gtest/gtest.h>

#include <array>

#include "../support/javac_fixture.h"
#include "instrument/bit.h"

namespace dragnet::test {
namespace {

namespace inst = dragnet::instrument;
using inst::Arg;
using inst::Call;

// Values covering each way an int constant is pushed: iconst_m1..5, bipush, sipush, ldc
// (also repeated, which the patch's Integer cache serves, and the extremes).
constexpr std::array<int32_t, 10> kValues{-1,    5,      6,     -128,  127,
                                          32767, -32769, 40000, 40000, INT32_MIN};

// Instruments every method of `bytes` with a probe (two constants) before each basic
// block, through the prepared form or the Call form. Both prepare first, so the
// Methodref enters the pool at the same point and the bytes can be compared exactly.
Bytes instrumentAll(const Bytes& bytes, bool prepared, size_t& probes) {
  auto parsed = cf::parseClass(bytes);
  EXPECT_TRUE(parsed.ok());
  if (!parsed.ok()) return {};
  cf::ClassFile cls = std::move(parsed).value();
  Call call{"dragnet/tools/ICount", "block", {Arg::i(0), Arg::i(0)}};
  inst::ClassInstrumenter ci(cls);
  size_t k = 0;
  for (inst::Routine& r : ci.routines()) {
    if (!r.hasCode()) continue;
    std::optional<inst::PreparedCall> pc = r.prepare(call);
    EXPECT_TRUE(pc.has_value());
    if (!pc) continue;
    EXPECT_EQ(pc->arity(), 2u);
    for (const inst::BasicBlock& b : r.blocks()) {
      const std::array<int32_t, 2> values{kValues[k % kValues.size()],
                                          kValues[(k + 3) % kValues.size()]};
      ++k;
      if (prepared) {
        EXPECT_TRUE(r.beforeBlock(b, *pc, values));
      } else {
        call.args[0].value = values[0];
        call.args[1].value = values[1];
        EXPECT_TRUE(r.beforeBlock(b, call));
      }
    }
  }
  probes = k;
  for (const inst::RoutineOutcome& o : ci.commit()) EXPECT_TRUE(o.outcome.changed) << o.name;
  auto out = cf::writeClass(cls);
  EXPECT_TRUE(out.ok());
  return out.ok() ? std::move(out).value() : Bytes{};
}

TEST_F(JavacTest, PreparedCallWritesWhatTheCallFormWrites) {
  std::string why;
  size_t compared = 0, total = 0;
  for (const CompiledClass& c : javacClasses(&why)) {
    SCOPED_TRACE(c.path);
    size_t probesViaCall = 0, probes = 0;
    Bytes viaCall = instrumentAll(c.bytes, false, probesViaCall);
    Bytes viaPrepared = instrumentAll(c.bytes, true, probes);
    ASSERT_FALSE(viaCall.empty());
    EXPECT_EQ(probesViaCall, probes);
    EXPECT_EQ(viaCall, viaPrepared);
    // The probes are really there: at least 4 bytes each (two pushes and a call).
    EXPECT_GE(viaPrepared.size(), c.bytes.size() + 4 * probes);
    total += probes;
    ++compared;
  }
  EXPECT_EQ(compared, 21u);  // every class of tests/data/java and module-info
  EXPECT_GT(total, 50u);
}

TEST_F(JavacTest, PreparedCallRefusesWhatItCannotInsert) {
  std::string why;
  const Bytes* bytes = nullptr;
  const Bytes* other = nullptr;
  for (const CompiledClass& c : javacClasses(&why)) {
    if (c.path == "dragnet/testdata/Color.class") bytes = &c.bytes;
    if (c.path == "dragnet/testdata/Features.class") other = &c.bytes;
  }
  ASSERT_TRUE(bytes && other);
  cf::ClassFile cls = cf::parseClass(*bytes).value();
  cf::ClassFile otherCls = cf::parseClass(*other).value();
  inst::ClassInstrumenter ci(cls);
  inst::ClassInstrumenter otherCi(otherCls);
  inst::Routine* r = nullptr;
  for (inst::Routine& x : ci.routines()) {
    if (x.hasCode()) r = &x;
  }
  inst::Routine* otherR = nullptr;
  for (inst::Routine& x : otherCi.routines()) {
    if (x.hasCode()) otherR = &x;
  }
  ASSERT_TRUE(r && otherR);

  // Only Int constants, a void result, at most kMaxArgs arguments.
  EXPECT_FALSE(r->prepare(Call{"p/A", "f", {Arg::str("x")}}));
  EXPECT_FALSE(r->prepare(Call{"p/A", "f", {Arg::j(1)}}));
  EXPECT_FALSE(r->prepare(Call{"p/A", "f", {Arg::fieldObject(), Arg::i(1)}}));
  EXPECT_FALSE(r->prepare(Call{"p/A", "f", {Arg::i(1)}, "I"}));
  Call many{"p/A", "f", {}};
  many.args.assign(inst::PreparedCall::kMaxArgs + 1, Arg::i(0));
  EXPECT_FALSE(r->prepare(many));
  many.args.resize(inst::PreparedCall::kMaxArgs);
  EXPECT_TRUE(r->prepare(many));
  std::optional<inst::PreparedCall> none = r->prepare(Call{"p/A", "f", {}});
  ASSERT_TRUE(none);
  EXPECT_EQ(none->arity(), 0u);

  std::optional<inst::PreparedCall> pc = r->prepare(Call{"p/A", "f", {Arg::i(0)}});
  ASSERT_TRUE(pc);
  const std::array<int32_t, 1> one{7};
  const std::array<int32_t, 2> two{7, 8};
  EXPECT_FALSE(r->before(0, *pc, two));  // another number of values
  const auto end = static_cast<uint32_t>(r->instructions().size());
  EXPECT_FALSE(r->before(end, *pc, one));     // past the code
  EXPECT_FALSE(otherR->before(0, *pc, one));  // another class's call
  inst::Routine alone(cls, r->member());      // the same method, outside the ClassInstrumenter
  EXPECT_FALSE(alone.before(0, *pc, one));
  EXPECT_TRUE(r->before(0, *pc, one));
  EXPECT_TRUE(r->before(0, *none, {}));
}

}  // namespace
}  // namespace dragnet::test
