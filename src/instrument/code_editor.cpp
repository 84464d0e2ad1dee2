#include "instrument/code_editor.h"

#include <algorithm>
#include <functional>
#include <map>
#include <optional>

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
  std::vector<uint32_t> before, at;  // per original instruction (+ end): patch start, insn
};

void append(std::vector<Insn>& to, const std::vector<Patch>& patches) {
  for (const Patch& p : patches) to.insert(to.end(), p.insns().begin(), p.insns().end());
}

// Gives every label used as Uninitialized(label) or as a type-annotation offset a label of
// its own that is pinned to the instruction (these name the `new`/cast itself, not the
// probe inserted in front of it).
class Pinner {
 public:
  Pinner(Code& code, std::vector<bool>& pinned) : code_(code), pinned_(pinned) {}
  void pin(Label& l) {
    if (l == Label::None) return;
    auto [it, fresh] = map_.try_emplace(l, Label::None);
    if (fresh) {
      it->second = code_.newLabel(code_.position(l));
      pinned_.push_back(true);
    }
    l = it->second;
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

 private:
  void pinTargets(TypeAnnotationsAttr& attr) {
    for (TypeAnnotation& t : attr.annotations) {
      if (t.targetType >= 0x43 && t.targetType <= 0x4B) pin(t.offset);
    }
  }
  Code& code_;
  std::vector<bool>& pinned_;
  std::map<Label, Label> map_;
};

// Inserts `f` among `frames`, which are in code order.
void insertFrame(std::vector<Frame>& frames, Frame f, const std::vector<uint32_t>& labels) {
  auto pos = [&](Label l) { return labels[static_cast<uint32_t>(l)]; };
  auto it = std::find_if(frames.begin(), frames.end(),
                         [&](const Frame& g) { return pos(g.at) > pos(f.at); });
  frames.insert(it, std::move(f));
}

// Supplies the stack-map frame for the new branch target that relaxing the conditional at
// instruction k creates (the fall-through point `skip`): nullopt with `err` set if it
// cannot be derived; a frame with at == Label::None if an existing frame already covers it.
using FrameForSkip = std::function<std::optional<Frame>(Layout&, const std::vector<Switch>&,
                                                        size_t k, Label skip, std::string& err)>;

// Replaces 16-bit branches that no longer reach their target: goto -> goto_w, jsr -> jsr_w,
// if<cond> L -> if<!cond> skip; goto_w L; skip:. Repeats until nothing changes (each
// rewrite only grows the code, so this terminates). Returns an error message or "".
std::string relax(Layout& lay, std::vector<Switch>& switches, const FrameForSkip& frameFor,
                  std::vector<Frame>* frames) {
  Code view;
  for (bool changed = true; changed;) {
    changed = false;
    view.insns = std::move(lay.insns);
    view.switches = std::move(switches);
    view.labels = std::move(lay.labels);
    std::vector<uint32_t> off = computeOffsets(view);
    lay.insns = std::move(view.insns);
    switches = std::move(view.switches);
    lay.labels = std::move(view.labels);
    if (off.back() > kMaxCode) return "";  // the size check reports it
    for (size_t k = 0; k < lay.insns.size(); ++k) {
      Insn& insn = lay.insns[k];
      if (opInfo(insn.op).format != Format::Branch2) continue;
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
      std::optional<Frame> frame;
      if (frames) {
        std::string err;
        frame = frameFor(lay, switches, k, skip, err);
        if (!frame)
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
      if (frame && frame->at != Label::None) insertFrame(*frames, std::move(*frame), lay.labels);
      break;  // offsets changed: recompute
    }
  }
  return "";
}

// The frame at the fall-through point of the conditional at instruction k: the state from
// the closest frame at or before k (or the method's initial state), carried through the
// straight-line code up to and including k. Straight-line because any instruction between
// that frame and k that could be reached otherwise would have a frame of its own.
std::optional<Frame> frameAfter(ClassFile& cls, const Member& method, Layout& lay,
                                const std::vector<Switch>& switches, const StackMapTableAttr* smt,
                                size_t k, Label skip, std::string& why) {
  if (smt) {
    for (const Frame& f : smt->frames) {
      if (lay.labels[static_cast<uint32_t>(f.at)] == k + 1) return Frame{};  // already one
    }
  }
  std::optional<FrameState> init = initialState(cls, method);
  if (!init) {
    why = "malformed method descriptor";
    return std::nullopt;
  }
  FrameState state = *init;
  size_t from = 0;
  if (smt && !smt->frames.empty()) {
    auto decoded = decodeFrames(*init, *smt);
    if (!decoded) {
      why = "the existing stack-map frames do not decode";
      return std::nullopt;
    }
    for (const DecodedFrame& d : *decoded) {
      uint32_t at = lay.labels[static_cast<uint32_t>(d.at)];
      if (at <= k && at >= from) {
        state = d.state;
        from = at;
      }
    }
  }
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
    if (!r) {
      why = r.message;
      return std::nullopt;
    }
  }
  Frame f;
  f.type = 255;
  f.at = skip;
  f.locals = frameEntries(state.locals, /*trimTrailingTop=*/true);
  f.stack = frameEntries(state.stack, /*trimTrailingTop=*/false);
  return f;
}

// The catch-all handler's frame: no locals (every local type is assignable to Top) and the
// exception on the stack. Appended last: the handler is the last code in the method.
void addHandlerFrame(ClassFile& cls, std::vector<Attribute>& attrs, Label handler) {
  auto* smt = findAttr<StackMapTableAttr>(attrs);
  if (!smt) {
    attrs.push_back(Attribute{cls.pool.addUtf8("StackMapTable"), StackMapTableAttr{}});
    smt = &std::get<StackMapTableAttr>(attrs.back().body);
  }
  Frame f;
  f.type = 255;
  f.at = handler;
  f.stack.push_back(VType{7, cls.pool.addClass("java/lang/Throwable"), Label::None});
  smt->frames.push_back(std::move(f));
}

}  // namespace

