// Virtual threads (JDK 21+) in the exact modes. A virtual thread's state (DragnetRt.create)
// is listed by the runtime helper while the thread lives, because JVMTI lists only platform
// threads; when the thread ends (the VirtualThreadEnd event) its tree is merged into one
// state for all virtual threads, which the recorder writes as the thread "virtual threads"
// (unless the mode writes each virtual thread's tree as a thread's: ownVirtualTrees).
//
// We build against JDK 17's jvmti.h, which lacks the capability and the event. Their places
// are fixed by the JVMTI specification of JDK 21 (and of 19 and 20, where virtual threads
// were a preview): the capability bit right after can_generate_sampled_object_alloc_events,
// event 88 (VirtualThreadEnd) after 87 (VirtualThreadStart), and their two callbacks right
// after SampledObjectAlloc in jvmtiEventCallbacks.
#pragma once

#include <jni.h>
#include <jvmti.h>

#include <string>

namespace dragnet::agent {

// The event callbacks with the two slots of JDK 21's struct: SetEventCallbacks copies only
// the size its own JVM knows, so the larger struct is safe on JDK 17 too.
struct EventCallbacks {
  jvmtiEventCallbacks base{};
  jvmtiEventThreadStart virtualThreadStart = nullptr;
  jvmtiEventThreadEnd virtualThreadEnd = nullptr;
};

// Adds can_support_virtual_threads (OnLoad phase); false if this JVM does not offer it
// (JDK 17) or refuses it.
bool addVirtualThreadCapability(jvmtiEnv* jvmti);

// Enables the VirtualThreadEnd event (after SetEventCallbacks with its callback).
bool enableVirtualThreadEnd(jvmtiEnv* jvmti);

// At VM init, with the helper defined: DragnetRt.enableVirtual(java.lang.VirtualThread,
// merge). `merge`: one tree for all virtual threads; otherwise each is written as a thread
// of its own (Recorder's ownVirtualTrees). The class is not initialized (see the .cpp).
bool startVirtualThreads(jvmtiEnv* jvmti, JNIEnv* jni, bool merge, std::string& error);

// java.lang.VirtualThread as a global reference, if the JVM loaded it (JDK 19+; not
// initialized, see the .cpp), else null.
jclass virtualThreadClass(jvmtiEnv* jvmti, JNIEnv* jni);

// The states of the live virtual threads (DragnetRt.liveVirtuals; a local reference), or
// null if there are none to see.
jobjectArray liveVirtualStates(JNIEnv* jni);

}  // namespace dragnet::agent
