#include "flow/shadow_plan.h"

#include <algorithm>
#include <map>
#include <optional>

#include "instrument/descriptor.h"
#include "instrument/stack_effect.h"
#include "instrument/word_shuffle.h"

namespace dragnet::flow {

using classfile::Op;
using instrument::Routine;

namespace {

struct State {
  std::vector<Shadow> stack;
  std::vector<Shadow> locals;
};

// A local load or store: its slot and whether the value takes two words.
struct LocalAccess {
  uint32_t slot = 0;
  bool wide = false;
};

int opIndex(Op op) { return static_cast<int>(op); }

std::optional<LocalAccess> loadOf(const classfile::Insn& in) {
  int o = opIndex(in.op);
  if (o >= opIndex(Op::iload) && o <= opIndex(Op::aload)) {
    int k = o - opIndex(Op::iload);  // i l f d a
    return LocalAccess{static_cast<uint32_t>(in.a), k == 1 || k == 3};
  }
  if (o >= opIndex(Op::iload_0) && o <= opIndex(Op::aload_3)) {
    int k = (o - opIndex(Op::iload_0)) / 4, n = (o - opIndex(Op::iload_0)) % 4;
    return LocalAccess{static_cast<uint32_t>(n), k == 1 || k == 3};
  }
  return std::nullopt;
}

std::optional<LocalAccess> storeOf(const classfile::Insn& in) {
  int o = opIndex(in.op);
  if (o >= opIndex(Op::istore) && o <= opIndex(Op::astore)) {
    int k = o - opIndex(Op::istore);
    return LocalAccess{static_cast<uint32_t>(in.a), k == 1 || k == 3};
  }
  if (o >= opIndex(Op::istore_0) && o <= opIndex(Op::astore_3)) {
    int k = (o - opIndex(Op::istore_0)) / 4, n = (o - opIndex(Op::istore_0)) % 4;
    return LocalAccess{static_cast<uint32_t>(n), k == 1 || k == 3};
  }
  return std::nullopt;
}

void setLocal(State& s, uint32_t slot, Shadow v) {
  if (slot >= s.locals.size()) s.locals.resize(slot + 1);
  s.locals[slot] = v;
}

// Position keys of canonical locals: a local slot, or a stack depth (word index).
constexpr uint32_t kStackKey = 0x10000;

// A block of the plan: a basic block, or a part of one that ends where the original code has
// a stack-map frame at an instruction no branch reaches (javac puts frames at labels of its
// own, e.g. a pattern switch's restart point). The verifier checks the locals against such
// a frame, which declares no scratch local: so no value may stay in a scratch local across
// it, and the plan ends a block there.
struct PlanBlock {
  uint32_t first = 0, last = 0;
  std::vector<uint32_t> successors;  // plan blocks
  bool isHandlerEntry = false;
};

// Instruction indices that carry an original stack-map frame.
std::vector<bool> framePoints(const Routine& r, size_t n) {
  std::vector<bool> at(n, false);
  auto* code =
      classfile::findAttr<classfile::CodeAttr>(const_cast<Routine&>(r).member().attributes);
  if (!code) return at;
  auto* table = classfile::findAttr<classfile::StackMapTableAttr>(code->attributes);
  if (!table) return at;
  for (const classfile::Frame& f : table->frames) {
    auto label = static_cast<size_t>(f.at);
    if (label >= code->code.labels.size()) continue;
    uint32_t i = code->code.labels[label];
    if (i < n) at[i] = true;
  }
  return at;
}

std::vector<PlanBlock> planBlocks(const Routine& r) {
  const auto& blocks = r.blocks();
  std::vector<bool> frame = framePoints(r, r.instructions().size());
  std::vector<PlanBlock> out;
  std::vector<uint32_t> firstOf(blocks.size()), lastOf(blocks.size());
  for (const auto& b : blocks) {
    firstOf[b.id] = static_cast<uint32_t>(out.size());
    uint32_t start = b.first;
    for (uint32_t i = b.first + 1; i <= b.last; ++i) {
      if (!frame[i]) continue;
      out.push_back({start,
                     i - 1,
                     {static_cast<uint32_t>(out.size()) + 1},
                     start == b.first && b.isHandlerEntry});
      start = i;
    }
    out.push_back({start, b.last, {}, start == b.first && b.isHandlerEntry});
    lastOf[b.id] = static_cast<uint32_t>(out.size()) - 1;
  }
  for (const auto& b : blocks) {
    for (uint32_t succ : b.successors) out[lastOf[b.id]].successors.push_back(firstOf[succ]);
  }
  return out;
}

class Planner {
 public:
  Planner(Routine& r, ShadowRules& rules) : r_(r), rules_(rules) {}

