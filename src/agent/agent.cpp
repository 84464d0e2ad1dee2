// libdragnet.so: the JVMTI agent. Loaded with -agentpath:libdragnet.so=mode=alloc,...
// (options.h), it opens the profile (recorder.h, sampler.h write it), picks the mode the
// options name from the registry (mode.h) and forwards the JVM's events to it: the class
// hook, where a rewriting mode rewrites every class the JVM loads from java/lang/Object on,
// VM start, where the probes' runtime helper is defined into java.base (runtime_bridge.h),
// VM init, thread ends, the background flush and VM death.
#include <jni.h>
#include <jvmti.h>
#include <unistd.h>

#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "agent/hidden_classes.h"
#include "agent/jit_settings.h"
#include "agent/load_guard.h"
#include "agent/mode.h"
#include "agent/options.h"
#include "agent/run_info.h"
#include "agent/runtime_bridge.h"
#include "agent/virtual_threads.h"
#include "classfile/class_file.h"
#include "contexts/probes.h"
#include "flow/tag_field.h"

namespace dragnet::agent {

void Host::say(const std::string& text) const {
  if (!options->quiet) std::fprintf(stderr, "dragnet: %s\n", text.c_str());
}

std::string Host::rewritingSummary(uint64_t changed, uint64_t failures, uint64_t partial) const {
  return std::to_string(changed) + " classes instrumented in " +
         std::to_string(hookNanos / 1000000) + " ms, " + std::to_string(failures) +
         " not rewritten, " + std::to_string(hiddenClassCount()) + " hidden" +
         (partial == 0 ? "" : ", " + std::to_string(partial) + " partly");
}

namespace {

struct Agent {
  Options options;
  profile::Writer writer;
  Host host;
  std::unique_ptr<Mode> mode;
  std::string dumpDir;  // dump=DIR, its %p replaced; empty: no dump
  std::atomic<bool> threadFieldAdded{false};
  // The flush thread sleeps on `cv` and stops when `stopping` is set at VM death.
  std::mutex mu;
  std::condition_variable cv;
  bool stopping = false;
  std::chrono::steady_clock::time_point started = std::chrono::steady_clock::now();
};

Agent* gAgent = nullptr;

// What rewriting every class from java/lang/Object on needs: the class hook before VM
// start (early VMStart, early class hooks) and for all classes.
bool addRewritingCapabilities(jvmtiEnv* jvmti) {
  jvmtiCapabilities caps{};
  caps.can_generate_all_class_hook_events = 1;
  caps.can_generate_early_vmstart = 1;
  caps.can_generate_early_class_hook_events = 1;
  return jvmti->AddCapabilities(&caps) == JVMTI_ERROR_NONE;
}

// dump=DIR: the class as the JVM gets it, to DIR/<name>.class. Written under a name of its
// own and renamed, so that two loaders defining the same name at once leave one whole file.
// A name that could climb out of DIR (the hook also sees names taken from the class bytes,
// before the JVM checks them) is not written.
void dumpClass(std::string_view name, const std::vector<uint8_t>& bytes) {
  namespace fs = std::filesystem;
  if (name.empty() || name.front() == '/' || name.find("..") != std::string_view::npos) return;
  fs::path file = fs::path(gAgent->dumpDir) / (std::string(name) + ".class");
  std::error_code ec;
  fs::create_directories(file.parent_path(), ec);
  fs::path part = file;
  part += ".part" + std::to_string(std::hash<std::thread::id>{}(std::this_thread::get_id()));
  if (std::FILE* f = std::fopen(part.c_str(), "wb")) {
    bool ok = std::fwrite(bytes.data(), 1, bytes.size(), f) == bytes.size();
    ok = std::fclose(f) == 0 && ok;
    if (ok) fs::rename(part, file, ec);
    if (!ok || ec) fs::remove(part, ec);
  }
}

// Hands the rewritten class to the JVM; false (the class passes through unchanged, the
// failure recorded) if it cannot be written.
bool replaceClass(jvmtiEnv* jvmti, const classfile::ClassFile& cls, std::string_view name,
                  jint* newLen, unsigned char** newData) {
  auto out = classfile::writeClass(cls);
  if (!out) {
    gAgent->mode->failure({std::string(name), {}, out.error().message});
    return false;
  }
  unsigned char* mem = nullptr;
  if (jvmti->Allocate(static_cast<jlong>(out.value().size()), &mem) != JVMTI_ERROR_NONE) {
    return false;
  }
  std::memcpy(mem, out.value().data(), out.value().size());
  if (!gAgent->dumpDir.empty()) dumpClass(name, out.value());
  *newData = mem;
  *newLen = static_cast<jint>(out.value().size());
  return true;
}

// Hands one class to the mode; on any failure the class passes through unchanged and is
// recorded.
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
  } timer{a.host.hookNanos};
  try {
    auto parsed = classfile::parseClass({data, static_cast<size_t>(len)}, {n});
    if (!parsed) {
      a.mode->failure({std::string(n), {}, parsed.error().message});
      return;
    }
    classfile::ClassFile& cls = parsed.value();
    if (!name) n = cls.name();  // points into `data`, which outlives the hook
    if (!name && contexts::isRuntimeClass(n)) return;
    bool thread = n == "java/lang/Thread";
    if (thread) addThreadStateField(cls);
    // The fields the agent adds (Thread's; the flow modes' tags) are invisible to the
    // program's reflection and to serialization.
    bool hides = n == flow::kReflectionClass && flow::hideDragnetFields(cls);
    std::function<bool()> install = [&] {
      if (!replaceClass(jvmti, cls, n, newLen, newData)) return false;
      if (thread) a.threadFieldAdded = true;
      return true;
    };
    ClassLoad load{cls, n, thread || hides, install};
    a.mode->transform(load);
  } catch (const std::exception& e) {
    a.mode->failure({std::string(n), {}, std::string("internal error: ") + e.what()});
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
    a.mode->flush(jni);
    writeHiddenClasses(a.writer);
    a.writer.meta(durationMeta(a.started));  // the run's duration up to this flush
    lock.lock();
  }
}

