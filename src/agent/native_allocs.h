// Allocations that no bytecode shows, for mode alloc: objects the JVM allocates itself
// (JVMTI VMObjectAlloc: reflection before inflation, Class.getName, getDeclaredMethods0,
// interpreted clone and Array.newInstance, ...) and objects native code makes through JNI
// (the JNI function table is interposed: AllocObject, NewObject*, NewObjectArray,
// New<Primitive>Array, NewString, NewStringUTF, NewDirectByteBuffer). Each is recorded in
// the calling thread's current context by an upcall to DragnetRt.dyn: these events are
// rare (hundreds to a few thousand per run), so one JNI call each is affordable.
//
// VMObjectAlloc also fires for allocations a probe already counts: Object.clone,
// Array.newArray / multiNewArray and Unsafe.allocateInstance called from an instrumented
// call site (in the interpreter; compiled code allocates inline and posts nothing). Those
// are recognised by their caller's (method, bci) and skipped, so nothing counts twice.
#pragma once

#include <jni.h>
#include <jvmti.h>

#include <cstdint>
#include <string>
#include <vector>

#include "profile/format.h"

namespace dragnet::agent {

// While alive, JNI allocations made by the current thread are the agent's own (reading
// class sizes, starting its flush thread) and are not recorded.
class AgentScope {
 public:
  AgentScope();
  ~AgentScope();
  AgentScope(const AgentScope&) = delete;
  AgentScope& operator=(const AgentScope&) = delete;
  static bool active();  // the current thread is inside the agent

 private:
  bool saved_;
};

// A call site whose native allocation a probe records (from the class-load hook).
struct ProbedCall {
  std::string cls, name, descriptor;  // the calling method
  uint32_t bci = 0;
};

// Adds the capabilities the VMObjectAlloc event needs (before Agent_OnLoad returns).
bool addNativeAllocCapabilities(jvmtiEnv* jvmti);

// Called for each rewritten class's probed native-allocation call sites.
void noteProbedCalls(std::vector<ProbedCall> calls);

// At VM init, after the probes are on: resolves what the callbacks need, installs the JNI
// wrappers and enables VMObjectAlloc. `vmBase` and `jniBase` are the base site keys of
// the two kinds of allocations. With `jniUses` (mode lifetime) the table also gets the
// wrappers that report object uses (jni_uses.h). False with `error` if something is missing.
bool startNativeAllocs(jvmtiEnv* jvmti, JNIEnv* jni, uint32_t vmBase, uint32_t jniBase,
                       bool jniUses, std::string& error);

// Mode lifetime with sample=SIZE: only the JNI use wrappers (jni_uses.h) in the table; the
// JVM's allocation sampler sees native allocations itself.
bool startJniUsesOnly(jvmtiEnv* jvmti, std::string& error);

// At VM death: stop recording (the profile is being finished).
void stopNativeAllocs();

// The JVMTI VMObjectAlloc callback.
void JNICALL onVMObjectAlloc(jvmtiEnv* jvmti, JNIEnv* jni, jthread thread, jobject object,
                             jclass cls, jlong size);

}  // namespace dragnet::agent
