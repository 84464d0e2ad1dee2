// Routine::onExceptionalExit with ExitCover::AllButCalls (mode alloc's instruction counts):
// on every method but constructors of real javac output (tests/data/java), the catch-all
// handler's entries cover every original instruction but the invokes, and no invoke; with
// ExitCover::Everything one entry covers them all, as before. (That such methods verify
// and run with exact sums, constructors included, is HardCaseLiveLocals.FlushedBeforeCalls*.)
#include <gtest/gtest.h>

#include "../support/javac_fixture.h"
#include "instrument/bit.h"
#include "instrument/stack_effect.h"

namespace dragnet::test {
namespace {

namespace inst = dragnet::instrument;
using cf::Op;

struct Covered {
  size_t methods = 0, entries = 0, invokes = 0;
};

// Instruments every non-constructor method of `bytes` with a call-free exit patch (so every
// invoke in the result is an original one) and checks what the added entries cover.
Covered checkCover(const Bytes& bytes, inst::ExitCover cover) {
  Covered out;
  auto parsed = cf::parseClass(bytes);
  EXPECT_TRUE(parsed.ok());
  if (!parsed.ok()) return out;
  cf::ClassFile cls = std::move(parsed).value();
  std::vector<size_t> before;
  inst::ClassInstrumenter ci(cls);
  for (inst::Routine& r : ci.routines()) {
    before.push_back(r.hasCode() ? r.member().code()->handlers.size() : 0);
    if (!r.hasCode() || r.name() == "<init>") continue;
    inst::Patch p = r.newPatch();
    p.add(Op::iconst_0).add(Op::pop);
    EXPECT_TRUE(r.onExceptionalExit(p, cover));
  }
  ci.commit();
  size_t m = 0;
  for (inst::Routine& r : ci.routines()) {
    size_t old = before[m++];
    if (!r.hasCode() || r.name() == "<init>") continue;
    const cf::CodeAttr& code = *r.member().code();
    const auto& insns = code.code.insns;
    // The handler code is last: the exit patch (2 instructions) and athrow.
    const uint32_t handler = static_cast<uint32_t>(insns.size()) - 3;
    std::vector<int> covered(handler, 0);
    for (size_t h = old; h < code.handlers.size(); ++h) {
      const cf::ExceptionHandler& e = code.handlers[h];
      EXPECT_EQ(code.code.position(e.handler), handler);
      for (uint32_t k = code.code.position(e.start); k < code.code.position(e.end); ++k) {
        ++covered[k];
      }
      ++out.entries;
    }
    for (uint32_t k = 0; k < handler; ++k) {
      SCOPED_TRACE(std::string(r.name()) + " instruction " + std::to_string(k));
      bool call = inst::isInvoke(insns[k].op);
      out.invokes += call;
      EXPECT_EQ(covered[k], cover == inst::ExitCover::AllButCalls && call ? 0 : 1);
    }
    ++out.methods;
    if (cover == inst::ExitCover::Everything) {
      EXPECT_EQ(code.handlers.size(), old + 1);
    }
  }
  return out;
}

class ExitCoverTest : public JavacTest {};

TEST_F(ExitCoverTest, AllButCallsLeavesEveryInvokeOutAndCoversTheRest) {
  std::string why;
  const std::vector<CompiledClass>& all = javacClasses(&why);
  if (all.empty()) GTEST_SKIP() << why;
  Covered split, whole;
  for (const CompiledClass& c : all) {
    SCOPED_TRACE(c.path);
    Covered s = checkCover(c.bytes, inst::ExitCover::AllButCalls);
    Covered w = checkCover(c.bytes, inst::ExitCover::Everything);
    split.methods += s.methods, split.entries += s.entries, split.invokes += s.invokes;
    whole.methods += w.methods, whole.entries += w.entries;
  }
  EXPECT_GT(split.invokes, 20u);  // the corpus really has calls to leave out
  EXPECT_EQ(whole.entries, whole.methods);
  EXPECT_GT(split.entries, whole.entries);
}

}  // namespace
}  // namespace dragnet::test
