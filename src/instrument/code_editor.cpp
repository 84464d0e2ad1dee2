#include "instrument/code_editor.h"

#include <algorithm>
#include <map>
#include <optional>

#include "classfile/scratch.h"
#include "instrument/frame_computer.h"
#include "instrument/frame_state.h"
#include "instrument/stack_effect.h"

namespace dragnet::instrument {

using namespace classfile;

namespace {

constexpr uint32_t kMaxCode = 65535;

bool needsFrames(const ClassFile& cls) { return cls.major >= 50; }

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

// The new code under construction: instructions, label positions, and which labels are
// pinned to their instruction rather than to the patch in front of it.
struct Layout {
  std::vector<Insn> insns;
  std::vector<uint32_t> labels;
  // Per original instruction (+ end): patch start, insn. Scratch (classfile/scratch.h).
  std::vector<uint32_t>& before;
  std::vector<uint32_t>& at;
};

// The new instruction and label lists come from a per-thread pool and the lists they
// replace go back to it, so that editing a method allocates neither (an edit given up
// returns its own lists).
struct LayoutLists {
  std::vector<Insn> insns;
  std::vector<uint32_t> labels;
};
class PooledLists {
 public:
  explicit PooledLists(Layout& lay) : lay_(lay) {
    LayoutLists l;
    ScratchPool<LayoutLists>::take(l);
    lay_.insns = std::move(l.insns);
    lay_.labels = std::move(l.labels);
    lay_.insns.clear();
    lay_.labels.clear();
  }
  ~PooledLists() {
    LayoutLists l{std::move(lay_.insns), std::move(lay_.labels)};
    ScratchPool<LayoutLists>::give(l);
  }
  PooledLists(const PooledLists&) = delete;
  PooledLists& operator=(const PooledLists&) = delete;

 private:
  Layout& lay_;
};

// Gives every label used as Uninitialized(label) or as a type-annotation offset a label of
// its own that is pinned to the instruction (these name the `new`/cast itself, not the
// probe inserted in front of it). Done in place: a new label at the same position changes
// nothing about the method, so it needs no undo if the edit is given up.
class Pinner {
 public:
  explicit Pinner(Code& code) : code_(code) {}
  void pin(Label& l) {
    auto id = static_cast<uint32_t>(l);
    if (l == Label::None) return;
    if (map_.empty()) map_.assign(code_.labels.size(), kNone);  // most methods pin nothing
    if (id >= map_.size()) return;  // unknown, or made here (never pinned again)
    if (map_[id] == kNone) {
      map_[id] = static_cast<uint32_t>(code_.newLabel(code_.position(l)));
      pinned_.push_back(map_[id]);
    }
    l = static_cast<Label>(map_[id]);
  }
  void pinAll(std::vector<Attribute>& attrs) {
    for (Attribute& a : attrs) {
      if (auto* smt = std::get_if<StackMapTableAttr>(&a.body)) {
        for (Frame& f : smt->frames) {
          for (auto* list : {&f.locals, &f.stack}) {
            for (VType& v : *list) {
              if (v.kind == 8) pin(v.newInsn);
            }
          }
        }
      }
      if (auto* ta = std::get_if<RuntimeVisibleTypeAnnotationsAttr>(&a.body)) pinTargets(*ta);
      if (auto* ta = std::get_if<RuntimeInvisibleTypeAnnotationsAttr>(&a.body)) pinTargets(*ta);
    }
  }
  // Label ids that must stay on their instruction.
  const std::vector<uint32_t>& pinned() const { return pinned_; }