void JNICALL onVMInit(jvmtiEnv* jvmti, JNIEnv* jni, jthread thread) {
  Agent& a = *gAgent;
  if (!a.mode->vmInit(jni, thread) || a.options.flushSeconds == 0) return;
  if (!runAgentThread(jvmti, jni, "dragnet flush", flushLoop, JVMTI_THREAD_MIN_PRIORITY)) {
    a.host.say("warning: no background flush thread; the profile is written at exit only");
  }
}

void JNICALL onThreadStart(jvmtiEnv*, JNIEnv* jni, jthread thread) {
  gAgent->mode->threadStart(jni, thread);
}

void JNICALL onThreadEnd(jvmtiEnv*, JNIEnv* jni, jthread thread) {
  gAgent->mode->threadEnd(jni, thread);
}

void JNICALL onVirtualThreadEnd(jvmtiEnv*, JNIEnv* jni, jthread thread) {
  gAgent->mode->virtualThreadEnd(jni, thread);
}

// VM death: stops the flush thread, lets the mode write its last records, closes the
// profile and says where it went (with what it holds).
void JNICALL onVMDeath(jvmtiEnv*, JNIEnv* jni) {
  Agent& a = *gAgent;
  {
    std::lock_guard lock(a.mu);
    a.stopping = true;
  }
  a.cv.notify_all();
  a.writer.meta(durationMeta(a.started));
  std::string what = a.mode->vmDeath(jni);
  uint64_t bytes = a.writer.bytesWritten();
  a.writer.close();
  a.host.say("profile written to " + a.host.outPath + " (" + std::to_string(bytes) + " bytes, " +
             what + ")");
}

// Opens the profile at out= (its %p the pid). When another process is writing that file
// (JVMs started by one launcher with the same options), this JVM writes its own, named
// with its pid, and says so.
bool openProfile(Agent& a, std::string& error) {
  long pid = ::getpid();
  std::string out = outPath(a.options, pid);
  std::error_code ec;
  std::string& path = a.host.outPath;
  path = std::filesystem::absolute(out, ec).string();
  if (ec) path = out;
  bool busy = false;
  if (a.writer.open(path, error, &busy)) return true;
  if (!busy) return false;
  std::string own = busyOutPath(path, pid);
  std::fprintf(stderr, "dragnet: %s; this JVM writes %s\n", error.c_str(), own.c_str());
  path = own;
  return a.writer.open(path, error);
}

// The meta data every profile has: the options (their keys in the option tables, and the
// text as given), the process and the run (run_info.h), the JIT settings.
std::map<std::string, std::string> commonMeta(Agent& a, JavaVM* vm, const char* optionText) {
  const Options& o = a.options;
  std::map<std::string, std::string> meta = optionMeta(o);  // the options' own keys
  meta.merge(runMeta(a.host.jvmti));
  meta["pid"] = std::to_string(::getpid());
  meta["options"] = optionText ? optionText : "";
  if (o.sample == 0 && o.keepJit) meta["jit"] = "kept (jit=keep)";
  if (o.sample == 0 && !o.keepJit) {
    // The exact modes count the bytecode's allocations: C2 must not skip them.
    JitSettings jit = keepAllocationsInBytecode(vm, a.mode->moreDisabledIntrinsics(a.host.jvmti));
    meta["jit"] = (jit.applied ? "exact: " : "unchanged: ") + jit.detail;
    if (!jit.applied) {
      std::fprintf(stderr,
                   "dragnet: warning: %s; allocations inside intrinsified JDK methods of "
                   "compiled callers will be missing\n",
                   jit.detail.c_str());
    }
  }
  char* command = nullptr;  // the main class and its arguments: which JVM wrote the profile
  if (a.host.jvmti->GetSystemProperty("sun.java.command", &command) == JVMTI_ERROR_NONE &&
      command) {
    meta["command"] = command;
    a.host.jvmti->Deallocate(reinterpret_cast<unsigned char*>(command));
  }
  return meta;
}

