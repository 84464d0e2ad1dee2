// libdragnet.so: the JVMTI agent. Loaded with -agentpath:libdragnet.so=mode=alloc,...
// (options.h), it rewrites every class the JVM loads, from java/lang/Object on, in the
// ClassFileLoadHook (analyses/alloc), defines the probes' runtime helper into java.base
// at early VM start (runtime_bridge.h), and writes the profile (recorder.h).
#include <jni.h>
#include <jvmti.h>
#include <unistd.h>

#include <atomic>
#include <bit>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "agent/hidden_classes.h"
#include "agent/jit_settings.h"
#include "agent/load_guard.h"
#include "agent/native_allocs.h"
#include "agent/options.h"
#include "agent/recorder.h"
#include "agent/runtime_bridge.h"
#include "agent/sampler.h"
#include "agent/virtual_threads.h"
#include "analyses/lifetime/agent/lifetime.h"
#include "analyses/lifetime/agent/lifetime_sampled.h"
#include "analyses/lifetime/probes/instrumenter.h"
#include "analyses/lifetime/probes/sampled_instrumenter.h"
#include "classfile/class_file.h"
#include "contexts/probes.h"

namespace dragnet::agent {
namespace {

struct Agent {
  Options options;
  std::string outPath;
  jvmtiEnv* jvmti = nullptr;
  profile::Writer writer;
  std::unique_ptr<Recorder> recorder;  // exact mode
  std::unique_ptr<Sampler> sampler;    // sample=SIZE
  contexts::IdSource ids;
  contexts::Options alloc;
  bool lifetime = false;         // mode lifetime
  bool sampledLifetime = false;  // mode lifetime with sample=SIZE
  bool virtualThreads = false;   // VirtualThreadEnd is on (virtual_threads.h)
  std::atomic<uint64_t> classesChanged{0}, failures{0};  // sampledLifetime's rewrites
  std::atomic<bool> threadFieldAdded{false};
  std::atomic<uint64_t> hookNanos{0};  // time spent rewriting classes, all threads
  // The flush thread sleeps on `cv` and stops when `stopping` is set at VM death.
  std::mutex mu;
  std::condition_variable cv;
  bool stopping = false;
};

Agent* gAgent = nullptr;

void say(const std::string& text) {
  if (!gAgent->options.quiet) std::fprintf(stderr, "dragnet: %s\n", text.c_str());
}

// The call sites of class `cls` whose native allocation a probe counts (native_allocs.h).
std::vector<ProbedCall> probedCalls(std::string_view cls, const contexts::ClassResult& r) {
  std::vector<ProbedCall> out;
  for (const auto& c : r.probedCalls)
    out.push_back({std::string(cls), c.method, c.descriptor, c.bci});
  return out;
}

// What rewriting every class from java/lang/Object on needs: the class hook before VM
// start (early VMStart, early class hooks) and for all classes.
bool addRewritingCapabilities(jvmtiEnv* jvmti) {
  jvmtiCapabilities caps{};
  caps.can_generate_all_class_hook_events = 1;
  caps.can_generate_early_vmstart = 1;
  caps.can_generate_early_class_hook_events = 1;
  return jvmti->AddCapabilities(&caps) == JVMTI_ERROR_NONE;
}

void addFailure(Agent& a, profile::Failure f) {
  if (a.recorder) {
    a.recorder->addFailure(std::move(f));
    return;
  }
  ++a.failures;
  a.writer.failures({std::move(f)});
}

// Hands the rewritten class to the JVM; false (the class passes through unchanged, the
// failure recorded) if it cannot be written.
bool replaceClass(jvmtiEnv* jvmti, const classfile::ClassFile& cls, std::string_view name,
                  jint* newLen, unsigned char** newData) {
  auto out = classfile::writeClass(cls);
  if (!out) {
    addFailure(*gAgent, {std::string(name), {}, out.error().message});
    return false;
  }
  unsigned char* mem = nullptr;
  if (jvmti->Allocate(static_cast<jlong>(out.value().size()), &mem) != JVMTI_ERROR_NONE) {
    return false;
  }
  std::memcpy(mem, out.value().data(), out.value().size());
  *newData = mem;
  *newLen = static_cast<jint>(out.value().size());
  return true;
}

// Rewrites one class; on any failure the class passes through unchanged and is recorded.
void JNICALL onClassFileLoad(jvmtiEnv* jvmti, JNIEnv*, jclass redefined, jobject, const char* name,
                             jobject, jint len, const unsigned char* data, jint* newLen,
                             unsigned char** newData) {
  if (redefined) return;  // retransforms are not ours
  // Hidden classes never come here (hidden_classes.h). A class defined with a null name
  // (ClassLoader.defineClass(null, ...)) comes without one: it is taken from the class.
  std::string_view n(name ? name : "");
  if (contexts::isRuntimeClass(n)) return;
  Agent& a = *gAgent;
  struct Timer {  // adds the hook's duration to hookNanos however it returns
    std::atomic<uint64_t>& sum;
    std::chrono::steady_clock::time_point t0 = std::chrono::steady_clock::now();
    ~Timer() {
      auto d = std::chrono::steady_clock::now() - t0;
      sum += static_cast<uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(d).count());
    }
  } timer{a.hookNanos};
  try {
    auto parsed = classfile::parseClass({data, static_cast<size_t>(len)}, {n});
    if (!parsed) {
      addFailure(a, {std::string(n), {}, parsed.error().message});
      return;
    }
    classfile::ClassFile& cls = parsed.value();
    if (!name) n = cls.name();  // points into `data`, which outlives the hook
    if (!name && contexts::isRuntimeClass(n)) return;
    bool thread = n == "java/lang/Thread";
    if (thread) addThreadStateField(cls);
    if (a.sampledLifetime) {
      analyses::lifetime::SampledResult r = analyses::lifetime::instrumentSampled(cls);
      if (!r.failures.empty()) {
        a.failures += r.failures.size();
        a.writer.failures(r.failures);
      }
      if (!r.changed && !thread) return;
      if (!replaceClass(jvmti, cls, n, newLen, newData)) return;
      if (thread) a.threadFieldAdded = true;
      ++a.classesChanged;
      return;
    }
    contexts::ClassResult r =
        a.lifetime ? analyses::lifetime::instrumentClass(cls, a.ids, {a.alloc.bytecodes})
                   : contexts::instrumentClass(cls, a.ids, a.alloc);
    bool changed = r.changed || thread;
    if (!changed) {
      a.recorder->addClass(std::move(r));
      return;
    }
    if (!replaceClass(jvmti, cls, n, newLen, newData)) return;
    if (thread) a.threadFieldAdded = true;
    noteProbedCalls(probedCalls(n, r));
    a.recorder->addClass(std::move(r));
  } catch (const std::exception& e) {
    addFailure(a, {std::string(n), {}, std::string("internal error: ") + e.what()});
  }
}

void JNICALL onVMStart(jvmtiEnv* jvmti, JNIEnv* jni) {
  Agent& a = *gAgent;
  if (!a.threadFieldAdded) {
    std::fprintf(stderr, "dragnet: could not add its field to java.lang.Thread; stopping\n");
    std::_Exit(1);
  }
  std::string error;
  if (!defineRuntime(jni, jvmti, error)) {
    std::fprintf(stderr, "dragnet: %s; stopping\n", error.c_str());
    std::_Exit(1);
  }
}

void JNICALL flushLoop(jvmtiEnv*, JNIEnv* jni, void*) {
  Agent& a = *gAgent;
  std::unique_lock lock(a.mu);
  while (!a.stopping) {
    a.cv.wait_for(lock, std::chrono::seconds(a.options.flushSeconds));
    if (a.stopping) break;
    lock.unlock();
    if (a.sampler) {
      a.sampler->flush(false);
    } else {
      AgentScope scope;
      a.recorder->flushAll(jni, false);
    }
    writeHiddenClasses(a.writer);
    if (a.lifetime) flushLifetime();
    lock.lock();
  }
}

void startFlushThread(JNIEnv* jni) {
  if (!runAgentThread(gAgent->jvmti, jni, "dragnet flush", flushLoop, JVMTI_THREAD_MIN_PRIORITY)) {
    say("warning: no background flush thread; the profile is written at exit only");
  }
}

LifetimeOptions lifetimeOptions(const Options& o) {
  LifetimeOptions lo;
  lo.gcInterval = o.gcInterval;
  lo.gcBudget = gcBudgetPercent(o);
  lo.epochShift = std::countr_zero(o.useEpoch);
  lo.stacks = o.stacks;
  return lo;
}

void JNICALL onVMInit(jvmtiEnv* jvmti, JNIEnv* jni, jthread) {
  AgentScope scope;
  Agent& a = *gAgent;
  std::string error;
  if (!defineReferenceClass(jni, error) ||
      !startProbes(jni,
                   {a.options.depth, a.options.record, a.lifetime, a.options.bytecodes,
                    a.options.maxMemory, a.options.quiet},
                   error) ||
      !a.recorder->init(jni, error)) {
    say("error: " + error + "; no profile will be written");
    return;
  }
  if (a.virtualThreads && !startVirtualThreads(a.jvmti, jni, !a.lifetime, error)) {
    say("warning: " + error + "; what virtual threads allocate is not counted");
  }
  uint32_t vmBase = a.recorder->addNativeBase(a.ids, profile::SiteKind::Vm);
  uint32_t jniBase = a.recorder->addNativeBase(a.ids, profile::SiteKind::Jni);
  if (!startNativeAllocs(jvmti, jni, vmBase, jniBase, error)) {
    say("warning: " + error + "; allocations by the JVM and by JNI are not counted");
  }
  if (a.lifetime) {
    LifetimeOptions lo = lifetimeOptions(a.options);
    uint32_t constructedBase = a.recorder->addNativeBase(a.ids, profile::SiteKind::Reflect);
    if (!startLifetime(jvmti, jni, a.writer, lo, constructedBase, error)) {
      say("error: " + error + "; no lifetimes will be recorded");
    } else if (!error.empty()) {
      say("warning: " + error);
    }
  }
  if (a.options.flushSeconds > 0) startFlushThread(jni);
}

void JNICALL onSampledAlloc(jvmtiEnv*, JNIEnv* jni, jthread thread, jobject object, jclass cls,
                            jlong size) {
  if (Sampler::primingSample()) return;
  if (gAgent->sampledLifetime) {
    onLifetimeSample(jni, thread, object, cls, size);
  } else {
    gAgent->sampler->onSample(jni, thread, object, cls, size);
  }
}

void JNICALL onVMInitSampled(jvmtiEnv*, JNIEnv* jni, jthread) {
  gAgent->sampler->start(jni);
  if (gAgent->options.flushSeconds > 0) startFlushThread(jni);
}

// VM death, either mode: stops the flush thread, lets `finalFlush` write the last chunks,
// closes the profile and says where it went (with `what` it holds).
template <class FinalFlush, class What>
void finishProfile(Agent& a, FinalFlush finalFlush, What what) {
  {
    std::lock_guard lock(a.mu);
    a.stopping = true;
  }
  a.cv.notify_all();
  finalFlush();
  uint64_t bytes = a.writer.bytesWritten();
  a.writer.close();
  say("profile written to " + a.outPath + " (" + std::to_string(bytes) + " bytes, " + what() + ")");
}

void JNICALL onVMDeathSampled(jvmtiEnv* jvmti, JNIEnv*) {
  Agent& a = *gAgent;
  jvmti->SetEventNotificationMode(JVMTI_DISABLE, JVMTI_EVENT_SAMPLED_OBJECT_ALLOC, nullptr);
  finishProfile(
      a, [&] { a.sampler->flush(true); },
      [&] { return std::to_string(a.sampler->samples()) + " samples"; });
}

void JNICALL onThreadStartSampledLifetime(jvmtiEnv*, JNIEnv* jni, jthread thread) {
  AgentScope scope;
  onLifetimeThreadStart(jni, thread);
}

void JNICALL onVMInitSampledLifetime(jvmtiEnv* jvmti, JNIEnv* jni, jthread thread) {
  AgentScope scope;
  Agent& a = *gAgent;
  std::string error;
  if (!defineReferenceClass(jni, error)) {
    say("error: " + error + "; no lifetimes will be recorded");
    return;
  }
  if (!startSampledLifetime(jvmti, jni, a.writer, lifetimeOptions(a.options), *a.sampler, error)) {
    say("error: " + error + "; no lifetimes will be recorded");
  } else if (!error.empty()) {
    say("warning: " + error);
  }
  onLifetimeThreadStart(jni, thread);
  jvmti->SetEventNotificationMode(JVMTI_ENABLE, JVMTI_EVENT_THREAD_START, nullptr);
  if (a.options.flushSeconds > 0) startFlushThread(jni);
}

void JNICALL onVMDeathSampledLifetime(jvmtiEnv* jvmti, JNIEnv* jni) {
  AgentScope scope;
  Agent& a = *gAgent;
  jvmti->SetEventNotificationMode(JVMTI_DISABLE, JVMTI_EVENT_SAMPLED_OBJECT_ALLOC, nullptr);
  std::string lifetime;
  finishProfile(
      a,
      [&] {
        lifetime = finishLifetime(jni) + sampledLifetimeSummary();
        stopSampledLifetime();
        auto totals = lifetimeTotals();
        totals["classes.hidden"] = std::to_string(writeHiddenClasses(a.writer));
        totals["classes.instrumented"] = std::to_string(a.classesChanged);
        totals["failures"] = std::to_string(a.failures);
        a.sampler->flush(true, totals);
      },
      [&] {
        return std::to_string(a.classesChanged) + " classes instrumented in " +
               std::to_string(a.hookNanos / 1000000) + " ms, " + std::to_string(a.failures) +
               " not rewritten, " + std::to_string(hiddenClassCount()) + " hidden, " +
               std::to_string(a.sampler->samples()) + " samples; " + lifetime;
      });
}

// The JVM's allocation sampler (sample=SIZE), its stacks `depth` frames deep, sampling
// only the program's objects if `programOnly` (Sampler::Site); false, said on stderr, if
// the JVM refuses it.
bool startSampler(Agent& a, uint32_t depth, bool programOnly) {
  std::string error;
  a.sampler = std::make_unique<Sampler>(a.jvmti, a.writer, a.options.sample, depth);
  if (a.sampler->configure(error, programOnly)) return true;
  std::fprintf(stderr, "dragnet: %s\n", error.c_str());
  return false;
}

// mode=lifetime,sample=SIZE: classes get use probes only; the JVM's allocation sampler
// picks the objects (lifetime_sampled.h).
jint startLifetimeSampling(Agent& a) {
  if (!addRewritingCapabilities(a.jvmti) || !addLifetimeCapabilities(a.jvmti)) {
    std::fprintf(stderr, "dragnet: the JVM refused the capabilities the agent needs\n");
    return JNI_ERR;
  }
  if (!startSampler(a, a.options.stack, true)) return JNI_ERR;
  jvmtiEventCallbacks cb{};
  cb.ClassFileLoadHook = onClassFileLoad;
  cb.ClassLoad = onClassLoadNoteHidden;
  cb.VMStart = onVMStart;
  cb.VMInit = onVMInitSampledLifetime;
  cb.VMDeath = onVMDeathSampledLifetime;
  cb.SampledObjectAlloc = onSampledAlloc;
  cb.ThreadStart = onThreadStartSampledLifetime;
  lifetimeCallbacks(cb);
  a.jvmti->SetEventCallbacks(&cb, sizeof cb);
  for (jvmtiEvent e : {JVMTI_EVENT_CLASS_FILE_LOAD_HOOK, JVMTI_EVENT_CLASS_LOAD,
                       JVMTI_EVENT_VM_START, JVMTI_EVENT_VM_INIT, JVMTI_EVENT_VM_DEATH}) {
    a.jvmti->SetEventNotificationMode(JVMTI_ENABLE, e, nullptr);
  }
  say("recording lifetimes of sampled objects (one per ~" + std::to_string(a.options.sample) +
      " bytes) to " + a.outPath);
  return JNI_OK;
}

// sample=SIZE: nothing is rewritten; the JVM's allocation sampler feeds the profile.
jint startSampled(Agent& a) {
  if (!startSampler(a, a.options.depth, false)) return JNI_ERR;
  jvmtiEventCallbacks cb{};
  cb.SampledObjectAlloc = onSampledAlloc;
  cb.VMInit = onVMInitSampled;
  cb.VMDeath = onVMDeathSampled;
  a.jvmti->SetEventCallbacks(&cb, sizeof cb);
  for (jvmtiEvent e : {JVMTI_EVENT_VM_INIT, JVMTI_EVENT_VM_DEATH}) {
    a.jvmti->SetEventNotificationMode(JVMTI_ENABLE, e, nullptr);
  }
  say("sampling allocations (one per ~" + std::to_string(a.options.sample) + " bytes) to " +
      a.outPath);
  return JNI_OK;
}

void JNICALL onThreadEnd(jvmtiEnv*, JNIEnv* jni, jthread thread) {
  AgentScope scope;
  gAgent->recorder->flushThread(jni, thread, true);
}

void JNICALL onVirtualThreadEnd(jvmtiEnv*, JNIEnv* jni, jthread thread) {
  AgentScope scope;
  gAgent->recorder->virtualEnded(jni, thread);
}

void JNICALL onVMDeath(jvmtiEnv*, JNIEnv* jni) {
  AgentScope scope;
  stopNativeAllocs();
  Agent& a = *gAgent;
  std::string lifetime;
  finishProfile(
      a,
      [&] {
        decltype(lifetimeTotals()) totals;
        if (a.lifetime) {
          lifetime = finishLifetime(jni);
          totals = lifetimeTotals();
          totals["references"] = referencesByNew() ? "new" : "allocateInstance";
        }
        totals["classes.hidden"] = std::to_string(writeHiddenClasses(a.writer));
        a.recorder->flushAll(jni, true, totals);
      },
      [&] {
        return std::to_string(a.recorder->classesChanged()) + " classes instrumented in " +
               std::to_string(a.hookNanos / 1000000) + " ms, " +
               std::to_string(a.recorder->failures()) + " not rewritten, " +
               std::to_string(hiddenClassCount()) + " hidden" +
               (a.recorder->partial() == 0
                    ? ""
                    : ", " + std::to_string(a.recorder->partial()) + " partly") +
               (lifetime.empty() ? "" : "; " + lifetime);
      });
}

// Opens the profile at out= (its %p the pid). When another process is writing that file
// (JVMs started by one launcher with the same options), this JVM writes its own, named
// with its pid, and says so.
bool openProfile(Agent& a, std::string& error) {
  long pid = ::getpid();
  std::string out = outPath(a.options, pid);
  std::error_code ec;
  a.outPath = std::filesystem::absolute(out, ec).string();
  if (ec) a.outPath = out;
  bool busy = false;
  if (a.writer.open(a.outPath, error, &busy)) return true;
  if (!busy) return false;
  std::string own = busyOutPath(a.outPath, pid);
  std::fprintf(stderr, "dragnet: %s; this JVM writes %s\n", error.c_str(), own.c_str());
  a.outPath = own;
  return a.writer.open(a.outPath, error);
}

jint start(JavaVM* vm, const char* optionText) {
  auto* a = new Agent();  // lives as long as the JVM: callbacks may run until the end
  gAgent = a;
  std::string error;
  if (!parseOptions(optionText ? optionText : "", a->options, error)) {
    std::fprintf(stderr, "dragnet: %s\n%s", error.c_str(), kOptionHelp);
    return JNI_ERR;
  }
  if (a->options.help) {
    std::fprintf(stderr, "%s", kOptionHelp);
    return JNI_ERR;
  }
  a->alloc.bytecodes = a->options.bytecodes;
  a->lifetime = a->options.mode == "lifetime";
  if (vm->GetEnv(reinterpret_cast<void**>(&a->jvmti), JVMTI_VERSION_11) != JNI_OK) {
    std::fprintf(stderr, "dragnet: this JVM does not offer JVMTI 11 (Java 11 or newer needed)\n");
    return JNI_ERR;
  }
  if (!openProfile(*a, error)) {
    std::fprintf(stderr, "dragnet: %s\n", error.c_str());
    return JNI_ERR;
  }
  std::map<std::string, std::string> meta{{"mode", a->options.mode},
                                          {"bytecodes", a->options.bytecodes ? "on" : "off"},
                                          {"depth", std::to_string(a->options.depth)},
                                          {"record", a->options.record ? "on" : "off"},
                                          {"pid", std::to_string(::getpid())},
                                          {"options", optionText ? optionText : ""}};
  if (a->options.sample > 0) meta["sample"] = std::to_string(a->options.sample);
  if (a->options.sample == 0 && a->options.keepJit) meta["jit"] = "kept (jit=keep)";
  if (a->options.sample == 0 && !a->options.keepJit) {
    // The exact modes count the bytecode's allocations: C2 must not skip them.
    JitSettings jit = keepAllocationsInBytecode(vm);
    meta["jit"] = (jit.applied ? "exact: " : "unchanged: ") + jit.detail;
    if (!jit.applied) {
      std::fprintf(stderr,
                   "dragnet: warning: %s; allocations inside intrinsified JDK methods of "
                   "compiled callers will be missing\n",
                   jit.detail.c_str());
    }
  }
  char* command = nullptr;  // the main class and its arguments: which JVM wrote the profile
  if (a->jvmti->GetSystemProperty("sun.java.command", &command) == JVMTI_ERROR_NONE && command) {
    meta["command"] = command;
    a->jvmti->Deallocate(reinterpret_cast<unsigned char*>(command));
  }
  if (a->lifetime) {
    meta["gc.interval"] = std::to_string(a->options.gcInterval);
    meta["gc.budget"] = std::to_string(gcBudgetPercent(a->options));
    meta["use.epoch"] = std::to_string(a->options.useEpoch);
    meta["stacks"] = a->options.stacks ? "on" : "off";
    meta["stack"] = std::to_string(a->options.stack);  // the analyzer's nested-site depth
  }
  a->writer.meta(meta);
  a->sampledLifetime = a->lifetime && a->options.sample > 0;
  if (a->sampledLifetime) return startLifetimeSampling(*a);
  if (a->options.sample > 0) return startSampled(*a);
  if (!addRewritingCapabilities(a->jvmti) || !addNativeAllocCapabilities(a->jvmti) ||
      (a->lifetime && !addLifetimeCapabilities(a->jvmti))) {
    std::fprintf(stderr, "dragnet: the JVM refused the capabilities the agent needs\n");
    return JNI_ERR;
  }
  a->virtualThreads = addVirtualThreadCapability(a->jvmti);
  a->recorder = std::make_unique<Recorder>(a->jvmti, a->writer, a->lifetime);
  EventCallbacks all;
  jvmtiEventCallbacks& cb = all.base;
  cb.ClassFileLoadHook = onClassFileLoad;
  cb.ClassLoad = onClassLoadNoteHidden;
  cb.VMStart = onVMStart;
  cb.VMInit = onVMInit;
  cb.VMDeath = onVMDeath;
  cb.ThreadEnd = onThreadEnd;
  cb.VMObjectAlloc = onVMObjectAlloc;
  if (a->lifetime) lifetimeCallbacks(cb);
  if (a->virtualThreads) all.virtualThreadEnd = onVirtualThreadEnd;
  a->jvmti->SetEventCallbacks(&cb, a->virtualThreads ? sizeof all : sizeof cb);
  for (jvmtiEvent e :
       {JVMTI_EVENT_CLASS_FILE_LOAD_HOOK, JVMTI_EVENT_CLASS_LOAD, JVMTI_EVENT_VM_START,
        JVMTI_EVENT_VM_INIT, JVMTI_EVENT_VM_DEATH, JVMTI_EVENT_THREAD_END}) {
    a->jvmti->SetEventNotificationMode(JVMTI_ENABLE, e, nullptr);
  }
  if (a->virtualThreads && !enableVirtualThreadEnd(a->jvmti)) a->virtualThreads = false;
  say("recording " + a->options.mode + " to " + a->outPath);
  return JNI_OK;
}

}  // namespace
}  // namespace dragnet::agent

extern "C" JNIEXPORT jint JNICALL Agent_OnLoad(JavaVM* vm, char* options, void*) {
  std::string text = options ? options : "";
  if (auto first = dragnet::agent::claimProcess(text)) {
    // A non-zero return would abort the JVM: the second load does nothing instead.
    std::fprintf(stderr,
                 "dragnet: warning: the agent is already loaded (%s); this second load "
                 "(%s=%s) does nothing: the program is profiled once\n",
                 first->c_str(), dragnet::agent::ownLibrary().c_str(), text.c_str());
    return JNI_OK;
  }
  return dragnet::agent::start(vm, options);
}
