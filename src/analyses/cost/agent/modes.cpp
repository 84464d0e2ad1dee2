#include "analyses/cost/agent/modes.h"

#include <atomic>
#include <cstdlib>
#include <memory>
#include <string>

#include "agent/binding.h"
#include "agent/flow_mode.h"
#include "agent/jni_table.h"
#include "analyses/cost/agent/cost_records.h"
#include "analyses/cost/options.h"
#include "analyses/cost/probes/instrumenter.h"
#include "flow/heap_shadows.h"

namespace dragnet::analyses::cost {
namespace {

using agent::AgentScope;
using agent::Host;
using agent::ModeEvents;

// Static fields' shadows (DragnetCost.statics): one int per static field id; untouched pages
// cost nothing. Fields with larger ids have none (their loads depend on nothing).
constexpr jint kStaticCap = 1 << 22;

class CostMode : public agent::FlowMode {
 public:
  std::string startLine(const Host& host) const override {
    return "recording costs and benefits (slots=" + std::to_string(slots(host)) + ") to " +
           host.outPath;
  }

 protected:
  static uint32_t slots(const Host& host) { return optionValues(host.options->values).slots; }

  contexts::ClassResult instrument(classfile::ClassFile& cls, contexts::IdSource& ids,
                                   bool) override {
    flow::TagFieldOutcome tag = prepareClass(cls);
    size_t shadows = flow::addShadowFields(cls);
    shadowFields_ += shadows;
    costIds_.noteNatives(cls);
    contexts::ClassResult r =
        instrumentClass(cls, ids, flowIds_, costIds_, ProbeOptions{.rootClass = tag.root});
    if (tag.added || shadows > 0) r.changed = true;
    return r;
  }
  bool loadExtension(Host&, std::map<std::string, std::string>&, ModeEvents&,
                     std::string&) override {
    records_ = std::make_unique<CostRecords>(*host_->writer, flowIds_, costIds_);
    recorder_->observeStates([this](JNIEnv* jni, jobject state, uint32_t thread, bool ended) {
      if (ready_) records_->flushState(jni, state, thread, ended);
    });
    return true;
  }
  void started(JNIEnv* jni) override {
    using agent::binding::Setting;
    std::string error;
    OptionValues o = optionValues(host_->options->values);
    statics_ = static_cast<uint32_t*>(std::calloc(kStaticCap, sizeof(uint32_t)));
    // One buffer address per side-table entry (DragnetCost.buffers).
    buffers_ =
        o.elementShadows ? static_cast<uint64_t*>(std::calloc(sideTableEntries(), 8)) : nullptr;
    if (!statics_ || (o.elementShadows && !buffers_)) error = "no memory for the heap shadows";
    const agent::binding::Member members[] = {
        {"java/lang/DragnetCost", "elementBytes", "J", &elementBytes_},
        {"java/lang/DragnetCost", "elementFallbacks", "J", &elementFallbacks_},
    };
    if (error.empty() && records_->init(jni, error) && agent::binding::bind(jni, members, error) &&
        agent::binding::configure(
            jni, "java/lang/DragnetCost",
            {Setting("slots", "I", static_cast<jint>(slots(*host_))),
             Setting("statics", "J", static_cast<jlong>(reinterpret_cast<uintptr_t>(statics_))),
             Setting("staticCap", "I", kStaticCap),
             Setting("buffers", "J", static_cast<jlong>(reinterpret_cast<uintptr_t>(buffers_))),
             Setting("elementBudget", "J", static_cast<jlong>(o.maxMemory / 2)),
             Setting("elements", "Z", o.elementShadows)},
            error) &&
        startEngine(jni, slots(*host_), {"java/lang/DragnetCost"}, error)) {
      ready_ = true;
      host_->writer->meta({{"flow.refBytes", std::to_string(referenceBytes(jni))}});
      return;
    }
    host_->say("error: " + error + "; no costs will be recorded");
  }
  void flushExtension(JNIEnv*) override {
    AgentScope scope;
    if (ready_) records_->flushDefinitions();
  }
  std::string finish(JNIEnv* jni, std::map<std::string, std::string>& totals) override {
    if (!ready_) return "";
    records_->flushDefinitions();
    engineTotals(jni, "cost", totals);
    totals["cost.cuts"] = std::to_string(records_->cuts());
    totals["cost.tableBytes"] = std::to_string(records_->peakTableBytes());
    totals["cost.shadowBytes"] =
        std::to_string(uint64_t{4} * flowIds_.fieldCount() +
                       static_cast<uint64_t>(staticLong(jni, elementBytes_)));
    totals["cost.shadowFallbacks"] = std::to_string(staticLong(jni, elementFallbacks_));
    totals["cost.shadowFields"] = std::to_string(shadowFields_.load());
    totals["cost.dropped"] = std::to_string(records_->dropped());
    return "cost profile written";
  }
  std::string vmDeath(JNIEnv* jni) override {
    std::string line = agent::ContextsMode::vmDeath(jni);
    if (!ready_) return line;
    return line + ": " + std::to_string(records_->nodes()) + " program nodes, " +
           std::to_string(records_->edges()) + " recorded dependences, " +
           std::to_string(records_->cuts()) + " flows cut, tables " +
           std::to_string((records_->peakTableBytes() + (1 << 19)) >> 20) + " MB" +
           (records_->dropped() ? ", " + std::to_string(records_->dropped()) + " dropped" : "");
  }

 private:
  static jlong staticLong(JNIEnv* jni, const agent::binding::StaticField& f) {
    return jni->GetStaticLongField(f.cls, f);
  }

  CostIds costIds_;
  std::unique_ptr<CostRecords> records_;
  uint32_t* statics_ = nullptr;  // lives until the process ends: probes may run until then
  uint64_t* buffers_ = nullptr;  // likewise
  agent::binding::StaticField elementBytes_, elementFallbacks_;
  std::atomic<uint64_t> shadowFields_{0};  // instance fields' shadows added to classes
  bool ready_ = false;
};

std::unique_ptr<agent::Mode> makeCost() { return std::make_unique<CostMode>(); }

}  // namespace

agent::ModeInfo costMode() { return {"cost", false, makeCost}; }

}  // namespace dragnet::analyses::cost
