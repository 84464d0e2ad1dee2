#include "analyses/cost/probes/instrumenter.h"

#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "flow/extension.h"
#include "flow/heap_shadows.h"
#include "flow/tag_field.h"
#include "instrument/descriptor.h"
#include "instrument/stack_effect.h"

namespace dragnet::analyses::cost {

using classfile::Op;
using flow::kFlowClass;
using flow::kNoLocal;
using flow::kObjectDesc;
using flow::Shadow;
using instrument::Patch;
using instrument::Routine;
using SK = flow::Summary::Kind;

namespace {

constexpr const char* kStateDesc = contexts::kStateDesc;
const std::string kS = kStateDesc;

int opIndex(Op op) { return static_cast<int>(op); }
bool between(Op op, Op lo, Op hi) {
  return opIndex(op) >= opIndex(lo) && opIndex(op) <= opIndex(hi);
}
bool isArrayLoad(Op op) { return between(op, Op::iaload, Op::saload); }
bool isArrayStore(Op op) { return between(op, Op::iastore, Op::sastore); }
bool isInvoke(Op op) { return between(op, Op::invokevirtual, Op::invokedynamic); }
bool isLocalLoad(Op op) {
  return between(op, Op::iload, Op::aload) || between(op, Op::iload_0, Op::aload_3);
}
bool isLocalStore(Op op) {
  return between(op, Op::istore, Op::astore) || between(op, Op::istore_0, Op::astore_3);
}
bool isConstant(Op op) { return between(op, Op::aconst_null, Op::ldc2_w); }
// Computations: arithmetic, shifts, logic, conversions, compares, instanceof, arraylength.
bool isCompute(Op op) {
  return between(op, Op::iadd, Op::lxor) || between(op, Op::i2l, Op::i2s) ||
         between(op, Op::lcmp, Op::dcmpg) || op == Op::
      instanceof || op == Op::arraylength;
}
bool isPredicate(Op op) {
  return between(op, Op::ifeq, Op::if_acmpne) || op == Op::ifnull || op == Op::ifnonnull ||
         op == Op::tableswitch || op == Op::lookupswitch;
}
bool isAllocation(Op op) {
  return op == Op::new_ || op == Op::newarray || op == Op::anewarray || op == Op::multianewarray;
}

// The value descriptor of an array store's element.
const char* arrayValueDesc(Op op) {
  static const char* const kDesc[] = {"I", "J", "F", "D", kObjectDesc, "I", "I", "I"};
  return kDesc[opIndex(op) - opIndex(Op::iastore)];
}

char returnKind(std::string_view descriptor) {
  size_t close = descriptor.find(')');
  return close == std::string_view::npos || close + 1 >= descriptor.size() ? 'V'
                                                                           : descriptor[close + 1];
}

// How a call is treated.
enum class CallKind : uint8_t { Transfer, Native, PassThrough, Allocation, ArrayCopy };

class CostExtension : public flow::FlowExtension, private flow::ShadowRules {
 public:
  CostExtension(classfile::ClassFile& cls, flow::FlowIds& ids, CostIds& cost, const ProbeOptions& o)
      : FlowExtension(cls, ids, o.rootClass), cost_(cost) {}

  uint32_t methodId(Routine& r, uint32_t id) override {
    flush();
    nodeOf_.clear();
    callKinds_.clear();
    edgeSeen_.clear();
    chain_ = slot_ = kNoLocal;
    uint32_t out = FlowExtension::methodId(r, id);
    prepare(r);
    return out;
  }
  // The definitions of the last method's nodes, for the profile.
  void flush() {
    if (!nodes_.empty() || !edges_.empty()) cost_.add(std::move(nodes_), std::move(edges_));
    nodes_.clear();
    edges_.clear();
  }
  // No probe of mode cost counts into a calling context: leaves keep no frame.
  bool needsFrame(Routine&) override { return false; }

 protected:
  flow::ShadowRules& rules() override { return *this; }

  // --- the shadow rules: which instructions make the node of the value they push -------------

