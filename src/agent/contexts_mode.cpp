#include "agent/contexts_mode.h"

#include "agent/hidden_classes.h"
#include "agent/native_allocs.h"
#include "agent/runtime_bridge.h"
#include "agent/virtual_threads.h"

namespace dragnet::agent {
namespace {

// The call sites of class `cls` whose native allocation a probe counts (native_allocs.h).
std::vector<ProbedCall> probedCalls(std::string_view cls, const contexts::ClassResult& r) {
  std::vector<ProbedCall> out;
  for (const auto& c : r.probedCalls)
    out.push_back({std::string(cls), c.method, c.descriptor, c.bci});
  return out;
}

}  // namespace

bool ContextsMode::load(Host& host, std::map<std::string, std::string>& meta, ModeEvents& events,
                        std::string& error) {
  host_ = &host;
  if (!addNativeAllocCapabilities(host.jvmti)) {
    error = "the JVM refused the capabilities the agent needs";
    return false;
  }
  recorder_ = std::make_unique<Recorder>(host.jvmti, *host.writer, ownVirtualTrees());
  events.callbacks->VMObjectAlloc = onVMObjectAlloc;
  if (callSlots()) meta[profile::kCallSlotsMeta] = "on";  // method ids stay far below 2^22
  return loadExtension(host, meta, events, error);
}

std::string ContextsMode::startLine(const Host& host) const {
  return "recording " + host.options->mode + " to " + host.outPath;
}

contexts::ClassResult ContextsMode::instrument(classfile::ClassFile& cls, contexts::IdSource& ids,
                                               bool bytecodes) {
  return contexts::instrumentClass(
      cls, ids, {.bytecodes = bytecodes, .callSlots = callSlots(), .extensions = {}});
}

void ContextsMode::transform(ClassLoad& c) {
  contexts::ClassResult r = instrument(c.cls, ids_, host_->options->bytecodes);
  if ((r.changed || c.mustInstall) && c.install()) {
    noteProbedCalls(probedCalls(c.name, r));
  }
  recorder_->addClass(std::move(r));
}

bool ContextsMode::vmInit(JNIEnv* jni, jthread) {
  AgentScope scope;
  const Options& o = *host_->options;
  std::string error;
  if (!beforeProbes(jni, error) ||
      !startProbes(jni, {o.depth, o.record, threadCaches(), o.bytecodes, o.maxMemory, o.quiet},
                   error) ||
      !recorder_->init(jni, error)) {
    host_->say("error: " + error + "; no profile will be written");
    return false;
  }
  if (host_->virtualThreads && !startVirtualThreads(host_->jvmti, jni, !ownVirtualTrees(), error)) {
    host_->say("warning: " + error + "; what virtual threads allocate is not counted");
  }
  uint32_t vmBase = recorder_->addNativeBase(ids_, profile::SiteKind::Vm);
  uint32_t jniBase = recorder_->addNativeBase(ids_, profile::SiteKind::Jni);
  if (!startNativeAllocs(host_->jvmti, jni, vmBase, jniBase, error)) {
    host_->say("warning: " + error + "; allocations by the JVM and by JNI are not counted");
  }
  started(jni);
  return true;
}

void ContextsMode::threadEnd(JNIEnv* jni, jthread thread) {
  AgentScope scope;
  recorder_->flushThread(jni, thread, true);
}

void ContextsMode::virtualThreadEnd(JNIEnv* jni, jthread thread) {
  AgentScope scope;
  recorder_->virtualEnded(jni, thread);
}

void ContextsMode::flush(JNIEnv* jni) {
  {
    AgentScope scope;
    recorder_->flushAll(jni, false);
  }
  flushExtension(jni);
}

std::string ContextsMode::vmDeath(JNIEnv* jni) {
  AgentScope scope;
  stopNativeAllocs();
  std::map<std::string, std::string> totals;
  std::string extension = finish(jni, totals);
  totals["classes.hidden"] = std::to_string(writeHiddenClasses(*host_->writer));
  recorder_->flushAll(jni, true, totals);
  const Recorder& r = *recorder_;
  return host_->rewritingSummary(r.classesChanged(), r.failures(), r.partial()) +
         (extension.empty() ? "" : "; " + extension);
}

}  // namespace dragnet::agent
