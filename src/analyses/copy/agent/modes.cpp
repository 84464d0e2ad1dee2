#include "analyses/copy/agent/modes.h"

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "agent/flow_mode.h"
#include "agent/jni_table.h"
#include "analyses/copy/agent/flow_records.h"
#include "analyses/copy/options.h"
#include "analyses/copy/probes/instrumenter.h"

namespace dragnet::analyses::copy {
namespace {

using agent::AgentScope;
using agent::Host;
using agent::ModeEvents;

class CopyMode : public agent::FlowMode {
 public:
  std::string startLine(const Host& host) const override {
    return "recording copies (slots=" + std::to_string(slots(host)) + ") to " + host.outPath;
  }

 protected:
  static uint32_t slots(const Host& host) { return optionValues(host.options->values).slots; }

  contexts::ClassResult instrument(classfile::ClassFile& cls, contexts::IdSource& ids,
                                   bool bytecodes) override {
    flow::TagFieldOutcome tag = prepareClass(cls);
    contexts::ClassResult r = instrumentClass(
        cls, ids, flowIds_, ProbeOptions{.bytecodes = bytecodes, .rootClass = tag.root});
    if (tag.added) r.changed = true;
    return r;
  }
  bool loadExtension(Host&, std::map<std::string, std::string>&, ModeEvents&,
                     std::string&) override {
    records_ = std::make_unique<FlowRecords>(*host_->writer, flowIds_);
    recorder_->observeStates([this](JNIEnv* jni, jobject state, uint32_t thread, bool ended) {
      if (ready_) records_->flushState(jni, state, thread, ended);
    });
    return true;
  }
  void started(JNIEnv* jni) override {
    std::string error;
    if (!records_->init(jni, error) ||
        !startEngine(jni, slots(*host_), {"java/lang/DragnetCopy"}, error)) {
      host_->say("error: " + error + "; no copies will be recorded");
      return;
    }
    ready_ = true;
    host_->writer->meta({{"flow.refBytes", std::to_string(referenceBytes(jni))}});
  }
  void flushExtension(JNIEnv* jni) override {
    AgentScope scope;
    if (ready_) records_->flushDefinitions(jni);
  }
  std::string finish(JNIEnv* jni, std::map<std::string, std::string>& totals) override {
    if (!ready_) return "";
    records_->flushDefinitions(jni);
    engineTotals(jni, "flow", totals);
    totals["flow.tableBytes"] = std::to_string(records_->peakTableBytes());
    return "copy profile written";
  }
  std::string vmDeath(JNIEnv* jni) override {
    std::string line = agent::ContextsMode::vmDeath(jni);
    if (!ready_) return line;
    return line + ": " + std::to_string(records_->copies()) + " heap-to-heap copies, " +
           std::to_string(records_->edges()) + " copy-graph edges, " +
           std::to_string(records_->cuts()) + " flows cut, tables " +
           std::to_string((records_->peakTableBytes() + (1 << 19)) >> 20) + " MB" +
           (records_->dropped() ? ", " + std::to_string(records_->dropped()) + " dropped" : "");
  }

 private:
  std::unique_ptr<FlowRecords> records_;
  bool ready_ = false;
};

std::unique_ptr<agent::Mode> makeCopy() { return std::make_unique<CopyMode>(); }

}  // namespace

agent::ModeInfo copyMode() { return {"copy", false, makeCopy}; }

}  // namespace dragnet::analyses::copy
