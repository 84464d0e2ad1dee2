// The JNI function table: one interposed copy of the JVM's, shared by every analysis that
// wraps JNI functions (counting what native code allocates, recording what it reads and
// writes, ...). Clients register before the VM starts; at VM init the table is copied once,
// each client puts its wrappers into it in registration order, and the result is installed
// once (SetJNIFunctionTable). A client's wrapper calls `next`, the table as it was before
// that client: two clients may wrap the same function without knowing each other, the
// later one outermost. Calls a wrapper makes for itself (its upcall, a field it reads) go to
// `jvm`, the JVM's own functions, so that no client sees them.
//
// Wrappers run on the program's threads inside JNI calls: they take no lock, allocate
// nothing and make no JNI call beyond their own record (the rules below).
#pragma once

#include <jni.h>
#include <jvmti.h>

#include <string>

namespace dragnet::agent {

// While alive, the current thread's JNI calls are the agent's own (reading class sizes,
// starting its flush thread, a wrapper's upcall): wrappers pass them through unrecorded.
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

// What a client's wrappers call: `next` for the function they wrap, `jvm` for their own.
struct JniChain {
  const JNINativeInterface_* next = nullptr;
  const JNINativeInterface_* jvm = nullptr;
};

// Puts a client's wrappers into `table` (only the functions it wraps); `chain` stays valid
// for the life of the JVM.
using JniWrap = void (*)(JNINativeInterface_& table, const JniChain& chain);

// Registers a client (Agent_OnLoad: before installJniTable). False if the table is
// installed already or holds the most clients it can.
bool addJniWrappers(JniWrap wrap);

// At VM init, by the first client that starts (later calls do nothing): copies the JVM's
// table, lets every registered client wrap it and installs the result. False with `error`
// if the JVM refuses.
bool installJniTable(jvmtiEnv* jvmti, std::string& error);

// A pending exception forbids calling Java: while alive, the exception is set aside (and
// thrown again at the end, as the native left it).
class ExceptionAside {
 public:
  ExceptionAside(JNIEnv* jni, const JNINativeInterface_* jvm);
  ~ExceptionAside();
  ExceptionAside(const ExceptionAside&) = delete;
  ExceptionAside& operator=(const ExceptionAside&) = delete;

 private:
  JNIEnv* jni_;
  const JNINativeInterface_* jvm_;
  jthrowable pending_;
};

// A wrapper's upcall into the runtime helper (no exception may be pending): the agent's own
// JNI traffic (AgentScope), and an exception it raises (an OutOfMemoryError) is cleared:
// it is the agent's, not the program's.
template <class... A>
void agentUpcall(JNIEnv* jni, const JNINativeInterface_* jvm, jclass cls, jmethodID method,
                 A... args) {
  AgentScope scope;
  jvm->CallStaticVoidMethod(jni, cls, method, args...);
  if (jvm->ExceptionCheck(jni)) jvm->ExceptionClear(jni);
}

}  // namespace dragnet::agent
