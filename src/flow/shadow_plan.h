// The shadows of one method's locals and operand-stack values, tracked statically where
// the data flow allows (docs/FLOW-DESIGN.md, "Shadows inside a method").
//
// Each stack word and local gets an abstract shadow before every instruction: Bottom, a
// constant node, or "held in long local L at run time". Moves of values between the stack
// and locals (xload, xstore, dup*, swap, checkcast) move abstract shadows and cost nothing
// at run time. An instruction whose result's node is known only at run time (a field
// load, an allocation, a call's result: the client decides, ShadowRules) writes it into a
// scratch local of its own, used within its block only. At a block boundary a value that
// is not the same constant on every incoming path lives in its position's canonical local
// (one per local slot and per stack depth, method-wide); each block's end copies its
// values into the canonical locals its successors read (a parallel move). Exception
// handlers start with Bottom everywhere: exceptional data flow is not followed.
//
// The plan is computed in two passes: a fixed point of the block entry states (each
// position only ever rises from unset to a value to "canonical"), then one walk of every
// reachable block recording the states before each instruction and the moves.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "instrument/bit.h"

namespace dragnet::flow {

struct Shadow {
  // Frame: a node of this frame, the constant `value` with the frame's context added at run
  // time (the context local of the probes, flow/probe_code.h); otherwise like Const.
  enum class Kind : uint8_t { Bottom, Const, Local, Frame };
  Kind kind = Kind::Bottom;
  uint16_t local = 0;  // Local: the long local holding the node
  uint64_t value = 0;  // Const, Frame: the node

  static Shadow bottom() { return {}; }
  static Shadow constant(uint64_t v) { return {Kind::Const, 0, v}; }
  static Shadow frame(uint64_t v) { return {Kind::Frame, 0, v}; }
  static Shadow inLocal(uint16_t l) { return {Kind::Local, l, 0}; }
  bool isBottom() const { return kind == Kind::Bottom; }
  bool operator==(const Shadow&) const = default;
};

// What the node of a value pushed by an instruction is.
struct ResultRule {
  enum class Kind : uint8_t { Bottom, Const, Produced, Frame };
  Kind kind = Kind::Bottom;
  uint64_t value = 0;  // Const
};

// The client's part: which instructions make nodes. Asked for every instruction that
// pushes a value, except the local loads, the dup/swap family and checkcast (those move
// the shadow they find).
class ShadowRules {
 public:
  virtual ~ShadowRules() = default;
  virtual ResultRule result(const instrument::Routine& r, uint32_t index) = 0;
  // The shadow a local store (xstore) gives its local, `value` being the stored value's;
  // the value's own by default.
  virtual Shadow stored(const instrument::Routine&, uint32_t, Shadow value) { return value; }
  // The shadow iinc gives its local (Bottom by default: a computed value).
  virtual Shadow incremented(const instrument::Routine&, uint32_t) { return Shadow::bottom(); }
};

// canonical local `to` = `from` (a Local source is read before any move of the same set
// writes it: the set is a parallel move, sequenced with `ShadowPlan::spare` for cycles).
struct Move {
  uint16_t to = 0;
  Shadow from;
};

// The moves at the end of a block: before its last instruction (a branch, a switch) or
// after it (a block that falls through into a leader), in the order given.
struct BlockEnd {
  uint32_t index = 0;
  bool after = false;
  std::vector<Move> moves;
};

struct ShadowPlan {
  static constexpr uint16_t kNone = 0xFFFF;
  bool ok = false;
  std::string why;  // when not ok: why the method cannot be planned (jsr/ret, bad code)
  // Per instruction, the shadows before it (one per word, bottom of the stack first; the
  // second word of a long or double is Bottom). Empty for unreachable instructions.
  std::vector<std::vector<Shadow>> stack, locals;
  std::vector<bool> reached;
  // Per instruction: the scratch local its Produced result goes to (kNone: none).
  std::vector<uint16_t> produced;
  std::vector<BlockEnd> ends;
  // Every canonical local (a long live local), zeroed at entry.
  std::vector<uint16_t> canonical;
  // (parameter's local slot, its canonical local): filled from the call transfer at
  // entry (the receiver is slot 0 of an instance method).
  std::vector<std::pair<uint16_t, uint16_t>> params;
  // A long scratch local for the block-end moves that form a cycle (kNone: none needed).
  uint16_t spare = kNone;
};

// Plans the shadows of `r` (locals and scratch locals are allocated in `r`). Every
// parameter gets a canonical local (the call transfer fills it at entry).
ShadowPlan planShadows(instrument::Routine& r, ShadowRules& rules);

// The moves of `end` in an order that reads every source before it is overwritten;
// cycles go through `spare`. Each returned move is a plain copy.
std::vector<Move> sequenceMoves(const std::vector<Move>& moves, uint16_t spare);

}  // namespace dragnet::flow
