#include "heap_access/use_sites.h"

#include <algorithm>
#include <array>
#include <string_view>

#include "instrument/descriptor.h"
#include "instrument/frame_state.h"
#include "instrument/stack_effect.h"
#include "instrument/word_shuffle.h"

namespace dragnet::heap_access {

using classfile::Op;
using instrument::Arg;

namespace {

// --- Calls whose callee's bytecode the agent never sees run -------------------------

struct NativeUse {
  std::string_view owner;  // empty: any class (final natives of java/lang/Object)
  std::string_view name;   // a prefix when it ends in '*'
  std::string_view desc;   // a prefix when it ends in '*'; empty: any
  std::initializer_list<CallUse> uses;
};

constexpr UseKind G = UseKind::Get, P = UseKind::Put;

// JDK natives (no bytecode) and C2 intrinsics (their bytecode, with its probes, is skipped
// in compiled code) that read or write their object arguments. Reference parameters of
// the String and array intrinsics are counted as reads.
const NativeUse kNativeUses[] = {
    {"java/lang/System",
     "arraycopy",
     "(Ljava/lang/Object;ILjava/lang/Object;II)V",
     {{0, G}, {2, P}}},
    {"", "getClass", "()Ljava/lang/Class;", {{-1, G}}},
    {"", "hashCode", "()I", {{-1, G}}},
    {"", "clone", "()Ljava/lang/Object;", {{-1, G}}},
    {"", "notify", "()V", {{-1, G}}},
    {"", "notifyAll", "()V", {{-1, G}}},
    {"", "wait", "(J)V", {{-1, G}}},
    {"java/lang/Class", "isInstance", "(Ljava/lang/Object;)Z", {{0, G}}},
    {"java/lang/System", "identityHashCode", "(Ljava/lang/Object;)I", {{0, G}}},
    {"java/lang/Thread", "holdsLock", "(Ljava/lang/Object;)Z", {{0, G}}},
    {"java/lang/String", "intern", "()Ljava/lang/String;", {{-1, G}}},
    {"java/util/Arrays", "copyOf*", "", {{0, G}}},
    {"java/lang/reflect/Array", "get*", "(Ljava/lang/Object;*", {{0, G}}},
    {"java/lang/reflect/Array", "set*", "(Ljava/lang/Object;*", {{0, P}}},
    {"java/lang/reflect/Array", "getLength", "(Ljava/lang/Object;)I", {{0, G}}},
};

// Owners whose every static method with reference parameters is treated as reading them
// (String and array intrinsics).
constexpr std::string_view kIntrinsicOwners[] = {"java/lang/StringLatin1", "java/lang/StringUTF16",
                                                 "jdk/internal/util/ArraysSupport"};

bool matches(std::string_view pattern, std::string_view s) {
  if (pattern.ends_with('*')) return s.starts_with(pattern.substr(0, pattern.size() - 1));
  return pattern == s;
}

bool isUnsafe(std::string_view owner) {
  return owner == "jdk/internal/misc/Unsafe" || owner == "sun/misc/Unsafe";
}

// Unsafe's (Object o, long offset, ...) accessors: o is read, written, or both.
void unsafeUses(std::string_view name, std::string_view desc, std::vector<CallUse>& out) {
  if (!desc.starts_with("(Ljava/lang/Object;J")) return;
  if (name.starts_with("copyMemory") || name.starts_with("copySwapMemory")) {
    out.assign({{0, G}, {2, P}});
  } else if (name.starts_with("put") || name.starts_with("setMemory")) {
    out.assign({{0, P}});
  } else if (name.starts_with("get") && !name.starts_with("getAnd")) {
    out.assign({{0, G}});
  } else if (name.starts_with("compareAnd") || name.starts_with("weakCompare") ||
             name.starts_with("getAnd")) {
    out.assign({{0, G}, {0, P}});
  }
}

// The uses of a call of owner.name(desc) counted at the call site (empty: none).
std::vector<CallUse> callUses(Op op, std::string_view owner, std::string_view name,
                              std::string_view desc) {
  std::vector<CallUse> out;
  if (isUnsafe(owner)) {
    unsafeUses(name, desc, out);
    return out;
  }
  bool isStatic = op == Op::invokestatic;
  for (const NativeUse& n : kNativeUses) {
    if (!n.owner.empty() && n.owner != owner) continue;
    if (!matches(n.name, name) || (!n.desc.empty() && !matches(n.desc, desc))) continue;
    bool receiver =
        std::any_of(n.uses.begin(), n.uses.end(), [](CallUse u) { return u.param < 0; });
    if (receiver == isStatic) continue;  // a static method of the same name, or the reverse
    out.assign(n.uses.begin(), n.uses.end());
    return out;
  }
  if (isStatic && std::find(std::begin(kIntrinsicOwners), std::end(kIntrinsicOwners), owner) !=
                      std::end(kIntrinsicOwners)) {
    auto md = instrument::parseMethodDescriptor(desc);
    if (!md) return out;
    for (size_t i = 0; i < md->params.size(); ++i) {
      char c = md->params[i].front();
      if (c == 'L' || c == '[') out.push_back({static_cast<int>(i), G});
    }
  }
  return out;
}

// --- The planner ---------------------------------------------------------------------

bool isArrayLoad(Op op) { return op >= Op::iaload && op <= Op::saload; }
bool isArrayStore(Op op) { return op >= Op::iastore && op <= Op::sastore; }

// The local an aload family instruction reads; -1 for other instructions.
int loadedLocal(const classfile::Insn& insn) {
  if (insn.op == Op::aload) return insn.a;
  if (insn.op >= Op::aload_0 && insn.op <= Op::aload_3) {
    return static_cast<int>(insn.op) - static_cast<int>(Op::aload_0);
  }
  return -1;
}

class Planner {
 public:
  Planner(const instrument::Routine& r, Clock clock) : r_(r), clock_(clock) {}

