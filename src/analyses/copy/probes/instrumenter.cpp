#include "analyses/copy/probes/instrumenter.h"

#include <algorithm>
#include <map>
#include <optional>

#include "analyses/copy/probes/probe_code.h"
#include "analyses/copy/probes/summary_probes.h"
#include "flow/shadow_plan.h"
#include "flow/summaries.h"
#include "flow/tag_field.h"
#include "instrument/code_editor.h"
#include "instrument/descriptor.h"
#include "instrument/stack_effect.h"

namespace dragnet::analyses::copy {

using classfile::Op;
using flow::Shadow;
using instrument::Patch;
using instrument::Routine;

namespace {

constexpr const char* kStateDesc = contexts::kStateDesc;
constexpr uint16_t kNone = kNoLocal;

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

class CopyExtension : public contexts::Extension {
 public:
  CopyExtension(classfile::ClassFile& cls, flow::FlowIds& ids, const ProbeOptions& o)
      : cls_(cls), ids_(ids), options_(o) {}

  // Asked first for every method: a new routine begins.
  uint32_t methodId(Routine& r, uint32_t id) override {
    sites_.clear();
    summaries_.clear();
    m_.reset();
    planned_ = nullptr;
    deniedNews_.clear();
    superCall_.reset();
    superCallFound_ = false;
    context_ = kNone;
    light_ = false;
    id_ = r.name() == "<init>" ? id | contexts::kConstructorBit : id;
    return id_;
  }
  // A leaf (no call, no allocation) keeps a frame only if it may copy (a store of a value
  // with a node): its copies are its own context's. Other leaves with flow probes (getters)
  // get the thread's state without a frame (leafEntry).
  bool needsFrame(Routine& r) override {
    const flow::ShadowPlan* p = planFor(r);
    return p && storesNodes(r, *p);
  }
  bool leafEntry(Routine& r, uint32_t methodId) override {
    if (!planFor(r)) return false;
    std::optional<uint16_t> s = r.liveLocal(kStateDesc);
    if (!s) return false;
    Patch p = r.newPatch();
    p.pushInt(static_cast<int32_t>(methodId));
    p.invokeStatic(kFlowClass, "leaf", std::string("(I)") + kStateDesc).store(kObjectDesc, *s);
    r.atEntry(p, instrument::ConstructorEntry::BeforeSuperCall);
    method(r, *s);
    return true;
  }
  const char* receiverEnter(Routine&) override { return nullptr; }
  bool site(Routine&, const instrument::Instruction&, uint32_t, uint16_t) override { return false; }
  // A summarised copy (Arrays.copyOf*) is named by its call.
  // (Asked for every call of the method: its summary is looked up here, once.)
  bool callSite(Routine& r, const instrument::Instruction& in, std::string& type) override {
    const classfile::Insn& insn = r.insn(in.index);
    auto ref = r.pool().memberRef(insn.cp());
    auto s = flow::summaryAt(ref.owner, ref.name, ref.descriptor, insn.op == Op::invokestatic);
    summaries_[in.index] = s;
    if (!s || s->kind != flow::Summary::Kind::CopyOf) return false;
    type = std::string(ref.descriptor.substr(ref.descriptor.find(')') + 1));
    return true;
  }
  void allocation(Routine&, const instrument::Instruction& in, uint32_t key) override {
    sites_[in.index] = key >> 4 & 0x7FFFFFF;
  }
  void unframed(Routine&) override {}
  bool lighten(Routine&, std::string& what) override {
    if (light_) return false;
    light_ = true;
    what = "its flow probes left out, flows through it are cut";
    return true;
  }

  void method(Routine& r, uint16_t state) override {
    r_ = &r;
    state_ = state;
    context_ = kNone;
    if (options_.rootClass && r.name() == "<init>") claimTag();
    if (light_) return;
    if (!planFor(r)) {
      if (!unshadowed_) return;  // not plannable: flows through it are cut
      // A summarised call names the object the method makes: nothing to tag here.
      auto own = flow::summaryAt(cls_.name(), r.name(), r.descriptor(),
                                 (r.access() & classfile::kAccStatic) != 0);
      if (own && own->newObject) return;
      return tagAllocations();
    }
    m_.emplace(MethodProbes{r, state, kNoLocal, plan_, ids_, sites_, {}});
    selector_ = ids_.selector(r.name(), r.descriptor());
    entry();
    for (const instrument::Instruction& in : r.instructions()) {
      if (plan_.reached[in.index]) instruction(in.index);
    }
  }

