#include "flow/extension.h"

#include <algorithm>

#include "flow/tag_field.h"
#include "instrument/code_editor.h"
#include "instrument/descriptor.h"

namespace dragnet::flow {

using classfile::Op;
using instrument::Patch;
using instrument::Routine;

namespace {
constexpr const char* kStateDesc = contexts::kStateDesc;
}  // namespace

// Asked first for every method: a new routine begins.
uint32_t FlowExtension::methodId(Routine& r, uint32_t id) {
  sites_.clear();
  summaries_.clear();
  m_.reset();
  planned_ = nullptr;
  deniedNews_.clear();
  superCall_.reset();
  superCallFound_ = false;
  context_ = kNoLocal;
  light_ = false;
  id_ = r.name() == "<init>" ? id | contexts::kConstructorBit : id;
  return id_;
}

bool FlowExtension::leafEntry(Routine& r, uint32_t methodId) {
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

// A summarised copy (Arrays.copyOf*) is named by its call.
// (Asked for every call of the method: its summary is looked up here, once.)
bool FlowExtension::callSite(Routine& r, const instrument::Instruction& in, std::string& type) {
  const classfile::Insn& insn = r.insn(in.index);
  auto ref = r.pool().memberRef(insn.cp());
  auto s = flow::summaryAt(ref.owner, ref.name, ref.descriptor, insn.op == Op::invokestatic);
  summaries_[in.index] = s;
  if (!s || s->kind != Summary::Kind::CopyOf) return false;
  type = std::string(ref.descriptor.substr(ref.descriptor.find(')') + 1));
  return true;
}

void FlowExtension::allocation(Routine&, const instrument::Instruction& in, uint32_t key) {
  sites_[in.index] = key >> 4 & 0x7FFFFFF;
}

bool FlowExtension::lighten(Routine&, std::string& what) {
  if (light_) return false;
  light_ = true;
  what = "its flow probes left out, flows through it are cut";
  return true;
}

void FlowExtension::method(Routine& r, uint16_t state) {
  r_ = &r;
  state_ = state;
  context_ = kNoLocal;
  if (rootClass_ && r.name() == "<init>") claimTag();
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

const ShadowPlan* FlowExtension::planFor(Routine& r) {
  if (planned_ != &r) {
    planned_ = &r;
    unshadowed_ =
        flow::bodyUnshadowed(cls_.name(), r.name(), r.descriptor(), intrinsicCandidate(r));
    plan_ = {};
    if (!unshadowed_ && !light_) plan_ = planShadows(r, rules());
  }
  return plan_.ok ? &plan_ : nullptr;
}

bool FlowExtension::intrinsicCandidate(Routine& r) {
  auto* a = classfile::findAttr<classfile::RuntimeVisibleAnnotationsAttr>(r.member().attributes);
  if (!a) return false;
  return std::any_of(a->annotations.begin(), a->annotations.end(), [&](const auto& an) {
    return r.pool().utf8(an.type) == "Ljdk/internal/vm/annotation/IntrinsicCandidate;";
  });
}

// A body without flow probes (a summarised method's: its calls apply the summary) still
// tags what it allocates, so that the objects it returns have names.
void FlowExtension::tagAllocations() {
  for (const instrument::Instruction& in : r_->instructions()) {
    auto site = sites_.find(in.index);
    if (site == sites_.end()) continue;
    Op op = r_->insn(in.index).op;
    Patch p = patch();
    if (op == Op::new_) {
      if (isDeniedTagClass(r_->pool().className(r_->insn(in.index).cp()))) continue;
      p.load(kObjectDesc, state_).pushInt(static_cast<int32_t>(site->second)).add(Op::iconst_0);
      p.invokeStatic(kFlowClass, "newObject", std::string("(") + kStateDesc + "II)J").add(Op::pop2);
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

bool FlowExtension::thisHasTag() const {
  return (cls_.access & 0x0200) == 0 && !isDeniedTagClass(cls_.name());
}

// The field's own class for a root class, else the superclass, which has the field too (by
// inheritance). Not the class itself: the JVM's generated reflection accessors
// (MagicAccessorImpl's subclasses) cannot resolve their own name through their loader.
std::string FlowExtension::thisTagOwner() const {
  if (!thisHasTag()) return "[";  // the side table
  if (rootClass_ || cls_.superClass == classfile::CpIndex{}) return std::string(cls_.name());
  return std::string(cls_.pool.className(cls_.superClass));
}

// Canonical locals zeroed, then the analysis's entry (transfer, context).
void FlowExtension::entry() {
  Patch p = patch();
  for (uint16_t l : plan_.canonical) p.add(Op::lconst_0).store("J", l);
  if (vmEntry()) keepTransfer();
  enter(p);
  r_->atEntry(p, instrument::ConstructorEntry::BeforeSuperCall);
  entered();
}

void FlowExtension::takeParams(Patch& p) {
  for (auto [slot, canon] : plan_.params) {
    if (paramIndex(slot) >= kMaxArgs) continue;
    loadState(p, *m_).pushInt(paramIndex(slot));
    p.invokeStatic(kFlowClass, "param", std::string("(") + kStateDesc + "I)J").store("J", canon);
  }
}

// Methods the JVM calls by itself, possibly between a caller's transfer and its callee's
// entry (resolving the call loads a class, initializes one, links a method handle).
bool FlowExtension::vmEntry() const {
  std::string_view n = r_->name(), d = r_->descriptor(), c = cls_.name();
  return n == "<clinit>" || (n == "loadClass" && d == "(Ljava/lang/String;)Ljava/lang/Class;") ||
         c == "java/lang/invoke/MethodHandleNatives" ||
         (c == "java/lang/ClassLoader" && n == "addClass");
}

// DragnetFlow.save at entry, restore at every exit.
void FlowExtension::keepTransfer() {
  Patch save = patch();
  loadState(save, *m_).invokeStatic(kFlowClass, "save", std::string("(") + kStateDesc + ")V");
  r_->atEntry(save, instrument::ConstructorEntry::BeforeSuperCall);
  Patch restore = patch();
  loadState(restore, *m_).invokeStatic(kFlowClass, "restore", std::string("(") + kStateDesc + ")V");
  r_->beforeReturns(restore);
  r_->onExceptionalExit(restore);
}

// The position of the parameter in local `slot` in the transfer area.
int32_t FlowExtension::paramIndex(uint16_t slot) const {
  for (size_t k = 0; k < plan_.params.size(); ++k) {
    if (plan_.params[k].first == slot) return static_cast<int32_t>(k);
  }
  return kMaxArgs;
}

// Root classes: this.dragnet$tag = DragnetFlow.claim(this, S) right after super().
void FlowExtension::claimTag() {
  std::optional<uint32_t> call = superCall();
  if (!call) return;
  auto ref = r_->pool().memberRef(r_->insn(*call).cp());
  if (ref.owner == cls_.name()) return;  // this(...): the constructor it calls claims
  Patch p = patch();
  p.add(Op::aload_0).add(Op::aload_0);
  p.load(kObjectDesc, state_)
      .invokeStatic(kFlowClass, "claim", std::string("(Ljava/lang/Object;") + kStateDesc + ")I");
  p.putField(cls_.name(), kTagField, "I");
  r_->atEntry(p, instrument::ConstructorEntry::AfterSuperCall);
}

void FlowExtension::newObject(uint32_t i) {
  auto site = sites_.find(i);
  if (site == sites_.end()) return;
  // A denied class has no field: its tag goes to the side table after its constructor.
  bool denied = isDeniedTagClass(r_->pool().className(r_->insn(i).cp()));
  if (denied && i + 1 < plan_.reached.size() && plan_.reached[i + 1] &&
      !plan_.stack[i + 1].empty()) {
    deniedNews_.emplace_back(plan_.stack[i + 1].back(), site->second);
  }
  Patch p = patch();
  loadState(p, *m_).pushInt(static_cast<int32_t>(site->second));
  pushContext(p, *m_).invokeStatic(kFlowClass, denied ? "newDenied" : "newObject",
                                   std::string("(") + kStateDesc + "II)J");
  if (plan_.produced[i] != kNoLocal) {
    p.store("J", plan_.produced[i]);
  } else {
    p.add(Op::pop2);
  }
  r_->before(i, p);
}

// When the object's other copy (javac's `new; dup`) is on top: its tag in the side table.
void FlowExtension::bindDenied(uint32_t i, size_t receiverDepth) {
  Shadow recv = m_->operand(i, receiverDepth), below = m_->operand(i, receiverDepth + 1);
  if (recv.isBottom() || !(below == recv)) return;
  auto made = std::find_if(deniedNews_.begin(), deniedNews_.end(),
                           [&](const auto& n) { return n.first == recv; });
  if (made == deniedNews_.end()) return;
  Patch p = patch();
  p.add(Op::dup);
  loadState(p, *m_).pushInt(static_cast<int32_t>(made->second));
  pushContext(p, *m_).invokeStatic(kFlowClass, "bindNew",
                                   std::string("(Ljava/lang/Object;") + kStateDesc + "II)V");
  r_->after(i, p);
}

void FlowExtension::newArray(uint32_t i) {
  auto site = sites_.find(i);
  if (site == sites_.end()) return;
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
  if (plan_.produced[i] != kNoLocal) {
    p.store("J", plan_.produced[i]);
  } else {
    p.add(Op::pop2);
  }
  r_->after(i, p);
}

std::vector<Shadow> FlowExtension::arguments(uint32_t i, const classfile::ConstantPool::Member& ref,
                                             bool isStatic, size_t& depth) const {
  std::vector<Shadow> args;
  depth = 0;
  auto md = instrument::parseMethodDescriptor(ref.descriptor);
  if (!md) return args;
  std::vector<size_t> starts;
  for (auto p = md->params.rbegin(); p != md->params.rend(); ++p) {
    depth += static_cast<size_t>(instrument::slotSize(*p));
    starts.push_back(depth);
  }
  if (!isStatic) starts.push_back(++depth);
  for (auto s = starts.rbegin(); s != starts.rend(); ++s) args.push_back(m_->operand(i, *s));
  return args;
}

void FlowExtension::blockEnd(uint32_t i) {
  for (const BlockEnd& e : plan_.ends) {
    if (e.index != i) continue;
    Patch p = patch();
    for (const Move& m : e.moves) pushShadow(p, m.from, *m_).store("J", m.to);
    if (e.after) {
      r_->after(i, p);
    } else {
      r_->before(i, p);
    }
  }
}

std::optional<Summary> FlowExtension::summaryAt(uint32_t i,
                                                const classfile::ConstantPool::Member& ref,
                                                bool isStatic) {
  auto known = summaries_.find(i);
  if (known != summaries_.end()) return known->second;
  return flow::summaryAt(ref.owner, ref.name, ref.descriptor, isStatic);
}

// A constructor's super()/this() call (the first, for unusual code with one per path),
// found once per method; nullopt elsewhere.
std::optional<uint32_t> FlowExtension::superCall() {
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
bool FlowExtension::beforeSuper(uint32_t i) {
  std::optional<uint32_t> call = superCall();
  return call && i < *call;
}

}  // namespace dragnet::flow
