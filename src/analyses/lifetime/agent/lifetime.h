// Mode lifetime (HUP): the agent's side of object lifetimes.
//
// Exact variant: the runtime helper (java/lang/DragnetLife) registers every object when it
// is allocated, by itself: a record in the agent's table (native memory it writes through
// Unsafe), a phantom reference, an entry in an identity-hash index. A thread's first use of
// an object in each use epoch widens the record's first/last get or put times. After a
// collection the helper finds the cleared phantom references and hands their slots to the
// agent (died0), which completes the records with the collection's time and writes them
// (Objects chunks). The allocating thread that passes `gc-interval` bytes forces a
// collection (gcDue), and every collection the JVM makes on its own ends lives too
// (GarbageCollectionStart gives its time). At VM death every object still alive ends at
// the end time. lifetime_exact.cpp has the agent's side; the sampled variant, which tags
// the objects the JVM's sampler picks, is lifetime_sampled.h.
//
// Hot paths take no lock of ours: records live in chunks indexed by slot, slots come
// from per-thread batches, the index is pushed to with compare-and-swap, and times are
// updated with compare-and-swap.
#pragma once

#include <jni.h>
#include <jvmti.h>

#include <cstdint>
#include <map>
#include <string>

#include "profile/writer.h"

namespace dragnet::analyses::lifetime::tracking {

struct LifetimeOptions {
  uint64_t gcInterval = 8u << 20;  // bytes of allocation between forced collections
  uint32_t gcBudget = 100;         // percent of the run's time they may take (100: all)
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

// A use through JNI the agent records itself (the sampled variant; the exact one when
// more than 8 uses wait inside a critical region): by the object's tag, at the global
// clock, without a context.
void nativeUse(jobject o, bool put);

// A flush (the flush thread): writes the deaths and collections found so far and Live
// records of the objects alive whose records changed since the last flush
// (lifetime_live.cpp), so that a killed JVM's profile has its live objects.
void flushLifetime();

// VM death: stops the GC thread, ends every live object at the end time and writes the
// remaining records and collections. Returns a summary for the agent's last message.
std::string finishLifetime(JNIEnv* jni);
// For the End chunk, after finishLifetime: gc.deferred, the collection thresholds gc-budget
// passed over.
std::map<std::string, std::string> lifetimeTotals();

}  // namespace dragnet::analyses::lifetime::tracking
