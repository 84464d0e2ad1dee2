// An analysis as the agent runs it: a registered mode. Agent_OnLoad (agent.cpp) opens the
// profile, picks the mode the options name (mode=NAME, and sample=SIZE for a sampled
// variant) from the registry (src/registry/agent_modes.cpp), lets it add its capabilities
// and callbacks, and from then on forwards the JVM's events to it: the class hook (when the
// mode rewrites classes), VM init, thread start and end, the background flush and VM death.
//
// The core knows no analysis. Two bases in the core carry what several modes share: the
// calling-context recording of the exact modes (contexts_mode.h) and the JVM's allocation
// sampler (sampled_mode.h); an analysis derives from one of them or from Mode itself.
#pragma once

#include <jni.h>
#include <jvmti.h>

#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "agent/options.h"
#include "classfile/class_file.h"
#include "profile/writer.h"

namespace dragnet::agent {

// What the agent core gives a mode.
struct Host {
  jvmtiEnv* jvmti = nullptr;
  profile::Writer* writer = nullptr;
  const Options* options = nullptr;
  std::string outPath;                 // the profile's absolute path
  std::atomic<uint64_t> hookNanos{0};  // time spent rewriting classes, all threads
  bool virtualThreads = false;         // VirtualThreadEnd is on (virtual_threads.h)

  // A message on stderr ("dragnet: ..."), unless quiet=on.
  void say(const std::string& text) const;
  // The closing line's account of the rewriting: "N classes instrumented in T ms, F not
  // rewritten, H hidden" (and ", P partly" when some methods got fewer probes).
  std::string rewritingSummary(uint64_t changed, uint64_t failures, uint64_t partial) const;
};

// A JVMTI event a mode handles itself, with its callback set in `callbacks`.
struct ModeEvents {
  jvmtiEventCallbacks* callbacks = nullptr;
  std::vector<jvmtiEvent> enable;  // enabled before Agent_OnLoad returns
};

// One class in the class-load hook, parsed. `install` hands the class, as it is when
// called, to the JVM; false if it could not be written (it then passes unchanged, the
// failure recorded).
struct ClassLoad {
  classfile::ClassFile& cls;
  std::string_view name;
  bool mustInstall = false;  // the core changed the class (java/lang/Thread's added field)
  const std::function<bool()>& install;
};

class Mode {
 public:
  virtual ~Mode() = default;

  // Agent_OnLoad, after the profile is open: the capabilities the mode needs, its own
  // entries of the profile's meta data and its own callbacks. False (with `error`): the JVM
  // does not start.
  virtual bool load(Host& host, std::map<std::string, std::string>& meta, ModeEvents& events,
                    std::string& error) = 0;
  // The line said on stderr once loaded ("recording ... to FILE").
  virtual std::string startLine(const Host& host) const = 0;

  // Whether the mode rewrites classes (the core then installs the class hook, defines the
  // runtime helper at VM start and adds the thread-state field to java.lang.Thread).
  virtual bool rewrites() const { return false; }
  // Rewrites one class in the class-load hook (any thread, concurrently) and calls
  // `c.install` if it changed it or `c.mustInstall`.
  virtual void transform(ClassLoad& c) { (void)c; }
  // A class that could not be read or rewritten: it passes unchanged, counted and named.
  virtual void failure(profile::Failure f) = 0;

  // JVMTI VMInit; false if nothing will be recorded (said on stderr): no flush thread.
  virtual bool vmInit(JNIEnv* jni, jthread thread) = 0;
  // JVMTI ThreadStart (when the mode enabled it), ThreadEnd, VirtualThreadEnd.
  virtual void threadStart(JNIEnv* jni, jthread thread) { (void)jni, (void)thread; }
  virtual void threadEnd(JNIEnv* jni, jthread thread) { (void)jni, (void)thread; }
  virtual void virtualThreadEnd(JNIEnv* jni, jthread thread) { (void)jni, (void)thread; }
  // Whether the mode wants ThreadEnd and VirtualThreadEnd (the core enables them).
  virtual bool wantsThreadEnds() const { return false; }
  // The flush thread, every flush= seconds: writes what was recorded so far.
  virtual void flush(JNIEnv* jni) = 0;
  // VM death, after the flush thread stopped: writes the last records. Returns what the
  // closing line says the profile holds.
  virtual std::string vmDeath(JNIEnv* jni) = 0;
  // Agent_OnLoad, exact modes: HotSpot intrinsic ids (DisableIntrinsic) to keep off besides
  // the core's (jit_changes.h), e.g. those whose Java bodies the mode's probes must see at
  // every tier; only ids the running JVM knows (HotSpot refuses to start on another).
  virtual std::vector<std::string> moreDisabledIntrinsics(jvmtiEnv* jvmti) const {
    (void)jvmti;
    return {};
  }
};

// A registered mode.
struct ModeInfo {
  std::string_view name;  // mode=NAME
  bool sampled = false;   // the variant chosen by sample=SIZE
  std::unique_ptr<Mode> (*make)() = nullptr;
  // Runtime helper classes (internal names) the mode defines itself, after VM start (for
  // instance adapted to the JVM it runs on): defineRuntime (runtime_bridge.h) leaves them
  // out whatever the mode, so another mode never has them.
  std::span<const std::string_view> lateClasses = {};
};

// Every registered mode (src/registry/agent_modes.cpp).
std::span<const ModeInfo> registeredModes();

// The mode `name` (its sampled variant if `sampled`), or null.
const ModeInfo* findMode(std::string_view name, bool sampled);

// Whether a registered mode defines the runtime helper class `name` itself (lateClasses).
bool isLateRuntimeClass(std::string_view name);

}  // namespace dragnet::agent