  ShadowPlan run() {
    const auto& insns = r_.instructions();
    blocks_ = planBlocks(r_);
    const auto& blocks = blocks_;
    plan_.stack.resize(insns.size());
    plan_.locals.resize(insns.size());
    plan_.reached.assign(insns.size(), false);
    plan_.produced.assign(insns.size(), ShadowPlan::kNone);
    if (insns.empty() || blocks.empty()) return fail("no code");
    if (!initialState()) return plan_;
    entries_.assign(blocks.size(), std::nullopt);
    blockOf_.assign(insns.size(), 0);
    for (uint32_t k = 0; k < blocks.size(); ++k) {
      for (uint32_t i = blocks[k].first; i <= blocks[k].last; ++i) blockOf_[i] = k;
    }
    entries_[blockOf_[0]] = entry_;
    if (!fixedPoint()) return plan_;
    for (uint32_t k = 0; k < blocks.size(); ++k) {
      if (entries_[k] && !emit(k)) return plan_;
    }
    plan_.ok = true;
    return std::move(plan_);
  }

 private:
  ShadowPlan fail(std::string why) {
    plan_.ok = false;
    plan_.why = std::move(why);
    return std::move(plan_);
  }
  bool failed(std::string why) {
    plan_.ok = false;
    plan_.why = std::move(why);
    return false;
  }

  // Parameters in their canonical locals; the other locals Bottom.
  bool initialState() {
    auto md = instrument::parseMethodDescriptor(r_.descriptor());
    if (!md) return failed("malformed descriptor");
    uint32_t slot = 0;
    auto param = [&](bool wide) {
      Shadow s = Shadow::inLocal(canonical(slot));
      plan_.params.emplace_back(static_cast<uint16_t>(slot), s.local);
      setLocal(entry_, slot, s);
      if (wide) setLocal(entry_, slot + 1, Shadow::bottom());
      slot += wide ? 2 : 1;
    };
    if ((r_.access() & classfile::kAccStatic) == 0) param(false);
    for (std::string_view p : md->params) param(instrument::slotSize(p) == 2);
    return true;
  }

  // The canonical local of a position, made on first use.
  uint16_t canonical(uint32_t key) {
    auto it = canon_.find(key);
    if (it != canon_.end()) return it->second;
    std::optional<uint16_t> l = r_.liveLocal("J");
    uint16_t slot = l ? *l : ShadowPlan::kNone;
    if (!l) overflow_ = true;
    canon_.emplace(key, slot);
    if (l) plan_.canonical.push_back(slot);
    return slot;
  }

  // The state a successor sees from `v` at position `key`: values that are not constants
  // move into the position's canonical local.
  Shadow normalized(Shadow v, uint32_t key) {
    if (v.kind != Shadow::Kind::Local) return v;
    return Shadow::inLocal(canonical(key));
  }