 private:
  static constexpr uint32_t kNone = 0xFFFFFFFF;
  void pinTargets(TypeAnnotationsAttr& attr) {
    for (TypeAnnotation& t : attr.annotations) {
      if (t.targetType >= 0x43 && t.targetType <= 0x4B) pin(t.offset);
    }
  }
  Code& code_;
  std::vector<uint32_t> map_;
  std::vector<uint32_t> pinned_;
};

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
uint64_t lengthBound(const Layout& lay, const std::vector<Switch>& switches) {
  uint64_t bound = uint64_t{6} * lay.insns.size();
  for (const Switch& sw : switches) bound += 3 + 12 + uint64_t{8} * sw.targets.size();
  return bound;
}

// Replaces 16-bit branches that no longer reach their target: goto -> goto_w, jsr -> jsr_w,
// if<cond> L -> if<!cond> skip; goto_w L; skip:. Repeats until nothing changes (each
// rewrite only grows the code, so this terminates). Returns an error message or "".
// `length` is set to the code length, or to an upper bound of it below 32 KB.
// frameFor(lay, switches, k, skip) records the stack-map frame for the new branch target
// that relaxing the conditional at instruction k creates (the fall-through point `skip`),
// before any label moves; it returns why it cannot be derived, or "".
template <class FrameFor>
std::string relax(Layout& lay, std::vector<Switch>& switches, const FrameFor& frameFor,
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

// The frame at the fall-through point `skip` of the conditional at instruction k, inserted
// into `table` (the frames so far, on the layout `lay`). The state comes from the closest
// frame at or before k (or the method's initial state), carried through the straight-line
// code up to and including k. Straight-line because any instruction between that frame and
// k that could be reached otherwise would have a frame of its own. `withNewLocals` gives a
// state the editor's locals (the patches on the way may use them). Returns why the frame
// cannot be derived, or "".
template <class WithNewLocals>
std::string deriveFrame(ClassFile& cls, const Member& method, Layout& lay,
                        const std::vector<Switch>& switches, StackMapTableAttr& table, size_t k,
                        Label skip, const WithNewLocals& withNewLocals) {
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

// The catch-all handler's frame: no locals (every local type is assignable to Top) and the
// exception on the stack; for the handler of the code before super(), `this` stays
// uninitialized in local 0 (its range needs flagThisUninit). Live locals are added later
// (CodeEditor::frameLiveLocals): the entry patch assigns them before any range starts.
Frame handlerFrame(ClassFile& cls, Label handler, bool thisUninitialized) {
  Frame f;
  f.type = 255;
  f.at = handler;
  if (thisUninitialized) f.locals.push_back(vtype::uninitializedThis());
  f.stack.push_back(VType{7, cls.pool.addClass("java/lang/Throwable"), Label::None});
  return f;
}

// The method's StackMapTable, made if there is none.
StackMapTableAttr& frameTable(ClassFile& cls, std::vector<Attribute>& attrs) {
  auto* smt = findAttr<StackMapTableAttr>(attrs);
  if (smt) return *smt;
  attrs.push_back(Attribute{cls.pool.addUtf8("StackMapTable"), StackMapTableAttr{}});
  return std::get<StackMapTableAttr>(attrs.back().body);
}

}  // namespace

CodeEditor::CodeEditor(ClassFile& cls, Member& method)
    : cls_(&cls), method_(&method), code_(method.code()) {
  if (code_) maxLocals_ = code_->maxLocals;
}

bool CodeEditor::isConstructor() const { return cls_->memberName(*method_) == "<init>"; }

bool CodeEditor::isEmptyFinalizer() const {
  return code_ && cls_->memberName(*method_) == "finalize" &&
         cls_->memberDescriptor(*method_) == "()V" && code_->code.insns.size() == 1 &&
         code_->code.insns[0].op == Op::return_;
}

void CodeEditor::add(Where where, uint32_t index, const Patch& patch) {
  add(where, index, patch.insns(), patch.peakStack());
}

void CodeEditor::add(Where where, uint32_t index, std::span<const Insn> patch,
                     std::optional<int> peak) {
  if (!peak) badPatch_ = true;
  int& into = where == Where::Exit ? exitPeak_ : peak_;
  into = std::max(into, peak.value_or(0));
  if (buf_.inserts.capacity() == 0) ScratchPool<Buffers>::take(buf_);
  std::vector<Insn>& insns = buf_.patchInsns;
  auto begin = static_cast<uint32_t>(insns.size());
  insns.insert(insns.end(), patch.begin(), patch.end());
  buf_.inserts.push_back({index, where, begin, static_cast<uint32_t>(insns.size())});
}

void CodeEditor::insertBefore(uint32_t i, const Patch& patch) {
  if (!patch.empty() && i < size()) add(Where::Before, i, patch);
}

void CodeEditor::insertBefore(uint32_t i, std::span<const Insn> insns, int peak) {
  if (!insns.empty() && i < size()) add(Where::Before, i, insns, peak);
}

bool CodeEditor::insertAfter(uint32_t i, const Patch& patch) {
  if (i >= size() || !fallsThrough(insn(i).op)) return false;
  if (!patch.empty()) add(Where::After, i, patch);
  return true;
}

void CodeEditor::insertAtEntry(const Patch& patch, ConstructorEntry mode) {
  if (patch.empty() || !code_) return;
  bool afterSuper = mode == ConstructorEntry::AfterSuperCall && isConstructor();
  add(afterSuper ? Where::AfterSuper : Where::Entry, 0, patch);
}

void CodeEditor::insertBeforeReturns(const Patch& patch) {
  for (uint32_t i = 0; i < size(); ++i) {
    if (isReturn(insn(i).op)) insertBefore(i, patch);
  }
}

void CodeEditor::insertOnExceptionalExit(const Patch& patch, ExitCover cover) {
  if (!code_) return;
  add(Where::Exit, 0, patch);
  exitCover_ = cover;
}

uint16_t CodeEditor::newLocal(int slots) {
  auto slot = static_cast<uint16_t>(std::min<uint32_t>(maxLocals_, 0xFFFF));
  maxLocals_ += static_cast<uint32_t>(slots);
  return slot;
}

uint16_t CodeEditor::newLiveLocal(const VType& type) {
  uint16_t slot = newLocal(vtype::isWide(type) ? 2 : 1);
  live_.push_back({slot, type});
  return slot;
}

std::string CodeEditor::frameLiveLocals(StackMapTableAttr& table) {
  std::optional<FrameState> init = initialState(*cls_, *method_);
  if (!init) return "malformed method descriptor";
  std::optional<std::vector<DecodedFrame>> decoded = decodeFrames(*init, table);
  if (!decoded) return "the stack-map frames do not decode";
  std::vector<VType> previous = frameEntries(init->locals, /*trimTrailingTop=*/true);
  table.frames.clear();
  for (DecodedFrame& d : *decoded) {
    withNewLocals(d.state);
    table.frames.push_back(encodeFrame(d.state, d.at, previous, cls_->pool));
  }
  return "";
}

void CodeEditor::withNewLocals(FrameState& state) const {
  std::vector<VType>& locals = state.locals;
  if (locals.size() < maxLocals_) locals.resize(maxLocals_, vtype::top());
  for (const LiveLocal& l : live_) {
    locals[l.slot] = l.type;
    if (vtype::isWide(l.type)) locals[l.slot + 1u] = vtype::top();
  }
}

CodeEditor::~CodeEditor() { releaseBuffers(); }

void CodeEditor::releaseBuffers() {
  if (buf_.inserts.capacity() == 0) return;
  buf_.patchInsns.clear();
  buf_.inserts.clear();
  ScratchPool<Buffers>::give(buf_);
  buf_ = Buffers{};
}

EditOutcome CodeEditor::commit() {
  EditOutcome outcome;
  try {
    outcome = commitEdits();
  } catch (const ParseFailure& e) {  // the constant pool is full
    outcome = EditOutcome::unchanged(e.error().message);
  }
  releaseBuffers();
  if (!outcome.changed) resetEdits();
  return outcome;
}

void CodeEditor::resetEdits() {
  peak_ = exitPeak_ = 0;
  exitCover_ = ExitCover::Everything;
  badPatch_ = false;
  maxLocals_ = code_ ? code_->maxLocals : 0;
  live_.clear();
}

EditOutcome CodeEditor::commitEdits() {
  if (!code_) return EditOutcome::unchanged("method has no code");
  if (buf_.inserts.empty()) return EditOutcome::unchanged("no edits");
  std::vector<Insertion>& inserts = buf_.inserts;
  const std::vector<Insn>& patchInsns = buf_.patchInsns;
  if (isEmptyFinalizer()) {
    // HotSpot registers a class's objects for finalization unless its finalize()V is empty
    // (a lone `return`, Method::is_empty_method): a probe there would make every object of
    // the class finalizable (Object.finalize: all objects, and the VM died in
    // Reference.<clinit>, jvm-facts.md; jython's PyObject.finalize is empty and final, so
    // that Python objects are not: with a probe, each one was registered with a Finalizer
    // and finalized).
    return EditOutcome::unchanged(
        "an empty finalize() is never modified (objects would become finalizable)");
  }
  if (badPatch_)
    return EditOutcome::unchanged("a patch is not stack-neutral or has an unknown effect");
  if (maxLocals_ > 0xFFFF) return EditOutcome::unchanged("max_locals would exceed 65535");
  for (const LiveLocal& l : live_) {
    // A live local no entry patch assigns would make every frame wrong: refuse.
    bool assigned = std::any_of(inserts.begin(), inserts.end(), [&](const Insertion& x) {
      return x.where == Where::Entry &&
             std::any_of(buf_.patchInsns.begin() + x.begin, buf_.patchInsns.begin() + x.end,
                         [&](const Insn& i) { return storedLocal(i) == l.slot; });
    });
    if (!assigned) {
      return EditOutcome::unchanged("method-wide local " + std::to_string(l.slot) +
                                    " is not assigned by an entry patch (before super())");
    }
  }
  bool hasExit = std::any_of(inserts.begin(), inserts.end(),
                             [](const Insertion& x) { return x.where == Where::Exit; });
  bool hasAfterSuper = std::any_of(inserts.begin(), inserts.end(),
                                   [](const Insertion& x) { return x.where == Where::AfterSuper; });

  // Where the range of the exceptional-exit handler starts: after super() in constructors.
  // If an entry patch runs before super(), a second handler covers the code before the
  // super() call: its frame has `this` uninitialized (the verifier's flagThisUninit),
  // which no handler can share with the code after the call. The call itself stays
  // uncovered: the verifier checks a handler over it with both the uninitialized and the
  // initialized `this`, and no frame accepts both (javac never covers it either). So an
  // exception thrown by the super constructor leaves without the exit patch; tools that
  // pair entry and exit must tolerate that (the alloc probes do: see DragnetState.sp).
  uint32_t exitStart = 0;
  std::optional<uint32_t> superCall;
  if (isConstructor() && (hasAfterSuper || hasExit)) {
    std::vector<uint32_t> calls = findSuperCalls(*cls_, *code_);
    if (calls.empty()) return EditOutcome::unchanged("no super()/this() call found");
    if (hasExit && calls.size() > 1) {
      return EditOutcome::unchanged("several super()/this() calls: no single try range");
    }
    std::vector<Insertion> moved;
    for (const Insertion& x : inserts) {
      if (x.where != Where::AfterSuper) continue;
      for (uint32_t c : calls) moved.push_back({c, Where::AfterSuper, x.begin, x.end});
    }
    std::erase_if(inserts, [](const Insertion& x) { return x.where == Where::AfterSuper; });
    inserts.insert(inserts.end(), moved.begin(), moved.end());
    exitStart = calls.front() + 1;
    bool entryBeforeSuper = std::any_of(inserts.begin(), inserts.end(),
                                        [](const Insertion& x) { return x.where == Where::Entry; });
    if (hasExit && entryBeforeSuper) superCall = calls.front();
  }
  uint32_t maxStack = code_->maxStack + static_cast<uint32_t>(peak_);
  if (hasExit) maxStack = std::max<uint32_t>(maxStack, 1u + static_cast<uint32_t>(exitPeak_));
  if (maxStack > 0xFFFF) return EditOutcome::unchanged("max_stack would exceed 65535");

  // Insertions in layout order; tools usually insert in order already.
  auto key = [](const Insertion& x) {
    if (x.where == Where::Entry) return uint64_t{0};
    if (x.where == Where::Exit) return ~uint64_t{0};
    return (uint64_t{x.index} + 1) << 8 | static_cast<uint64_t>(x.where);
  };
  auto byKey = [&](const Insertion& x, const Insertion& y) { return key(x) < key(y); };
  if (!std::is_sorted(inserts.begin(), inserts.end(), byKey)) {
    std::stable_sort(inserts.begin(), inserts.end(), byKey);
  }

  // Lay out the new instruction list.
  Code& code = code_->code;
  const size_t n = code.insns.size();
  Scratch<std::vector<uint32_t>> before, at;
  Layout lay{{}, {}, *before, *at};
  PooledLists lists(lay);
  // Labels pinned to their instruction (see below) and the super() call need where each
  // instruction itself lands (`at`), the others where its patch begins (`before`): `at` is
  // only kept when needed, which for most methods it is not.
  Pinner pinner(code);
  pinner.pinAll(code_->attributes);
  const bool skipCalls = hasExit && exitCover_ == ExitCover::AllButCalls;
  const bool needAt = !pinner.pinned().empty() || superCall.has_value() || skipCalls;
  lay.insns.reserve(n + patchInsns.size() + 1);
  lay.before.resize(n + 1);
  if (needAt) lay.at.resize(n + 1);
  size_t next = 0;
  auto emit = [&](auto stop) {
    for (; next < inserts.size() && stop(inserts[next]); ++next) {
      lay.insns.insert(lay.insns.end(), patchInsns.begin() + inserts[next].begin,
                       patchInsns.begin() + inserts[next].end);
    }
  };
  emit([](const Insertion& x) { return x.where == Where::Entry; });
  for (uint32_t i = 0; i < n;) {
    // The instructions up to the next one with insertions are copied as one run.
    bool more = next < inserts.size() && inserts[next].where != Where::Exit;
    uint32_t stop = more ? std::min<uint32_t>(inserts[next].index, static_cast<uint32_t>(n))
                         : static_cast<uint32_t>(n);
    auto base = static_cast<uint32_t>(lay.insns.size()) - i;
    lay.insns.insert(lay.insns.end(), code.insns.begin() + i, code.insns.begin() + stop);
    if (needAt) {
      for (uint32_t k = i; k < stop; ++k) lay.at[k] = base + k;
    }
    for (; i < stop; ++i) lay.before[i] = base + i;
    if (i == n) break;
    lay.before[i] = static_cast<uint32_t>(lay.insns.size());
    emit([&](const Insertion& x) { return x.index == i && x.where == Where::Before; });
    if (needAt) lay.at[i] = static_cast<uint32_t>(lay.insns.size());
    lay.insns.push_back(code.insns[i]);
    emit([&](const Insertion& x) {
      return x.index == i && (x.where == Where::After || x.where == Where::AfterSuper);
    });
    ++i;
  }
  lay.before[n] = static_cast<uint32_t>(lay.insns.size());
  if (needAt) lay.at[n] = lay.before[n];

  // Labels: to the patch in front of their instruction, unless pinned to it. Entry patches
  // come before lay.before[0], so a loop back to the first instruction skips them.
  lay.labels.resize(code.labels.size());
  for (size_t id = 0; id < code.labels.size(); ++id) lay.labels[id] = lay.before[code.labels[id]];
  for (uint32_t id : pinner.pinned()) lay.labels[id] = lay.at[code.labels[id]];

  std::vector<ExceptionHandler> addedHandler;  // exception-table entries
  struct HandlerCode {
    Label at;
    bool preSuper;  // `this` still uninitialized in its frame
  };
  std::vector<HandlerCode> handlerCodes;  // each needs its own stack-map frame
  if (hasExit) {
    auto label = [&](uint32_t pos) {
      lay.labels.push_back(pos);
      return static_cast<Label>(lay.labels.size() - 1);
    };
    // The handler `at` over the original instructions [first, last), laid out at [from,
    // to): one entry, or with AllButCalls one per stretch between the original invokes.
    auto cover = [&](uint32_t first, uint32_t last, uint32_t from, uint32_t to, Label at) {
      auto entry = [&](uint32_t a, uint32_t b) {
        if (a < b) addedHandler.push_back({label(a), label(b), at, CpIndex::None});
      };
      for (uint32_t k = first; skipCalls && k < last; ++k) {
        if (!isInvoke(code.insns[k].op)) continue;
        entry(from, lay.at[k]);
        from = lay.at[k] + 1;
      }
      entry(from, to);
    };
    Insn rethrow;
    rethrow.op = Op::athrow;
    Label main = label(static_cast<uint32_t>(lay.insns.size()));
    emit([](const Insertion& x) { return x.where == Where::Exit; });
    lay.insns.push_back(rethrow);
    handlerCodes.push_back({main, false});
    cover(exitStart, static_cast<uint32_t>(n), lay.before[exitStart], lay.before[n], main);
    if (superCall && lay.before[0] < lay.at[*superCall]) {
      Label pre = label(static_cast<uint32_t>(lay.insns.size()));
      next = static_cast<size_t>(
          std::find_if(inserts.begin(), inserts.end(),
                       [](const Insertion& x) { return x.where == Where::Exit; }) -
          inserts.begin());
      emit([](const Insertion& x) { return x.where == Where::Exit; });
      lay.insns.push_back(rethrow);
      handlerCodes.push_back({pre, true});
      cover(0, *superCall, lay.before[0], lay.at[*superCall], pre);
    }
  }

  // Far branches. Derived frames go to a copy of the frames, made only when the first frame
  // is derived (rare: a method over 32 KB), and replace the originals if the edit succeeds.
  std::vector<Switch> switches = code.switches;
  const StackMapTableAttr* smt = findAttr<StackMapTableAttr>(code_->attributes);
  std::optional<StackMapTableAttr> derived;
  auto addFrame = [&](Layout& l, const std::vector<Switch>& sw, size_t k, Label skip) {
    if (!derived) derived.emplace(smt ? *smt : StackMapTableAttr{});
    // Inserted before the labels past k move: they all move by one, so the order holds.
    return deriveFrame(*cls_, *method_, l, sw, *derived, k, skip,
                       [&](FrameState& s) { withNewLocals(s); });
  };
  uint32_t length = 0;
  std::string err = relax(lay, switches, addFrame, needsFrames(*cls_), length);
  if (!err.empty()) return EditOutcome::unchanged(err);
  if (length > kMaxCode) {
    EditOutcome o = EditOutcome::unchanged("code would grow to " + std::to_string(length) +
                                           " bytes, over the JVM's limit of 65535");
    o.tooLarge = true;
    return o;
  }

  // With live locals every frame changes: the final table is built (and may fail) first.
  std::optional<StackMapTableAttr> liveTable;
  if (!live_.empty() && needsFrames(*cls_)) {
    liveTable.emplace(derived ? std::move(*derived) : smt ? *smt : StackMapTableAttr{});
    derived.reset();
    for (const HandlerCode& h : handlerCodes) {
      liveTable->frames.push_back(handlerFrame(*cls_, h.at, h.preSuper));
    }
    std::string why = frameLiveLocals(*liveTable);
    if (!why.empty()) return EditOutcome::unchanged(why);
  }

  // Success: commit everything. Unknown Code attributes may hold stale offsets: drop them.
  // Swapped: the replaced lists go back to the pool with `lists`.
  code.insns.swap(lay.insns);
  code.switches = std::move(switches);
  code.labels.swap(lay.labels);
  std::erase_if(code_->attributes,
                [](const Attribute& a) { return std::holds_alternative<RawAttr>(a.body); });
  // Looked up again: erasing raw attributes above may have moved the table.
  if (liveTable) {
    frameTable(*cls_, code_->attributes).frames = std::move(liveTable->frames);
  } else if (derived) {
    frameTable(*cls_, code_->attributes).frames = std::move(derived->frames);
  }
  code_->handlers.insert(code_->handlers.end(), addedHandler.begin(), addedHandler.end());
  if (needsFrames(*cls_) && !liveTable) {
    // Appended last: the handlers are the last code in the method.
    for (const HandlerCode& h : handlerCodes) {
      frameTable(*cls_, code_->attributes).frames.push_back(handlerFrame(*cls_, h.at, h.preSuper));
    }
  }
  code_->maxStack = static_cast<uint16_t>(maxStack);
  code_->maxLocals = static_cast<uint16_t>(maxLocals_);
  return EditOutcome::ok();
}

}  // namespace dragnet::instrument
