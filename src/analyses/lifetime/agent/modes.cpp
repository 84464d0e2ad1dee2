#include "analyses/lifetime/agent/modes.h"

#include <bit>

#include "agent/contexts_mode.h"
#include "agent/hidden_classes.h"
#include "agent/jni_table.h"
#include "agent/runtime_bridge.h"
#include "agent/sampled_mode.h"
#include "analyses/lifetime/agent/lifetime.h"
#include "analyses/lifetime/agent/lifetime_sampled.h"
#include "analyses/lifetime/agent/reference_class.h"
#include "analyses/lifetime/options.h"
#include "analyses/lifetime/probes/instrumenter.h"
#include "analyses/lifetime/probes/sampled_instrumenter.h"

namespace dragnet::analyses::lifetime {
namespace {

using agent::AgentScope;
using agent::Host;
using agent::ModeEvents;

tracking::LifetimeOptions lifetimeOptions(const agent::Options& o) {
  OptionValues s = optionValues(o.values);
  return {.gcInterval = s.gcInterval,
          .gcBudget = s.gcBudget,
          .epochShift = std::countr_zero(s.useEpoch),
          .stacks = s.useContexts};
}

// Both variants: the tracking's capabilities and callbacks (its options' meta data comes
// from its option table).
bool loadTracking(Host& host, ModeEvents& events, std::string& error) {
  if (!tracking::addLifetimeCapabilities(host.jvmti)) {
    error = "the JVM refused the capabilities the agent needs";
    return false;
  }
  tracking::lifetimeCallbacks(*events.callbacks);
  return true;
}

class ExactMode : public agent::ContextsMode {
 protected:
  contexts::ClassResult instrument(classfile::ClassFile& cls, contexts::IdSource& ids,
                                   bool bytecodes) override {
    return instrumentClass(cls, ids, Options{.bytecodes = bytecodes});
  }
  bool loadExtension(Host& host, std::map<std::string, std::string>&, ModeEvents& events,
                     std::string& error) override {
    return loadTracking(host, events, error);
  }
  bool ownVirtualTrees() const override { return true; }
  bool threadCaches() const override { return true; }
  bool beforeProbes(JNIEnv* jni, std::string& error) override {
    return tracking::defineReferenceClass(jni, error);
  }
  void started(JNIEnv* jni) override {
    uint32_t constructedBase = recorder_->addNativeBase(ids_, profile::SiteKind::Reflect);
    std::string error;
    if (!tracking::startLifetime(host_->jvmti, jni, *host_->writer,
                                 lifetimeOptions(*host_->options), constructedBase, error)) {
      host_->say("error: " + error + "; no lifetimes will be recorded");
    } else if (!error.empty()) {
      host_->say("warning: " + error);
    }
  }
  void flushExtension(JNIEnv*) override { tracking::flushLifetime(); }
  std::string finish(JNIEnv* jni, std::map<std::string, std::string>& totals) override {
    std::string summary = tracking::finishLifetime(jni);
    totals.merge(tracking::lifetimeTotals());
    totals["references"] = tracking::referencesByNew() ? "new" : "allocateInstance";
    return summary;
  }
};

class SampledMode : public agent::SampledMode {
 public:
  std::string startLine(const Host& host) const override {
    return "recording lifetimes of sampled objects (one per ~" +
           std::to_string(host.options->sample) + " bytes) to " + host.outPath;
  }
  bool rewrites() const override { return true; }
  void transform(agent::ClassLoad& c) override {
    SampledResult r = instrumentSampled(c.cls);
    if (!r.failures.empty()) {
      failures_ += r.failures.size();
      host_->writer->failures(r.failures);
    }
    if ((r.changed || c.mustInstall) && c.install()) ++classesChanged_;
  }
  bool vmInit(JNIEnv* jni, jthread thread) override {
    AgentScope scope;
    std::string error;
    if (!tracking::defineReferenceClass(jni, error)) {
      host_->say("error: " + error + "; no lifetimes will be recorded");
      return false;
    }
    if (!tracking::startSampledLifetime(host_->jvmti, jni, *host_->writer,
                                        lifetimeOptions(*host_->options), *sampler_, error)) {
      host_->say("error: " + error + "; no lifetimes will be recorded");
    } else if (!error.empty()) {
      host_->say("warning: " + error);
    }
    tracking::onLifetimeThreadStart(jni, thread);
    host_->jvmti->SetEventNotificationMode(JVMTI_ENABLE, JVMTI_EVENT_THREAD_START, nullptr);
    return true;
  }
  void threadStart(JNIEnv* jni, jthread thread) override {
    AgentScope scope;
    tracking::onLifetimeThreadStart(jni, thread);
  }
  void flush(JNIEnv* jni) override {
    agent::SampledMode::flush(jni);
    tracking::flushLifetime();
  }
  std::string vmDeath(JNIEnv* jni) override {
    AgentScope scope;
    host_->jvmti->SetEventNotificationMode(JVMTI_DISABLE, JVMTI_EVENT_SAMPLED_OBJECT_ALLOC,
                                           nullptr);
    std::string lifetime = tracking::finishLifetime(jni) + tracking::sampledLifetimeSummary();
    tracking::stopSampledLifetime();
    auto totals = tracking::lifetimeTotals();
    totals["classes.hidden"] = std::to_string(agent::writeHiddenClasses(*host_->writer));
    totals["classes.instrumented"] = std::to_string(classesChanged_);
    totals["failures"] = std::to_string(failures_);
    sampler_->flush(true, totals);
    return host_->rewritingSummary(classesChanged_, failures_, 0) + ", " +
           std::to_string(sampler_->samples()) + " samples; " + lifetime;
  }

 protected:
  void sampled(JNIEnv* jni, jthread thread, jobject object, jclass cls, jlong size) override {
    tracking::onLifetimeSample(jni, thread, object, cls, size);
  }
  bool programOnly() const override { return true; }
  uint32_t stackDepth(const agent::Options& o) const override {
    return optionValues(o.values).siteFrames;
  }
  bool loadExtension(Host& host, std::map<std::string, std::string>&, ModeEvents& events,
                     std::string& error) override {
    return loadTracking(host, events, error);
  }

 private:
  std::atomic<uint64_t> classesChanged_{0};
};

std::unique_ptr<agent::Mode> makeExact() { return std::make_unique<ExactMode>(); }
std::unique_ptr<agent::Mode> makeSampled() { return std::make_unique<SampledMode>(); }

}  // namespace

agent::ModeInfo exactMode() { return {"lifetime", false, makeExact, tracking::kLateClasses}; }
agent::ModeInfo sampledMode() { return {"lifetime", true, makeSampled, tracking::kLateClasses}; }

}  // namespace dragnet::analyses::lifetime