  // Joins `in` into block b's entry; true if the entry changed.
  bool join(uint32_t b, const State& in) {
    std::optional<State>& e = entries_[b];
    const PlanBlock& block = blocks_[b];
    if (block.isHandlerEntry) {
      if (e) return false;
      e = State{{Shadow::bottom()}, {}};
      return true;
    }
    if (!e) {
      State s;
      for (size_t d = 0; d < in.stack.size(); ++d)
        s.stack.push_back(normalized(in.stack[d], kStackKey + d));
      for (size_t l = 0; l < in.locals.size(); ++l) s.locals.push_back(normalized(in.locals[l], l));
      e = std::move(s);
      return true;
    }
    if (e->stack.size() != in.stack.size()) return failed("stack depths differ at a merge");
    bool changed = false;
    auto merge = [&](Shadow& have, Shadow got, uint32_t key) {
      got = normalized(got, key);
      if (have == got) return;
      Shadow c = Shadow::inLocal(canonical(key));
      if (have == c) return;
      have = c;
      changed = true;
    };
    for (size_t d = 0; d < in.stack.size(); ++d) merge(e->stack[d], in.stack[d], kStackKey + d);
    size_t n = std::max(e->locals.size(), in.locals.size());
    e->locals.resize(n);
    for (size_t l = 0; l < n; ++l) {
      merge(e->locals[l], l < in.locals.size() ? in.locals[l] : Shadow::bottom(), l);
    }
    return changed;
  }

  bool fixedPoint() {
    const auto& blocks = blocks_;
    std::vector<uint32_t> work{blockOf_[0]};
    std::vector<bool> queued(blocks.size(), false);
    queued[work[0]] = true;
    for (uint32_t k = 0; k < blocks.size(); ++k) {
      if (blocks[k].isHandlerEntry) {
        join(k, State{});
        work.push_back(k);
        queued[k] = true;
      }
    }
    while (!work.empty()) {
      uint32_t b = work.back();
      work.pop_back();
      queued[b] = false;
      State s = *entries_[b];
      const auto& block = blocks[b];
      for (uint32_t i = block.first; i <= block.last; ++i) {
        if (!transfer(s, i)) return false;
      }
      for (uint32_t succ : block.successors) {
        if (join(succ, s) && !queued[succ]) {
          queued[succ] = true;
          work.push_back(succ);
        }
        if (!plan_.why.empty()) return false;
      }
    }
    if (overflow_) return failed("too many locals");
    return true;
  }

  // The result shadow of instruction i, asking the client.
  Shadow result(uint32_t i) {
    ResultRule rule = rules_.result(r_, i);
    switch (rule.kind) {
      case ResultRule::Kind::Const:
        return Shadow::constant(rule.value);
      case ResultRule::Kind::Frame:
        return Shadow::frame(rule.value);
      case ResultRule::Kind::Produced:
        if (plan_.produced[i] == ShadowPlan::kNone) plan_.produced[i] = r_.scratchLocal(2);
        return Shadow::inLocal(plan_.produced[i]);
      default:
        return Shadow::bottom();
    }
  }

  bool pop(State& s, int words) {
    if (static_cast<int>(s.stack.size()) < words) return failed("stack underflow");
    s.stack.resize(s.stack.size() - static_cast<size_t>(words));
    return true;
  }

  bool transfer(State& s, uint32_t i) {
    const classfile::Insn& in = r_.insn(i);
    if (in.op == Op::jsr || in.op == Op::jsr_w || in.op == Op::ret) {
      return failed("jsr/ret subroutines");
    }
    if (auto l = loadOf(in)) {
      Shadow v = l->slot < s.locals.size() ? s.locals[l->slot] : Shadow::bottom();
      s.stack.push_back(v);
      if (l->wide) s.stack.push_back(Shadow::bottom());
      return true;
    }
    if (auto st = storeOf(in)) {
      int words = st->wide ? 2 : 1;
      if (static_cast<int>(s.stack.size()) < words) return failed("stack underflow");
      Shadow v = s.stack[s.stack.size() - static_cast<size_t>(words)];
      pop(s, words);
      setLocal(s, st->slot, rules_.stored(r_, i, v));
      if (st->wide) setLocal(s, st->slot + 1, Shadow::bottom());
      return true;
    }
    if (in.op == Op::iinc) {
      setLocal(s, static_cast<uint32_t>(in.a), rules_.incremented(r_, i));
      return true;
    }
    if (in.op == Op::checkcast) return true;
    if (instrument::shuffleWords(in.op, s.stack)) return true;
    auto e = instrument::stackEffect(in, r_.pool());
    if (!e) return failed("unknown stack effect");
    if (!pop(s, e->pop)) return false;
    if (e->push > 0) {
      s.stack.push_back(result(i));
      for (int w = 1; w < e->push; ++w) s.stack.push_back(Shadow::bottom());
    }
    return true;
  }

