// Mode lifetime (HUP): the agent's side of object lifetimes.
//
// Objects are registered by the runtime helper (java/lang/DragnetLife.born0) when they are
// allocated: each gets a JVMTI tag, the index of its record here (slot + 1). Uses come in
// through DragnetLife.use0 (the first use of an object by a thread in each use epoch) and
// update the record's first/last get and put times. Deaths come from JVMTI ObjectFree
// events after a collection: the record is completed with the collection's time and
// written to the profile (Objects chunks). A GC thread forces a collection every
// `gc-interval` bytes of allocation (the helper asks for it, gcDue), and every collection
// the JVM makes on its own ends lives too (GarbageCollectionStart gives its time). At VM
// death every object still alive ends at the end time.
//
// Hot paths (born0, use0) take no lock of ours: records live in chunks indexed by slot,
// slots come from per-thread batches, and times are updated with compare-and-swap.
#pragma once

#include <jni.h>
#include <jvmti.h>

#include <cstdint>
#include <string>

#include "profile/writer.h"

namespace dragnet::agent {

struct LifetimeOptions {
  uint64_t gcInterval = 8u << 20;  // bytes of allocation between forced collections
  int epochShift = 16;             // use epoch: 2^epochShift bytes of allocation
  bool stacks = false;             // record the contexts of first and last uses
};

// Capabilities and events the mode needs (Agent_OnLoad). False if the JVM refuses.
bool addLifetimeCapabilities(jvmtiEnv* jvmti);
// Sets the JVMTI callbacks the mode adds to `cb` (before SetEventCallbacks).
void lifetimeCallbacks(jvmtiEventCallbacks& cb);

// VMInit: registers the helper's natives, configures it, starts the GC thread and the
// events, then switches the probes on. False with `error` set on failure.
bool startLifetime(jvmtiEnv* jvmti, JNIEnv* jni, profile::Writer& writer,
                   const LifetimeOptions& options, uint32_t constructedBase, std::string& error);

// A use the agent records itself, where the helper cannot be called (JNI with an
// exception pending or inside a critical region): at the global clock, without a context.
void nativeUse(jobject o, bool put);

// VM death: stops the GC thread, ends every live object at the end time and writes the
// remaining records and collections. Returns a summary for the agent's last message.
std::string finishLifetime(JNIEnv* jni);

}  // namespace dragnet::agent
