#include "contexts/probes.h"

#include <algorithm>

#include "contexts/call_sites.h"
#include "instrument/bit.h"
#include "instrument/stack_effect.h"

namespace dragnet::contexts {

using classfile::Op;
using instrument::Arg;
using instrument::Call;
using instrument::Patch;
using instrument::Routine;
using profile::ElemKind;
using profile::SiteKind;

namespace {

constexpr const char* kStateClass = "java/lang/DragnetState";

ElemKind kindOfNewarray(int32_t atype) {
  switch (atype) {
    case 4:
      return ElemKind::Boolean;
    case 5:
      return ElemKind::Char;
    case 6:
      return ElemKind::Float;
    case 7:
      return ElemKind::Double;
    case 8:
      return ElemKind::Byte;
    case 9:
      return ElemKind::Short;
    case 10:
      return ElemKind::Int;
    default:
      return ElemKind::Long;  // 11; the parser rejects other values
  }
}

const char* descOfNewarray(int32_t atype) {
  static const char* const kDesc[] = {"[Z", "[C", "[F", "[D", "[B", "[S", "[I", "[J"};
  return atype >= 4 && atype <= 11 ? kDesc[atype - 4] : "[J";
}

// The array descriptor for anewarray's operand: a class name or an array descriptor.
std::string arrayOf(std::string_view component) {
  std::string d = "[";
  if (component.starts_with("[")) {
    d += component;
  } else {
    d.append("L").append(component).append(";");
  }
  return d;
}

uint32_t keyOf(uint32_t index, ElemKind kind) {
  return profile::kAllocBit | index << 4 | static_cast<uint32_t>(kind);
}

// Calls whose result is an allocation of a type known only at run time; the probe after
// them records the result by its runtime class. Unsafe.allocateInstance also makes the
// instances of lambda expressions (hidden classes, never seen by the class-load hook):
// the JDK links a capturing lambda to its constructor through a method handle, which
// allocates in DirectMethodHandle.allocateInstance.
struct DynamicCall {
  std::string_view owner, name, descriptor, probe;
};
constexpr DynamicCall kDynamicCalls[] = {
    {"java/lang/reflect/Array", "newArray", "(Ljava/lang/Class;I)Ljava/lang/Object;", "dyn"},
    {"java/lang/reflect/Array", "multiNewArray", "(Ljava/lang/Class;[I)Ljava/lang/Object;",
     "dynMulti"},
    {"jdk/internal/misc/Unsafe", "allocateInstance", "(Ljava/lang/Class;)Ljava/lang/Object;",
     "dyn"},
};

// The extensions of Options, in order, as one (Extension's rules for several).
class Chain final : public Extension {
 public:
  explicit Chain(const std::vector<Extension*>& all) : all_(all) {}
  bool empty() const { return all_.empty(); }

  uint32_t methodId(Routine& r, uint32_t id) override {
    for (Extension* e : all_) id = e->methodId(r, id);
    return id;
  }
  bool needsFrame(Routine& r) override {
    return std::any_of(all_.begin(), all_.end(), [&](Extension* e) { return e->needsFrame(r); });
  }
  bool leafEntry(Routine& r, uint32_t methodId) override {
    return std::any_of(all_.begin(), all_.end(),
                       [&](Extension* e) { return e->leafEntry(r, methodId); });
  }
  const char* receiverEnter(Routine& r) override {
    for (Extension* e : all_) {
      if (const char* owner = e->receiverEnter(r)) return owner;
    }
    return nullptr;
  }
  bool site(Routine& r, const instrument::Instruction& in, uint32_t key, uint16_t state) override {
    return std::any_of(all_.begin(), all_.end(),
                       [&](Extension* e) { return e->site(r, in, key, state); });
  }
  bool callSite(Routine& r, const instrument::Instruction& in, std::string& type) override {
    return std::any_of(all_.begin(), all_.end(),
                       [&](Extension* e) { return e->callSite(r, in, type); });
  }
  void allocation(Routine& r, const instrument::Instruction& in, uint32_t key) override {
    for (Extension* e : all_) e->allocation(r, in, key);
  }
  void method(Routine& r, uint16_t state) override {
    for (Extension* e : all_) e->method(r, state);
  }
  void unframed(Routine& r) override {
    for (Extension* e : all_) e->unframed(r);
  }
  bool lighten(Routine& r, std::string& what) override {
    bool any = false;
    for (Extension* e : all_) {
      std::string part;
      if (!e->lighten(r, part)) continue;
      what += (any ? ", " : "") + part;
      any = true;
    }
    return any;
  }