  // The final walk of block b: the states before each instruction, then the moves into
  // the canonical locals its successors read.
  bool emit(uint32_t k) {
    const PlanBlock& b = blocks_[k];
    State s = *entries_[k];
    for (uint32_t i = b.first; i <= b.last; ++i) {
      plan_.stack[i] = s.stack;
      plan_.locals[i] = s.locals;
      plan_.reached[i] = true;
      if (!transfer(s, i)) return false;
    }
    std::vector<Move> moves;
    auto need = [&](const Shadow& want, const Shadow& have) {
      if (want.kind != Shadow::Kind::Local || want == have) return;
      auto dup = std::find_if(moves.begin(), moves.end(),
                              [&](const Move& m) { return m.to == want.local; });
      if (dup == moves.end()) moves.push_back({want.local, have});
    };
    for (uint32_t succ : b.successors) {
      const State& e = *entries_[succ];
      if (blocks_[succ].isHandlerEntry) continue;
      for (size_t d = 0; d < e.stack.size() && d < s.stack.size(); ++d)
        need(e.stack[d], s.stack[d]);
      for (size_t l = 0; l < e.locals.size(); ++l) {
        need(e.locals[l], l < s.locals.size() ? s.locals[l] : Shadow::bottom());
      }
    }
    if (moves.empty()) return true;
    Op last = r_.insn(b.last).op;
    bool after = instrument::fallsThrough(last) && !instrument::isConditionalBranch(last);
    if (plan_.spare == ShadowPlan::kNone && hasCycle(moves)) plan_.spare = r_.scratchLocal(2);
    plan_.ends.push_back({b.last, after, sequenceMoves(moves, plan_.spare)});
    return true;
  }

  static bool hasCycle(const std::vector<Move>& moves) {
    std::vector<Move> seq = sequenceMoves(moves, ShadowPlan::kNone);
    return std::any_of(seq.begin(), seq.end(),
                       [](const Move& m) { return m.to == ShadowPlan::kNone; });
  }

  Routine& r_;
  ShadowRules& rules_;
  ShadowPlan plan_;
  State entry_;
  std::vector<PlanBlock> blocks_;
  std::vector<std::optional<State>> entries_;
  std::vector<uint32_t> blockOf_;
  std::map<uint32_t, uint16_t> canon_;
  bool overflow_ = false;
};

}  // namespace

std::vector<Move> sequenceMoves(const std::vector<Move>& moves, uint16_t spare) {
  std::vector<Move> pending = moves, out;
  auto readsLocal = [&](uint16_t l) {
    return std::any_of(pending.begin(), pending.end(), [&](const Move& m) {
      return m.from.kind == Shadow::Kind::Local && m.from.local == l && m.to != l;
    });
  };
  while (!pending.empty()) {
    auto ready = std::find_if(pending.begin(), pending.end(),
                              [&](const Move& m) { return !readsLocal(m.to); });
    if (ready != pending.end()) {
      if (!(ready->from.kind == Shadow::Kind::Local && ready->from.local == ready->to))
        out.push_back(*ready);
      pending.erase(ready);
      continue;
    }
    // Every destination is still to be read: a cycle. Park one destination's value in the
    // spare local and read it from there.
    uint16_t parked = pending.front().to;
    out.push_back({spare, Shadow::inLocal(parked)});
    for (Move& m : pending) {
      if (m.from.kind == Shadow::Kind::Local && m.from.local == parked) m.from.local = spare;
    }
  }
  return out;
}

ShadowPlan planShadows(Routine& r, ShadowRules& rules) { return Planner(r, rules).run(); }

}  // namespace dragnet::flow