// The core's callbacks beside the mode's (`all`, filled in by Mode::load): sets them and
// enables the events. False if the JVM refuses.
bool installCallbacks(Agent& a, EventCallbacks& all, std::vector<jvmtiEvent> events) {
  Mode& m = *a.mode;
  jvmtiEnv* jvmti = a.host.jvmti;
  jvmtiEventCallbacks& cb = all.base;
  cb.VMInit = onVMInit;
  cb.VMDeath = onVMDeath;
  cb.ThreadStart = onThreadStart;  // enabled by a mode that wants it
  events.insert(events.end(), {JVMTI_EVENT_VM_INIT, JVMTI_EVENT_VM_DEATH});
  if (m.rewrites()) {
    cb.ClassFileLoadHook = onClassFileLoad;
    cb.ClassLoad = onClassLoadNoteHidden;
    cb.VMStart = onVMStart;
    events.insert(events.end(),
                  {JVMTI_EVENT_CLASS_FILE_LOAD_HOOK, JVMTI_EVENT_CLASS_LOAD, JVMTI_EVENT_VM_START});
  }
  if (m.wantsThreadEnds()) {
    cb.ThreadEnd = onThreadEnd;
    events.push_back(JVMTI_EVENT_THREAD_END);
    if (a.host.virtualThreads) all.virtualThreadEnd = onVirtualThreadEnd;
  }
  if (jvmti->SetEventCallbacks(&cb, a.host.virtualThreads ? sizeof all : sizeof cb) !=
      JVMTI_ERROR_NONE) {
    return false;
  }
  for (jvmtiEvent e : events) jvmti->SetEventNotificationMode(JVMTI_ENABLE, e, nullptr);
  if (a.host.virtualThreads && !enableVirtualThreadEnd(jvmti)) a.host.virtualThreads = false;
  return true;
}

// The registered mode the options name, or null (said on stderr).
const ModeInfo* chosenMode(const Options& o) {
  if (const ModeInfo* info = findMode(o.mode, o.sample > 0)) return info;
  std::string known;  // the modes that have the variant asked for
  for (const ModeInfo& m : registeredModes()) {
    if (m.sampled != (o.sample > 0)) continue;
    known += (known.empty() ? "" : ", ") + std::string(m.name);
  }
  std::fprintf(stderr, "dragnet: option 'mode': no mode '%s'%s (modes: %s)\n", o.mode.c_str(),
               o.sample > 0 ? " with sample=SIZE" : "", known.c_str());
  return nullptr;
}

jint start(JavaVM* vm, const char* optionText) {
  auto* a = new Agent();  // lives as long as the JVM: callbacks may run until the end
  gAgent = a;
  a->host.options = &a->options;
  a->host.writer = &a->writer;
  std::string error;
  if (!parseOptions(optionText ? optionText : "", a->options, error)) {
    std::fprintf(stderr, "dragnet: %s\n%s", error.c_str(), optionHelp().c_str());
    return JNI_ERR;
  }
  if (a->options.help) {
    std::fprintf(stderr, "%s", optionHelp().c_str());
    return JNI_ERR;
  }
  const ModeInfo* info = chosenMode(a->options);
  if (!info) return JNI_ERR;
  if (!a->options.dump.empty()) a->dumpDir = withPid(a->options.dump, ::getpid());
  if (vm->GetEnv(reinterpret_cast<void**>(&a->host.jvmti), JVMTI_VERSION_11) != JNI_OK) {
    std::fprintf(stderr, "dragnet: this JVM does not offer JVMTI 11 (Java 11 or newer needed)\n");
    return JNI_ERR;
  }
  if (!openProfile(*a, error)) {
    std::fprintf(stderr, "dragnet: %s\n", error.c_str());
    return JNI_ERR;
  }
  a->mode = info->make();
  Mode& m = *a->mode;
  std::map<std::string, std::string> meta = commonMeta(*a, vm, optionText);
  if (m.rewrites() && !addRewritingCapabilities(a->host.jvmti)) {
    std::fprintf(stderr, "dragnet: the JVM refused the capabilities the agent needs\n");
    return JNI_ERR;
  }
  if (m.wantsThreadEnds()) a->host.virtualThreads = addVirtualThreadCapability(a->host.jvmti);
  EventCallbacks all;
  ModeEvents events{&all.base, {}};
  if (!m.load(a->host, meta, events, error)) {
    std::fprintf(stderr, "dragnet: %s\n", error.c_str());
    return JNI_ERR;
  }
  a->writer.meta(meta);
  if (!installCallbacks(*a, all, std::move(events.enable))) {
    std::fprintf(stderr, "dragnet: the JVM refused the agent's event callbacks\n");
    return JNI_ERR;
  }
  a->host.say(m.startLine(a->host));
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
