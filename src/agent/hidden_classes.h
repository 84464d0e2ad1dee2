// Hidden classes (JDK 15+: lambda proxies, LambdaForms, classes defined through
// MethodHandles.Lookup.defineHiddenClass) are defined without the ClassFileLoadHook, so
// their own bytecode runs unrewritten and the objects it allocates are not counted by the
// rewriting modes. The agent cannot change that; it says so: JVMTI ClassLoad (once per
// class, never on an allocation path) recognises them by the signature HotSpot gives a
// hidden class (its name, then '+' or '.' and the address: "Lp/C$$Lambda+0x0000...;"),
// and the profile names each one (a Failures record with the reason profile::kHidden,
// written with each flush) and counts them (End chunk, classes.hidden).
#pragma once

#include <jni.h>
#include <jvmti.h>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "profile/writer.h"

namespace dragnet::agent {

// The internal name of a hidden class ("p/C$$Lambda+0x0000000800c03000") from its JVMTI
// signature; nothing for any other class.
std::optional<std::string> hiddenClassName(std::string_view signature);

// The ClassLoad callback that notes hidden classes (set it and enable JVMTI_EVENT_CLASS_LOAD).
void JNICALL onClassLoadNoteHidden(jvmtiEnv* jvmti, JNIEnv* jni, jthread thread, jclass klass);

// Writes the hidden classes noted since the last call as one Failures chunk; returns how
// many all calls have handed to the writer (the End chunk's classes.hidden).
uint64_t writeHiddenClasses(profile::Writer& writer);

// Hidden classes noted so far.
uint64_t hiddenClassCount();

}  // namespace dragnet::agent
