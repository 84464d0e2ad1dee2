// Allocations that no bytecode shows, for the exact modes' calling-context recording
// (contexts_mode.h): objects the JVM allocates itself
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

#include "agent/jni_table.h"
#include "profile/format.h"

namespace dragnet::agent {

// A call site whose native allocation a probe records (from the class-load hook).
struct ProbedCall {
  std::string cls, name, descriptor;  // the calling method
  uint32_t bci = 0;
};

// Adds the capabilities the VMObjectAlloc event needs and registers the JNI wrappers
// (jni_table.h), before Agent_OnLoad returns.
bool addNativeAllocCapabilities(jvmtiEnv* jvmti);

// Called for each rewritten class's probed native-allocation call sites.
void noteProbedCalls(std::vector<ProbedCall> calls);

// At VM init, after the probes are on: resolves what the callbacks need, installs the JNI
// function table and enables VMObjectAlloc. `vmBase` and `jniBase` are the base site keys
// of the two kinds of allocations. False with `error` if something is missing.
bool startNativeAllocs(jvmtiEnv* jvmti, JNIEnv* jni, uint32_t vmBase, uint32_t jniBase,
                       std::string& error);

// Objects of `cls` that the JVM allocates are a runtime helper's own (made with
// Unsafe.allocateInstance where `new` cannot be used), not the program's: skipped before
// any stack walk. One class; `cls` a global reference.
void skipVmAllocsOf(jclass cls);

// At VM death: stop recording (the profile is being finished).
void stopNativeAllocs();

// The JVMTI VMObjectAlloc callback.
void JNICALL onVMObjectAlloc(jvmtiEnv* jvmti, JNIEnv* jni, jthread thread, jobject object,
                             jclass cls, jlong size);

}  // namespace dragnet::agent