 private:
  const std::vector<Extension*>& all_;
};

class MethodInstrumenter {
 public:
  // `backtrace`: the class is java/lang/Throwable with its field `backtrace` (see
  // backtraceSite).
  MethodInstrumenter(Routine& r, uint32_t methodId, IdSource& ids, ClassResult& out, bool backtrace)
      : r_(r), method_(methodId), ids_(ids), out_(out), backtrace_(backtrace) {}

  void run(const Options& options, Chain& chain) {
    ext_ = chain.empty() ? nullptr : &chain;
    Arg mid = Arg::i(static_cast<int32_t>(method_));
    if (isLeaf() && !(ext_ && ext_->needsFrame(r_))) {
      // Nothing can happen in its context but the call itself: count it, push nothing.
      if (!options.bytecodes) {
        if (!ext_ || !ext_->leafEntry(r_, method_)) r_.atEntry(Call{kRuntimeClass, "leaf", {mid}});
        return;
      }
      // With instruction counts, a leaf of one block that does not loop back into itself
      // runs the same instructions every call (an exception within it still counts the
      // block, as everywhere: blocks are counted on entry). Mode lifetime's receiver probe
      // at entry is not combined with the count: such leaves keep their frame.
      const std::vector<instrument::BasicBlock>& blocks = r_.blocks();
      if (blocks.size() == 1 && blocks.front().successors.empty() && !ext_) {
        Arg n = Arg::i(static_cast<int32_t>(blocks.front().size()));
        r_.atEntry(Call{kRuntimeClass, "leafBlock", {mid, n}});
        return;
      }
    }
    size_t callsMark = out_.callSites.size();
    std::vector<uint32_t> slots = callSites(options.callSlots);
    if (!makeLocals(options.bytecodes, !slots.empty())) {  // the pool is full: left unchanged
      out_.callSites.resize(callsMark);
      return;
    }
    entry();
    Patch caught = r_.newPatch();  // the handler's frame is current again: depth + 1
    caught.load("Ljava/lang/Object;", state_).load("I", below_).add(Op::iconst_1);
    caught.add(Op::iadd).putField(kStateClass, "sp", "I");
    if (!slots.empty()) restoreSlot(caught);  // the exception ended this frame's call
    Patch block = r_.newPatch();
    for (const instrument::BasicBlock& b : r_.blocks()) {
      if (b.isHandlerEntry) r_.before(b.first, caught);
      if (options.bytecodes) {
        block.clear();
        block.load("J", count_).pushLong(b.size()).add(Op::ladd).store("J", count_);
        r_.before(b.first, block);
      }
    }
    // After the block counts: patches before one instruction run in the order inserted, and
    // a block that ends in a return is counted before the exit flushes the count.
    Patch exit = exitCode();
    r_.beforeReturns(exit);
    // An exception leaving the frame needs no exit: the frame that catches it restores its
    // own depth (`caught` above), and that saves a handler per method, whose exception
    // edges from every call make the JIT's work larger. Only the
    // instruction count must not be lost, and only where the frame's own instructions
    // throw: before every call the count is flushed (below), so an exception from a call
    // finds nothing to add, and the handler leaves the calls uncovered.
    if (options.bytecodes) r_.onExceptionalExit(exit, instrument::ExitCover::AllButCalls);
    Patch flush = r_.newPatch();
    if (options.bytecodes) addFlush(flush).add(Op::lconst_0).store("J", count_);
    for (const instrument::Instruction& in : r_.instructions()) {
      site(in);
      if (options.bytecodes && instrument::isInvoke(in.op)) r_.before(in.index, flush);
    }
    passSlots(slots);
    if (ext_) ext_->method(r_, state_);
  }

