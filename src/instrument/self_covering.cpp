#include "instrument/self_covering.h"

#include <algorithm>
#include <optional>

#include "instrument/frame_state.h"
#include "instrument/stack_effect.h"

namespace dragnet::instrument {

using namespace classfile;

namespace {

bool isReferenceStore(Op op) {
  return op == Op::astore || (op >= Op::astore_0 && op <= Op::astore_3);
}

bool isBranch(Op op) {
  return isConditionalBranch(op) || op == Op::goto_ || op == Op::goto_w || op == Op::jsr ||
         op == Op::jsr_w;
}

// Every instruction something other than falling through can reach: branch and switch
// targets and handler entries.
std::vector<bool> entered(const CodeAttr& attr) {
  const Code& code = attr.code;
  std::vector<bool> in(code.insns.size() + 1, false);
  auto mark = [&](Label l) { in[code.position(l)] = true; };
  for (const Insn& i : code.insns) {
    if (isBranch(i.op)) mark(i.target());
  }
  for (const Switch& s : code.switches) {
    mark(s.defaultTarget);
    for (Label l : s.targets) mark(l);
  }
  for (const ExceptionHandler& h : attr.handlers) mark(h.handler);
  return in;
}

// [at, end) is straight-line code that keeps local t, and nothing enters (at, end].
bool straight(const Code& code, const std::vector<bool>& in, uint32_t at, uint32_t end,
              uint32_t t) {
  for (uint32_t k = at + 1; k < end; ++k) {
    const Insn& i = code.insns[k];
    if (!fallsThrough(i.op) || isBranch(i.op) || storedLocal(i) == t) return false;
  }
  for (uint32_t k = at + 1; k <= end; ++k) {
    if (in[k]) return false;
  }
  return true;
}

}  // namespace

std::vector<SelfCoveringHandler> selfCoveringHandlers(const CodeAttr& attr) {
  const Code& code = attr.code;
  std::vector<SelfCoveringHandler> found;
  std::vector<bool> in;
  for (const ExceptionHandler& h : attr.handlers) {
    uint32_t at = code.position(h.handler), end = code.position(h.end);
    if (at < code.position(h.start) || at >= end || end >= code.insns.size()) continue;
    if (!isReferenceStore(code.insns[at].op)) continue;
    if (std::any_of(found.begin(), found.end(),
                    [&](const SelfCoveringHandler& f) { return f.entry == at; })) {
      continue;
    }
    if (in.empty()) in = entered(attr);
    uint32_t t = *storedLocal(code.insns[at]);
    // Another entry of the same handler may cover more of it: then `end` is covered too.
    bool beyond =
        std::any_of(attr.handlers.begin(), attr.handlers.end(), [&](const ExceptionHandler& o) {
          return code.position(o.handler) == at && code.position(o.start) <= end &&
                 end < code.position(o.end);
        });
    if (!beyond && straight(code, in, at, end, t)) found.push_back({at, end, t});
  }
  return found;
}

}  // namespace dragnet::instrument
