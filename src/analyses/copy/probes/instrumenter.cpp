#include "analyses/copy/probes/instrumenter.h"

#include <algorithm>
#include <map>
#include <optional>

#include "analyses/copy/probes/copy_code.h"
#include "analyses/copy/probes/summary_probes.h"
#include "flow/extension.h"
#include "flow/tag_field.h"
#include "instrument/descriptor.h"
#include "instrument/stack_effect.h"

namespace dragnet::analyses::copy {

using classfile::Op;
using flow::kNoLocal;
using flow::kObjectDesc;
using flow::MethodProbes;
using flow::Shadow;
using instrument::Patch;
using instrument::Routine;

namespace {

constexpr const char* kStateDesc = contexts::kStateDesc;

int opIndex(Op op) { return static_cast<int>(op); }
bool between(Op op, Op lo, Op hi) {
  return opIndex(op) >= opIndex(lo) && opIndex(op) <= opIndex(hi);
}

bool isArrayLoad(Op op) { return between(op, Op::iaload, Op::saload); }
bool isArrayStore(Op op) { return between(op, Op::iastore, Op::sastore); }

// The value descriptor of an array load/store's element ("I", "J", ...; references "A").
const char* arrayValueDesc(Op op) {
  static const char* const kDesc[] = {"I", "J", "F", "D", kObjectDesc, "I", "I", "I"};
  int k = isArrayLoad(op) ? opIndex(op) - opIndex(Op::iaload) : opIndex(op) - opIndex(Op::iastore);
  return kDesc[k];
}

// Instructions whose operands are consumed (computations, predicates): their operands'
// nodes flow to C.
bool consumes(Op op) {
  if (between(op, Op::iadd, Op::lxor)) return true;       // arithmetic, shifts, logic
  if (between(op, Op::i2l, Op::i2s)) return true;         // conversions
  if (between(op, Op::lcmp, Op::if_acmpne)) return true;  // compares and branches
  switch (op) {
    case Op::ifnull:
    case Op::ifnonnull:
    case Op::tableswitch:
    case Op::lookupswitch:
    case Op:: instanceof:
      return true;
    default:
      return false;
  }
}

// What copy profiling makes nodes of (Fig. 9): loads, allocations and call results.
class CopyRules : public flow::ShadowRules {
 public:
  explicit CopyRules(flow::FlowIds& ids) : ids_(ids) {}

  flow::ResultRule result(const Routine& r, uint32_t i) override {
    using K = flow::ResultRule::Kind;
    const classfile::Insn& in = r.insn(i);
    switch (in.op) {
      case Op::getfield:
      case Op::new_:
      case Op::newarray:
      case Op::anewarray:
      case Op::multianewarray:
        return {K::Produced, 0};
      case Op::getstatic: {
        auto ref = r.pool().memberRef(in.cp());
        return {K::Const, flow::staticNode(ids_.field(ref.owner, ref.name, ref.descriptor, true))};
      }
      case Op::invokevirtual:
      case Op::invokespecial:
      case Op::invokestatic:
      case Op::invokeinterface:
      case Op::invokedynamic:
        return {K::Produced, 0};
      default:
        return isArrayLoad(in.op) ? flow::ResultRule{K::Produced, 0} : flow::ResultRule{};
    }
  }

 private:
  flow::FlowIds& ids_;
};

class CopyExtension : public flow::FlowExtension {
 public:
  CopyExtension(classfile::ClassFile& cls, flow::FlowIds& ids, const ProbeOptions& o)
      : FlowExtension(cls, ids, o.rootClass), rules_(ids) {}

  // A leaf (no call, no allocation) keeps a frame only if it may copy (a store of a value
  // with a node): its copies are its own context's. Other leaves with flow probes (getters)
  // get the thread's state without a frame (leafEntry).
  bool needsFrame(Routine& r) override {
    const flow::ShadowPlan* p = planFor(r);
    return p && storesNodes(r, *p);
  }

 protected:
  flow::ShadowRules& rules() override { return rules_; }