 private:
  // The frame's locals: the thread's state (what enter() returned), the depth below the
  // frame, and with bytecodes=on its context and its instructions not yet added to it.
  bool makeLocals(bool bytecodes, bool slots) {
    std::optional<uint16_t> s = r_.liveLocal(kStateDesc), d = r_.liveLocal("I");
    if (!s || !d) return false;
    state_ = *s;
    below_ = *d;
    if (slots) {
      std::optional<uint16_t> o = r_.liveLocal("I");
      if (!o) return false;
      outer_ = *o;
    }
    if (!bytecodes) return true;
    std::optional<uint16_t> n = r_.liveLocal("I"), c = r_.liveLocal("J");
    if (!n || !c) return false;
    node_ = *n;
    count_ = *c;
    return true;
  }

  // With `slots`, the method's invokes (not invokedynamic: it calls no method it names) go
  // to the profile's call sites; returns the number of each call site that must pass it
  // (call_sites.h) at its instruction index (0 elsewhere; past kMaxCallSlot none).
  std::vector<uint32_t> callSites(bool slots) {
    if (!slots) return {};
    size_t first = out_.callSites.size();
    std::vector<uint32_t> where;
    for (const instrument::Instruction& in : r_.instructions()) {
      if (!instrument::isInvoke(in.op) || in.op == Op::invokedynamic) continue;
      auto ref = r_.pool().memberRef(r_.insn(in.index).cp());
      auto number = static_cast<uint32_t>(out_.callSites.size() - first + 1);
      out_.callSites.push_back({method_, number, in.offset, in.line, static_cast<uint8_t>(in.op),
                                std::string(ref.owner), std::string(ref.name),
                                std::string(ref.descriptor)});
      where.push_back(in.index);
    }
    std::vector<uint32_t> out;
    std::vector<profile::CallSite> mine(out_.callSites.begin() + static_cast<ptrdiff_t>(first),
                                        out_.callSites.end());
    std::vector<bool> numbered = needsSlot(mine);
    for (size_t i = 0; i < mine.size() && i < profile::kMaxCallSlot; ++i) {
      if (!numbered[i]) continue;
      if (out.empty()) out.assign(r_.instructions().size(), 0);
      out[where[i]] = mine[i].number;
    }
    return out;
  }

  // state.callSite = outer: the number of the call this frame runs in (what it was at entry).
  void restoreSlot(Patch& p) {
    p.load("Ljava/lang/Object;", state_).load("I", outer_);
    p.putField(kStateClass, "callSite", "I");
  }

  // Around each invoke with a number: state.callSite = (below + 1) << 8 | number before it
  // (the frame's depth lets an entry tell its own caller's number from an outer frame's),
  // its value at entry after it (and in the handlers): so a number never outlives its call,
  // and the call this frame runs in (entered through a hidden class, say, which may call
  // more methods after this one) keeps its number.
  void passSlots(const std::vector<uint32_t>& slots) {
    Patch after = r_.newPatch();
    restoreSlot(after);
    for (uint32_t i = 0; i < slots.size(); ++i) {
      if (slots[i] == 0) continue;
      Patch p = r_.newPatch();
      p.load("Ljava/lang/Object;", state_).load("I", below_).pushInt(8).add(Op::ishl);
      p.pushInt(static_cast<int32_t>(256 + slots[i])).add(Op::iadd);
      p.putField(kStateClass, "callSite", "I");
      r_.before(i, p);
      r_.after(i, after);
    }
  }

