// Instance sizes of the classes the program allocates, measured in the running JVM: an
// instance made with JNI AllocObject (no constructor runs) and JVMTI GetObjectSize. The
// allocation profile's object bytes are count x size, so a profile without the sizes has objects of
// unknown size; each flush measures the classes that can be measured without a trace in
// the program, so that a killed JVM leaves a profile with bytes.
#pragma once

#include <jni.h>
#include <jvmti.h>

#include <cstdint>
#include <map>
#include <mutex>
#include <set>
#include <string>

namespace dragnet::agent {

class ClassSizer {
 public:
  explicit ClassSizer(jvmtiEnv* jvmti) : jvmti_(jvmti) {}

  // The sizes of the classes in `wanted` (internal names) not measured by an earlier call.
  // Initialized classes only: AllocObject initializes the class it is given, and a class
  // with a `new` site that was loaded but never initialized (a class literal, the
  // verifier) has no instances, but its static initializer would run here. Before VM
  // death (`final` false) also only classes without a finalizer: AllocObject registers
  // an instance of such a class for finalization, and its finalize() would run on the
  // unconstructed instance; those are measured at VM death, when no finalizer runs any
  // more. The caller excludes the agent's JNI calls from the JNI interposition. Any
  // thread; one call at a time.
  std::map<std::string, uint64_t> measure(JNIEnv* jni, const std::set<std::string>& wanted,
                                          bool final);

 private:
  bool hasFinalizer(JNIEnv* jni, jclass cls);
  bool finalizeIsEmpty(jclass cls, bool& found);
  bool measurable(JNIEnv* jni, jclass cls, bool final);

  jvmtiEnv* jvmti_;
  std::mutex mu_;
  std::set<std::string> measured_;  // under mu_
};

}  // namespace dragnet::agent