CodeEditor::CodeEditor(ClassFile& cls, Member& method)
    : cls_(&cls), method_(&method), code_(method.code()) {
  if (code_) {
    sites_.resize(code_->code.insns.size() + 1);
    maxLocals_ = code_->maxLocals;
  }
}

uint32_t CodeEditor::size() const {
  return code_ ? static_cast<uint32_t>(code_->code.insns.size()) : 0;
}
const Insn& CodeEditor::insn(uint32_t i) const { return code_->code.insns[i]; }
bool CodeEditor::isConstructor() const { return cls_->memberName(*method_) == "<init>"; }

void CodeEditor::insertBefore(uint32_t i, Patch patch) {
  if (patch.empty() || i >= size()) return;
  sites_[i].before.push_back(std::move(patch));
  edited_ = true;
}

bool CodeEditor::insertAfter(uint32_t i, Patch patch) {
  if (i >= size() || !fallsThrough(insn(i).op)) return false;
  if (!patch.empty()) {
    sites_[i].after.push_back(std::move(patch));
    edited_ = true;
  }
  return true;
}

void CodeEditor::insertAtEntry(Patch patch, ConstructorEntry mode) {
  if (patch.empty() || !code_) return;
  bool afterSuper = mode == ConstructorEntry::AfterSuperCall && isConstructor();
  (afterSuper ? entryAfterSuper_ : entry_).push_back(std::move(patch));
  edited_ = true;
}

void CodeEditor::insertBeforeReturns(const Patch& patch) {
  for (uint32_t i = 0; i < size(); ++i) {
    if (isReturn(insn(i).op)) insertBefore(i, patch);
  }
}

void CodeEditor::insertOnExceptionalExit(Patch patch) {
  if (!code_) return;
  exit_.push_back(std::move(patch));
  edited_ = true;
}

uint16_t CodeEditor::newLocal(int slots) {
  auto slot = static_cast<uint16_t>(std::min<uint32_t>(maxLocals_, 0xFFFF));
  maxLocals_ += static_cast<uint32_t>(slots);
  return slot;
}

EditOutcome CodeEditor::commit() {
  try {
    return commitEdits();
  } catch (const ParseFailure& e) {  // the constant pool is full
    return EditOutcome::unchanged(e.error().message);
  }
}