 private:
  // The routine's shadow plan, made once per routine (needsFrame asks before method());
  // null for a body without flow probes (unshadowed_) or one that cannot be planned.
  const flow::ShadowPlan* planFor(Routine& r) {
    if (planned_ != &r) {
      planned_ = &r;
      unshadowed_ =
          flow::bodyUnshadowed(cls_.name(), r.name(), r.descriptor(), intrinsicCandidate(r));
      plan_ = {};
      if (!unshadowed_ && !light_) {
        CopyRules rules(ids_);
        plan_ = flow::planShadows(r, rules);
      }
    }
    return plan_.ok ? &plan_ : nullptr;
  }

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

  // --- patches ---------------------------------------------------------------------------

  Patch patch() { return r_->newPatch(); }

  static bool intrinsicCandidate(Routine& r) {
    auto* a = classfile::findAttr<classfile::RuntimeVisibleAnnotationsAttr>(r.member().attributes);
    if (!a) return false;
    return std::any_of(a->annotations.begin(), a->annotations.end(), [&](const auto& an) {
      return r.pool().utf8(an.type) == "Ljdk/internal/vm/annotation/IntrinsicCandidate;";
    });
  }

  // A body without flow probes (a summarised method's: its calls apply the summary) still
  // tags what it allocates, so that the objects it returns have names.
  void tagAllocations() {
    for (const instrument::Instruction& in : r_->instructions()) {
      auto site = sites_.find(in.index);
      if (site == sites_.end()) continue;
      Op op = r_->insn(in.index).op;
      Patch p = patch();
      if (op == Op::new_) {
        if (flow::isDeniedTagClass(r_->pool().className(r_->insn(in.index).cp()))) continue;
        p.load(kObjectDesc, state_).pushInt(static_cast<int32_t>(site->second)).add(Op::iconst_0);
        p.invokeStatic(kFlowClass, "newObject", std::string("(") + kStateDesc + "II)J")
            .add(Op::pop2);
        r_->before(in.index, p);
      } else if (op == Op::newarray || op == Op::anewarray || op == Op::multianewarray) {
        p.add(Op::dup).load(kObjectDesc, state_).pushInt(static_cast<int32_t>(site->second));
        p.add(Op::iconst_0)
            .invokeStatic(kFlowClass, "newArray",
                          std::string("(Ljava/lang/Object;") + kStateDesc + "II)J");
        r_->after(in.index, p.add(Op::pop2));
      }
    }
  }

  // Whether `getfield ThisClass.dragnet$tag` resolves (not in interfaces' default methods).
  bool thisHasTag() const {
    return (cls_.access & 0x0200) == 0 && !flow::isDeniedTagClass(cls_.name());
  }
  // The class to name in `getfield C.dragnet$tag` on `this`: the field's own class for a
  // root class, else the superclass, which has the field too (by inheritance). Not the
  // class itself: the JVM's generated reflection accessors (MagicAccessorImpl's subclasses)
  // cannot resolve their own name through their loader.
  std::string thisTagOwner() const {
    if (!thisHasTag()) return "[";  // the side table
    if (options_.rootClass || cls_.superClass == classfile::CpIndex{})
      return std::string(cls_.name());
    return std::string(cls_.pool.className(cls_.superClass));
  }

  // --- entry -----------------------------------------------------------------------------

