#include "instrument/frame_computer.h"

#include <algorithm>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>

namespace dragnet::instrument {

namespace cf = classfile;
using cf::Op;
using cf::VType;

namespace {

constexpr std::string_view kThrowable = "java/lang/Throwable";

// Thrown inside this file only; computeFrames() turns it into an error string.
struct Failure {
  std::string message;
};

bool isReturnOrThrow(Op op) { return (op >= Op::ireturn && op <= Op::return_) || op == Op::athrow; }
bool isBranch(Op op) {
  cf::Format f = cf::opInfo(op).format;
  return (f == cf::Format::Branch2 || f == cf::Format::Branch4) && op != Op::jsr && op != Op::jsr_w;
}
bool isSwitch(Op op) { return op == Op::tableswitch || op == Op::lookupswitch; }
// No fall-through to the next instruction.
bool isUnconditional(Op op) {
  return op == Op::goto_ || op == Op::goto_w || isSwitch(op) || isReturnOrThrow(op);
}

struct Handler {
  uint32_t start, end, target;
  VType catchType;
};

class Computer {
 public:
  Computer(cf::ClassFile& cls, cf::Member& method, cf::CodeAttr& code, ClassHierarchy& h)
      : cls_(cls), method_(method), code_(code), hierarchy_(h), n_(code.code.insns.size()) {}

  FrameComputation run();

 private:
  uint32_t pos(cf::Label l) const;
  cf::Label labelAt(uint32_t index);
  void prepare();
  std::vector<uint32_t> jumpTargets(const cf::Insn& insn) const;
  void analyse(const FrameState& initial);
  void processBlock(uint32_t start);
  void step(uint32_t i, FrameState& s);
  void mergeInto(uint32_t target, const FrameState& s);
  FrameState handlerState(const FrameState& pre, const FrameState& post, Op op,
                          const VType& catchType);
  void encode(const FrameState& initial, FrameComputation& out);
  void install(FrameComputation& out);
  void rewriteDeadCode();
  [[noreturn]] void fail(uint32_t i, const std::string& message) const;

