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

class Planner {
 public:
  Planner(Routine& r, ShadowRules& rules) : r_(r), rules_(rules) {}

  ShadowPlan run() {
    const auto& insns = r_.instructions();
    const auto& blocks = r_.blocks();
    plan_.stack.resize(insns.size());
    plan_.locals.resize(insns.size());
    plan_.reached.assign(insns.size(), false);
    plan_.produced.assign(insns.size(), ShadowPlan::kNone);
    if (insns.empty() || blocks.empty()) return fail("no code");
    if (!initialState()) return plan_;
    entries_.assign(blocks.size(), std::nullopt);
    blockOf_.assign(insns.size(), 0);
    for (const auto& b : blocks) {
      for (uint32_t i = b.first; i <= b.last; ++i) blockOf_[i] = b.id;
    }
    entries_[blockOf_[0]] = entry_;
    if (!fixedPoint()) return plan_;
    for (const auto& b : blocks) {
      if (entries_[b.id] && !emit(b)) return plan_;
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
    const auto& block = r_.blocks()[b];
    if (block.isHandlerEntry) {
      if (e) return false;
      e = State{{Shadow::bottom()}, {}};
      return true;
    }
    if (!e) {
      State s;
      for (size_t d = 0; d < in.stack.size(); ++d) s.stack.push_back(normalized(in.stack[d], kStackKey + d));
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
    const auto& blocks = r_.blocks();
    std::vector<uint32_t> work{blockOf_[0]};
    std::vector<bool> queued(blocks.size(), false);
    queued[work[0]] = true;
    for (const auto& b : blocks) {
      if (b.isHandlerEntry) {
        join(b.id, State{});
        work.push_back(b.id);
        queued[b.id] = true;
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
      setLocal(s, st->slot, v);
      if (st->wide) setLocal(s, st->slot + 1, Shadow::bottom());
      return true;
    }
    if (in.op == Op::iinc) {
      setLocal(s, static_cast<uint32_t>(in.a), Shadow::bottom());
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
  bool emit(const instrument::BasicBlock& b) {
    State s = *entries_[b.id];
    for (uint32_t i = b.first; i <= b.last; ++i) {
      plan_.stack[i] = s.stack;
      plan_.locals[i] = s.locals;
      plan_.reached[i] = true;
      if (!transfer(s, i)) return false;
    }
    std::vector<Move> moves;
    auto need = [&](const Shadow& want, const Shadow& have) {
      if (want.kind != Shadow::Kind::Local || want == have) return;
      auto dup = std::find_if(moves.begin(), moves.end(), [&](const Move& m) { return m.to == want.local; });
      if (dup == moves.end()) moves.push_back({want.local, have});
    };
    for (uint32_t succ : b.successors) {
      const State& e = *entries_[succ];
      if (r_.blocks()[succ].isHandlerEntry) continue;
      for (size_t d = 0; d < e.stack.size() && d < s.stack.size(); ++d) need(e.stack[d], s.stack[d]);
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
    return std::any_of(seq.begin(), seq.end(), [](const Move& m) { return m.to == ShadowPlan::kNone; });
  }

  Routine& r_;
  ShadowRules& rules_;
  ShadowPlan plan_;
  State entry_;
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
    auto ready = std::find_if(pending.begin(), pending.end(), [&](const Move& m) { return !readsLocal(m.to); });
    if (ready != pending.end()) {
      if (!(ready->from.kind == Shadow::Kind::Local && ready->from.local == ready->to)) out.push_back(*ready);
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
