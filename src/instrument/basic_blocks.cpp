// Basic blocks and the control-flow successors of a method's code.
#include <algorithm>
#include <array>

#include "classfile/scratch.h"
#include "instrument/bit.h"
#include "instrument/stack_effect.h"

namespace dragnet::instrument {

using namespace classfile;

namespace {

// What an opcode does to block structure, looked up once per instruction.
enum class Flow : uint8_t { Plain, Ends, Branch, Switch };  // Ends: no target, no fall-through

constexpr std::array<Flow, 256> makeFlowTable() {
  std::array<Flow, 256> t{};
  for (unsigned op = 0; op < 256; ++op) {
    Format f = opInfo(static_cast<uint8_t>(op)).format;
    if (f == Format::Branch2 || f == Format::Branch4) {
      t[op] = Flow::Branch;
    } else if (f == Format::TableSwitch || f == Format::LookupSwitch) {
      t[op] = Flow::Switch;
    } else if (!fallsThrough(static_cast<Op>(op))) {
      t[op] = Flow::Ends;
    }
  }
  return t;
}
constexpr std::array<Flow, 256> kFlow = makeFlowTable();

Flow flowOf(Op op) { return kFlow[static_cast<uint8_t>(op)]; }

// Branch and switch targets of instruction `insn`, as instruction indices.
template <class F>
void forEachTarget(const Code& code, const Insn& insn, F&& f) {
  Flow flow = flowOf(insn.op);
  if (flow == Flow::Branch) {
    f(code.position(insn.target()));
  } else if (flow == Flow::Switch) {
    const Switch& sw = code.switches[static_cast<size_t>(insn.a)];
    f(code.position(sw.defaultTarget));
    for (Label t : sw.targets) f(code.position(t));
  }
}

// Tables reused from one method to the next (classfile/scratch.h).
struct BlockScratch {
  std::vector<uint32_t> blockOf;                  // per instruction: leader flags, then block id
  std::vector<uint32_t> leaders;                  // instruction indices, sorted once marked
  std::vector<std::array<uint32_t, 3>> handlers;  // start, end (instructions), handler block
  std::vector<std::array<uint32_t, 3>> ranges;    // per block: its edges, handlers from [1]
};

constexpr uint32_t kLeader = 1, kHandler = 2;

// Marks the leaders in `flags` (size n + 1) and lists those before the end in `leaders`,
// in instruction order.
void markLeaders(const CodeAttr& attr, std::vector<uint32_t>& flags,
                 std::vector<uint32_t>& leaders) {
  const Code& code = attr.code;
  const size_t n = code.insns.size();
  flags.assign(n + 1, 0);
  leaders.clear();
  auto mark = [&](uint32_t at, uint32_t flag) {
    if (flags[at] == 0 && at < n) leaders.push_back(at);
    flags[at] |= flag;
  };
  mark(0, kLeader);
  for (size_t i = 0; i < n; ++i) {
    const Insn& insn = code.insns[i];
    if (flowOf(insn.op) == Flow::Plain) continue;
    forEachTarget(code, insn, [&](uint32_t t) { mark(t, kLeader); });
    mark(static_cast<uint32_t>(i + 1), kLeader);
  }
  for (const ExceptionHandler& h : attr.handlers)
    mark(code.position(h.handler), kLeader | kHandler);
  // Marked in instruction order but for backward branches and handlers: nearly sorted,
  // which insertion sort handles in one pass.
  for (size_t i = 1; i < leaders.size(); ++i) {
    uint32_t v = leaders[i];
    size_t j = i;
    for (; j > 0 && leaders[j - 1] > v; --j) leaders[j] = leaders[j - 1];
    leaders[j] = v;
  }
}

// The successor block ids of block `b`, appended to `edges` sorted and without duplicates.
void addSuccessors(const Code& code, const BasicBlock& b, const std::vector<uint32_t>& blockOf,
                   std::vector<uint32_t>& edges) {
  const size_t n = code.insns.size();
  const size_t first = edges.size();
  const Insn& last = code.insns[b.last];
  auto add = [&](uint32_t insnIndex) {
    if (insnIndex < n) edges.push_back(blockOf[insnIndex]);
  };
  forEachTarget(code, last, add);
  if (fallsThrough(last.op) && b.last + 1 < n) add(b.last + 1);
  const size_t count = edges.size() - first;
  if (count == 2) {  // a conditional branch: no need for a general sort
    if (edges[first] > edges[first + 1]) std::swap(edges[first], edges[first + 1]);
    if (edges[first] == edges[first + 1]) edges.pop_back();
  } else if (count > 2) {
    auto begin = edges.begin() + static_cast<long>(first);
    std::sort(begin, edges.end());
    edges.erase(std::unique(begin, edges.end()), edges.end());
  }
}

}  // namespace

BlockGraph basicBlocks(const CodeAttr& attr) {
  const Code& code = attr.code;
  const size_t n = code.insns.size();
  classfile::Scratch<BlockScratch> scratch;
  std::vector<uint32_t>& blockOf = scratch->blockOf;
  BlockGraph g;
  g.blocks.reuse();
  g.edges.reuse();
  std::vector<uint32_t>& leaders = scratch->leaders;
  markLeaders(attr, blockOf, leaders);
  g.blocks.reserve(leaders.size());
  // Only leaders get their block id in blockOf: every instruction it is read at (branch
  // and switch targets, handlers, the instruction after a block's last) is a leader, so
  // the other entries are left as they are instead of being written once per instruction.
  for (uint32_t i : leaders) {
    if (!g.blocks.empty()) g.blocks.back().last = i - 1;
    BasicBlock b;
    b.id = static_cast<uint32_t>(g.blocks.size());
    b.first = i;
    b.isHandlerEntry = blockOf[i] & kHandler;
    g.blocks.push_back(b);
    blockOf[i] = b.id;
  }
  if (n > 0) g.blocks.back().last = static_cast<uint32_t>(n - 1);
  blockOf[n] = 0;  // the end of the code (a malformed handler may point there)
  auto& handlers = scratch->handlers;
  handlers.clear();
  for (const ExceptionHandler& h : attr.handlers) {
    handlers.push_back(
        {code.position(h.start), code.position(h.end), blockOf[code.position(h.handler)]});
  }
  // Edges go to one vector first (as begin/end pairs); spans are made once it is final.
  auto& ranges = scratch->ranges;
  ranges.resize(g.blocks.size());
  g.edges.reserve(g.blocks.size() * 2 + (handlers.empty() ? 0 : g.blocks.size()));
  for (const BasicBlock& b : g.blocks) {
    auto& r = ranges[b.id];
    r[0] = static_cast<uint32_t>(g.edges.size());
    addSuccessors(code, b, blockOf, g.edges);
    r[1] = static_cast<uint32_t>(g.edges.size());
    for (const auto& [s, e, handler] : handlers) {
      if (s <= b.last && b.first < e) g.edges.push_back(handler);
    }
    r[2] = static_cast<uint32_t>(g.edges.size());
  }
  std::span<const uint32_t> edges(g.edges);
  for (BasicBlock& b : g.blocks) {
    const auto& r = ranges[b.id];
    b.successors = edges.subspan(r[0], r[1] - r[0]);
    b.handlers = edges.subspan(r[1], r[2] - r[1]);
  }
  return g;
}

}  // namespace dragnet::instrument