  UsePlan run(bool receiverUsedAtEntry) {
    const auto& blocks = r_.blocks();
    std::vector<Avail> in = availableAtEntry(blocks, receiverUsedAtEntry);
    recording_ = true;
    for (const auto& b : blocks) walk(b, in[b.id]);
    return std::move(plan_);
  }

 private:
  // The objects that had a get / a put probed since the clock last could advance: local
  // slots (>= 0) and, within a block, values on the operand stack (`fresh`).
  using Avail = std::array<std::vector<int>, 2>;

  // The identity of the one word instruction i pushes (an object the block has on its
  // stack, such as a new array being filled): distinct from every local and from -1.
  static int fresh(uint32_t i) { return -2 - static_cast<int>(i); }

  // The probes already made for each block's locals when it starts: a must-analysis
  // (intersection over predecessors) iterated to its fixpoint. Handler entries and blocks
  // nothing branches to start with none, and so does every block of a method with
  // subroutines (jsr/ret: their edges are not in the graph). With the global clock, an edge
  // back to an earlier block carries nothing: a loop without calls or allocations may run
  // while other threads advance the clock, and each iteration's uses must count.
  std::vector<Avail> availableAtEntry(const std::vector<instrument::BasicBlock>& blocks,
                                      bool receiverUsedAtEntry) {
    const size_t n = blocks.size();
    std::vector<Avail> in(n), out(n);
    if (n == 0 || hasSubroutines()) return in;
    std::vector<std::vector<uint32_t>> preds(n);
    for (const auto& b : blocks) {
      for (uint32_t s : b.successors) preds[s].push_back(b.id);
    }
    std::vector<bool> done(n, false);
    constexpr int kMaxPasses = 16;  // then give up: every block starts with nothing
    for (int pass = 0; pass < kMaxPasses; ++pass) {
      bool changed = false;
      bool unseen = false;  // a block met a predecessor not yet walked (a loop's back edge)
      for (const auto& b : blocks) {
        Avail a;
        if (!meet(b, preds[b.id], out, done, receiverUsedAtEntry, a, unseen)) continue;
        sortSets(a);
        if (done[b.id] && a == in[b.id]) continue;
        in[b.id] = a;
        walk(b, a);
        sortSets(a);  // so that equal sets compare equal
        if (!done[b.id] || a != out[b.id]) changed = true;
        out[b.id] = std::move(a);
        done[b.id] = true;
      }
      // Without edges back to blocks not yet walked, one pass in order is the fixpoint.
      if (!changed || (pass == 0 && !unseen)) return in;
    }
    return std::vector<Avail>(n);
  }

