// The bridge between probes and the agent: the runtime helper classes (runtime/agent) are
// defined into java.base at early VM start and configured and switched on at VM init;
// java.lang.Thread gets the field that holds each thread's DragnetState.
#pragma once

#include <jni.h>
#include <jvmti.h>

#include <span>
#include <string>
#include <string_view>

#include "classfile/class_file.h"
#include "common/embedded.h"

namespace dragnet {
// The runtime helper classes the agent defines into java.base (runtime/agent and each
// analysis's runtime/ folder), compiled into the library.
std::span<const EmbeddedFile> agentRuntimeFiles();
}  // namespace dragnet

namespace dragnet::agent {

// The runtime helper's core classes (runtime/agent), by internal name.
inline constexpr const char* kRuntimeClass = "java/lang/DragnetRt";
inline constexpr const char* kStateClass = "java/lang/DragnetState";

inline constexpr const char* kThreadStateField = "dragnet$state";
inline constexpr const char* kThreadStateDesc = "Ljava/lang/DragnetState;";

// Fields of java.lang.Thread an analysis's agent part and probes share: the thread's stack,
// [lo, hi), where the agent knows it, and a flag that the thread's last sample was
// allocated by Object.clone and waits for the probe after the clone call.
inline constexpr const char* kThreadStackLo = "dragnet$stackLo";
inline constexpr const char* kThreadStackHi = "dragnet$stackHi";
inline constexpr const char* kThreadClonePending = "dragnet$clonePending";

// Adds the package-private synthetic fields dragnet$state, dragnet$stackLo,
// dragnet$stackHi and dragnet$clonePending to java/lang/Thread's model.
void addThreadStateField(classfile::ClassFile& thread);

// Starts a JVMTI agent thread (a java.lang.Thread named `name` that runs `run` with `arg`);
// in the live phase. False if it could not be started.
bool runAgentThread(jvmtiEnv* jvmti, JNIEnv* jni, const char* name, jvmtiStartFunction run,
                    jint priority, void* arg = nullptr);

// Defines the helper classes with the boot loader (early VM start: before any Java code
// runs, so before any probe), all but those a registered mode defines itself later
// (ModeInfo::lateClasses). False with `error` on failure.
bool defineRuntime(JNIEnv* jni, jvmtiEnv* jvmti, std::string& error);

// The class file of the runtime helper class `className` (internal name), or null.
const EmbeddedFile* findRuntimeFile(std::string_view className);

// Defines `bytes` as the runtime helper class `name` with the boot loader (into java.base):
// its local reference, or null with `error` said (the JVM's exception cleared).
jclass defineRuntimeClass(JNIEnv* jni, std::string_view name, std::span<const uint8_t> bytes,
                          std::string& error);

// At VM init: hands the probes this JVM's array layout (measured with real arrays), the
// depth limit (0: unlimited), whether each thread's state carries the caches an analysis's
// probes keep in it (DragnetState) and instruction counts (bytecodes=on) and the bound of
// the trees' native memory (max-memory; `quiet`: no warning when it is reached), then turns
// them on (unless `record` is false).
struct ProbeSettings {
  uint32_t maxDepth = 0;
  bool record = true;
  bool threadCaches = false;
  bool bytecodes = false;
  uint64_t maxMemory = uint64_t{1} << 30;
  bool quiet = false;
};
bool startProbes(JNIEnv* jni, const ProbeSettings& settings, std::string& error);

}  // namespace dragnet::agent