  flow::ResultRule result(const Routine& r, uint32_t i) override {
    using K = flow::ResultRule::Kind;
    Op op = r.insn(i).op;
    if (op == Op::getfield || op == Op::getstatic || isArrayLoad(op) || isCompute(op) ||
        isAllocation(op)) {
      return {K::Frame, nodeValue(node(i))};
    }
    if (!isInvoke(op)) return {};
    switch (callKind(i)) {
      case CallKind::Native:
        return {K::Const, nodeValue(node(i))};
      case CallKind::Allocation:
        return {K::Frame, nodeValue(node(i))};
      case CallKind::ArrayCopy:
        return {};
      default:
        return {K::Produced, 0};
    }
  }
  Shadow stored(const Routine&, uint32_t i, Shadow value) override {
    return isAssign(i) ? Shadow::frame(nodeValue(node(i))) : value;
  }
  Shadow incremented(const Routine&, uint32_t i) override {
    return Shadow::frame(nodeValue(node(i)));
  }

  // --- entry -----------------------------------------------------------------------------------

  void enter(Patch& p) override {
    std::optional<uint16_t> chain = r_->liveLocal("I"), slot = r_->liveLocal("I");
    if (!chain || !slot) return;
    chain_ = *chain;
    slot_ = *slot;
    m_->context = slot_;
    bool instance = (r_->access() & classfile::kAccStatic) == 0;
    loadState(p, *m_).pushInt(selector_).pushInt(static_cast<int32_t>(methodKey()));
    if (!instance) {
      p.invokeStatic(kCostClass, "enterStatic", "(" + kS + "II)I");
    } else {
      if (r_->name() == "<init>") {  // `this` is not initialized: the pending `new`'s tag
        loadState(p, *m_).invokeStatic(kFlowClass, "pendingTag", "(" + kS + ")I");
      } else {
        p.add(Op::aload_0);
        pushTag(p, thisTagOwner(), *m_);
      }
      p.invokeStatic(kCostClass, "enter", "(" + kS + "III)I");
    }
    p.store("I", chain_);
    loadState(p, *m_).load("I", chain_).pushInt(static_cast<int32_t>(methodKey()));
    p.invokeStatic(kCostClass, "slot", "(" + kS + "II)I").store("I", slot_);
    takeParams(p);
  }

  // --- instructions ----------------------------------------------------------------------------

  void instruction(uint32_t i) override {
    if (slot_ == kNoLocal) return;
    current_ = i;
    if (i == 0 || leaders_.count(i)) countBlock(i);
    Op op = r_->insn(i).op;
    if (isCompute(op)) {
      if (op != Op::arraylength) dependOnOperands(node(i), false, i);
    } else if (op == Op::iinc) {
      auto slot = static_cast<uint32_t>(r_->insn(i).a);
      const auto& l = plan_.locals[i];
      dependOn(node(i), false, slot < l.size() ? l[slot] : Shadow::bottom());
    } else if (isPredicate(op)) {
      dependOnOperands(node(i), true, i);
    } else if (isLocalStore(op) && isAssign(i)) {
      dependOn(node(i), false, m_->operand(i, 1));
    } else if (op == Op::getfield) {
      getField(i);
    } else if (op == Op::putfield) {
      putField(i);
    } else if (op == Op::getstatic || op == Op::putstatic) {
      staticAccess(i);
    } else if (isArrayLoad(op)) {
      arrayAccess(i, false);
    } else if (isArrayStore(op)) {
      arrayAccess(i, true);
    } else if (op == Op::new_) {
      node(i);
      newObject(i);
    } else if (isAllocation(op)) {
      node(i);
      newArray(i);
    } else if (isInvoke(op)) {
      invoke(i);
    } else if (instrument::isReturn(op) && op != Op::return_) {
      returnValue(i);
    }
    blockEnd(i);
  }

 private:
  // --- nodes -------------------------------------------------------------------------------------

  // The frequency blocks (the method's basic blocks) and the leaders, once per method.
  void prepare(Routine& r) {
    routine_ = &r;
    leaders_.clear();
    blockOfInsn_.assign(r.instructions().size(), 0);
    blockBase_ = 0;
    if (!r.hasCode()) return;
    const auto& blocks = r.blocks();
    for (const auto& b : blocks) {
      leaders_.insert(b.first);
      for (uint32_t i = b.first; i <= b.last; ++i) blockOfInsn_[i] = b.id;
    }
    blockBase_ = cost_.blocks(static_cast<uint32_t>(blocks.size()));
  }