  // The intersection of what block b's predecessors (and the method's entry, for block 0)
  // end with; false while no predecessor has been walked yet (nothing known to meet).
  // `unseen` is set when a predecessor was passed over for that reason.
  bool meet(const instrument::BasicBlock& b, const std::vector<uint32_t>& preds,
            const std::vector<Avail>& out, const std::vector<bool>& done, bool receiverUsedAtEntry,
            Avail& a, bool& unseen) const {
    if (b.isHandlerEntry || (b.id != 0 && preds.empty())) return true;  // starts empty
    bool any = false;
    auto take = [&](const Avail& from) {
      if (!any) {
        a = from;
        any = true;
        return;
      }
      for (size_t k = 0; k < 2; ++k) {
        std::erase_if(a[k], [&](int l) {
          return std::find(from[k].begin(), from[k].end(), l) == from[k].end();
        });
      }
    };
    if (b.id == 0) {  // the entry probe has just recorded `this`
      Avail entry;
      if (receiverUsedAtEntry) entry[0].push_back(0);
      take(entry);
    }
    for (uint32_t p : preds) {
      if (clock_ == Clock::Global && r_.blocks()[p].first >= b.first) {
        take(Avail{});
      } else if (done[p]) {
        take(out[p]);
      } else {
        unseen = true;
      }
    }
    return any;
  }

  static void sortSets(Avail& a) {
    for (auto& set : a) std::sort(set.begin(), set.end());
  }

  bool hasSubroutines() const {
    for (const auto& b : r_.blocks()) {
      for (uint32_t i = b.first; i <= b.last; ++i) {
        Op op = r_.insn(i).op;
        if (op == Op::jsr || op == Op::jsr_w || op == Op::ret) return true;
      }
    }
    return false;
  }

  // Runs block b from the probes `used` made before it; `used` ends as the block leaves
  // it. Adds the block's probes to the plan while recording.
  void walk(const instrument::BasicBlock& b, Avail& used) {
    origins_.clear();
    used_ = &used;
    for (uint32_t i = b.first; i <= b.last; ++i) step(i);
    // Stack values stay in their block: another block (or this one again, in a loop) may
    // push another object from the same instruction.
    for (auto& set : used) std::erase_if(set, [](int o) { return o < -1; });
  }

  // The origin of the word `depth` words below the top: a local slot, fresh(i) for a word
  // instruction i pushed, or -1 (unknown).
  int& word(size_t depth) {
    if (origins_.size() <= depth)
      origins_.insert(origins_.begin(), depth + 1 - origins_.size(), -1);
    return origins_[origins_.size() - 1 - depth];
  }

  void use(uint32_t i, size_t depth, UseKind kind, Arg::Kind operand) {
    int origin = word(depth);
    auto& set = (*used_)[kind == UseKind::Put ? 1 : 0];
    if (origin != -1 && std::find(set.begin(), set.end(), origin) != set.end()) return;
    if (recording_) plan_.uses.push_back({i, kind, operand});
    if (origin != -1) set.push_back(origin);
  }

  void uses(uint32_t i, const classfile::Insn& insn) {
    Op op = insn.op;
    if (op == Op::getfield) return use(i, 0, UseKind::Get, Arg::Kind::FieldObject);
    if (op == Op::putfield) {
      auto ref = r_.pool().memberRef(insn.cp());
      return use(i, instrument::slotSize(ref.descriptor), UseKind::Put, Arg::Kind::FieldObject);
    }
    if (isArrayLoad(op)) return use(i, 1, UseKind::Get, Arg::Kind::ArrayObject);
    if (isArrayStore(op)) {
      size_t value = op == Op::lastore || op == Op::dastore ? 2 : 1;
      return use(i, 1 + value, UseKind::Put, Arg::Kind::ArrayObject);
    }
    switch (op) {
      case Op::arraylength:
        return use(i, 0, UseKind::Get, Arg::Kind::ArrayObject);
      case Op::checkcast:
      case Op:: instanceof:
      case Op::monitorenter:
      case Op::monitorexit:
      case Op::athrow:
        return use(i, 0, UseKind::Get, Arg::Kind::Value);
      default:
        break;
    }
    if (instrument::isInvoke(op) && op != Op::invokedynamic) {
      auto ref = r_.pool().memberRef(insn.cp());
      if (!recording_) return;
      std::vector<CallUse> cu = callUses(op, ref.owner, ref.name, ref.descriptor);
      if (!cu.empty()) plan_.calls.push_back({i, std::move(cu)});
    }
  }

