// Mode lifetime with sample=SIZE: lifetimes of a sample of the objects, about one per SIZE
// bytes allocated, picked by the JVM's allocation sampler (JVMTI SampledObjectAlloc).
//
// A sampled object is registered like an exact-mode object (lifetime_state.h: a JVMTI tag
// and a record; deaths from ObjectFree) and gets its identity hash, which the use probes
// look for (src/analyses/lifetime/runtime/java/lang/DragnetSample.java): the rewritten classes carry only
// use probes, inlined, that cost a load and a compare for any other object.
//
// Time is the estimated number of bytes allocated: each sample advances the global clock
// by the bytes it stands for, size / (1 - exp(-size / SIZE)) (the sampler's weight times
// its size), an unbiased estimate of the bytes allocated since the previous sample. With
// a small SIZE every allocation is sampled and the clock is exact.
//
// Collections: a thread of the agent's own forces one every gc-interval bytes on that
// clock; the JVM's own collections end lives too.
#pragma once

#include <jni.h>
#include <jvmti.h>

#include <string>

#include "agent/sampler.h"
#include "analyses/lifetime/agent/lifetime.h"
#include "profile/writer.h"

namespace dragnet::analyses::lifetime::tracking {

// VMInit: measures the object header, configures DragnetSample, starts the collection
// thread, the events and the JNI use wrappers, then switches the probes on.
bool startSampledLifetime(jvmtiEnv* jvmti, JNIEnv* jni, profile::Writer& writer,
                          const LifetimeOptions& options, agent::Sampler& sampler,
                          std::string& error);

// ThreadStart (and VMInit, for the thread it runs on): records the thread's stack bounds in
// its Thread object for the probes.
void onLifetimeThreadStart(JNIEnv* jni, jthread thread);

// The SampledObjectAlloc callback.
void onLifetimeSample(JNIEnv* jni, jthread thread, jobject object, jclass cls, jlong size);

// At VM death, after finishLifetime: ends the collection thread. A JVMTI agent thread left
// waiting (in native code) holds up the JVM's exit by 300 ms: HotSpot's VM_Exit waits that
// long for threads in native to stop.
void stopSampledLifetime();

// For the closing line: sampled clones registered late (their probe never came) or lost
// (dead before that), if any.
std::string sampledLifetimeSummary();

}  // namespace dragnet::analyses::lifetime::tracking