  static uint64_t nodeValue(uint32_t node) { return uint64_t{node} << kSlotBits; }

  // The program node of instruction i (made on first use, with its definition).
  uint32_t node(uint32_t i) {
    auto it = nodeOf_.find(i);
    if (it != nodeOf_.end()) return it->second;
    uint32_t id = cost_.nodes(1);
    nodeOf_.emplace(i, id);
    if (id != 0) nodes_.push_back(define(id, kindAt(i), i, blockOf(i)));
    return id;
  }

  // A node of its own for a call's summarised copy (its load or store), in block `block`.
  uint32_t extraNode(uint32_t i, NodeKind kind, uint32_t block) {
    uint32_t id = cost_.nodes(1);
    if (id == 0) return 0;
    NodeOut n = define(id, kind, i, block);
    n.field = kElmField;
    nodes_.push_back(n);
    return id;
  }

  uint32_t blockOf(uint32_t i) const {
    return blockBase_ == 0 || i >= blockOfInsn_.size() ? 0 : blockBase_ + blockOfInsn_[i];
  }

  NodeOut define(uint32_t id, NodeKind kind, uint32_t i, uint32_t block) {
    NodeOut n;
    n.id = id;
    n.kind = kind;
    n.method = methodKey();
    n.index = i < routine_->instructions().size() ? routine_->instructions()[i].offset : 0;
    n.line = i < routine_->instructions().size() ? routine_->instructions()[i].line : -1;
    n.block = block;
    const classfile::Insn& in = routine_->insn(i);
    if (in.op == Op::getfield || in.op == Op::putfield || in.op == Op::getstatic ||
        in.op == Op::putstatic) {
      auto ref = routine_->pool().memberRef(in.cp());
      bool isStatic = in.op == Op::getstatic || in.op == Op::putstatic;
      n.field = ids_.field(ref.owner, ref.name, ref.descriptor, isStatic);
      n.reference = ref.descriptor[0] == 'L' || ref.descriptor[0] == '[';
    } else if (isArrayLoad(in.op) || isArrayStore(in.op)) {
      n.field = kElmField;
      n.reference = in.op == Op::aaload || in.op == Op::aastore;
    }
    auto site = sites_.find(i);
    if (kind == NodeKind::Alloc && site != sites_.end()) n.site = site->second;
    return n;
  }

  NodeKind kindAt(uint32_t i) {
    Op op = routine_->insn(i).op;
    if (isAllocation(op)) return NodeKind::Alloc;
    if (op == Op::getfield || isArrayLoad(op)) return NodeKind::LoadField;
    if (op == Op::putfield || isArrayStore(op)) return NodeKind::StoreField;
    if (op == Op::getstatic) return NodeKind::LoadStatic;
    if (op == Op::putstatic) return NodeKind::StoreStatic;
    if (isPredicate(op)) return NodeKind::Predicate;
    if (isLocalStore(op)) return NodeKind::Assign;
    if (isInvoke(op)) {
      return callKind(i) == CallKind::Allocation ? NodeKind::Alloc : NodeKind::Native;
    }
    return NodeKind::Compute;
  }

  // An xstore whose value comes straight from a local, a constant or a call's result (the
  // instruction before it, in its block).
  bool isAssign(uint32_t i) {
    if (i == 0 || leaders_.count(i) || !isLocalStore(routine_->insn(i).op)) return false;
    Op prev = routine_->insn(i - 1).op;
    return isLocalLoad(prev) || isConstant(prev) ||
           (isInvoke(prev) &&
            returnKind(routine_->pool().memberRef(routine_->insn(i - 1).cp()).descriptor) != 'V');
  }