 private:
  // Whether a reached heap store may store a value with a node.
  static bool storesNodes(Routine& r, const flow::ShadowPlan& p) {
    for (const instrument::Instruction& in : r.instructions()) {
      if (!p.reached[in.index]) continue;
      const classfile::Insn& insn = r.insn(in.index);
      if (insn.op != Op::putfield && insn.op != Op::putstatic && !isArrayStore(insn.op)) continue;
      const auto& st = p.stack[in.index];
      bool wide = insn.op == Op::lastore || insn.op == Op::dastore;
      if (insn.op == Op::putfield || insn.op == Op::putstatic) {
        auto ref = r.pool().memberRef(insn.cp());
        wide = instrument::slotSize(ref.descriptor) == 2;
      }
      size_t at = wide ? 2 : 1;
      if (st.size() >= at && !st[st.size() - at].isBottom()) return true;
    }
    return false;
  }

  // --- entry -----------------------------------------------------------------------------

  // The transfer taken, and in a method that allocates, its context: the receiver's
  // allocation site, after super() in constructors.
  void enter(Patch& p) override {
    loadState(p, *m_).pushInt(selector_).pushInt(static_cast<int32_t>(methodKey()));
    p.invokeStatic(kFlowClass, "take", std::string("(") + kStateDesc + "II)V");
    takeParams(p);
    bool instance = (r_->access() & classfile::kAccStatic) == 0;
    if (sites_.empty() || !instance) return;
    std::optional<uint16_t> c = r_->liveLocal("I");
    if (!c) return;
    context_ = *c;
    m_->context = context_;
    p.add(Op::iconst_0).store("I", context_);
  }
  void entered() override {
    if (context_ == kNoLocal) return;
    Patch c = patch();
    c.add(Op::aload_0);
    pushTag(c, thisTagOwner(), *m_)
        .invokeStatic(kFlowClass, "context", "(I)I")
        .store("I", context_);
    r_->atEntry(c, instrument::ConstructorEntry::AfterSuperCall);
  }

  // --- instructions ----------------------------------------------------------------------

  void instruction(uint32_t i) override {
    const classfile::Insn& in = r_->insn(i);
    if (consumes(in.op)) useOperands(i);
    if (in.op == Op::iinc) useLocal(i, static_cast<uint32_t>(in.a));
    switch (in.op) {
      case Op::getfield:
        getField(i);
        break;
      case Op::putfield:
        putField(i);
        break;
      case Op::putstatic:
        putStatic(i);
        break;
      case Op::new_:
        newObject(i);
        break;
      case Op::newarray:
      case Op::anewarray:
      case Op::multianewarray:
        newArray(i);
        break;
      case Op::invokevirtual:
      case Op::invokespecial:
      case Op::invokestatic:
      case Op::invokeinterface:
        invoke(i);
        break;
      case Op::invokedynamic:
        useOperands(i);
        callNone(i);
        break;
      default:
        if (isArrayLoad(in.op)) arrayLoad(i);
        if (isArrayStore(in.op)) arrayStore(i);
        if (instrument::isReturn(in.op) && in.op != Op::return_) returnValue(i);
        break;
    }
    blockEnd(i);
  }

  // Every popped word whose shadow is a node: the node flows to C. (A value's node is on
  // its first word; the second word of a long or double is always Bottom.)
  void useOperands(uint32_t i) {
    auto e = instrument::stackEffect(r_->insn(i), r_->pool());
    if (!e) return;
    Patch p = patch();
    for (int w = 1; w <= e->pop; ++w) {
      Shadow s = m_->operand(i, static_cast<size_t>(w));
      if (s.isBottom()) continue;
      loadState(p, *m_);
      callRecord(pushShadow(p, s, *m_), "use");
    }
    if (!p.empty()) r_->before(i, p);
  }

  void useLocal(uint32_t i, uint32_t slot) {
    const auto& l = plan_.locals[i];
    if (slot >= l.size() || l[slot].isBottom()) return;
    Patch p = patch();
    loadState(p, *m_);
    callRecord(pushShadow(p, l[slot], *m_), "use");
    r_->before(i, p);
  }

  void getField(uint32_t i) {
    auto ref = r_->pool().memberRef(r_->insn(i).cp());
    uint32_t field = ids_.field(ref.owner, ref.name, ref.descriptor, false);
    uint16_t x = m_->scratch(kObjectDesc);
    Patch before = patch();
    before.add(Op::dup).store(kObjectDesc, x);
    r_->before(i, before);
    Patch after = patch();
    after.load(kObjectDesc, x);
    composeNode(pushTag(after, ref.owner, *m_), field).store("J", plan_.produced[i]);
    r_->after(i, after);
  }

