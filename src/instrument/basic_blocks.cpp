// Basic blocks and the control-flow successors of a method's code.
#include <algorithm>
#include <array>

#include "instrument/bit.h"
#include "instrument/stack_effect.h"

namespace dragnet::instrument {

using namespace classfile;

namespace {

// Branch and switch targets of instruction `insn`, as instruction indices.
template <class F>
void forEachTarget(const Code& code, const Insn& insn, F&& f) {
  Format fmt = opInfo(insn.op).format;
  if (fmt == Format::Branch2 || fmt == Format::Branch4) {
    f(code.position(insn.target()));
  } else if (fmt == Format::TableSwitch || fmt == Format::LookupSwitch) {
    const Switch& sw = code.switches[static_cast<size_t>(insn.a)];
    f(code.position(sw.defaultTarget));
    for (Label t : sw.targets) f(code.position(t));
  }
}

bool endsBlock(const Insn& insn) {
  Format fmt = opInfo(insn.op).format;
  return fmt == Format::Branch2 || fmt == Format::Branch4 || fmt == Format::TableSwitch ||
         fmt == Format::LookupSwitch || !fallsThrough(insn.op);
}

}  // namespace

BlockGraph basicBlocks(const CodeAttr& attr) {
  const Code& code = attr.code;
  const size_t n = code.insns.size();
  std::vector<uint8_t> leader(n + 1, 0);  // 1: leader, 2: also a handler start
  leader[0] = 1;
  for (size_t i = 0; i < n; ++i) {
    const Insn& insn = code.insns[i];
    forEachTarget(code, insn, [&](uint32_t t) { leader[t] |= 1; });
    if (endsBlock(insn)) leader[i + 1] |= 1;
  }
  for (const ExceptionHandler& h : attr.handlers) leader[code.position(h.handler)] = 3;

  BlockGraph g;
  std::vector<uint32_t> blockOf(n + 1, 0);
  for (uint32_t i = 0; i < n; ++i) {
    if (leader[i]) {
      BasicBlock b;
      b.id = static_cast<uint32_t>(g.blocks.size());
      b.first = i;
      b.isHandlerEntry = leader[i] == 3;
      g.blocks.push_back(b);
    }
    g.blocks.back().last = i;
    blockOf[i] = g.blocks.back().id;
  }
  // Edges go to one vector first (as begin/count pairs); spans are made once it is final.
  std::vector<std::array<uint32_t, 4>> ranges(g.blocks.size());  // succ begin/end, handlers
  for (BasicBlock& b : g.blocks) {
    auto& r = ranges[b.id];
    r[0] = static_cast<uint32_t>(g.edges.size());
    const Insn& last = code.insns[b.last];
    auto add = [&](uint32_t insnIndex) {
      if (insnIndex < n) g.edges.push_back(blockOf[insnIndex]);
    };
    forEachTarget(code, last, add);
    if (fallsThrough(last.op) && b.last + 1 < n) add(b.last + 1);
    auto first = g.edges.begin() + r[0];
    std::sort(first, g.edges.end());
    g.edges.erase(std::unique(first, g.edges.end()), g.edges.end());
    r[1] = r[2] = static_cast<uint32_t>(g.edges.size());
    for (const ExceptionHandler& h : attr.handlers) {
      uint32_t s = code.position(h.start), e = code.position(h.end);
      if (s <= b.last && b.first < e) g.edges.push_back(blockOf[code.position(h.handler)]);
    }
    r[3] = static_cast<uint32_t>(g.edges.size());
  }
  for (BasicBlock& b : g.blocks) {
    const auto& r = ranges[b.id];
    b.successors = std::span<const uint32_t>(g.edges).subspan(r[0], r[1] - r[0]);
    b.handlers = std::span<const uint32_t>(g.edges).subspan(r[2], r[3] - r[2]);
  }
  return g;
}

}  // namespace dragnet::instrument