  // How the call at i is treated, classified once per method (the plan's passes, the node's
  // definition and the call's probes all ask).
  CallKind callKind(uint32_t i) {
    auto known = callKinds_.find(i);
    if (known != callKinds_.end()) return known->second;
    return callKinds_.emplace(i, classifyCall(i)).first->second;
  }
  CallKind classifyCall(uint32_t i) {
    const classfile::Insn& in = routine_->insn(i);
    if (in.op == Op::invokedynamic) return CallKind::Native;
    if (contexts::isCloneCall(routine_->pool(), in) && sites_.count(i)) return CallKind::Allocation;
    auto ref = routine_->pool().memberRef(in.cp());
    if (auto s = summaryAt(i, ref, in.op == Op::invokestatic)) {
      switch (s->kind) {
        case SK::PassThrough:
          return CallKind::PassThrough;
        case SK::CopyOf:
        case SK::Allocate:
          return sites_.count(i) ? CallKind::Allocation : CallKind::Native;
        case SK::ArrayCopy:
          return s->rawUnits ? CallKind::Native : CallKind::ArrayCopy;
        default:
          return CallKind::Native;
      }
    }
    if (cost_.isNative(ref.owner, ref.name, ref.descriptor)) return CallKind::Native;
    return CallKind::Transfer;
  }

  // --- dependences ---------------------------------------------------------------------------

  Patch& pushInstance(Patch& p, uint32_t node, bool contextless) {
    p.pushInt(static_cast<int32_t>(nodeValue(node)));
    if (!contextless) p.load("I", slot_).add(Op::ior);
    return p;
  }

  // dst depends on the node of `src`: written with the method's definitions when the node is
  // known now, else recorded at run time (before instruction `at`).
  void dependOn(uint32_t dst, bool contextless, const Shadow& src, uint32_t at) {
    if (dst == 0) return;
    switch (src.kind) {
      case Shadow::Kind::Frame:
      case Shadow::Kind::Const: {
        auto srcNode = static_cast<uint32_t>(src.value >> kSlotBits);
        bool inFrame = src.kind == Shadow::Kind::Frame;
        if (srcNode != 0 && edgeSeen_.insert({dst, srcNode, inFrame}).second) {
          edges_.push_back({dst, srcNode, inFrame});
        }
        return;
      }
      case Shadow::Kind::Local: {
        Patch p = patch();
        loadState(p, *m_);
        pushInstance(p, dst, contextless).load("J", src.local);
        p.invokeStatic(kCostClass, "edge", "(" + kS + "IJ)V");
        r_->before(at, p);
        return;
      }
      default:
        return;
    }
  }
  void dependOn(uint32_t dst, bool contextless, const Shadow& src) {
    dependOn(dst, contextless, src, current_);
  }

  // Every popped word whose shadow is a node (a value's node is on its first word).
  void dependOnOperands(uint32_t dst, bool contextless, uint32_t i) {
    auto e = instrument::stackEffect(r_->insn(i), r_->pool());
    if (!e) return;
    for (int w = 1; w <= e->pop; ++w) {
      dependOn(dst, contextless, m_->operand(i, static_cast<size_t>(w)), i);
    }
  }

  void countBlock(uint32_t i) {
    uint32_t block = blockOf(i);
    if (block == 0) return;
    Patch p = patch();
    loadState(p, *m_);
    pushInstance(p, block, false).invokeStatic(kCostClass, "block", "(" + kS + "I)V");
    r_->before(i, p);
  }

  // --- heap accesses -------------------------------------------------------------------------

  void getField(uint32_t i) {
    auto ref = r_->pool().memberRef(r_->insn(i).cp());
    uint32_t n = node(i);
    uint16_t x = m_->scratch(kObjectDesc);
    Patch before = patch();
    before.add(Op::dup).store(kObjectDesc, x);
    r_->before(i, before);
    Patch after = patch();
    loadState(after, *m_);
    pushInstance(after, n, false);
    if (flow::hasShadowField(ref.owner, ref.name)) {
      after.load(kObjectDesc, x)
          .getField(ref.owner, flow::shadowFieldName(ref.name, ref.descriptor), "I");
      after.load(kObjectDesc, x);
      pushTag(after, ref.owner, *m_).invokeStatic(kCostClass, "load", "(" + kS + "III)V");
    } else {
      after.load(kObjectDesc, x);
      pushTag(after, ref.owner, *m_).invokeStatic(kCostClass, "effect", "(" + kS + "II)V");
    }
    r_->after(i, after);
  }