  void putField(uint32_t i) {
    auto ref = r_->pool().memberRef(r_->insn(i).cp());
    Shadow v = m_->operand(i, static_cast<size_t>(instrument::slotSize(ref.descriptor)));
    if (v.isBottom()) return;
    uint32_t field = ids_.field(ref.owner, ref.name, ref.descriptor, false);
    Patch after = patch();
    loadState(after, *m_);
    pushShadow(after, v, *m_);
    if (beforeSuper(i)) {
      // `this` is not initialized yet (this$0 and the like): the tag is still pending.
      loadState(after, *m_)
          .invokeStatic(kFlowClass, "pendingTag", std::string("(") + kStateDesc + ")I");
    } else {
      uint16_t x = flow::parkFieldStoreObject(*m_, i, ref.descriptor);
      after.load(kObjectDesc, x);
      pushTag(after, ref.owner, *m_);
    }
    callRecord(composeNode(after, field), "store");
    r_->after(i, after);
  }

  void putStatic(uint32_t i) {
    auto ref = r_->pool().memberRef(r_->insn(i).cp());
    Shadow v = m_->operand(i, static_cast<size_t>(instrument::slotSize(ref.descriptor)));
    if (v.isBottom()) return;
    Patch after = patch();
    loadState(after, *m_);
    pushShadow(after, v, *m_)
        .pushLong(static_cast<int64_t>(
            flow::staticNode(ids_.field(ref.owner, ref.name, ref.descriptor, true))));
    r_->after(i, callRecord(after, "store"));
  }

  void arrayLoad(uint32_t i) {
    uint16_t x = m_->scratch(kObjectDesc);
    Patch before = patch();
    before.add(Op::dup2).add(Op::pop).store(kObjectDesc, x);
    r_->before(i, before);
    Patch after = patch();
    after.load(kObjectDesc, x);
    pushElementNode(after, *m_).store("J", plan_.produced[i]);
    r_->after(i, after);
  }

  void arrayStore(uint32_t i) {
    Op op = r_->insn(i).op;
    const char* desc = arrayValueDesc(op);
    Shadow v = m_->operand(i, static_cast<size_t>(instrument::slotSize(desc)));
    if (v.isBottom()) return;
    uint16_t val = m_->scratch(desc, 'v'), x = m_->scratch(kObjectDesc);
    Patch before = patch();
    before.store(desc, val).add(Op::dup2).add(Op::pop).store(kObjectDesc, x).load(desc, val);
    r_->before(i, before);
    Patch after = patch();
    loadState(after, *m_);
    pushShadow(after, v, *m_).load(kObjectDesc, x);
    r_->after(i, callRecord(pushElementNode(after, *m_), "store"));
  }

  // A call through the transfer area: the arguments' shadows and the callee's selector
  // before, the result's shadow after.
  void invoke(uint32_t i) {
    const classfile::Insn& in = r_->insn(i);
    auto ref = r_->pool().memberRef(in.cp());
    if (contexts::isCloneCall(r_->pool(), in) && sites_.count(i)) return cloneCall(i);
    if (auto s = summaryAt(i, ref, in.op == Op::invokestatic)) {
      return applySummary(*m_, i, *s);
    }
    size_t depth = 0;  // words from the top to the receiver or first argument
    std::vector<Shadow> args = arguments(i, ref, in.op == Op::invokestatic, depth);
    if (args.empty() && !instrument::parseMethodDescriptor(ref.descriptor)) return;
    int32_t selector = ids_.selector(ref.name, ref.descriptor);
    Patch p = patch();
    bool any = std::any_of(args.begin(), args.end(), [](const Shadow& s) { return !s.isBottom(); });
    loadState(p, *m_);
    if (!any) {
      p.invokeStatic(kFlowClass, "call0", std::string("(") + kStateDesc + ")V");
    } else {
      size_t n = std::min<size_t>(args.size(), kMaxArgs);
      for (size_t k = 4; k < n; ++k) {
        pushShadow(p, args[k], *m_).pushInt(static_cast<int32_t>(k));
        p.invokeStatic(kFlowClass, "arg", std::string("(") + kStateDesc + "JI)" + kStateDesc);
      }
      size_t direct = std::min<size_t>(n, 4);
      std::string desc = std::string("(") + kStateDesc;
      for (size_t k = 0; k < direct; ++k) {
        pushShadow(p, args[k], *m_);
        desc += 'J';
      }
      p.pushInt(selector).invokeStatic(kFlowClass, "call" + std::to_string(direct), desc + "I)V");
    }
    r_->before(i, p);
    if (in.op == Op::invokespecial && ref.name == "<init>") bindDenied(i, depth);
    if (plan_.produced[i] == kNoLocal) return;
    Patch after = patch();
    loadState(after, *m_).pushInt(selector);
    after.invokeStatic(kFlowClass, "result", std::string("(") + kStateDesc + "I)J");
    r_->after(i, after.store("J", plan_.produced[i]));
  }