  // Canonical locals zeroed, parameters taken, and the frame's context.
  void entry() {
    Patch p = patch();
    for (uint16_t l : plan_.canonical) p.add(Op::lconst_0).store("J", l);
    if (vmEntry()) keepTransfer();
    loadState(p, *m_).pushInt(selector_).pushInt(static_cast<int32_t>(methodKey()));
    p.invokeStatic(kFlowClass, "take", std::string("(") + kStateDesc + "II)V");
    for (auto [slot, canon] : plan_.params) {
      if (paramIndex(slot) >= kMaxArgs) continue;
      loadState(p, *m_).pushInt(paramIndex(slot));
      p.invokeStatic(kFlowClass, "param", std::string("(") + kStateDesc + "I)J").store("J", canon);
    }
    bool instance = (r_->access() & classfile::kAccStatic) == 0;
    if (!sites_.empty() && instance) {
      std::optional<uint16_t> c = r_->liveLocal("I");
      if (c) {
        context_ = *c;
        m_->context = context_;
        p.add(Op::iconst_0).store("I", context_);
      }
    }
    r_->atEntry(p, instrument::ConstructorEntry::BeforeSuperCall);
    if (context_ == kNone) return;
    Patch c = patch();
    c.add(Op::aload_0);
    pushTag(c, thisTagOwner(), *m_)
        .invokeStatic(kFlowClass, "context", "(I)I")
        .store("I", context_);
    r_->atEntry(c, instrument::ConstructorEntry::AfterSuperCall);
  }

  // Methods the JVM calls by itself, possibly between a caller's transfer and its callee's
  // entry (resolving the call loads a class, initializes one, links a method handle).
  bool vmEntry() const {
    std::string_view n = r_->name(), d = r_->descriptor(), c = cls_.name();
    return n == "<clinit>" || (n == "loadClass" && d == "(Ljava/lang/String;)Ljava/lang/Class;") ||
           c == "java/lang/invoke/MethodHandleNatives" ||
           (c == "java/lang/ClassLoader" && n == "addClass");
  }
  // DragnetFlow.save at entry, restore at every exit.
  void keepTransfer() {
    Patch save = patch();
    loadState(save, *m_).invokeStatic(kFlowClass, "save", std::string("(") + kStateDesc + ")V");
    r_->atEntry(save, instrument::ConstructorEntry::BeforeSuperCall);
    Patch restore = patch();
    loadState(restore, *m_)
        .invokeStatic(kFlowClass, "restore", std::string("(") + kStateDesc + ")V");
    r_->beforeReturns(restore);
    r_->onExceptionalExit(restore);
  }

  // The position of the parameter in local `slot` in the transfer area.
  int32_t paramIndex(uint16_t slot) const {
    for (size_t k = 0; k < plan_.params.size(); ++k) {
      if (plan_.params[k].first == slot) return static_cast<int32_t>(k);
    }
    return kMaxArgs;
  }
  uint32_t methodKey() const { return id_; }

  // Root classes: this.dragnet$tag = DragnetFlow.claim(this, S) right after super().
  void claimTag() {
    std::optional<uint32_t> call = superCall();
    if (!call) return;
    auto ref = r_->pool().memberRef(r_->insn(*call).cp());
    if (ref.owner == cls_.name()) return;  // this(...): the constructor it calls claims
    Patch p = patch();
    p.add(Op::aload_0).add(Op::aload_0);
    p.load(kObjectDesc, state_)
        .invokeStatic(kFlowClass, "claim", std::string("(Ljava/lang/Object;") + kStateDesc + ")I");
    p.putField(cls_.name(), flow::kTagField, "I");
    r_->atEntry(p, instrument::ConstructorEntry::AfterSuperCall);
  }

  // --- instructions ----------------------------------------------------------------------

  void instruction(uint32_t i) {
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
      callRecord(pushShadow(p, s), "use");
    }
    if (!p.empty()) r_->before(i, p);
  }

