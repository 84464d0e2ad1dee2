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
#include <ctime>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "agent/attach_protocol.h"
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
  // An attached session (dragnet attach): recording starts `delay` after the attach and
  // ends after `duration` (0: at stop or VM death); `finished` once the profile is closed.
  bool attached = false;
  std::chrono::milliseconds delay{0}, duration{0};
  std::atomic<bool> finished{false};
  std::mutex finishing;  // held while the profile is completed
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

void finishProfile(Agent& a, JNIEnv* jni);

// An attached session's environment, once the session ended, hears nothing more and gives
// its capabilities back: a later session has an environment of its own, and HotSpot lets
// one environment at a time sample allocations.
void releaseEnvironment(jvmtiEnv* jvmti) {
  jvmti->SetEventCallbacks(nullptr, 0);
  jvmtiCapabilities caps{};
  if (jvmti->GetCapabilities(&caps) == JVMTI_ERROR_NONE) jvmti->RelinquishCapabilities(&caps);
}

// Waits until `until` or until the session stops; true if it stopped.
bool waitStop(Agent& a, std::unique_lock<std::mutex>& lock,
              std::chrono::steady_clock::time_point until) {
  return a.cv.wait_until(lock, until, [&] { return a.stopping; });
}

// The flush thread: writes every flush= seconds. In an attached session it also starts the
// recording after the delay and ends it after the duration.
void JNICALL flushLoop(jvmtiEnv* jvmti, JNIEnv* jni, void* arg) {
  Agent& a = *static_cast<Agent*>(arg);
  using Clock = std::chrono::steady_clock;
  std::unique_lock lock(a.mu);
  if (a.attached) {
    if (waitStop(a, lock, Clock::now() + a.delay)) return;
    lock.unlock();
    jthread self = nullptr;
    jvmti->GetCurrentThread(&self);
    a.mode->vmInit(jni, self);
    lock.lock();
  }
  Clock::time_point end =
      a.duration.count() > 0 ? Clock::now() + a.duration : Clock::time_point::max();
  auto every = a.options.flushSeconds > 0 ? std::chrono::seconds(a.options.flushSeconds)
                                          : std::chrono::hours(24 * 365);
  while (!a.stopping) {
    Clock::time_point next = Clock::now() + every;
    if (waitStop(a, lock, std::min(next, end))) break;
    lock.unlock();
    if (Clock::now() >= end) {
      finishProfile(a, jni);
      return;
    }
    a.mode->flush(jni);
    writeHiddenClasses(a.writer);
    a.writer.meta(durationMeta(a.started));  // the run's duration up to this flush
    lock.lock();
  }
}