  // state = DragnetRt.enter(methodId); below = state.sp - 1; [node = state.node; count = 0]
  // Before super() in constructors, so that the arguments of super(...)/this(...) are
  // allocated in the constructor's context (JP Fig. 1).
  void entry() {
    Patch p = r_.newPatch();
    const char* owner = ext_ && !calledOnEmptyStack() ? ext_->receiverEnter(r_) : nullptr;
    if (owner) {
      p.add(Op::aload_0).pushInt(static_cast<int32_t>(method_));
      p.invokeStatic(owner, "enter", std::string("(Ljava/lang/Object;I)") + kStateDesc);
    } else {
      p.pushInt(static_cast<int32_t>(method_));
      p.invokeStatic(kRuntimeClass, calledOnEmptyStack() ? "enterRoot" : "enter",
                     std::string("(I)") + kStateDesc);
    }
    p.add(Op::dup).store("Ljava/lang/Object;", state_);
    if (outer_ != kNone) p.add(Op::dup).getField(kStateClass, "callSite", "I").store("I", outer_);
    p.getField(kStateClass, "sp", "I").add(Op::iconst_1).add(Op::isub).store("I", below_);
    if (count_ != kNone) {
      p.load("Ljava/lang/Object;", state_).getField(kStateClass, "node", "I");
      p.store("I", node_).add(Op::lconst_0).store("J", count_);
    }
    r_.atEntry(p, instrument::ConstructorEntry::BeforeSuperCall);
  }

  // The methods the JVM calls on a thread whose frames an uncaught exception has unwound
  // (no exit ran for them): their context starts at the thread's root again.
  bool calledOnEmptyStack() const {
    return r_.className() == "java/lang/Thread" &&
           (r_.name() == "dispatchUncaughtException" || r_.name() == "exit");
  }

  // [flush;] state.sp = below: the caller's context is current again.
  Patch exitCode() {
    Patch p = r_.newPatch();
    if (count_ != kNone) addFlush(p);
    p.load("Ljava/lang/Object;", state_).load("I", below_).putField(kStateClass, "sp", "I");
    return p;
  }

  // state.insns[node] += count (bytecodes=on): before every call, so that a frame still
  // running when the VM dies (main calling System.exit) has its instructions counted.
  Patch& addFlush(Patch& p) {
    p.load("Ljava/lang/Object;", state_).getField(kStateClass, "insns", "[J");
    p.load("I", node_).add(Op::dup2).add(Op::laload).load("J", count_).add(Op::ladd);
    return p.add(Op::lastore);
  }

  // No invoke and no allocation: no context can ever be made under this method.
  bool isLeaf() const {
    for (const instrument::Instruction& in : r_.instructions()) {
      if (instrument::isInvoke(in.op)) return false;
      switch (in.op) {
        case Op::new_:
        case Op::newarray:
        case Op::anewarray:
        case Op::multianewarray:
          return false;
        default:
          break;
      }
    }
    return true;
  }

  uint32_t newSite(const instrument::Instruction& in, SiteKind kind, std::string type,
                   ElemKind elem, uint32_t levels = 1) {
    uint32_t index = ids_.nextSite.fetch_add(levels);
    for (uint32_t l = 0; l < levels; ++l) {
      profile::SiteDef d;
      std::string levelType = type.substr(l);
      ElemKind k = kind == SiteKind::MultiANewArray ? elementKind(levelType) : elem;
      d.key = keyOf(index + l, k);
      d.method = method_;
      d.bci = in.offset;
      d.line = in.line;
      d.kind = kind;
      d.type = std::move(levelType);
      out_.sites.push_back(std::move(d));
    }
    uint32_t first = out_.sites[out_.sites.size() - levels].key;
    if (ext_) ext_->allocation(r_, in, first);
    return first;
  }