  void putField(uint32_t i) {
    auto ref = r_->pool().memberRef(r_->insn(i).cp());
    uint32_t n = node(i);
    dependOn(n, false, m_->operand(i, static_cast<size_t>(instrument::slotSize(ref.descriptor))));
    if (beforeSuper(i)) return;  // `this` is not initialized yet: no shadow, no name
    uint16_t x = flow::parkFieldStoreObject(*m_, i, ref.descriptor);
    Patch after = patch();
    if (flow::hasShadowField(ref.owner, ref.name)) {
      after.load(kObjectDesc, x);
      pushInstance(after, n, false)
          .putField(ref.owner, flow::shadowFieldName(ref.name, ref.descriptor), "I");
    }
    loadState(after, *m_);
    pushInstance(after, n, false).load(kObjectDesc, x);
    pushTag(after, ref.owner, *m_).invokeStatic(kCostClass, "effect", "(" + kS + "II)V");
    r_->after(i, after);
  }

  void staticAccess(uint32_t i) {
    const classfile::Insn& in = r_->insn(i);
    auto ref = r_->pool().memberRef(in.cp());
    uint32_t n = node(i), field = ids_.field(ref.owner, ref.name, ref.descriptor, true);
    Patch after = patch();
    if (in.op == Op::getstatic) {
      loadState(after, *m_);
      pushInstance(after, n, false).pushInt(static_cast<int32_t>(field));
      after.invokeStatic(kCostClass, "loadStatic", "(" + kS + "II)V");
    } else {
      dependOn(n, false, m_->operand(i, static_cast<size_t>(instrument::slotSize(ref.descriptor))));
      pushInstance(after, n, false).pushInt(static_cast<int32_t>(field));
      after.invokeStatic(kCostClass, "storeStatic", "(II)V");
    }
    r_->after(i, after);
  }

  void arrayAccess(uint32_t i, bool store) {
    uint32_t n = node(i);
    uint16_t x = m_->scratch(kObjectDesc), index = m_->scratch("I");
    Patch before = patch();
    if (store) {
      const char* desc = arrayValueDesc(r_->insn(i).op);
      dependOn(n, false, m_->operand(i, static_cast<size_t>(instrument::slotSize(desc))));
      uint16_t val = m_->scratch(desc, 'v');
      before.store(desc, val).add(Op::dup2).store("I", index).store(kObjectDesc, x).load(desc, val);
    } else {
      before.add(Op::dup2).store("I", index).store(kObjectDesc, x);
    }
    r_->before(i, before);
    Patch after = patch();
    loadState(after, *m_);
    pushInstance(after, n, false).load(kObjectDesc, x).load("I", index);
    after.invokeStatic(kCostClass, store ? "astore" : "aload", "(" + kS + "ILjava/lang/Object;I)V");
    r_->after(i, after);
  }

  // --- calls ---------------------------------------------------------------------------------

  void invoke(uint32_t i) {
    const classfile::Insn& in = r_->insn(i);
    CallKind kind = callKind(i);
    if (kind != CallKind::Transfer) {
      // The callee takes no transfer; an override that does finds none.
      Patch clear = patch();
      loadState(clear, *m_).invokeStatic(kFlowClass, "call0", "(" + kS + ")V");
      r_->before(i, clear);
    }
    switch (kind) {
      case CallKind::Native:
        return nativeCall(i);
      case CallKind::PassThrough:
        return passThrough(i);
      case CallKind::Allocation:
        return allocationCall(i);
      case CallKind::ArrayCopy:
        return arrayCopy(i);
      default:
        break;
    }
    auto ref = r_->pool().memberRef(in.cp());
    size_t depth = 0;
    std::vector<Shadow> args = arguments(i, ref, in.op == Op::invokestatic, depth);
    int32_t selector = ids_.selector(ref.name, ref.descriptor);
    Patch p = patch();
    loadState(p, *m_);
    size_t n = std::min<size_t>(args.size(), kMaxArgs);
    for (size_t k = 4; k < n; ++k) {
      pushShadow(p, args[k], *m_).pushInt(static_cast<int32_t>(k));
      p.invokeStatic(kFlowClass, "arg", "(" + kS + "JI)" + kS);
    }
    size_t direct = std::min<size_t>(n, 4);
    std::string desc = "(" + kS;
    for (size_t k = 0; k < direct; ++k) {
      pushShadow(p, args[k], *m_);
      desc += 'J';
    }
    if (direct == 0) p.add(Op::pop);
    if (direct > 0) {
      p.pushInt(selector).invokeStatic(kFlowClass, "call" + std::to_string(direct), desc + "I)V");
    }
    loadState(p, *m_).load("I", chain_).pushInt(selector);
    p.invokeStatic(kCostClass, "call", "(" + kS + "II)V");
    r_->before(i, p);
    if (in.op == Op::invokespecial && ref.name == "<init>") bindDenied(i, depth);
    if (plan_.produced[i] == kNoLocal) return;
    Patch after = patch();
    loadState(after, *m_).pushInt(selector);
    after.invokeStatic(kFlowClass, "result", "(" + kS + "I)J");
    r_->after(i, after.store("J", plan_.produced[i]));
  }

