#include "instrument/code_editor.h"

#include <algorithm>
#include <map>
#include <optional>

#include "classfile/scratch.h"
#include "instrument/frame_computer.h"
#include "instrument/frame_state.h"
#include "instrument/relax.h"
#include "instrument/self_covering.h"
#include "instrument/stack_effect.h"

namespace dragnet::instrument {

using namespace classfile;

namespace {

bool needsFrames(const ClassFile& cls) { return cls.major >= 50; }

// The new instruction and label lists come from a per-thread pool and the lists they
// replace go back to it, so that editing a method allocates neither (an edit given up
// returns its own lists).
struct LayoutLists {
  std::vector<Insn> insns;
  std::vector<uint32_t> labels;
};
class PooledLists {
 public:
  explicit PooledLists(CodeLayout& lay) : lay_(lay) {
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
  CodeLayout& lay_;
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

// ---- commit, phase by phase ------------------------------------------------------------
//
// One commit, as a sequence of phases that run() calls in order; each phase reads what
// the ones before it established (the members, grouped below by the phase that sets them).
// Nothing of the method changes before install(), the last phase, so that any phase may
// still give up and leave the method as it was; the labels layOut() pins change nothing
// about it (see Pinner), and the pool may have grown (that is harmless).
class CodeEditor::Commit {
 public:
  explicit Commit(CodeEditor& ed)
      : ed_(ed),
        inserts_(ed.buf_.inserts),
        patchInsns_(ed.buf_.patchInsns),
        code_(ed.code_->code) {}
  Commit(const Commit&) = delete;
  Commit& operator=(const Commit&) = delete;

  // Why the edits cannot be applied at all, checked before any work; "" if they can.
  static std::string refusal(const CodeEditor& ed);
  EditOutcome run();

 private:
  struct HandlerCode {
    Label at;
    bool preSuper;  // `this` still uninitialized in its frame
  };

  std::string placeAroundSuperCall();
  std::string sizeStack();
  void moveHandlerPatches();
  void sortInsertions();
  void layOut();
  void bindLabels();
  void appendExitHandlers();
  Label appendHandlerCode(bool preSuper);
  void cover(uint32_t first, uint32_t last, uint32_t from, uint32_t to, Label handler);
  std::string relaxFarBranches();
  std::string buildLiveTable();
  void install();

  // Appends the patches of the insertions from next_ on, as long as `take` accepts them.
  template <class Take>
  void emit(const Take& take) {
    for (; next_ < inserts_.size() && take(inserts_[next_]); ++next_) {
      lay_.insns.insert(lay_.insns.end(), patchInsns_.begin() + inserts_[next_].begin,
                        patchInsns_.begin() + inserts_[next_].end);
    }
  }
  // A new label at position `pos` of the new code (ids after the method's own).
  Label newLabel(uint32_t pos) {
    lay_.labels.push_back(pos);
    return static_cast<Label>(lay_.labels.size() - 1);
  }

  CodeEditor& ed_;
  std::vector<Insertion>& inserts_;
  const std::vector<Insn>& patchInsns_;
  Code& code_;
  // placeAroundSuperCall, sizeStack:
  bool hasExit_ = false;
  uint32_t exitStart_ = 0;             // the first instruction the exit handler covers
  std::optional<uint32_t> superCall_;  // set if a second handler covers the code before it
  uint32_t maxStack_ = 0;
  // layOut, bindLabels (the new code; the lists are pooled):
  Scratch<std::vector<uint32_t>> before_, at_;
  CodeLayout lay_{{}, {}, *before_, *at_};
  PooledLists lists_{lay_};
  Pinner pinner_{code_};
  bool skipCalls_ = false;  // the exit handler leaves the invokes uncovered
  bool needAt_ = false;     // lay_.at is kept
  size_t next_ = 0;         // the next insertion to emit
  // appendExitHandlers:
  std::vector<ExceptionHandler> addedHandlers_;  // exception-table entries
  std::vector<HandlerCode> handlerCodes_;        // each needs its own stack-map frame
  // relaxFarBranches, buildLiveTable:
  std::vector<Switch> switches_;
  const StackMapTableAttr* smt_ = nullptr;      // the method's table, if it has one
  std::optional<StackMapTableAttr> derived_;    // with the frames relaxation derived
  std::optional<StackMapTableAttr> liveTable_;  // the final table, with live locals
  bool tooLarge_ = false;
};

EditOutcome CodeEditor::commitEdits() {
  if (std::string why = Commit::refusal(*this); !why.empty()) {
    return EditOutcome::unchanged(std::move(why));
  }
  return Commit(*this).run();
}

EditOutcome CodeEditor::Commit::run() {
  std::string why = placeAroundSuperCall();
  if (why.empty()) why = sizeStack();
  if (!why.empty()) return EditOutcome::unchanged(std::move(why));
  moveHandlerPatches();
  sortInsertions();
  layOut();
  bindLabels();
  if (hasExit_) appendExitHandlers();
  why = relaxFarBranches();
  if (why.empty()) why = buildLiveTable();
  if (!why.empty()) {
    EditOutcome o = EditOutcome::unchanged(std::move(why));
    o.tooLarge = tooLarge_;
    return o;
  }
  install();
  return EditOutcome::ok();
}

// Checks that need nothing computed, first, in the order their reasons take precedence.
std::string CodeEditor::Commit::refusal(const CodeEditor& ed) {
  if (!ed.code_) return "method has no code";
  if (ed.buf_.inserts.empty()) return "no edits";
  if (ed.isEmptyFinalizer()) {
    // HotSpot registers a class's objects for finalization unless its finalize()V is empty
    // (a lone `return`, Method::is_empty_method): a probe there would make every object of
    // the class finalizable (Object.finalize: all objects, and the VM died in
    // Reference.<clinit>, jvm-facts.md; jython's PyObject.finalize is empty and final, so
    // that Python objects are not: with a probe, each one was registered with a Finalizer
    // and finalized).
    return "an empty finalize() is never modified (objects would become finalizable)";
  }
  if (ed.badPatch_) return "a patch is not stack-neutral or has an unknown effect";
  if (ed.maxLocals_ > 0xFFFF) return "max_locals would exceed 65535";
  const std::vector<Insertion>& inserts = ed.buf_.inserts;
  const std::vector<Insn>& patchInsns = ed.buf_.patchInsns;
  for (const LiveLocal& l : ed.live_) {
    // A live local no entry patch assigns would make every frame wrong: refuse.
    bool assigned = std::any_of(inserts.begin(), inserts.end(), [&](const Insertion& x) {
      return x.where == Where::Entry &&
             std::any_of(patchInsns.begin() + x.begin, patchInsns.begin() + x.end,
                         [&](const Insn& i) { return storedLocal(i) == l.slot; });
    });
    if (!assigned) {
      return "method-wide local " + std::to_string(l.slot) +
             " is not assigned by an entry patch (before super())";
    }
  }
  return "";
}

// Establishes hasExit_, where the exit handler's range starts (exitStart_) and whether a
// second handler covers the code before super() (superCall_); in constructors, turns each
// after-super() insertion into one after every super()/this() call. Before sorting: the
// insertions get their instruction index here.
//
// The range of the exceptional-exit handler starts after super() in constructors. If an
// entry patch runs before super(), a second handler covers the code before the super()
// call: its frame has `this` uninitialized (the verifier's flagThisUninit), which no
// handler can share with the code after the call. The call itself stays uncovered: the
// verifier checks a handler over it with both the uninitialized and the initialized
// `this`, and no frame accepts both (javac never covers it either). So an exception thrown
// by the super constructor leaves without the exit patch; tools that pair entry and exit
// must tolerate that (the alloc probes do: see DragnetState.sp).
std::string CodeEditor::Commit::placeAroundSuperCall() {
  std::vector<Insertion>& inserts = inserts_;
  hasExit_ = std::any_of(inserts.begin(), inserts.end(),
                         [](const Insertion& x) { return x.where == Where::Exit; });
  bool hasAfterSuper = std::any_of(inserts.begin(), inserts.end(),
                                   [](const Insertion& x) { return x.where == Where::AfterSuper; });
  if (!ed_.isConstructor() || !(hasAfterSuper || hasExit_)) return "";
  std::vector<uint32_t> calls = findSuperCalls(*ed_.cls_, *ed_.code_);
  if (calls.empty()) return "no super()/this() call found";
  if (hasExit_ && calls.size() > 1) return "several super()/this() calls: no single try range";
  std::vector<Insertion> moved;
  for (const Insertion& x : inserts) {
    if (x.where != Where::AfterSuper) continue;
    for (uint32_t c : calls) moved.push_back({c, Where::AfterSuper, x.begin, x.end});
  }
  std::erase_if(inserts, [](const Insertion& x) { return x.where == Where::AfterSuper; });
  inserts.insert(inserts.end(), moved.begin(), moved.end());
  exitStart_ = calls.front() + 1;
  bool entryBeforeSuper = std::any_of(inserts.begin(), inserts.end(),
                                      [](const Insertion& x) { return x.where == Where::Entry; });
  if (hasExit_ && entryBeforeSuper) superCall_ = calls.front();
  return "";
}

// Establishes the new max_stack: the old one plus the largest patch peak, or what the exit
// handler needs (the exception, then its patch's peak), if more.
std::string CodeEditor::Commit::sizeStack() {
  maxStack_ = ed_.code_->maxStack + static_cast<uint32_t>(ed_.peak_);
  if (hasExit_)
    maxStack_ = std::max<uint32_t>(maxStack_, 1u + static_cast<uint32_t>(ed_.exitPeak_));
  if (maxStack_ > 0xFFFF) return "max_stack would exceed 65535";
  return "";
}

// Moves the patches inserted before the first instruction of a handler that covers itself
// (self_covering.h: javac's monitor release and finally store) to the end of that range,
// between `aload t` and `pop`, so that they see the exception on the stack as at the entry.
// C1 gives a method up ("exception handler covers itself") when a handler covers a throwing
// instruction of its own entry block, and when code it reaches from a handler it has parsed
// throws back into that handler; javac's handler throws nothing there in C1's eyes, a probe
// call does. Moving the range's end instead would leave a held monitor uncovered, which both
// JITs refuse. Only when nothing else is inserted in the range (such patches belong to their
// instructions and stay, and so does the bailout).
void CodeEditor::Commit::moveHandlerPatches() {
  if (ed_.code_->handlers.empty()) return;
  if (std::none_of(inserts_.begin(), inserts_.end(),
                   [](const Insertion& x) { return x.where == Where::Before; })) {
    return;
  }
  std::vector<Insn>& pool = ed_.buf_.patchInsns;
  for (const SelfCoveringHandler& h : selfCoveringHandlers(*ed_.code_)) {
    auto moved = [&](const Insertion& x) { return x.where == Where::Before && x.index == h.entry; };
    bool other = std::any_of(inserts_.begin(), inserts_.end(), [&](const Insertion& x) {
      bool placed = x.where != Where::Entry && x.where != Where::Exit;
      return placed && x.index >= h.entry && x.index < h.end && !moved(x);
    });
    auto first = std::find_if(inserts_.begin(), inserts_.end(), moved);
    if (other || first == inserts_.end()) continue;
    auto one = [&](Op op, uint32_t local) {
      Insn i;
      i.op = op;
      i.a = static_cast<int32_t>(local);
      i.wide = local > 0xFF;
      pool.push_back(i);
      auto at = static_cast<uint32_t>(pool.size());
      return Insertion{h.end, Where::Before, at - 1, at};
    };
    std::vector<Insertion> group{one(Op::aload, h.local)};
    for (const Insertion& x : inserts_) {
      if (moved(x)) group.push_back({h.end, Where::Before, x.begin, x.end});
    }
    group.push_back(one(Op::pop, 0));
    // In front of the patches of the instruction at `end`: the handler's ran first.
    auto place = std::find_if(inserts_.begin(), inserts_.end(), [&](const Insertion& x) {
      return moved(x) || (x.where == Where::Before && x.index == h.end);
    });
    auto pos = static_cast<size_t>(place - inserts_.begin());
    std::erase_if(inserts_, moved);
    inserts_.insert(inserts_.begin() + static_cast<std::ptrdiff_t>(pos), group.begin(),
                    group.end());
  }
}

// Puts the insertions in layout order, which layOut consumes in one pass: entry patches,
// then per instruction its before-patches, after-super() and after-patches, then the exit
// patches; stable, so patches at one place run in the order inserted. Tools usually insert
// in order already.
void CodeEditor::Commit::sortInsertions() {
  auto key = [](const Insertion& x) {
    if (x.where == Where::Entry) return uint64_t{0};
    if (x.where == Where::Exit) return ~uint64_t{0};
    return (uint64_t{x.index} + 1) << 8 | static_cast<uint64_t>(x.where);
  };
  auto byKey = [&](const Insertion& x, const Insertion& y) { return key(x) < key(y); };
  if (!std::is_sorted(inserts_.begin(), inserts_.end(), byKey)) {
    std::stable_sort(inserts_.begin(), inserts_.end(), byKey);
  }
}

// Establishes the new instruction list (without the exit handlers' code) and, for every
// original instruction and the end, where its patches begin (lay_.before) and, when needed,
// where it lands itself (lay_.at). Labels pinned to their instruction and the super() call
// need `at`, the others `before`: `at` is only kept when needed, which for most methods it
// is not. Pins the labels first, so that needAt_ knows whether any are.
void CodeEditor::Commit::layOut() {
  pinner_.pinAll(ed_.code_->attributes);
  skipCalls_ = hasExit_ && ed_.exitCover_ == ExitCover::AllButCalls;
  needAt_ = !pinner_.pinned().empty() || superCall_.has_value() || skipCalls_;
  std::vector<Insertion>& inserts = inserts_;
  CodeLayout& lay = lay_;
  const size_t n = code_.insns.size();
  lay.insns.reserve(n + patchInsns_.size() + 1);
  lay.before.resize(n + 1);
  if (needAt_) lay.at.resize(n + 1);
  emit([](const Insertion& x) { return x.where == Where::Entry; });
  for (uint32_t i = 0; i < n;) {
    // The instructions up to the next one with insertions are copied as one run.
    bool more = next_ < inserts.size() && inserts[next_].where != Where::Exit;
    uint32_t stop = more ? std::min<uint32_t>(inserts[next_].index, static_cast<uint32_t>(n))
                         : static_cast<uint32_t>(n);
    auto base = static_cast<uint32_t>(lay.insns.size()) - i;
    lay.insns.insert(lay.insns.end(), code_.insns.begin() + i, code_.insns.begin() + stop);
    if (needAt_) {
      for (uint32_t k = i; k < stop; ++k) lay.at[k] = base + k;
    }
    for (; i < stop; ++i) lay.before[i] = base + i;
    if (i == n) break;
    lay.before[i] = static_cast<uint32_t>(lay.insns.size());
    emit([&](const Insertion& x) { return x.index == i && x.where == Where::Before; });
    if (needAt_) lay.at[i] = static_cast<uint32_t>(lay.insns.size());
    lay.insns.push_back(code_.insns[i]);
    emit([&](const Insertion& x) {
      return x.index == i && (x.where == Where::After || x.where == Where::AfterSuper);
    });
    ++i;
  }
  lay.before[n] = static_cast<uint32_t>(lay.insns.size());
  if (needAt_) lay.at[n] = lay.before[n];
}

// Establishes the new position of every label of the method: the patch in front of its
// instruction, unless pinned to it. Entry patches come before lay_.before[0], so a loop
// back to the first instruction skips them. Before the exit handlers, whose labels come
// after the method's.
void CodeEditor::Commit::bindLabels() {
  lay_.labels.resize(code_.labels.size());
  for (size_t id = 0; id < code_.labels.size(); ++id) {
    lay_.labels[id] = lay_.before[code_.labels[id]];
  }
  for (uint32_t id : pinner_.pinned()) lay_.labels[id] = lay_.at[code_.labels[id]];
}

// Appends the code of the catch-all handler (and of the one before super(), see
// placeAroundSuperCall) after the code and establishes their exception-table entries and
// the handlers whose frames install() adds. Before relaxFarBranches: the code it appends
// counts in the offsets and the length.
void CodeEditor::Commit::appendExitHandlers() {
  const auto n = static_cast<uint32_t>(code_.insns.size());
  Label main = appendHandlerCode(false);
  cover(exitStart_, n, lay_.before[exitStart_], lay_.before[n], main);
  if (superCall_ && lay_.before[0] < lay_.at[*superCall_]) {
    // The same exit patches again: back to the first of them.
    next_ = static_cast<size_t>(
        std::find_if(inserts_.begin(), inserts_.end(),
                     [](const Insertion& x) { return x.where == Where::Exit; }) -
        inserts_.begin());
    Label pre = appendHandlerCode(true);
    cover(0, *superCall_, lay_.before[0], lay_.at[*superCall_], pre);
  }
}

// The exit patches from next_ on, then athrow, at the end of the new code; its label.
Label CodeEditor::Commit::appendHandlerCode(bool preSuper) {
  Label at = newLabel(static_cast<uint32_t>(lay_.insns.size()));
  emit([](const Insertion& x) { return x.where == Where::Exit; });
  Insn rethrow;
  rethrow.op = Op::athrow;
  lay_.insns.push_back(rethrow);
  handlerCodes_.push_back({at, preSuper});
  return at;
}

// The handler `handler` over the original instructions [first, last), laid out at [from,
// to): one entry, or with AllButCalls one per stretch between the original invokes.
void CodeEditor::Commit::cover(uint32_t first, uint32_t last, uint32_t from, uint32_t to,
                               Label handler) {
  auto entry = [&](uint32_t a, uint32_t b) {
    if (a < b) addedHandlers_.push_back({newLabel(a), newLabel(b), handler, CpIndex::None});
  };
  for (uint32_t k = first; skipCalls_ && k < last; ++k) {
    if (!isInvoke(code_.insns[k].op)) continue;
    entry(from, lay_.at[k]);
    from = lay_.at[k] + 1;
  }
  entry(from, to);
}

// Establishes the final code (far branches relaxed), its switches and, if relaxing needed
// new branch targets in a class with frames, their frames: in a copy of the frames
// (derived_), made only when the first frame is derived (rare: a method over 32 KB), which
// replaces the originals if the edit succeeds. Then checks the JVM's code-length limit,
// which only the final code can tell.
std::string CodeEditor::Commit::relaxFarBranches() {
  switches_ = code_.switches;
  smt_ = findAttr<StackMapTableAttr>(ed_.code_->attributes);
  auto addFrame = [&](CodeLayout& l, const std::vector<Switch>& sw, size_t k, Label skip) {
    if (!derived_) derived_.emplace(smt_ ? *smt_ : StackMapTableAttr{});
    // Inserted before the labels past k move: they all move by one, so the order holds.
    return deriveFrame(*ed_.cls_, *ed_.method_, l, sw, *derived_, k, skip,
                       [&](FrameState& s) { ed_.withNewLocals(s); });
  };
  uint32_t length = 0;
  std::string err = relax(lay_, switches_, addFrame, needsFrames(*ed_.cls_), length);
  if (!err.empty()) return err;
  if (length > kMaxCode) {
    tooLarge_ = true;
    return "code would grow to " + std::to_string(length) + " bytes, over the JVM's limit of 65535";
  }
  return "";
}

// With live locals every frame changes: establishes the final table (liveTable_: the
// frames, the derived ones and the handlers', each given the live locals) before install(),
// because building it may fail. After relaxFarBranches, whose derived frames it includes.
std::string CodeEditor::Commit::buildLiveTable() {
  if (ed_.live_.empty() || !needsFrames(*ed_.cls_)) return "";
  liveTable_.emplace(derived_ ? std::move(*derived_) : smt_ ? *smt_ : StackMapTableAttr{});
  derived_.reset();
  for (const HandlerCode& h : handlerCodes_) {
    liveTable_->frames.push_back(handlerFrame(*ed_.cls_, h.at, h.preSuper));
  }
  return ed_.frameLiveLocals(*liveTable_);
}

// Success: replaces the method's code, labels, frames, handlers and limits with the new
// ones. Unknown Code attributes may hold stale offsets: dropped. The lists are swapped:
// the replaced ones go back to the pool with lists_.
void CodeEditor::Commit::install() {
  CodeAttr& attr = *ed_.code_;
  ClassFile& cls = *ed_.cls_;
  code_.insns.swap(lay_.insns);
  code_.switches = std::move(switches_);
  code_.labels.swap(lay_.labels);
  std::erase_if(attr.attributes,
                [](const Attribute& a) { return std::holds_alternative<RawAttr>(a.body); });
  // Looked up again: erasing raw attributes above may have moved the table.
  if (liveTable_) {
    frameTable(cls, attr.attributes).frames = std::move(liveTable_->frames);
  } else if (derived_) {
    frameTable(cls, attr.attributes).frames = std::move(derived_->frames);
  }
  attr.handlers.insert(attr.handlers.end(), addedHandlers_.begin(), addedHandlers_.end());
  if (needsFrames(cls) && !liveTable_) {
    // Appended last: the handlers are the last code in the method.
    for (const HandlerCode& h : handlerCodes_) {
      frameTable(cls, attr.attributes).frames.push_back(handlerFrame(cls, h.at, h.preSuper));
    }
  }
  attr.maxStack = static_cast<uint16_t>(maxStack_);
  attr.maxLocals = static_cast<uint16_t>(ed_.maxLocals_);
}

}  // namespace dragnet::instrument