  void site(const instrument::Instruction& in) {
    const classfile::Insn& insn = r_.insn(in.index);
    const classfile::ConstantPool& pool = r_.pool();
    switch (insn.op) {
      case Op::new_: {
        uint32_t key =
            newSite(in, SiteKind::New, std::string(pool.className(insn.cp())), ElemKind::Object);
        r_.before(in.index,
                  Call{kRuntimeClass, "alloc", {stateArg(), Arg::i(static_cast<int32_t>(key))}});
        break;
      }
      case Op::newarray:
      case Op::anewarray: {
        bool prim = insn.op == Op::newarray;
        std::string type = prim ? descOfNewarray(insn.a) : arrayOf(pool.className(insn.cp()));
        ElemKind k = prim ? kindOfNewarray(insn.a) : ElemKind::Ref;
        SiteKind sk = prim ? SiteKind::NewArray : SiteKind::ANewArray;
        uint32_t key = newSite(in, sk, type, k);
        if (ext_ && ext_->site(r_, in, key, state_)) break;
        r_.before(in.index, Call{kRuntimeClass,
                                 "array",
                                 {Arg::top("I"), stateArg(), Arg::i(static_cast<int32_t>(key))}});
        break;
      }
      case Op::multianewarray: {
        auto dims = static_cast<uint32_t>(insn.b);
        std::string type(pool.className(insn.cp()));
        if (dims == 0 || dims > type.size()) break;  // malformed: the verifier rejects it
        uint32_t key = newSite(in, SiteKind::MultiANewArray, type, ElemKind::Ref, dims);
        auto lastKind = static_cast<int32_t>(elementKind(std::string_view(type).substr(dims - 1)));
        r_.after(in.index, Call{kRuntimeClass,
                                "multi",
                                {Arg::top("Ljava/lang/Object;"), Arg::i(static_cast<int32_t>(dims)),
                                 Arg::i(static_cast<int32_t>(key)), Arg::i(lastKind)}});
        break;
      }
      case Op::invokevirtual:
      case Op::invokespecial:
        cloneSite(in, insn);
        dynamicCallSite(in, insn);
        backtraceSite(in, insn);
        break;
      case Op::invokestatic:
        dynamicCallSite(in, insn);
        break;
      default:
        break;
    }
    std::string type;
    if (ext_ && instrument::isInvoke(insn.op) && ext_->callSite(r_, in, type)) {
      newSite(in, SiteKind::Clone, type, elementKind(type));
    }
  }

  // Copies made by the native Object.clone: array.clone(), and super.clone() in a class
  // whose superclass is Object (deeper super.clone() chains end in one of those).
  void cloneSite(const instrument::Instruction& in, const classfile::Insn& insn) {
    if (!isCloneCall(r_.pool(), insn)) return;
    auto ref = r_.pool().memberRef(insn.cp());
    bool array = ref.owner.starts_with("[");
    if (!array && ref.owner != "java/lang/Object") return;
    // For super.clone() the copy's class is the receiver's runtime class: this class (maybe
    // abstract) or a subclass, so the copy is recorded by its runtime class (dyn; the site's
    // type stays empty). An array clone has the array's type.
    std::string type = array ? std::string(ref.owner) : std::string();
    ElemKind k = array ? elementKind(ref.owner) : ElemKind::Object;
    uint32_t key = newSite(in, SiteKind::Clone, type, k);
    r_.after(in.index, Call{kRuntimeClass,
                            array ? "cloned" : "dyn",
                            {Arg::top("Ljava/lang/Object;"), Arg::i(static_cast<int32_t>(key))}});
  }

  void dynamicCallSite(const instrument::Instruction& in, const classfile::Insn& insn) {
    auto ref = r_.pool().memberRef(insn.cp());
    for (const DynamicCall& c : kDynamicCalls) {
      if (ref.owner != c.owner || ref.name != c.name || ref.descriptor != c.descriptor) continue;
      uint32_t key = newSite(in, SiteKind::Reflect, {}, ElemKind::Object);
      r_.after(in.index, Call{kRuntimeClass,
                              std::string(c.probe),
                              {Arg::top("Ljava/lang/Object;"), Arg::i(static_cast<int32_t>(key))}});
      return;
    }
  }