void JNICALL onVMInit(jvmtiEnv* jvmti, JNIEnv* jni, jthread thread) {
  Agent& a = *gAgent;
  if (!a.mode->vmInit(jni, thread) || a.options.flushSeconds == 0) return;
  if (!runAgentThread(jvmti, jni, "dragnet flush", flushLoop, JVMTI_THREAD_MIN_PRIORITY, &a)) {
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

// Stops the flush thread, lets the mode write its last records, closes the profile and says
// where it went (with what it holds). Once: at VM death, or for an attached session at its
// stop or the end of its duration, whichever comes first.
void finishProfile(Agent& a, JNIEnv* jni) {
  {
    std::lock_guard lock(a.mu);
    a.stopping = true;
  }
  a.cv.notify_all();
  std::lock_guard done(a.finishing);  // a second caller returns once the file is complete
  if (a.finished.exchange(true)) return;
  a.writer.meta(durationMeta(a.started));
  std::string what = a.mode->vmDeath(jni);
  uint64_t bytes = a.writer.bytesWritten();
  a.writer.close();
  a.host.say("profile written to " + a.host.outPath + " (" + std::to_string(bytes) + " bytes, " +
             what + ")");
  if (a.attached) releaseEnvironment(a.host.jvmti);
}

void JNICALL onVMDeath(jvmtiEnv*, JNIEnv* jni) { finishProfile(*gAgent, jni); }

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

using attach::Status;

// The profile's "attached" meta entry: what a session started in a running JVM cannot see.
std::string lateStartNote(const Agent& a) {
  std::time_t now = std::time(nullptr);
  char when[32];
  std::strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
  std::string note = std::string("started in the running JVM at ") + when;
  if (a.delay.count() > 0) note += " + " + std::to_string(a.delay.count()) + " ms delay";
  if (a.duration.count() > 0) note += ", for " + std::to_string(a.duration.count()) + " ms";
  return note +
         ": allocations before the start (and after the stop) are not counted, nor what each "
         "thread allocates in the rest of the allocation buffer (TLAB) it was filling at the "
         "start (the JVM's sampler starts on a thread at its next allocation through the "
         "runtime, usually the next buffer)";
}

// An attached session's flush thread, which starts and ends the recording.
bool startSession(Agent& a, JavaVM* vm) {
  JNIEnv* jni = nullptr;
  if (vm->GetEnv(reinterpret_cast<void**>(&jni), JNI_VERSION_1_8) != JNI_OK) return false;
  return runAgentThread(a.host.jvmti, jni, "dragnet session", flushLoop, JVMTI_THREAD_MIN_PRIORITY,
                        &a);
}

// Loads the agent with `optionText`: at JVM start (Agent_OnLoad), or into a running JVM
// (`live`, Agent_OnAttach: nothing is said on the program's stderr; the status tells
// dragnet attach what went wrong).
Status start(JavaVM* vm, const char* optionText, bool live, uint64_t delayMs = 0,
             uint64_t durationMs = 0) {
  auto* a = new Agent();  // lives as long as the JVM: callbacks may run until the end
  auto fail = [&](Status status, const std::string& message) {
    if (!live) std::fprintf(stderr, "dragnet: %s\n", message.c_str());
    return status;
  };
  a->host.options = &a->options;
  a->host.writer = &a->writer;
  a->attached = live;
  a->delay = std::chrono::milliseconds(delayMs);
  a->duration = std::chrono::milliseconds(durationMs);
  std::string error;
  if (!parseOptions(optionText ? optionText : "", a->options, error)) {
    return fail(Status::BadRequest, error + "\n" + optionHelp());
  }
  if (a->options.help) {
    if (!live) std::fprintf(stderr, "%s", optionHelp().c_str());
    return Status::BadRequest;
  }
  const ModeInfo* info =
      live ? findMode(a->options.mode, a->options.sample > 0) : chosenMode(a->options);
  if (!info) return Status::BadRequest;
  auto mode = info->make();
  // A late start cannot add java.lang.Thread's fields, which every rewriting mode needs.
  if (live && mode->rewrites()) return Status::CannotStartLate;
  if (!a->options.dump.empty()) a->dumpDir = withPid(a->options.dump, ::getpid());
  if (vm->GetEnv(reinterpret_cast<void**>(&a->host.jvmti), JVMTI_VERSION_11) != JNI_OK) {
    return fail(Status::JvmRefused, "this JVM does not offer JVMTI 11 (Java 11 or newer needed)");
  }
  if (!openProfile(*a, error)) return fail(Status::CannotOpen, error);
  gAgent = a;
  a->mode = std::move(mode);
  Mode& m = *a->mode;
  std::map<std::string, std::string> meta = commonMeta(*a, vm, optionText);
  if (live) meta["attached"] = lateStartNote(*a);
  if (m.rewrites() && !addRewritingCapabilities(a->host.jvmti)) {
    return fail(Status::JvmRefused, "the JVM refused the capabilities the agent needs");
  }
  if (m.wantsThreadEnds()) a->host.virtualThreads = addVirtualThreadCapability(a->host.jvmti);
  EventCallbacks all;
  ModeEvents events{&all.base, {}};
  if (!m.load(a->host, meta, events, error)) return fail(Status::JvmRefused, error);
  a->writer.meta(meta);
  if (!installCallbacks(*a, all, std::move(events.enable))) {
    return fail(Status::JvmRefused, "the JVM refused the agent's event callbacks");
  }
  if (live && !startSession(*a, vm)) return Status::JvmRefused;
  a->host.say(m.startLine(a->host));
  return Status::Ok;
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
  return dragnet::agent::start(vm, options, false) == dragnet::agent::attach::Status::Ok ? JNI_OK
                                                                                         : JNI_ERR;
}

namespace dragnet::agent {
namespace {

// Whether a session is recording: Agent_OnLoad's, or an attached one (`attached`).
bool recording() { return gAgent && !gAgent->finished; }

// dump: the profile as written so far (its last flush; an attached session flushes first),
// copied to `out`. It reads as a profile that was cut off: the session goes on.
Status dumpProfile(JNIEnv* jni, const std::string& options) {
  Agent& a = *gAgent;
  Options o;
  std::string error;
  if (!parseOptions(options, o, error) || o.out.empty()) return Status::BadRequest;
  if (a.attached) {
    a.mode->flush(jni);
    writeHiddenClasses(a.writer);
  }
  uint64_t bytes = a.writer.bytesWritten();  // whole chunks: each is written under a lock
  namespace fs = std::filesystem;
  std::error_code ec;
  std::string part = o.out + ".part" + std::to_string(::getpid());
  fs::copy_file(a.host.outPath, part, fs::copy_options::overwrite_existing, ec);
  if (!ec) fs::resize_file(part, bytes, ec);
  if (!ec) fs::rename(part, o.out, ec);
  if (ec) fs::remove(part, ec);
  return ec ? Status::CannotOpen : Status::Ok;
}

Status attachCommand(JavaVM* vm, const attach::Request& r) {
  JNIEnv* jni = nullptr;
  if (vm->GetEnv(reinterpret_cast<void**>(&jni), JNI_VERSION_1_8) != JNI_OK) {
    return Status::JvmRefused;
  }
  static bool claimed = false;  // this image holds the process's marker (load_guard.h)
  if (!claimed && !gAgent && claimProcess("attach").has_value()) return Status::OtherImage;
  claimed = true;
  if (r.command == "dump") return recording() ? dumpProfile(jni, r.options) : Status::NotRunning;
  if (r.command == "stop") {
    if (!recording()) return Status::NotRunning;
    if (!gAgent->attached) return Status::StartedWithJvm;
    finishProfile(*gAgent, jni);
    return Status::Ok;
  }
  if (recording()) return gAgent->attached ? Status::Running : Status::StartedWithJvm;
  Agent* previous = gAgent;
  Status s = start(vm, r.options.c_str(), true, r.delayMs, r.durationMs);
  if (s != Status::Ok && gAgent != previous) {  // opened, then refused: nothing recorded
    gAgent->finished = true;
    gAgent->writer.close();
    std::error_code ec;
    std::filesystem::remove(gAgent->host.outPath, ec);
    releaseEnvironment(gAgent->host.jvmti);
  }
  return s;
}

}  // namespace
}  // namespace dragnet::agent

// dragnet attach (attach_protocol.h): the JVM calls this for each load of the library into
// the running JVM; the same path maps the same image, so a later request finds the session.
extern "C" JNIEXPORT jint JNICALL Agent_OnAttach(JavaVM* vm, char* options, void*) {
  namespace attach = dragnet::agent::attach;
  static std::mutex one;  // requests run on the JVM's attach listener, one by one; still
  std::lock_guard lock(one);
  attach::Request request;
  if (!attach::parseRequest(options ? options : "", request)) {
    return static_cast<jint>(attach::Status::BadRequest);
  }
  return static_cast<jint>(dragnet::agent::attachCommand(vm, request));
}