  // invokedynamic: the call site is linked by the JVM; nothing of it is followed.
  void callNone(uint32_t i) {
    Patch p = patch();
    loadState(p, *m_).invokeStatic(kFlowClass, "call0", std::string("(") + kStateDesc + ")V");
    r_->before(i, p);
    if (plan_.produced[i] == kNoLocal) return;
    // A reference result is an object the call site made (string concatenation) or got:
    // its allocation node if it has a tag (a lambda's hidden class has none).
    auto ref = r_->pool().memberRef(r_->insn(i).cp());
    Patch z = patch();
    char ret = ref.descriptor.empty() ? 'V' : ref.descriptor[ref.descriptor.find(')') + 1];
    if (ret == 'L' || ret == '[') {
      z.add(Op::dup);
      loadState(z, *m_).invokeStatic(kFlowClass, "nodeOf",
                                     std::string("(Ljava/lang/Object;") + kStateDesc + ")J");
    } else {
      z.add(Op::lconst_0);
    }
    r_->after(i, z.store("J", plan_.produced[i]));
  }

  // array.clone() / super.clone() reaching Object.clone: the copy is a new object (this
  // site), its elements or fields copied from the original.
  void cloneCall(uint32_t i) {
    auto ref = r_->pool().memberRef(r_->insn(i).cp());
    // super.clone() in a class with the tag field: its probe stores the copy's tag there.
    bool field = !ref.owner.starts_with("[") && thisHasTag();
    uint16_t x = m_->scratch(kObjectDesc), t = m_->scratch("I");
    Patch before = patch();
    before.add(Op::dup).store(kObjectDesc, x);
    loadState(before, *m_).invokeStatic(kFlowClass, "call0", std::string("(") + kStateDesc + ")V");
    r_->before(i, before);
    Patch after = patch();
    after.add(Op::dup).load(kObjectDesc, x);
    if (field) {  // the original is `this` or one of its subclass: its tag is in the field
      std::string name(cls_.name());
      after.load(kObjectDesc, x).add(Op::checkcast, classfile::raw(cls_.pool.addClass(name)));
      after.getField(name, flow::kTagField, "I");
    } else {
      after.add(Op::iconst_0);
    }
    loadState(after, *m_).pushInt(static_cast<int32_t>(sites_[i]));
    pushContext(after, *m_).add(field ? Op::iconst_1 : Op::iconst_0);
    after.invokeStatic(
        kCopyClass, "cloned",
        std::string("(Ljava/lang/Object;Ljava/lang/Object;I") + kStateDesc + "IIZ)I");
    after.store("I", t);
    if (field) {
      std::string name(cls_.name());  // the pool may grow below
      after.add(Op::dup).add(Op::checkcast, classfile::raw(cls_.pool.addClass(name)));
      after.load("I", t).putField(name, flow::kTagField, "I");
    }
    if (plan_.produced[i] != kNoLocal) {
      after.load("I", t);
      composeNode(after, 0).store("J", plan_.produced[i]);
    }
    r_->after(i, after);
  }

  void returnValue(uint32_t i) {
    Patch p = patch();
    loadState(p, *m_);
    pushShadow(
        p, m_->operand(i, r_->insn(i).op == Op::lreturn || r_->insn(i).op == Op::dreturn ? 2 : 1),
        *m_);
    p.pushInt(selector_).invokeStatic(kFlowClass, "ret", std::string("(") + kStateDesc + "JI)V");
    r_->before(i, p);
  }

  CopyRules rules_;
};

}  // namespace

contexts::ClassResult instrumentClass(classfile::ClassFile& cls, contexts::IdSource& ids,
                                      flow::FlowIds& flowIds, const ProbeOptions& options) {
  CopyExtension ext(cls, flowIds, options);
  contexts::Options o;
  o.bytecodes = options.bytecodes;
  o.extensions = {&ext};
  return contexts::instrumentClass(cls, ids, o);
}

}  // namespace dragnet::analyses::copy