  // Throwable's native fillInStackTrace(int) allocates the backtrace inside the JVM (Object[]
  // chunks holding the frames' methods, bcis, classes and names, and the next chunk)
  // with no event the agent could see. The probe after it hands Throwable.backtrace to the
  // runtime, which records each array by its runtime class in this frame's context.
  void backtraceSite(const instrument::Instruction& in, const classfile::Insn& insn) {
    if (!backtrace_ || (r_.access() & classfile::kAccStatic) != 0) return;
    auto ref = r_.pool().memberRef(insn.cp());
    if (ref.owner != "java/lang/Throwable" || ref.name != "fillInStackTrace" ||
        ref.descriptor != "(I)Ljava/lang/Throwable;") {
      return;
    }
    uint32_t key = newSite(in, SiteKind::Vm, {}, ElemKind::Object);
    Patch p = r_.newPatch();
    p.add(Op::aload_0).getField("java/lang/Throwable", "backtrace", "Ljava/lang/Object;");
    p.pushInt(static_cast<int32_t>(key));
    p.invokeStatic(kRuntimeClass, "backtrace", "(Ljava/lang/Object;I)V");
    r_.after(in.index, p);
  }

  Arg stateArg() const { return Arg::local(state_, kStateDesc); }

  static constexpr uint16_t kNone = 0xFFFF;
  Routine& r_;
  uint32_t method_;
  IdSource& ids_;
  ClassResult& out_;
  Extension* ext_ = nullptr;
  uint16_t state_ = kNone, below_ = kNone, node_ = kNone, count_ = kNone, outer_ = kNone;
  bool backtrace_;
};

// The probed native calls of a rewritten method: the invoke just before each call of a
// probe that takes the result of the call (cloned, dyn, dynMulti), at its new offset.
void findProbedCalls(Routine& r, std::vector<ClassResult::ProbedCall>& out) {
  auto* code = classfile::findAttr<classfile::CodeAttr>(r.member().attributes);
  if (!code) return;
  const std::vector<classfile::Insn>& insns = code->code.insns;
  std::vector<uint32_t> offsets = classfile::computeOffsets(code->code);
  auto mayCallNative = [](Op op) {  // the probed natives: Object.clone, Array, Unsafe
    return op == Op::invokevirtual || op == Op::invokespecial || op == Op::invokestatic;
  };
  for (size_t i = 0; i < insns.size(); ++i) {
    if (insns[i].op != Op::invokestatic) continue;
    auto ref = r.pool().memberRef(insns[i].cp());
    if (ref.owner != kRuntimeClass ||
        (ref.name != "cloned" && ref.name != "dyn" && ref.name != "dynMulti")) {
      continue;
    }
    // The probe's patch is: dup, the key, the probe; so the call is three back.
    if (i >= 3 && mayCallNative(insns[i - 3].op)) {
      out.push_back({std::string(r.name()), std::string(r.descriptor()), offsets[i - 3]});
    }
  }
}

// Continuation.run (JDK 19+) runs a virtual thread's frames after the thread is mounted,
// so its probes would use the virtual thread's state, entering when the thread resumes
// and exiting when it next yields: the exit would set the thread's depth to what it was
// at the resumption, not at the yield, and the frames that resume next would call under
// wrong contexts. Left out, the frames it runs keep the depth they had when they yielded.
bool isContinuationRun(std::string_view cls, const Routine& r) {
  return cls == "jdk/internal/vm/Continuation" && r.name() == "run" && r.descriptor() == "()V";
}

std::string sourceFile(const classfile::ClassFile& cls) {
  if (auto* sf = classfile::findAttr<classfile::SourceFileAttr>(cls.attributes)) {
    return std::string(cls.pool.utf8(sf->file));
  }
  return {};
}

}  // namespace

bool isRuntimeClass(std::string_view name) { return name.starts_with("java/lang/Dragnet"); }

bool isCloneCall(const classfile::ConstantPool& pool, const classfile::Insn& insn) {
  if (insn.op != Op::invokevirtual && insn.op != Op::invokespecial) return false;
  auto ref = pool.memberRef(insn.cp());
  return ref.name == "clone" && ref.descriptor == "()Ljava/lang/Object;";
}

ElemKind elementKind(std::string_view desc) {
  if (desc.size() < 2 || desc[0] != '[') return ElemKind::Object;
  switch (desc[1]) {
    case 'Z':
      return ElemKind::Boolean;
    case 'B':
      return ElemKind::Byte;
    case 'C':
      return ElemKind::Char;
    case 'S':
      return ElemKind::Short;
    case 'I':
      return ElemKind::Int;
    case 'F':
      return ElemKind::Float;
    case 'J':
      return ElemKind::Long;
    case 'D':
      return ElemKind::Double;
    default:
      return ElemKind::Ref;
  }
}

ClassResult instrumentClass(classfile::ClassFile& cls, IdSource& ids, const Options& options) {
  ClassResult out;
  std::string_view name = cls.name();
  if (isRuntimeClass(name)) return out;
  std::string source = sourceFile(cls);
  bool backtrace =
      name == "java/lang/Throwable" &&
      std::any_of(cls.fields.begin(), cls.fields.end(), [&](const auto& f) {
        return cls.memberName(f) == "backtrace" && cls.memberDescriptor(f) == "Ljava/lang/Object;";
      });
  Chain chain(options.extensions);
  instrument::ClassInstrumenter ci(cls);
  for (Routine& r : ci.routines()) {
    if (!r.hasCode()) continue;
    if (name == "java/lang/Object" && r.name() == "<init>") {
      if (chain.empty()) continue;
      chain.unframed(r);
      if (r.commit().changed) out.changed = true;
      continue;
    }
    if (isContinuationRun(name, r)) {
      out.failures.push_back({std::string(name), "run()V",
                              "mounts a virtual thread's frames: its probes would straddle them"});
      continue;
    }
    uint32_t id = ids.nextMethod.fetch_add(1);
    id = chain.methodId(r, id);
    size_t sitesMark = out.sites.size(), callsMark = out.callSites.size();
    MethodInstrumenter(r, id, ids, out, backtrace).run(options, chain);
    instrument::EditOutcome o = r.commit();
    auto failure = [&](std::string reason) {
      out.failures.push_back({std::string(name),
                              std::string(r.name()) + std::string(r.descriptor()),
                              std::move(reason)});
    };
    std::string spared;
    if (!o.changed && o.tooLarge && chain.lighten(r, spared)) {
      out.sites.resize(sitesMark);  // made again, with new indices
      out.callSites.resize(callsMark);
      MethodInstrumenter(r, id, ids, out, backtrace).run(options, chain);
      instrument::EditOutcome light = r.commit();
      if (light.changed) failure(std::string(profile::kPartly) + spared + " (" + o.reason + ")");
      o = std::move(light);
    }
    if (!o.changed) {
      out.sites.resize(sitesMark);  // never reported: the method runs as it was
      out.callSites.resize(callsMark);
      // An empty finalizer (a lone return) allocates, uses and copies nothing: leaving it
      // unchanged loses nothing, so it is not listed as not rewritten.
      if (!r.isEmptyFinalizer()) failure(o.reason);
      continue;
    }
    out.changed = true;
    if (out.sites.size() > sitesMark) findProbedCalls(r, out.probedCalls);
    out.methods.push_back(
        {id, std::string(name), std::string(r.name()), std::string(r.descriptor()), source});
  }
  return out;
}

}  // namespace dragnet::contexts