  // A native node: it consumes the arguments (not the receiver: a base pointer) and makes
  // the result.
  void nativeCall(uint32_t i) {
    flow::CallArgs a = flow::callArgs(*m_, i);
    bool instance = r_->insn(i).op != Op::invokestatic && r_->insn(i).op != Op::invokedynamic;
    // A call that takes no value but its receiver and returns none (Object.<init>) makes no
    // node: nothing flows into or out of it.
    auto ref = r_->pool().memberRef(r_->insn(i).cp());
    if (a.shadow.size() <= (instance ? 1u : 0u) && returnKind(ref.descriptor) == 'V') return;
    uint32_t n = node(i);
    for (size_t k = instance ? 1 : 0; k < a.shadow.size(); ++k) dependOn(n, true, a.shadow[k], i);
  }

  void passThrough(uint32_t i) {
    const classfile::Insn& in = r_->insn(i);
    auto s = summaryAt(i, r_->pool().memberRef(in.cp()), in.op == Op::invokestatic);
    flow::CallArgs a = flow::callArgs(*m_, i);
    if (plan_.produced[i] == kNoLocal) return;
    Patch after = patch();
    if (s && flow::hasArg(s->src, a)) {
      pushShadow(after, a.shadow[static_cast<size_t>(s->src)], *m_);
    } else {
      after.add(Op::lconst_0);
    }
    r_->after(i, after.store("J", plan_.produced[i]));
  }

  // clone(), Arrays.copyOf*, reflective allocations: the result is a new object of this
  // site; an array copy's elements come from the original's.
  void allocationCall(uint32_t i) {
    const classfile::Insn& in = r_->insn(i);
    auto ref = r_->pool().memberRef(in.cp());
    node(i);  // the allocation node: the result's shadow (rules)
    uint32_t site = sites_[i];
    bool clone = contexts::isCloneCall(r_->pool(), in);
    auto s = clone ? std::nullopt : summaryAt(i, ref, in.op == Op::invokestatic);
    flow::CallArgs args = flow::callArgs(*m_, i);
    int8_t src = clone ? 0 : (s ? s->src : flow::kNone);
    bool copies = clone || (s && s->kind == SK::CopyOf);
    std::vector<uint16_t> l = copies && flow::isRefArg(src, args) ? flow::parkArgs(*m_, i, args)
                                                                  : std::vector<uint16_t>{};
    // super.clone() in a class with the tag field: the copy's tag goes there.
    bool field = clone && !ref.owner.starts_with("[") && thisHasTag();
    Patch after = patch();
    after.add(Op::dup);
    loadState(after, *m_).pushInt(static_cast<int32_t>(site));
    pushContext(after, *m_).add(field ? Op::iconst_1 : Op::iconst_0);
    after.invokeStatic(kCostClass, "tagCopy", "(Ljava/lang/Object;" + kS + "IIZ)I");
    if (field) {
      std::string name(cls_.name());
      uint16_t t = m_->scratch("I");
      after.store("I", t).add(Op::dup).add(Op::checkcast, classfile::raw(cls_.pool.addClass(name)));
      after.load("I", t).putField(name, flow::kTagField, "I");
    } else {
      after.add(Op::pop);
    }
    if (!l.empty()) copyElements(i, after, l[static_cast<size_t>(src)], s, l, true);
    r_->after(i, after);
  }

