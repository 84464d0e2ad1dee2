#include "instrument/relax.h"

#include <algorithm>
#include <optional>

#include "classfile/scratch.h"
#include "instrument/frame_computer.h"
#include "instrument/frame_state.h"

namespace dragnet::instrument {

using namespace classfile;

namespace {

Op invertCondition(Op op) {
  switch (op) {
    case Op::ifnull:
      return Op::ifnonnull;
    case Op::ifnonnull:
      return Op::ifnull;
    default: {
      // ifeq/ifne, iflt/ifge, ... come in pairs whose opcodes differ in the lowest bit,
      // starting at an odd opcode (ifeq = 0x99).
      int v = static_cast<int>(op);
      return static_cast<Op>((v - 0x99) % 2 == 0 ? v + 1 : v - 1);
    }
  }
}

// Inserts the full frame `f` among the frames of `table` (in code order), whose decoded
// states are `decoded`. The frame that now follows `f` was encoded relative to the one
// before `f` (same, chop, append and same_locals_1_stack_item name only what changed), so
// it is encoded again, relative to `f`, from its decoded state: left as it was, it would
// declare other locals (e.g. an append frame adding to `f`'s locals the ones `f` has).
void insertFrame(StackMapTableAttr& table, const std::vector<DecodedFrame>& decoded, Frame f,
                 const std::vector<uint32_t>& labels, const ConstantPool& pool) {
  auto pos = [&](Label l) { return labels[static_cast<uint32_t>(l)]; };
  auto it = std::find_if(table.frames.begin(), table.frames.end(),
                         [&](const Frame& g) { return pos(g.at) > pos(f.at); });
  auto i = static_cast<size_t>(it - table.frames.begin());
  std::vector<VType> previous(f.locals.begin(), f.locals.end());
  table.frames.insert(it, std::move(f));
  if (i + 1 < table.frames.size() && table.frames[i + 1].type != 255) {
    table.frames[i + 1] = encodeFrame(decoded[i].state, table.frames[i + 1].at, previous, pool);
  }
}

// An upper bound of the code length, without computing offsets: no instruction takes more
// than 6 bytes (wide iinc), except switches.
uint64_t lengthBound(const CodeLayout& lay, const std::vector<Switch>& switches) {
  uint64_t bound = uint64_t{6} * lay.insns.size();
  for (const Switch& sw : switches) bound += 3 + 12 + uint64_t{8} * sw.targets.size();
  return bound;
}

}  // namespace

std::string relax(CodeLayout& lay, std::vector<Switch>& switches, const FrameFor& frameFor,
                  bool framesNeeded, uint32_t& length) {
  // No branch spans more than the code: below 32 KB all of them reach (most methods).
  if (uint64_t bound = lengthBound(lay, switches); bound <= INT16_MAX) {
    length = static_cast<uint32_t>(bound);
    return "";
  }
  Code view;
  Scratch<std::vector<uint32_t>> offsets;
  std::vector<uint32_t>& off = *offsets;
  for (bool changed = true; changed;) {
    changed = false;
    view.insns = std::move(lay.insns);
    view.switches = std::move(switches);
    view.labels = std::move(lay.labels);
    computeOffsets(view, off);
    lay.insns = std::move(view.insns);
    switches = std::move(view.switches);
    lay.labels = std::move(view.labels);
    length = off.back();
    if (length > kMaxCode) return "";  // the size check reports it
    if (length <= static_cast<uint32_t>(INT16_MAX)) return "";
    for (size_t k = 0; k < lay.insns.size(); ++k) {
      Insn& insn = lay.insns[k];
      if (formatOf(insn.op) != Format::Branch2) continue;
      int64_t delta = int64_t{off[lay.labels[static_cast<uint32_t>(insn.target())]]} - off[k];
      if (delta >= INT16_MIN && delta <= INT16_MAX) continue;
      changed = true;
      if (insn.op == Op::goto_ || insn.op == Op::jsr) {
        insn.op = insn.op == Op::goto_ ? Op::goto_w : Op::jsr_w;
        continue;
      }
      // The fall-through point becomes a branch target: in a class with frames it needs
      // one, derived before anything moves.
      lay.labels.push_back(static_cast<uint32_t>(k + 1));
      auto skip = static_cast<Label>(lay.labels.size() - 1);
      if (framesNeeded) {
        std::string err = frameFor(lay, switches, k, skip);
        if (!err.empty())
          return "conditional branch at instruction " + std::to_string(k) +
                 " needs goto_w, but no frame could be derived: " + err;
      }
      Insn& cond = lay.insns[k];  // frameFor may have grown lay.labels, not lay.insns
      Insn far;
      far.op = Op::goto_w;
      far.a = cond.a;
      cond.op = invertCondition(cond.op);
      cond.a = static_cast<int32_t>(skip);
      for (uint32_t& pos : lay.labels) {
        if (pos > k) ++pos;  // also moves `skip` to the instruction after the goto_w
      }
      lay.insns.insert(lay.insns.begin() + static_cast<long>(k) + 1, far);
      break;  // offsets changed: recompute
    }
  }
  return "";
}

std::string deriveFrame(ClassFile& cls, const Member& method, CodeLayout& lay,
                        const std::vector<Switch>& switches, StackMapTableAttr& table, size_t k,
                        Label skip, const std::function<void(FrameState&)>& withNewLocals) {
  for (const Frame& f : table.frames) {
    if (lay.labels[static_cast<uint32_t>(f.at)] == k + 1) return "";  // already one
  }
  std::optional<FrameState> init = initialState(cls, method);
  if (!init) return "malformed method descriptor";
  auto decoded = decodeFrames(*init, table);
  if (!decoded) return "the existing stack-map frames do not decode";
  FrameState state = *init;
  size_t from = 0;
  for (const DecodedFrame& d : *decoded) {
    uint32_t at = lay.labels[static_cast<uint32_t>(d.at)];
    if (at <= k && at >= from) {
      state = d.state;
      from = at;
    }
  }
  withNewLocals(state);
  Code view;  // rare path (a method over 32 KB): copying is fine
  view.insns = lay.insns;
  view.switches = switches;
  view.labels = lay.labels;
  TransferContext ctx{cls.pool, cls.thisClass,
                      [&](uint32_t insn) {
                        lay.labels.push_back(insn);
                        view.labels.push_back(insn);
                        return static_cast<Label>(lay.labels.size() - 1);
                      },
                      &view};
  for (size_t j = from; j <= k; ++j) {
    TransferResult r = apply(state, lay.insns[j], static_cast<uint32_t>(j), ctx);
    if (!r) return r.message;
  }
  Frame f;
  f.type = 255;
  f.at = skip;
  f.locals = frameEntries(state.locals, /*trimTrailingTop=*/true);
  f.stack = frameEntries(state.stack, /*trimTrailingTop=*/false);
  insertFrame(table, *decoded, std::move(f), lay.labels, cls.pool);
  return "";
}

}  // namespace dragnet::instrument
