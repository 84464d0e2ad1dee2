// Basic blocks and the control-flow successors of a method's code.
#include <algorithm>

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

std::vector<BasicBlock> basicBlocks(const CodeAttr& attr) {
  const Code& code = attr.code;
  const size_t n = code.insns.size();
  std::vector<bool> leader(n + 1, false);
  std::vector<bool> handlerStart(n + 1, false);
  leader[0] = true;
  for (size_t i = 0; i < n; ++i) {
    const Insn& insn = code.insns[i];
    forEachTarget(code, insn, [&](uint32_t t) { leader[t] = true; });
    if (endsBlock(insn)) leader[i + 1] = true;
  }
  for (const ExceptionHandler& h : attr.handlers) {
    uint32_t at = code.position(h.handler);
    leader[at] = handlerStart[at] = true;
  }

  std::vector<BasicBlock> blocks;
  std::vector<uint32_t> blockOf(n + 1, 0);
  for (uint32_t i = 0; i < n; ++i) {
    if (leader[i]) {
      BasicBlock b;
      b.id = static_cast<uint32_t>(blocks.size());
      b.first = i;
      b.isHandlerEntry = handlerStart[i];
      blocks.push_back(b);
    }
    blocks.back().last = i;
    blockOf[i] = blocks.back().id;
  }
  for (BasicBlock& b : blocks) {
    const Insn& last = code.insns[b.last];
    auto add = [&](uint32_t insnIndex) {
      if (insnIndex < n) b.successors.push_back(blockOf[insnIndex]);
    };
    forEachTarget(code, last, add);
    if (fallsThrough(last.op) && b.last + 1 < n) add(b.last + 1);
    std::sort(b.successors.begin(), b.successors.end());
    b.successors.erase(std::unique(b.successors.begin(), b.successors.end()), b.successors.end());
    for (const ExceptionHandler& h : attr.handlers) {
      uint32_t s = code.position(h.start), e = code.position(h.end);
      if (s <= b.last && b.first < e) b.handlers.push_back(blockOf[code.position(h.handler)]);
    }
  }
  return blocks;
}

}  // namespace dragnet::instrument
