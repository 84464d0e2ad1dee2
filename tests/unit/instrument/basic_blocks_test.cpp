// Basic blocks, successors and covering handlers (instrument::basicBlocks) of a small
// method built by hand: a conditional branch, a goto, a switch with repeated targets,
// returns and a handler.
#include <gtest/gtest.h>

#include <vector>

#include "instrument/bit.h"

namespace dragnet::instrument {
namespace {

namespace cf = classfile;
using cf::Op;

std::vector<uint32_t> ids(std::span<const uint32_t> s) { return {s.begin(), s.end()}; }

TEST(BasicBlocksTest, LeadersSuccessorsAndHandlers) {
  cf::CodeAttr attr;
  cf::Code& c = attr.code;
  auto at = [&](uint32_t i) { return static_cast<int32_t>(c.newLabel(i)); };
  auto emit = [&](Op op, int32_t a = 0) { c.insns.push_back({op, false, a, 0}); };
  cf::Switch sw;
  sw.defaultTarget = static_cast<cf::Label>(at(10));
  sw.low = 0;
  for (uint32_t t : {9u, 10u, 9u}) sw.targets.push_back(static_cast<cf::Label>(at(t)));
  c.switches.push_back(sw);

  emit(Op::iload_0);          // 0  B0
  emit(Op::ifeq, at(5));      // 1
  emit(Op::iconst_1);         // 2  B1
  emit(Op::istore_1);         // 3
  emit(Op::goto_, at(7));     // 4
  emit(Op::iconst_2);         // 5  B2
  emit(Op::istore_1);         // 6
  emit(Op::iload_1);          // 7  B3
  emit(Op::tableswitch, 0);   // 8
  emit(Op::return_);          // 9  B4
  emit(Op::return_);          // 10 B5
  emit(Op::astore_2);         // 11 B6 (handler of 2..6)
  emit(Op::return_);          // 12
  attr.handlers.push_back({static_cast<cf::Label>(at(2)), static_cast<cf::Label>(at(7)),
                           static_cast<cf::Label>(at(11)), cf::CpIndex::None});

  BlockGraph g = basicBlocks(attr);
  ASSERT_EQ(g.blocks.size(), 7u);
  const uint32_t firsts[] = {0, 2, 5, 7, 9, 10, 11};
  const uint32_t lasts[] = {1, 4, 6, 8, 9, 10, 12};
  const std::vector<std::vector<uint32_t>> succ = {{1, 2}, {3}, {3}, {4, 5}, {}, {}, {}};
  const std::vector<std::vector<uint32_t>> handlers = {{}, {6}, {6}, {}, {}, {}, {}};
  for (uint32_t b = 0; b < 7; ++b) {
    const BasicBlock& blk = g.blocks[b];
    EXPECT_EQ(blk.id, b);
    EXPECT_EQ(blk.first, firsts[b]) << b;
    EXPECT_EQ(blk.last, lasts[b]) << b;
    EXPECT_EQ(ids(blk.successors), succ[b]) << b;
    EXPECT_EQ(ids(blk.handlers), handlers[b]) << b;
    EXPECT_EQ(blk.isHandlerEntry, b == 6) << b;
  }

  // Reused tables must not leak from one method into the next: a straight-line method.
  cf::CodeAttr small;
  small.code.insns.push_back({Op::iconst_0, false, 0, 0});
  small.code.insns.push_back({Op::ireturn, false, 0, 0});
  BlockGraph h = basicBlocks(small);
  ASSERT_EQ(h.blocks.size(), 1u);
  EXPECT_EQ(h.blocks[0].last, 1u);
  EXPECT_TRUE(h.blocks[0].successors.empty());
  EXPECT_TRUE(h.blocks[0].handlers.empty());
  EXPECT_FALSE(h.blocks[0].isHandlerEntry);
}

}  // namespace
}  // namespace dragnet::instrument
