// The exact variant's phantom reference class, java/lang/DragnetLife$Ref: the helper
// (DragnetLife.register) makes one per registered object, through which the collector tells
// its death. The agent defines it itself at VM init, not with the other runtime helper
// classes at VM start: with a constructor that runs nothing where the JVM allows it, which
// it learns only by linking such a class (DragnetLife$VerifyProbe).
#pragma once

#include <jni.h>

#include <string>
#include <string_view>

namespace dragnet::analyses::lifetime::tracking {

inline constexpr std::string_view kRefClass = "java/lang/DragnetLife$Ref";
inline constexpr std::string_view kProbeClass = "java/lang/DragnetLife$VerifyProbe";
// The runtime helper classes defineReferenceClass defines (the modes' late classes,
// agent/mode.h): no mode defines them at VM start.
inline constexpr std::string_view kLateClasses[] = {kRefClass, kProbeClass};

// At VM init, before anything uses it: defines DragnetLife$Ref, with a constructor that
// runs nothing where the JVM allows it (it learns that by linking such a class, which
// throws a VerifyError where the JVM verifies boot classes: in the live phase, where
// constructing the error is safe). False with `error` if it cannot be defined.
bool defineReferenceClass(JNIEnv* jni, std::string& error);

// Whether defineReferenceClass gave DragnetLife$Ref a constructor that runs nothing, so that
// the helper can make references with `new` (false when the JVM verifies boot classes: they
// are then made with Unsafe.allocateInstance).
bool referencesByNew();

}  // namespace dragnet::analyses::lifetime::tracking