  void useLocal(uint32_t i, uint32_t slot) {
    const auto& l = plan_.locals[i];
    if (slot >= l.size() || l[slot].isBottom()) return;
    Patch p = patch();
    loadState(p, *m_);
    callRecord(pushShadow(p, l[slot]), "use");
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
    pushShadow(after, v);
    if (beforeSuper(i)) {
      // `this` is not initialized yet (this$0 and the like): the tag is still pending.
      loadState(after, *m_)
          .invokeStatic(kFlowClass, "pendingTag", std::string("(") + kStateDesc + ")I");
    } else {
      std::string desc(ref.descriptor[0] == 'L' || ref.descriptor[0] == '[' ? kObjectDesc
                                                                            : ref.descriptor);
      uint16_t val = m_->scratch(desc, 'v'), x = m_->scratch(kObjectDesc);
      Patch before = patch();
      before.store(desc, val).add(Op::dup).store(kObjectDesc, x).load(desc, val);
      r_->before(i, before);
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
    pushShadow(after, v).pushLong(static_cast<int64_t>(
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
    pushShadow(after, v).load(kObjectDesc, x);
    r_->after(i, callRecord(pushElementNode(after, *m_), "store"));
  }

  void newObject(uint32_t i) {
    auto site = sites_.find(i);
    if (site == sites_.end() || plan_.produced[i] == kNone) return;
    // A denied class has no field: its tag goes to the side table after its constructor.
    bool denied = flow::isDeniedTagClass(r_->pool().className(r_->insn(i).cp()));
    if (denied) deniedNews_.push_back(plan_.produced[i]);
    Patch p = patch();
    loadState(p, *m_).pushInt(static_cast<int32_t>(site->second));
    pushContext(p, *m_).invokeStatic(kFlowClass, denied ? "newDenied" : "newObject",
                                     std::string("(") + kStateDesc + "II)J");
    r_->before(i, p.store("J", plan_.produced[i]));
  }

  // After `invokespecial <init>` of an object of a denied class made by a `new` of this
  // method, when its other copy (javac's `new; dup`) is on top: its tag in the side table.
  void bindDenied(uint32_t i, size_t receiverDepth) {
    Shadow recv = m_->operand(i, receiverDepth), below = m_->operand(i, receiverDepth + 1);
    if (recv.kind != Shadow::Kind::Local || !(below == recv)) return;
    if (std::find(deniedNews_.begin(), deniedNews_.end(), recv.local) == deniedNews_.end()) return;
    Patch p = patch();
    p.add(Op::dup);
    loadState(p, *m_).load("J", recv.local);
    p.invokeStatic(kFlowClass, "bindNew", std::string("(Ljava/lang/Object;") + kStateDesc + "J)V");
    r_->after(i, p);
  }

  void newArray(uint32_t i) {
    auto site = sites_.find(i);
    if (site == sites_.end() || plan_.produced[i] == kNone) return;
    Patch p = patch();
    p.add(Op::dup);
    loadState(p, *m_).pushInt(static_cast<int32_t>(site->second));
    pushContext(p, *m_);
    const classfile::Insn& in = r_->insn(i);
    if (in.op == Op::multianewarray) {
      p.pushInt(in.b).invokeStatic(kFlowClass, "newMulti",
                                   std::string("(Ljava/lang/Object;") + kStateDesc + "III)J");
    } else {
      p.invokeStatic(kFlowClass, "newArray",
                     std::string("(Ljava/lang/Object;") + kStateDesc + "II)J");
    }
    r_->after(i, p.store("J", plan_.produced[i]));
  }

  static constexpr int32_t kMaxArgs = 8;

  // A call through the transfer area: the arguments' shadows and the callee's selector
  // before, the result's shadow after.
  void invoke(uint32_t i) {
    const classfile::Insn& in = r_->insn(i);
    auto ref = r_->pool().memberRef(in.cp());
    if (contexts::isCloneCall(r_->pool(), in) && sites_.count(i)) return cloneCall(i);
    if (auto s = summaryAt(i, ref, in.op == Op::invokestatic)) {
      return applySummary(*m_, i, *s);
    }
    auto md = instrument::parseMethodDescriptor(ref.descriptor);
    if (!md) return;
    std::vector<Shadow> args;
    size_t depth = 0;  // words from the top to the last argument's first word
    std::vector<size_t> starts;
    for (auto p = md->params.rbegin(); p != md->params.rend(); ++p) {
      depth += static_cast<size_t>(instrument::slotSize(*p));
      starts.push_back(depth);
    }
    if (in.op != Op::invokestatic) starts.push_back(++depth);
    for (auto s = starts.rbegin(); s != starts.rend(); ++s) args.push_back(m_->operand(i, *s));
    int32_t selector = ids_.selector(ref.name, ref.descriptor);
    Patch p = patch();
    bool any = std::any_of(args.begin(), args.end(), [](const Shadow& s) { return !s.isBottom(); });
    loadState(p, *m_);
    if (!any) {
      p.invokeStatic(kFlowClass, "call0", std::string("(") + kStateDesc + ")V");
    } else {
      size_t n = std::min<size_t>(args.size(), kMaxArgs);
      for (size_t k = 4; k < n; ++k) {
        pushShadow(p, args[k]).pushInt(static_cast<int32_t>(k));
        p.invokeStatic(kFlowClass, "arg", std::string("(") + kStateDesc + "JI)" + kStateDesc);
      }
      size_t direct = std::min<size_t>(n, 4);
      std::string desc = std::string("(") + kStateDesc;
      for (size_t k = 0; k < direct; ++k) {
        pushShadow(p, args[k]);
        desc += 'J';
      }
      p.pushInt(selector).invokeStatic(kFlowClass, "call" + std::to_string(direct), desc + "I)V");
    }
    r_->before(i, p);
    if (in.op == Op::invokespecial && ref.name == "<init>") bindDenied(i, depth);
    if (plan_.produced[i] == kNone) return;
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
    if (plan_.produced[i] == kNone) return;
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
    if (plan_.produced[i] != kNone) {
      after.load("I", t);
      composeNode(after, 0).store("J", plan_.produced[i]);
    }
    r_->after(i, after);
  }

  void returnValue(uint32_t i) {
    Patch p = patch();
    loadState(p, *m_);
    pushShadow(
        p, m_->operand(i, r_->insn(i).op == Op::lreturn || r_->insn(i).op == Op::dreturn ? 2 : 1));
    p.pushInt(selector_).invokeStatic(kFlowClass, "ret", std::string("(") + kStateDesc + "JI)V");
    r_->before(i, p);
  }

  void blockEnd(uint32_t i) {
    for (const flow::BlockEnd& e : plan_.ends) {
      if (e.index != i) continue;
      Patch p = patch();
      for (const flow::Move& m : e.moves) pushShadow(p, m.from).store("J", m.to);
      if (e.after) {
        r_->after(i, p);
      } else {
        r_->before(i, p);
      }
    }
  }

  // The summary of the call at instruction i (callSite looked it up).
  std::optional<flow::Summary> summaryAt(uint32_t i, const classfile::ConstantPool::Member& ref,
                                         bool isStatic) {
    auto known = summaries_.find(i);
    if (known != summaries_.end()) return known->second;
    return flow::summaryAt(ref.owner, ref.name, ref.descriptor, isStatic);
  }

  // A constructor's super()/this() call (the first, for unusual code with one per path),
  // found once per method; nullopt elsewhere.
  std::optional<uint32_t> superCall() {
    if (r_->name() != "<init>") return std::nullopt;
    if (!superCallFound_) {
      superCallFound_ = true;
      auto* code = classfile::findAttr<classfile::CodeAttr>(r_->member().attributes);
      std::vector<uint32_t> calls =
          code ? instrument::findSuperCalls(cls_, *code) : std::vector<uint32_t>{};
      if (!calls.empty()) superCall_ = calls.front();
    }
    return superCall_;
  }

  // In a constructor, an instruction before the super()/this() call.
  bool beforeSuper(uint32_t i) {
    std::optional<uint32_t> call = superCall();
    return call && i < *call;
  }

  classfile::ClassFile& cls_;
  flow::FlowIds& ids_;
  const ProbeOptions& options_;
  Routine* r_ = nullptr;
  uint16_t state_ = kNone, context_ = kNone;
  std::map<uint32_t, uint32_t> sites_;
  std::map<uint32_t, std::optional<flow::Summary>>
      summaries_;  // instruction -> its call's  // instruction index -> allocation site index
  std::optional<MethodProbes> m_;  // the method's probes' context, once planned
  std::optional<uint32_t> superCall_;
  bool superCallFound_ = false;
  std::vector<uint16_t> deniedNews_;  // the produced locals of `new`s of denied classes
  flow::ShadowPlan plan_;
  const Routine* planned_ = nullptr;  // the routine plan_ belongs to
  bool unshadowed_ = false;           // its body gets no flow probes (a summarised method)
  int32_t selector_ = 0;
  uint32_t id_ = 0;
  bool light_ = false;
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
