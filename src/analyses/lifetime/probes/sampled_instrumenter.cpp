#include "analyses/lifetime/probes/sampled_instrumenter.h"

#include "contexts/probes.h"
#include "heap_access/use_sites.h"

namespace dragnet::analyses::lifetime {

using heap_access::CallProbe;
using heap_access::Clock;
using heap_access::planUses;
using heap_access::probeCallUses;
using heap_access::receiverUsedAtEntry;
using heap_access::UseKind;
using heap_access::UsePlan;
using heap_access::UseProbe;
namespace {

using instrument::Arg;
using instrument::Call;
using instrument::Patch;
using instrument::Routine;

constexpr const char* kObjectDesc = "Ljava/lang/Object;";
constexpr const char* kProbeDesc = "(Ljava/lang/Object;)V";

const char* probeName(UseKind k) { return k == UseKind::Get ? "get" : "put"; }

// Inserts the method's probes; false if none could be inserted (a use of an object the
// verifier does not let a probe see, e.g. a constructor's `this` before super(), has none).
bool probeMethod(Routine& r) {
  bool receiver = receiverUsedAtEntry(r);
  UsePlan plan = planUses(r, receiver, Clock::Global);
  bool inserted = false;
  if (receiver) inserted |= r.atEntry(Call{kSampleClass, "get", {Arg::local(0, kObjectDesc)}});
  for (const UseProbe& u : plan.uses) {
    Arg object{u.operand, 0, u.operand == Arg::Kind::Value ? kObjectDesc : ""};
    inserted |= r.before(u.index, Call{kSampleClass, probeName(u.kind), {object}});
  }
  for (const CallProbe& c : plan.calls) {
    inserted |= probeCallUses(r, c, [](Patch& p, UseKind kind) {
      p.invokeStatic(kSampleClass, probeName(kind), kProbeDesc);
    });
  }
  // Object.clone registers its sampled objects late (DragnetSample.cloned).
  const Call cloned{kSampleClass, "cloned", {Arg::top(kObjectDesc)}};
  for (const instrument::BasicBlock& b : r.blocks()) {
    for (uint32_t i = b.first; i <= b.last; ++i) {
      if (contexts::isCloneCall(r.pool(), r.insn(i))) inserted |= r.after(i, cloned);
    }
  }
  return inserted;
}

}  // namespace

SampledResult instrumentSampled(classfile::ClassFile& cls) {
  SampledResult out;
  std::string_view name = cls.name();
  if (contexts::isRuntimeClass(name)) return out;
  instrument::ClassInstrumenter ci(cls);
  for (Routine& r : ci.routines()) {
    if (!r.hasCode() || !probeMethod(r)) continue;
    instrument::EditOutcome o = r.commit();
    if (o.changed) {
      out.changed = true;
      ++out.methods;
    } else {
      std::string method = std::string(r.name()) + std::string(r.descriptor());
      out.failures.push_back({std::string(name), std::move(method), o.reason});
    }
  }
  return out;
}

}  // namespace dragnet::analyses::lifetime