  void step(uint32_t i) {
    const classfile::Insn& insn = r_.insn(i);
    uses(i, insn);
    if (int l = loadedLocal(insn); l >= 0) {
      origins_.push_back(l);
      return;
    }
    if (std::optional<uint32_t> s = instrument::storedLocal(insn)) {
      int stored = word(0);  // the local now holds that word's object (if it is one)
      forget(static_cast<int>(*s));
      for (auto& set : *used_) {
        if (stored != -1 && std::find(set.begin(), set.end(), stored) != set.end())
          set.push_back(static_cast<int>(*s));
      }
    }
    if (insn.op == Op::checkcast) return;  // the same object stays on top
    if (instrument::isInvoke(insn.op) || instrument::isAllocation(insn.op)) {
      (*used_)[0].clear();  // the thread's clock may advance: uses count again
      (*used_)[1].clear();
    }
    if (insn.op >= Op::dup && insn.op <= Op::swap) word(3);  // the words a shuffle moves
    if (instrument::shuffleWords(insn.op, origins_)) return;
    std::optional<instrument::StackEffect> e = instrument::stackEffect(insn, r_.pool());
    if (!e) {
      origins_.clear();
      return;
    }
    for (int k = 0; k < e->pop; ++k) {
      word(0);  // materialize unknown words below
      origins_.pop_back();
    }
    if (e->push == 1) {
      origins_.push_back(fresh(i));
    } else {
      origins_.insert(origins_.end(), static_cast<size_t>(e->push), -1);
    }
  }

  // Local `slot` now holds another object: words loaded from it before no longer match.
  void forget(int slot) {
    for (auto& set : *used_) std::erase(set, slot);
    for (int& o : origins_) {
      if (o == slot) o = -1;
    }
  }

  const instrument::Routine& r_;
  const Clock clock_;
  std::vector<int> origins_;  // the block's stack words' origins (see word), bottom first
  Avail* used_ = nullptr;     // the block's available probes, as walked so far
  bool recording_ = false;    // the final walk: probes go into the plan
  UsePlan plan_;
};

}  // namespace

bool receiverUsedAtEntry(const instrument::Routine& r) {
  return (r.access() & classfile::kAccStatic) == 0 && r.name() != "<init>";
}

UsePlan planUses(const instrument::Routine& r, bool receiverUsedAtEntry, Clock clock) {
  return Planner(r, clock).run(receiverUsedAtEntry);
}

bool probeCallUses(instrument::Routine& r, const CallProbe& c,
                   const std::function<void(instrument::Patch&, UseKind)>& probe) {
  auto ref = r.pool().memberRef(r.insn(c.index).cp());
  auto md = instrument::parseMethodDescriptor(ref.descriptor);
  if (!md) return false;
  std::vector<uint16_t> slots(md->params.size());
  instrument::Patch p = r.newPatch();
  for (size_t i = md->params.size(); i-- > 0;) {
    slots[i] = r.scratchLocal(instrument::slotSize(md->params[i]));
    p.store(md->params[i], slots[i]);
  }
  for (const CallUse& u : c.uses) {
    if (u.param < 0) {
      p.add(Op::dup);  // the receiver, now on top
    } else {
      auto i = static_cast<size_t>(u.param);
      p.load(md->params[i], slots[i]);
    }
    probe(p, u.kind);
  }
  for (size_t i = 0; i < md->params.size(); ++i) p.load(md->params[i], slots[i]);
  return r.before(c.index, p);
}

}  // namespace dragnet::heap_access