  cf::ClassFile& cls_;
  cf::Member& method_;
  cf::CodeAttr& code_;
  ClassHierarchy& hierarchy_;
  size_t n_;
  std::vector<uint32_t> offsets_;
  std::vector<cf::Label> labels_;  // a label at each instruction, made on demand
  std::vector<bool> target_, handlerStart_, leader_, reached_;
  std::vector<Handler> handlers_;
  std::vector<std::optional<FrameState>> entry_;  // at leaders
  std::set<uint32_t> work_;                       // leaders to (re)process, lowest first
  size_t maxStack_ = 0, maxLocals_ = 0;
};

void Computer::fail(uint32_t i, const std::string& message) const {
  std::string where = "instruction " + std::to_string(i);
  if (i < offsets_.size()) where += " (offset " + std::to_string(offsets_[i]) + ")";
  throw Failure{where + ": " + message};
}

uint32_t Computer::pos(cf::Label l) const {
  auto id = static_cast<uint32_t>(l);
  if (id >= code_.code.labels.size()) throw Failure{"dangling label"};
  return code_.code.labels[id];
}

cf::Label Computer::labelAt(uint32_t index) {
  if (labels_[index] == cf::Label::None) labels_[index] = code_.code.newLabel(index);
  return labels_[index];
}

std::vector<uint32_t> Computer::jumpTargets(const cf::Insn& insn) const {
  std::vector<uint32_t> out;
  if (isBranch(insn.op)) out.push_back(pos(insn.target()));
  if (isSwitch(insn.op)) {
    const cf::Switch& sw = code_.code.switches.at(static_cast<size_t>(insn.a));
    out.push_back(pos(sw.defaultTarget));
    for (cf::Label l : sw.targets) out.push_back(pos(l));
  }
  return out;
}

void Computer::prepare() {
  offsets_ = cf::computeOffsets(code_.code);
  labels_.assign(n_ + 1, cf::Label::None);
  for (size_t id = code_.code.labels.size(); id-- > 0;) {  // lowest id wins
    if (code_.code.labels[id] <= n_) labels_[code_.code.labels[id]] = static_cast<cf::Label>(id);
  }
  target_.assign(n_, false);
  handlerStart_.assign(n_, false);
  leader_.assign(n_ + 1, false);
  reached_.assign(n_, false);
  leader_[0] = true;
  for (uint32_t i = 0; i < n_; ++i) {
    const cf::Insn& insn = code_.code.insns[i];
    for (uint32_t t : jumpTargets(insn)) {
      if (t >= n_) fail(i, "branch target beyond the end of the code");
      target_[t] = leader_[t] = true;
    }
    if (isBranch(insn.op) || isSwitch(insn.op) || isReturnOrThrow(insn.op)) leader_[i + 1] = true;
  }
  for (const cf::ExceptionHandler& h : code_.handlers) {
    Handler x{pos(h.start), pos(h.end), pos(h.handler), {}};
    if (x.start >= x.end || x.end > n_ || x.target >= n_) throw Failure{"bad exception range"};
    x.catchType = vtype::object(h.catchType == cf::CpIndex::None ? cls_.pool.addClass(kThrowable)
                                                                 : h.catchType);
    handlerStart_[x.target] = leader_[x.target] = true;
    handlers_.push_back(x);
  }
}

// Locals of the state an exception handler sees from one instruction (see the header).
FrameState Computer::handlerState(const FrameState& pre, const FrameState& post, Op op,
                                  const VType& catchType) {
  FrameState h;
  h.locals = pre.locals;
  if (!isLocalStore(op)) {
    h.locals.resize(std::max(h.locals.size(), post.locals.size()), vtype::top());
    for (size_t k = 0; k < post.locals.size(); ++k) {
      bool changed = false;
      mergeType(h.locals[k], post.locals[k], false, cls_.pool, hierarchy_, &changed);
    }
  }
  h.stack.push_back(catchType);
  return h;
}

void Computer::mergeInto(uint32_t target, const FrameState& s) {
  // A handler's entry holds the exception even if its first instruction pops it at once;
  // frames count against max_stack too.
  maxStack_ = std::max(maxStack_, s.stack.size());
  std::optional<FrameState>& e = entry_[target];
  if (!e) {
    e = s;
    work_.insert(target);
    return;
  }
  if (e->stack.size() != s.stack.size()) {
    fail(target, "operand stack height differs at a join (" + std::to_string(e->stack.size()) +
                     " vs " + std::to_string(s.stack.size()) + " words)");
  }
  bool changed = false;
  if (e->locals.size() < s.locals.size()) e->locals.resize(s.locals.size(), vtype::top());
  for (size_t k = 0; k < e->locals.size(); ++k) {
    VType from = k < s.locals.size() ? s.locals[k] : vtype::top();
    mergeType(e->locals[k], from, false, cls_.pool, hierarchy_, &changed);
  }
  for (size_t k = 0; k < e->stack.size(); ++k) {
    if (!mergeType(e->stack[k], s.stack[k], true, cls_.pool, hierarchy_, &changed)) {
      fail(target, "incompatible operand stack types at a join");
    }
  }
  if (changed) work_.insert(target);
}

// Executes instruction i on s and propagates to handlers and jump targets.
void Computer::step(uint32_t i, FrameState& s) {
  const cf::Insn& insn = code_.code.insns[i];
  reached_[i] = true;
  bool covered = std::any_of(handlers_.begin(), handlers_.end(),
                             [&](const Handler& h) { return i >= h.start && i < h.end; });
  std::optional<FrameState> pre;
  if (covered) pre = s;
  TransferContext ctx{cls_.pool, cls_.thisClass, [this](uint32_t k) { return labelAt(k); },
                      &code_.code};
  TransferResult r = apply(s, insn, i, ctx);
  if (!r) fail(i, r.message);
  maxStack_ = std::max(maxStack_, s.stack.size());
  maxLocals_ = std::max(maxLocals_, s.locals.size());
  for (const Handler& h : handlers_) {
    if (i >= h.start && i < h.end) mergeInto(h.target, handlerState(*pre, s, insn.op, h.catchType));
  }
  for (uint32_t t : jumpTargets(insn)) mergeInto(t, s);
}

void Computer::processBlock(uint32_t start) {
  FrameState s = *entry_[start];
  for (uint32_t i = start;; ++i) {
    step(i, s);
    if (isUnconditional(code_.code.insns[i].op)) return;
    if (i + 1 == n_) fail(i, "execution falls off the end of the code");
    if (leader_[i + 1]) return mergeInto(i + 1, s);
  }
}

void Computer::analyse(const FrameState& initial) {
  entry_.assign(n_, std::nullopt);
  maxLocals_ = initial.locals.size();
  mergeInto(0, initial);
  while (!work_.empty()) {
    uint32_t b = *work_.begin();
    work_.erase(work_.begin());
    processBlock(b);
  }
}

void Computer::encode(const FrameState& initial, FrameComputation& out) {
  std::vector<VType> previous = frameEntries(initial.locals, true);
  FrameState dead;
  dead.stack.push_back(vtype::object(cls_.pool.addClass(kThrowable)));
  for (uint32_t i = 0; i < n_; ++i) {
    if (!reached_[i]) {
      if (i == 0 || reached_[i - 1]) {
        out.table.frames.push_back(encodeFrame(dead, labelAt(i), previous, cls_.pool));
        maxStack_ = std::max<size_t>(maxStack_, 1);
      }
      ++out.deadInstructions;
    } else if (target_[i] || handlerStart_[i]) {
      out.table.frames.push_back(encodeFrame(*entry_[i], labelAt(i), previous, cls_.pool));
    }
  }
}

// Each maximal unreachable run becomes nop ... nop athrow, and leaves every handler range.
void Computer::rewriteDeadCode() {
  for (uint32_t i = 0; i < n_; ++i) {
    if (reached_[i]) continue;
    bool last = i + 1 == n_ || reached_[i + 1];
    code_.code.insns[i] = cf::Insn{last ? Op::athrow : Op::nop, false, 0, 0};
  }
  std::vector<cf::ExceptionHandler> kept;
  for (size_t k = 0; k < handlers_.size(); ++k) {
    const Handler& h = handlers_[k];
    const cf::ExceptionHandler& original = code_.handlers[k];
    for (uint32_t i = h.start; i < h.end;) {
      if (!reached_[i]) {
        ++i;
        continue;
      }
      uint32_t j = i;
      while (j < h.end && reached_[j]) ++j;
      if (i == h.start && j == h.end) {
        kept.push_back(original);
      } else {
        kept.push_back({labelAt(i), labelAt(j), original.handler, original.catchType});
      }
      i = j;
    }
  }
  code_.handlers = std::move(kept);
}

void Computer::install(FrameComputation& out) {
  // The one pool addition that can fail comes before any change to the method.
  cf::CpIndex name =
      out.table.frames.empty() ? cf::CpIndex::None : cls_.pool.addUtf8("StackMapTable");
  if (out.deadInstructions > 0) rewriteDeadCode();
  code_.maxStack = std::max<uint16_t>(code_.maxStack, out.maxStack);
  code_.maxLocals = std::max<uint16_t>(code_.maxLocals, out.maxLocals);
  auto& attrs = code_.attributes;
  auto isStackMap = [&](const cf::Attribute& a) {
    return std::holds_alternative<cf::StackMapTableAttr>(a.body) ||
           cls_.pool.utf8(a.name) == "StackMapTable";
  };
  auto it = std::find_if(attrs.begin(), attrs.end(), isStackMap);
  if (out.table.frames.empty()) {
    attrs.erase(std::remove_if(attrs.begin(), attrs.end(), isStackMap), attrs.end());
  } else if (it != attrs.end()) {
    it->body = out.table;
  } else {
    attrs.push_back(cf::Attribute{name, out.table});
  }
}

FrameComputation Computer::run() {
  FrameComputation out;
  auto initial = initialState(cls_, method_);
  if (!initial) throw Failure{"malformed method descriptor"};
  if (n_ == 0) throw Failure{"empty code"};
  prepare();
  analyse(*initial);
  encode(*initial, out);
  if (maxStack_ > 0xFFFF || maxLocals_ > 0xFFFF) throw Failure{"max_stack/max_locals overflow"};
  out.maxStack = static_cast<uint16_t>(maxStack_);
  out.maxLocals = static_cast<uint16_t>(maxLocals_);
  install(out);
  return out;
}

bool sameEntries(const std::vector<VType>& a, const std::vector<VType>& b, size_t n,
                 const cf::ConstantPool& pool) {
  for (size_t k = 0; k < n; ++k) {
    if (!sameType(a[k], b[k], pool)) return false;
  }
  return true;
}

}  // namespace

bool mergeType(VType& into, const VType& from, bool onStack, cf::ConstantPool& pool,
               ClassHierarchy& hierarchy, bool* changed) {
  if (sameType(into, from, pool)) return true;
  bool refInto = into.kind == vtype::kNull || into.kind == vtype::kObject;
  bool refFrom = from.kind == vtype::kNull || from.kind == vtype::kObject;
  if (refInto && refFrom) {
    if (from.kind == vtype::kNull) return true;
    if (into.kind == vtype::kNull) {
      into = from;
    } else {
      std::string lub =
          hierarchy.commonSuperclass(pool.className(into.cls), pool.className(from.cls));
      if (lub == pool.className(into.cls)) return true;
      into = vtype::object(pool.addClass(lub));
    }
    *changed = true;
    return true;
  }
  if (onStack) return false;
  if (into.kind != vtype::kTop) {
    into = vtype::top();
    *changed = true;
  }
  return true;
}

cf::Frame encodeFrame(const FrameState& current, cf::Label at, std::vector<VType>& previousLocals,
                      const cf::ConstantPool& pool) {
  std::vector<VType> locals = frameEntries(current.locals, true);
  std::vector<VType> stack = frameEntries(current.stack, false);
  const std::vector<VType>& prev = previousLocals;
  cf::Frame f;
  f.at = at;
  size_t common = std::min(locals.size(), prev.size());
  bool prefix = sameEntries(locals, prev, common, pool);
  if (prefix && locals.size() == prev.size() && stack.size() <= 1) {
    f.type = stack.empty() ? 0 : 64;  // same / same_locals_1_stack_item (writer extends)
    f.stack = stack;
  } else if (prefix && stack.empty() && locals.size() < prev.size() &&
             prev.size() - locals.size() <= 3) {
    f.type = static_cast<uint8_t>(251 - (prev.size() - locals.size()));  // chop
  } else if (prefix && stack.empty() && locals.size() > prev.size() &&
             locals.size() - prev.size() <= 3) {
    f.type = static_cast<uint8_t>(251 + (locals.size() - prev.size()));  // append
    f.locals.assign(locals.begin() + static_cast<long>(prev.size()), locals.end());
  } else {
    f.type = 255;
    f.locals = locals;
    f.stack = stack;
  }
  previousLocals = std::move(locals);
  return f;
}

FrameComputation computeFrames(cf::ClassFile& cls, cf::Member& method, ClassHierarchy& hierarchy) {
  FrameComputation out;
  cf::CodeAttr* code = method.code();
  if (!code) {
    out.errors.push_back("method has no Code attribute");
  } else if (cls.major < 50) {
    out.errors.push_back("class version " + std::to_string(cls.major) +
                         " < 50 has no StackMapTable");
  }
  if (!out.ok()) return out;
  uint64_t guessesBefore = hierarchy.guesses();
  try {
    out = Computer(cls, method, *code, hierarchy).run();
  } catch (const Failure& f) {
    out.errors.push_back(f.message);
  } catch (const cf::ParseFailure& f) {  // constant pool full
    out.errors.push_back(f.what());
  } catch (const std::out_of_range&) {  // a switch instruction without its table
    out.errors.push_back("switch instruction refers to a missing switch table");
  }
  out.approximate = hierarchy.guesses() > guessesBefore;
  return out;
}

}  // namespace dragnet::instrument
