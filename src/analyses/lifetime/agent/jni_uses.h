// Mode lifetime: object uses made by native code through JNI (HUP 5.2, Table 7). The JNI
// functions that read or write an object are wrapped in the interposed function table
// (agent/jni_table.h): field and array-element reads (Get<Type>Field,
// GetObjectArrayElement, Get<Primitive>ArrayRegion / Elements, GetPrimitiveArrayCritical,
// GetArrayLength), monitors, IsInstanceOf, GetObjectClass, Throw and the String readers
// are gets; Set<Type>Field, SetObjectArrayElement, Set<Primitive>ArrayRegion and the
// releases that copy back (mode other than JNI_ABORT) are puts. The JDK's own natives go
// through the same table, so a byte[] that FileOutputStream.writeBytes reads is used.
//
// A use is reported by an upcall to DragnetLife.jni, which takes the thread's exact
// clock and context and its use cache. With an exception pending the exception is set
// aside for the upcall and thrown again after it; uses inside a critical region, where
// JNI allows no call, are reported when the thread leaves its last region (its clock has
// not moved: it cannot allocate there). The sampled variant (no upcall) records uses
// itself at the global clock, without a context (lifetime.h, nativeUse).
#pragma once

#include <jni.h>
#include <jvmti.h>

#include <string>

namespace dragnet::analyses::lifetime::tracking {

// Registers the use wrappers with the JNI function table (Agent_OnLoad).
bool addJniUses();

// At VM init, once the probes are configured: resolves the upcall `helper`.jni(Object,
// boolean), installs the JNI function table if no other client did yet, and starts
// reporting. With a null `helper` (the sampled variant, whose uses all take the global
// clock) the agent records every use itself (nativeUse), no upcall.
bool startJniUses(jvmtiEnv* jvmti, JNIEnv* jni, const char* helper, std::string& error);

}  // namespace dragnet::analyses::lifetime::tracking