EditOutcome CodeEditor::commitEdits() {
  if (!code_) return EditOutcome::unchanged("method has no code");
  if (!edited_) return EditOutcome::unchanged("no edits");
  edited_ = false;
  if (cls_->name() == "java/lang/Object" && cls_->memberName(*method_) == "finalize") {
    // A non-empty Object.finalize makes every object finalizable (jvm-facts.md).
    return EditOutcome::unchanged("java/lang/Object.finalize() is never modified");
  }
  if (maxLocals_ > 0xFFFF) return EditOutcome::unchanged("max_locals would exceed 65535");

  // Where the range of the exceptional-exit handler starts: after super() in constructors.
  uint32_t exitStart = 0;
  if (isConstructor() && (!entryAfterSuper_.empty() || !exit_.empty())) {
    std::vector<uint32_t> calls = findSuperCalls(*cls_, *code_);
    if (calls.empty()) return EditOutcome::unchanged("no super()/this() call found");
    if (!exit_.empty() && calls.size() > 1) {
      return EditOutcome::unchanged("several super()/this() calls: no single try range");
    }
    for (uint32_t c : calls) {
      auto& after = sites_[c].after;
      after.insert(after.begin(), entryAfterSuper_.begin(), entryAfterSuper_.end());
    }
    exitStart = calls.front() + 1;
  }

  // Stack: every patch adds its peak on top of whatever the method needed.
  int peak = 0, exitPeak = 0;
  auto measure = [&](const std::vector<Patch>& ps, int& into) {
    for (const Patch& p : ps) {
      auto k = p.peakStack();
      if (!k) return false;
      into = std::max(into, *k);
    }
    return true;
  };
  bool ok = measure(entry_, peak) && measure(exit_, exitPeak);
  for (const Site& s : sites_) ok = ok && measure(s.before, peak) && measure(s.after, peak);
  if (!ok) return EditOutcome::unchanged("a patch is not stack-neutral or has an unknown effect");
  uint32_t maxStack = code_->maxStack + static_cast<uint32_t>(peak);
  if (!exit_.empty()) maxStack = std::max<uint32_t>(maxStack, 1u + static_cast<uint32_t>(exitPeak));
  if (maxStack > 0xFFFF) return EditOutcome::unchanged("max_stack would exceed 65535");

  // Lay out the new instruction list.
  Code& code = code_->code;
  const size_t n = code.insns.size();
  Layout lay;
  lay.before.resize(n + 1);
  lay.at.resize(n + 1);
  append(lay.insns, entry_);
  for (size_t i = 0; i <= n; ++i) {
    lay.before[i] = static_cast<uint32_t>(lay.insns.size());
    if (i == n) break;
    append(lay.insns, sites_[i].before);
    lay.at[i] = static_cast<uint32_t>(lay.insns.size());
    lay.insns.push_back(code.insns[i]);
    append(lay.insns, sites_[i].after);
  }
  lay.at[n] = lay.before[n];

  // Pin labels on a copy of the labels and Code attributes (the method must stay intact
  // if we give up below). Unknown Code attributes may hold stale offsets now: drop them.
  Code scratch;
  scratch.labels = code.labels;
  std::vector<bool> pinned(scratch.labels.size(), false);
  std::vector<Attribute> attrs;
  for (const Attribute& a : code_->attributes) {
    if (!std::holds_alternative<RawAttr>(a.body)) attrs.push_back(a);
  }
  Pinner(scratch, pinned).pinAll(attrs);
  // Entry patches come before lay.before[0], so a loop back to the first instruction
  // does not run them again.
  for (size_t id = 0; id < scratch.labels.size(); ++id) {
    uint32_t old = scratch.labels[id];
    lay.labels.push_back(pinned[id] ? lay.at[old] : lay.before[old]);
  }

  std::vector<ExceptionHandler> handlers = code_->handlers;
  if (!exit_.empty()) {
    auto label = [&](uint32_t pos) {
      lay.labels.push_back(pos);
      return static_cast<Label>(lay.labels.size() - 1);
    };
    ExceptionHandler h;
    h.start = label(lay.before[exitStart]);
    h.end = label(lay.before[n]);
    h.handler = label(static_cast<uint32_t>(lay.insns.size()));
    h.catchType = CpIndex::None;
    append(lay.insns, exit_);
    Insn rethrow;
    rethrow.op = Op::athrow;
    lay.insns.push_back(rethrow);
    if (lay.labels[static_cast<uint32_t>(h.start)] < lay.labels[static_cast<uint32_t>(h.end)]) {
      handlers.push_back(h);
      if (needsFrames(*cls_)) addHandlerFrame(*cls_, attrs, h.handler);
    }
  }

  std::vector<Switch> switches = code.switches;
  StackMapTableAttr* smt = needsFrames(*cls_) ? findAttr<StackMapTableAttr>(attrs) : nullptr;
  std::vector<Frame> noFrames;
  std::string err = relax(
      lay, switches,
      [&](Layout& l, const std::vector<Switch>& sw, size_t k, Label skip, std::string& why) {
        return frameAfter(*cls_, *method_, l, sw, smt, k, skip, why);
      },
      needsFrames(*cls_) ? (smt ? &smt->frames : &noFrames) : nullptr);
  if (!err.empty()) return EditOutcome::unchanged(err);
  Code result;
  result.insns = std::move(lay.insns);
  result.switches = std::move(switches);
  result.labels = std::move(lay.labels);
  uint32_t length = computeOffsets(result).back();
  if (length > kMaxCode) {
    return EditOutcome::unchanged("code would grow to " + std::to_string(length) +
                                  " bytes, over the JVM's limit of 65535");
  }
  code_->code = std::move(result);
  code_->handlers = std::move(handlers);
  code_->attributes = std::move(attrs);
  code_->maxStack = static_cast<uint16_t>(maxStack);
  code_->maxLocals = static_cast<uint16_t>(maxLocals_);
  return EditOutcome::ok();
}

}  // namespace dragnet::instrument
