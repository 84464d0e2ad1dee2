#include "analyses/lifetime/probes/instrumenter.h"

#include "heap_access/use_sites.h"
#include "instrument/descriptor.h"

namespace dragnet::analyses::lifetime {

using heap_access::CallProbe;
using heap_access::Clock;
using heap_access::planUses;
using heap_access::probeCallUses;
using heap_access::receiverUsedAtEntry;
using heap_access::UseKind;
using heap_access::UsePlan;
using heap_access::UseProbe;

using classfile::Op;
using instrument::Arg;
using instrument::Call;
using instrument::Patch;
using instrument::Routine;

namespace {

using contexts::kStateDesc;
constexpr const char* kObjectDesc = "Ljava/lang/Object;";

const char* probeName(UseKind k) { return k == UseKind::Get ? "get" : "put"; }

class LifetimeExtension : public contexts::Extension {
 public:
  // Asked first for every method: a new routine begins.
  uint32_t methodId(Routine& r, uint32_t id) override {
    planned_ = nullptr;  // a routine of another class may live at the same address
    light_ = false;
    return r.name() == "<init>" ? id | contexts::kConstructorBit : id;
  }

  // Too large with its use probes (e.g. a generated method that reads many fields between
  // calls): without them, but with the receiver's use at entry and the allocations.
  bool lighten(Routine& r, std::string& what) override {
    const UsePlan& p = plan(r);
    if (light_ || (p.uses.empty() && p.calls.empty())) return false;
    light_ = true;
    what = "its " + std::to_string(p.uses.size() + p.calls.size()) +
           " use probes left out, uses of objects in it are not seen";
    return true;
  }

  bool needsFrame(Routine& r) override {
    const UsePlan& p = plan(r);
    return !p.uses.empty() || !p.calls.empty();
  }

  bool leafEntry(Routine& r, uint32_t methodId) override {
    if (!receiverUsedAtEntry(r)) return false;
    r.atEntry(Call{kLifeClass, "leaf", {Arg::local(0, kObjectDesc), Arg::i(int32_t(methodId))}});
    return true;
  }

  const char* receiverEnter(Routine& r) override {
    return receiverUsedAtEntry(r) ? kLifeClass : nullptr;
  }

  bool site(Routine& r, const instrument::Instruction& in, uint32_t key, uint16_t state) override {
    // After the allocation: the new array is on top.
    return r.after(in.index, Call{kLifeClass,
                                  "array",
                                  {Arg::top(kObjectDesc), Arg::local(state, kStateDesc),
                                   Arg::i(static_cast<int32_t>(key))}});
  }

  void method(Routine& r, uint16_t state) override {
    const UsePlan& p = plan(r);
    Arg s = Arg::local(state, kStateDesc);
    for (const UseProbe& u : p.uses) {
      Arg object{u.operand, 0, u.operand == Arg::Kind::Value ? kObjectDesc : ""};
      r.before(u.index, Call{kLifeClass, probeName(u.kind), {object, s}});
    }
    for (const CallProbe& c : p.calls) callSite(r, c, state);
  }

  void unframed(Routine& r) override {
    // java/lang/Object.<init>: `this` is an initialized Object there (JVMS 4.10.1.6).
    Patch p = r.newPatch();
    p.add(Op::aload_0).invokeStatic(kLifeClass, "constructed", "(Ljava/lang/Object;)V");
    r.atEntry(p, instrument::ConstructorEntry::BeforeSuperCall);
  }

 private:
  // The plan of the routine being instrumented (needsFrame and method ask for it).
  const UsePlan& plan(Routine& r) {
    if (light_) return none_;
    if (planned_ != &r) {
      plan_ = planUses(r, receiverUsedAtEntry(r), Clock::PerThread);
      planned_ = &r;
    }
    return plan_;
  }

  // A call whose object arguments are uses, probed at the call site.
  static void callSite(Routine& r, const CallProbe& c, uint16_t state) {
    probeCallUses(r, c, [&](Patch& p, UseKind kind) {
      p.load(kObjectDesc, state);
      p.invokeStatic(kLifeClass, probeName(kind), "(Ljava/lang/Object;Ljava/lang/DragnetState;)V");
    });
  }

  const Routine* planned_ = nullptr;
  UsePlan plan_;
  bool light_ = false;  // the routine is instrumented again without use probes
  const UsePlan none_;
};

}  // namespace

contexts::ClassResult instrumentClass(classfile::ClassFile& cls, contexts::IdSource& ids,
                                      const Options& options) {
  LifetimeExtension ext;
  contexts::Options o;
  o.bytecodes = options.bytecodes;
  o.extensions = {&ext};
  return contexts::instrumentClass(cls, ids, o);
}

}  // namespace dragnet::analyses::lifetime