  // System.arraycopy: a load of the source's elements and a store into the destination's.
  void arrayCopy(uint32_t i) {
    const classfile::Insn& in = r_->insn(i);
    auto s = summaryAt(i, r_->pool().memberRef(in.cp()), in.op == Op::invokestatic);
    flow::CallArgs a = flow::callArgs(*m_, i);
    if (!s || !flow::isRefArg(s->src, a) || !flow::isRefArg(s->dst, a) ||
        !flow::hasArg(s->length, a)) {
      return nativeCall(i);
    }
    std::vector<uint16_t> l = flow::parkArgs(*m_, i, a);
    Patch after = patch();
    copyElements(i, after, l[static_cast<size_t>(s->src)], s, l, false);
    r_->after(i, after);
  }

  // The load and store nodes of a summarised element copy, counted once per element in a
  // block of their own: after an allocating copy the copy is on the stack (`result`).
  void copyElements(uint32_t i, Patch& after, uint16_t src, const std::optional<flow::Summary>& s,
                    const std::vector<uint16_t>& l, bool result) {
    uint32_t block = cost_.blocks(1);
    uint32_t load = extraNode(i, NodeKind::LoadField, block),
             store = extraNode(i, NodeKind::StoreField, block);
    if (load == 0 || store == 0 || block == 0) return;
    if (edgeSeen_.insert({store, load, true}).second) edges_.push_back({store, load, true});
    if (result) after.add(Op::dup);
    uint16_t dst = result ? m_->scratch(kObjectDesc, 'd') : l[static_cast<size_t>(s->dst)];
    if (result) after.store(kObjectDesc, dst);
    loadState(after, *m_);
    pushInstance(after, block, false);
    pushInstance(after, load, false);
    pushInstance(after, store, false).load(kObjectDesc, src);
    // A position the summary does not name is 0 (a clone, copyOf from the start).
    auto position = [&](int8_t pos) {
      if (s && pos >= 0 && static_cast<size_t>(pos) < l.size()) {
        after.load("I", l[static_cast<size_t>(pos)]);
      } else {
        after.add(Op::iconst_0);
      }
    };
    if (result) {
      after.load(kObjectDesc, dst);
      position(s ? s->srcPos : flow::kNone);
      after.invokeStatic(kCostClass, "copyOf",
                         "(" + kS + "IIILjava/lang/Object;Ljava/lang/Object;I)V");
    } else {
      position(s->srcPos);
      after.load(kObjectDesc, dst);
      position(s->dstPos);
      after.load("I", l[static_cast<size_t>(s->length)]);
      after.invokeStatic(kCostClass, "arraycopy",
                         "(" + kS + "IIILjava/lang/Object;ILjava/lang/Object;II)V");
    }
  }

  void returnValue(uint32_t i) {
    Patch p = patch();
    loadState(p, *m_);
    Op op = r_->insn(i).op;
    pushShadow(p, m_->operand(i, op == Op::lreturn || op == Op::dreturn ? 2 : 1), *m_);
    p.pushInt(selector_).invokeStatic(kFlowClass, "ret", "(" + kS + "JI)V");
    r_->before(i, p);
  }

  CostIds& cost_;
  std::map<uint32_t, uint32_t> nodeOf_;     // instruction -> its node
  std::map<uint32_t, CallKind> callKinds_;  // instruction -> how its call is treated
  std::vector<NodeOut> nodes_;
  std::vector<EdgeOut> edges_;
  std::set<std::tuple<uint32_t, uint32_t, bool>> edgeSeen_;
  std::set<uint32_t> leaders_;
  std::vector<uint32_t> blockOfInsn_;
  uint32_t blockBase_ = 0;
  uint32_t current_ = 0;              // the instruction being instrumented
  const Routine* routine_ = nullptr;  // the method begun last (methodId)
  uint16_t chain_ = kNoLocal, slot_ = kNoLocal;
};

}  // namespace

contexts::ClassResult instrumentClass(classfile::ClassFile& cls, contexts::IdSource& ids,
                                      flow::FlowIds& flowIds, CostIds& costIds,
                                      const ProbeOptions& options) {
  CostExtension ext(cls, flowIds, costIds, options);
  contexts::Options o;
  o.extensions = {&ext};
  contexts::ClassResult out = contexts::instrumentClass(cls, ids, o);
  ext.flush();
  return out;
}

}  // namespace dragnet::analyses::cost
