#include "agent/class_sizes.h"

#include <cstring>

namespace dragnet::agent {

namespace {

constexpr jint kAccNative = 0x0100, kAccAbstract = 0x0400, kAccInterface = 0x0200;

template <class T>
void release(jvmtiEnv* jvmti, T* p) {
  if (p) jvmti->Deallocate(reinterpret_cast<unsigned char*>(p));
}

}  // namespace

// Whether `cls` declares finalize()V (`found`) and, if so, whether its body is HotSpot's
// empty method: code of length 1, a lone `return` (the verifier accepts no other one-byte
// body of a void method). A native or abstract finalize, or one the JVM cannot describe,
// counts as not empty.
bool ClassSizer::finalizeIsEmpty(jclass cls, bool& found) {
  found = false;
  jint n = 0;
  jmethodID* methods = nullptr;
  if (jvmti_->GetClassMethods(cls, &n, &methods) != JVMTI_ERROR_NONE) {
    found = true;
    return false;
  }
  bool empty = false;
  for (jint i = 0; i < n && !found; ++i) {
    char* name = nullptr;
    char* sig = nullptr;
    if (jvmti_->GetMethodName(methods[i], &name, &sig, nullptr) != JVMTI_ERROR_NONE) continue;
    found = name && sig && std::strcmp(name, "finalize") == 0 && std::strcmp(sig, "()V") == 0;
    release(jvmti_, name);
    release(jvmti_, sig);
    if (!found) continue;
    jint mods = 0;
    jlocation start = 0, end = 0;
    empty = jvmti_->GetMethodModifiers(methods[i], &mods) == JVMTI_ERROR_NONE &&
            (mods & (kAccNative | kAccAbstract)) == 0 &&
            jvmti_->GetMethodLocation(methods[i], &start, &end) == JVMTI_ERROR_NONE && start == 0 &&
            end == 0;
  }
  release(jvmti_, methods);
  return empty;
}

// HotSpot's InstanceKlass::has_finalizer: the nearest finalize()V up the superclass chain
// is not empty (java.lang.Object's is). AllocObject registers the instances of such a class.
bool ClassSizer::hasFinalizer(JNIEnv* jni, jclass cls) {
  jclass k = static_cast<jclass>(jni->NewLocalRef(cls));
  bool result = true;  // nothing found (cannot be: Object declares one): assume a finalizer
  while (k) {
    bool found = false;
    bool empty = finalizeIsEmpty(k, found);
    if (found) {
      result = !empty;
      jni->DeleteLocalRef(k);
      break;
    }
    jclass super = jni->GetSuperclass(k);
    jni->DeleteLocalRef(k);
    k = super;
  }
  return result;
}

// AllocObject succeeds without running Java code: an initialized, concrete class (an
// abstract one, an interface or java.lang.Class would make the JVM construct an
// InstantiationException, in Java) and, before VM death, no finalizer.
bool ClassSizer::measurable(JNIEnv* jni, jclass cls, bool final) {
  jint status = 0, mods = 0;
  if (jvmti_->GetClassStatus(cls, &status) != JVMTI_ERROR_NONE ||
      (status & JVMTI_CLASS_STATUS_INITIALIZED) == 0 ||
      jvmti_->GetClassModifiers(cls, &mods) != JVMTI_ERROR_NONE ||
      (mods & (kAccAbstract | kAccInterface)) != 0) {
    return false;
  }
  return final || !hasFinalizer(jni, cls);
}

std::map<std::string, uint64_t> ClassSizer::measure(JNIEnv* jni,
                                                    const std::set<std::string>& wanted,
                                                    bool final) {
  std::map<std::string, uint64_t> sizes;
  std::lock_guard lock(mu_);
  if (wanted.size() <= measured_.size()) {  // measured_ is a subset of wanted
    return sizes;
  }
  jint n = 0;
  jclass* classes = nullptr;
  if (jvmti_->GetLoadedClasses(&n, &classes) != JVMTI_ERROR_NONE) return sizes;
  jni->EnsureLocalCapacity(n + 16);  // the array holds a local reference per class
  for (jint i = 0; i < n; ++i) {
    char* sig = nullptr;
    if (jvmti_->GetClassSignature(classes[i], &sig, nullptr) == JVMTI_ERROR_NONE && sig) {
      std::string_view s(sig);
      if (s.size() > 2 && s.front() == 'L') {
        std::string name(s.substr(1, s.size() - 2));
        if (wanted.count(name) && !measured_.count(name) && name != "java/lang/Class" &&
            measurable(jni, classes[i], final)) {
          jobject o = jni->AllocObject(classes[i]);
          jlong size = 0;
          if (o && jvmti_->GetObjectSize(o, &size) == JVMTI_ERROR_NONE) {
            sizes[name] = static_cast<uint64_t>(size);
            measured_.insert(name);
          }
          if (jni->ExceptionCheck()) jni->ExceptionClear();  // OutOfMemoryError
          if (o) jni->DeleteLocalRef(o);
        }
      }
      release(jvmti_, sig);
    }
    jni->DeleteLocalRef(classes[i]);
  }
  release(jvmti_, classes);
  return sizes;
}

}  // namespace dragnet::agent
