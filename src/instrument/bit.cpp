#include "instrument/bit.h"

#include <algorithm>
#include <array>

#include "instrument/descriptor.h"
#include "instrument/frame_state.h"
#include "instrument/stack_effect.h"

namespace dragnet::instrument {

using namespace classfile;

namespace {
std::string_view descriptorOf(const Arg& a) {
  switch (a.kind) {
    case Arg::Kind::Int:
      return "I";
    case Arg::Kind::Long:
      return "J";
    case Arg::Kind::String:
      return "Ljava/lang/String;";
    case Arg::Kind::Local:
      return a.text;
    case Arg::Kind::BranchOutcome:
      return "Z";
    case Arg::Kind::Value:
      return a.text;
    case Arg::Kind::FieldObject:
    case Arg::Kind::ArrayObject:
      return "Ljava/lang/Object;";
    case Arg::Kind::Exception:
      return "Ljava/lang/Throwable;";
  }
  return "";
}

// Whether an argument's descriptor is its text (else its kind alone decides it).
bool descriptorIsText(Arg::Kind k) { return k == Arg::Kind::Local || k == Arg::Kind::Value; }
}  // namespace

std::string Arg::descriptor() const { return std::string(descriptorOf(*this)); }

std::string Call::descriptor() const {
  std::string d = "(";
  for (const Arg& a : args) d += a.descriptor();
  return d.append(")").append(returns);
}

namespace {

bool isArrayLoad(Op op) { return op >= Op::iaload && op <= Op::saload; }
bool isArrayStore(Op op) { return op >= Op::iastore && op <= Op::sastore; }

// Copies the runtime value `arg` needs onto the stack top, for instruction `insn`.
bool pushRuntime(const Arg& arg, const Insn* insn, const ConstantPool& pool, Patch& p) {
  switch (arg.kind) {
    case Arg::Kind::Value: {
      int size = slotSize(arg.text);
      if (size == 0) return false;
      p.add(size == 2 ? Op::dup2 : Op::dup);
      return true;
    }
    case Arg::Kind::Exception:
      p.add(Op::dup);
      return true;
    case Arg::Kind::BranchOutcome: {
      if (!insn || !isConditionalBranch(insn->op)) return false;
      Op op = insn->op;
      bool two = op >= Op::if_icmpeq && op <= Op::if_acmpne;
      bool refs = op >= Op::if_acmpeq || op == Op::ifnull || op == Op::ifnonnull;
      std::string t = refs ? "Ljava/lang/Object;" : "I";
      p.add(two ? Op::dup2 : Op::dup);
      p.invokeStatic(kBranchHelper, opInfo(op).name, "(" + t + (two ? t : "") + ")Z");
      return true;
    }
    case Arg::Kind::FieldObject: {
      if (!insn) return false;
      if (insn->op == Op::getfield) {
        p.add(Op::dup);
      } else if (insn->op == Op::putfield) {
        if (slotSize(pool.memberRef(insn->cp()).descriptor) == 2) {
          p.add(Op::dup2_x1).add(Op::pop2).add(Op::dup_x2);  // [o V] -> [o V o]
        } else {
          p.add(Op::dup2).add(Op::pop);  // [o v] -> [o v o]
        }
      } else {
        return false;
      }
      return true;
    }
    case Arg::Kind::ArrayObject: {
      if (!insn) return false;
      if (insn->op == Op::arraylength) {
        p.add(Op::dup);
      } else if (isArrayLoad(insn->op)) {
        p.add(Op::dup2).add(Op::pop);  // [a i] -> [a i a]
      } else if (insn->op == Op::lastore || insn->op == Op::dastore) {
        p.add(Op::dup2_x2).add(Op::pop2).add(Op::dup2_x2).add(Op::pop);  // [a i V] -> [a i V a]
      } else if (isArrayStore(insn->op)) {
        p.add(Op::dup_x2).add(Op::pop).add(Op::dup2_x1).add(Op::pop);  // [a i v] -> [a i v a]
      } else {
        return false;
      }
      return true;
    }
    default:
      return false;
  }
}

}  // namespace

bool Routine::CallCache::sameShape(const Call& call) const {
  if (!valid || args.size() != call.args.size()) return false;
  for (size_t k = 0; k < args.size(); ++k) {
    const Arg& a = call.args[k];
    if (args[k].first != a.kind || (descriptorIsText(a.kind) && args[k].second != a.text)) {
      return false;
    }
  }
  return owner == call.owner && name == call.name && returns == call.returns;
}

Routine::Routine(ClassFile& cls, Member& method)
    : cls_(&cls), method_(&method), editor_(cls, method), ownPatch_(cls.pool) {}

const std::vector<Instruction>& Routine::instructions() const {
  const CodeAttr* code = method_->code();
  if (!code || !insns_.empty()) return insns_;
  std::vector<uint32_t> offsets = computeOffsets(code->code);
  insns_.resize(code->code.insns.size());
  for (uint32_t i = 0; i < insns_.size(); ++i) {
    insns_[i] = Instruction{i, offsets[i], -1, code->code.insns[i].op};
  }
  // Lines: each LineNumberTable entry applies from its start to the next entry's start.
  std::vector<std::pair<uint32_t, int>> starts;
  for (const Attribute& a : code->attributes) {
    if (const auto* lnt = std::get_if<LineNumberTableAttr>(&a.body)) {
      for (const auto& e : lnt->lines) starts.emplace_back(code->code.position(e.start), e.line);
    }
  }
  std::stable_sort(starts.begin(), starts.end(),
                   [](const auto& x, const auto& y) { return x.first < y.first; });
  size_t k = 0;
  int line = -1;
  for (uint32_t i = 0; i < insns_.size(); ++i) {
    while (k < starts.size() && starts[k].first <= i) line = starts[k++].second;
    insns_[i].line = line;
  }
  return insns_;
}

const std::vector<BasicBlock>& Routine::blocks() const {
  if (!graphDone_ && method_->code()) graph_ = basicBlocks(*method_->code());
  graphDone_ = true;
  return graph_.blocks;
}

bool Routine::build(const Call& call, int64_t index, Patch& p) {
  const Insn* at = index >= 0 ? &editor_.insn(static_cast<uint32_t>(index)) : nullptr;
  for (size_t k = 0; k < call.args.size(); ++k) {
    const Arg& a = call.args[k];
    if (a.isRuntime()) {
      if (k != 0 || !pushRuntime(a, at, cls_->pool, p)) return false;
      continue;
    }
    switch (a.kind) {
      case Arg::Kind::Int:
        p.pushInt(static_cast<int32_t>(a.value));
        break;
      case Arg::Kind::Long:
        p.pushLong(a.value);
        break;
      case Arg::Kind::Local:
        p.load(a.text, static_cast<uint16_t>(a.value));
        break;
      default:
        p.pushString(a.text);
        break;
    }
  }
  bool runtime = !call.args.empty() && call.args[0].isRuntime();
  p.invokeStatic(methodref(call));
  if (call.returns != "V") {
    if (call.into >= 0) {
      p.store(call.returns, static_cast<uint16_t>(call.into));
    } else {
      p.add(slotSize(call.returns) == 2 ? Op::pop2 : Op::pop);
    }
  }
  // Constants only: every patch of this call has the same shape, hence the same peak.
  if (!runtime) {
    if (!cache_->peak) cache_->peak = p.peakStack();
    if (cache_->peak) p.setPeak(*cache_->peak);
  }
  return true;
}

CpIndex Routine::methodref(const Call& call) {
  if (!cache_->sameShape(call)) {
    cache_->valid = false;  // until the Methodref is in the pool (the pool may be full)
    cache_->ref = cls_->pool.addMethodref(call.owner, call.name, call.descriptor());
    cache_->owner = call.owner;
    cache_->name = call.name;
    cache_->returns = call.returns;
    cache_->args.clear();
    for (const Arg& a : call.args) {
      cache_->args.emplace_back(a.kind, descriptorIsText(a.kind) ? a.text : std::string());
    }
    cache_->peak.reset();
    cache_->valid = true;
  }
  return cache_->ref;
}

std::optional<PreparedCall> Routine::prepare(const Call& call) {
  if (call.returns != "V" || call.args.size() > PreparedCall::kMaxArgs) return std::nullopt;
  for (const Arg& a : call.args) {
    if (a.kind != Arg::Kind::Int) return std::nullopt;
  }
  // All Int arguments and a void result: owner, name and arity decide the descriptor.
  std::vector<PreparedShape>& shapes = *shapes_;
  const size_t arity = call.args.size();
  auto same = [&](const PreparedShape& s) {
    return s.arity == arity && s.name == call.name && s.owner == call.owner;
  };
  auto it = std::find_if(shapes.begin(), shapes.end(), same);
  if (it == shapes.end()) {
    it = shapes.insert(shapes.end(), {call.owner, call.name, arity, call.descriptor()});
  }
  PreparedCall prepared;
  prepared.table_ = shapes_;
  prepared.shape_ = static_cast<uint32_t>(it - shapes.begin());
  prepared.arity_ = static_cast<uint8_t>(call.args.size());
  return prepared;
}

bool Routine::before(uint32_t index, const PreparedCall& call, std::span<const int32_t> values) {
  const size_t n = call.arity_;  // at most kMaxArgs (prepare)
  if (call.table_ != shapes_ || values.size() != n || n > PreparedCall::kMaxArgs ||
      call.shape_ >= shapes_->size() || index >= editor_.size()) {
    return false;
  }
  std::array<Insn, PreparedCall::kMaxArgs + 1> insns;
  Patch& p = patch();  // for its Integer-constant cache, should a value need ldc
  for (size_t k = 0; k < n; ++k) insns[k] = p.intInsn(values[k]);
  PreparedShape& shape = (*shapes_)[call.shape_];
  if (shape.ref == CpIndex::None) {  // throws ParseFailure if the pool is full, as pushInt
    shape.ref = cls_->pool.addMethodref(shape.owner, shape.name, shape.descriptor);
  }
  insns[n].op = Op::invokestatic;
  insns[n].a = raw(shape.ref);
  // Each argument is one stack word, and the void call pops them all: the peak is the
  // number of arguments.
  editor_.insertBefore(index, std::span<const Insn>(insns.data(), n + 1), static_cast<int>(n));
  return true;
}

bool Routine::before(uint32_t index, const Call& call) {
  if (index >= editor_.size()) return false;
  if (!call.args.empty() && call.args[0].isRuntime() && !runtimeArgFits(call.args[0], index)) {
    return false;
  }
  Patch& p = patch();
  p.clear();
  if (!build(call, index, p)) return false;
  editor_.insertBefore(index, p);
  return true;
}

bool Routine::runtimeArgFits(const Arg& a, uint32_t index) {
  if (a.kind == Arg::Kind::Exception) {
    // Only where the exception is on top of the stack: a handler's first instruction or
    // an athrow.
    bool handler = std::any_of(blocks().begin(), blocks().end(), [&](const BasicBlock& b) {
      return b.first == index && b.isHandlerEntry;
    });
    return handler || insn(index).op == Op::athrow;
  }
  if (a.kind == Arg::Kind::FieldObject && insn(index).op == Op::putfield && name() == "<init>") {
    // Before super() a constructor may assign its own fields while `this` is still
    // uninitialized (javac does, for this$0); such a value cannot be passed to a method.
    if (!superCall_) {
      auto calls = findSuperCalls(*cls_, *method_->code());
      superCall_ = calls.empty() ? UINT32_MAX : calls.front();
    }
    return index > *superCall_;
  }
  return true;
}

bool Routine::after(uint32_t index, const Call& call) {
  if (index >= editor_.size() || !fallsThrough(insn(index).op)) return false;
  // Runtime values describe the instruction's operands, which are gone after it.
  for (const Arg& a : call.args) {
    if (a.isRuntime() && a.kind != Arg::Kind::Value) return false;
  }
  Patch& p = patch();
  p.clear();
  if (!build(call, -1, p)) return false;
  return editor_.insertAfter(index, p);
}

bool Routine::atEntry(const Call& call, ConstructorEntry mode) {
  for (const Arg& a : call.args) {
    if (a.isRuntime()) return false;
  }
  Patch& p = patch();
  p.clear();
  if (!hasCode() || !build(call, -1, p)) return false;
  editor_.insertAtEntry(p, mode);
  return true;
}

template <class What>
bool Routine::beforeEachReturn(const What& what) {
  bool any = false;
  for (uint32_t i = 0; i < editor_.size(); ++i) {
    if (isReturn(insn(i).op)) any = before(i, what) || any;
  }
  return any;
}

bool Routine::beforeReturns(const Call& call) { return beforeEachReturn(call); }

bool Routine::onExceptionalExit(const Call& call) {
  for (size_t k = 0; k < call.args.size(); ++k) {
    const Arg& a = call.args[k];
    if (a.isRuntime() && (a.kind != Arg::Kind::Exception || k != 0)) return false;
  }
  Patch& p = patch();
  p.clear();
  if (!hasCode() || !build(call, -1, p)) return false;
  editor_.insertOnExceptionalExit(p);
  return true;
}

bool Routine::before(uint32_t index, const Patch& code) {
  if (index >= editor_.size()) return false;
  editor_.insertBefore(index, code);
  return true;
}

bool Routine::after(uint32_t index, const Patch& code) {
  return index < editor_.size() && editor_.insertAfter(index, code);
}

bool Routine::atEntry(const Patch& code, ConstructorEntry mode) {
  if (!hasCode()) return false;
  editor_.insertAtEntry(code, mode);
  return true;
}

bool Routine::beforeReturns(const Patch& code) { return beforeEachReturn(code); }

bool Routine::onExceptionalExit(const Patch& code, ExitCover cover) {
  if (!hasCode()) return false;
  editor_.insertOnExceptionalExit(code, cover);
  return true;
}

std::optional<uint16_t> Routine::liveLocal(std::string_view desc) {
  if (!hasCode()) return std::nullopt;
  try {
    std::optional<VType> t = typeOfDescriptor(desc, cls_->pool);
    if (!t) return std::nullopt;
    return editor_.newLiveLocal(*t);
  } catch (const ParseFailure&) {  // the pool is full
    return std::nullopt;
  }
}

ClassInstrumenter::ClassInstrumenter(ClassFile& cls) : cls_(&cls), patch_(cls.pool) {
  routines_.reserve(cls.methods.size());
  for (Member& m : cls.methods) {
    routines_.emplace_back(cls, m);
    routines_.back().cache_ = &cache_;  // routines_ never reallocates after this
    routines_.back().shapes_ = &shapes_;
    routines_.back().sharedPatch_ = &patch_;
  }
}

std::vector<RoutineOutcome> ClassInstrumenter::commit() {
  std::vector<RoutineOutcome> out;
  for (Routine& r : routines_) {
    if (!r.hasCode()) continue;
    EditOutcome o = r.commit();
    if (o.reason == "no edits") continue;
    out.push_back({std::string(r.name()) + std::string(r.descriptor()), std::move(o)});
  }
  return out;
}

}  // namespace dragnet::instrument
