#include "jni_fake.h"

namespace dragnet::test {
namespace {
FakeJni* gCurrent = nullptr;  // the latest made: one at a time
}  // namespace

FakeJni& FakeJni::of(JNIEnv*) { return *gCurrent; }

jclass FakeJni::findClass(const char* name) {
  ++findClassCalls_;
  auto it = members_.find(name);
  if (it == members_.end()) {
    pending_ = true;  // NoClassDefFoundError
    return nullptr;
  }
  return reinterpret_cast<jclass>(const_cast<std::string*>(&it->first));
}

void* FakeJni::findMember(jclass c, const char* name, const char* sig, bool isStatic) {
  const std::set<Member>& members = members_.at(*cls(c));
  auto it = members.find({name, sig, isStatic});
  if (it == members.end()) {
    pending_ = true;  // NoSuchFieldError, NoSuchMethodError
    return nullptr;
  }
  return const_cast<Member*>(&*it);
}

void FakeJni::setStatic(jfieldID f, long long v) {
  statics_[std::get<0>(*reinterpret_cast<const Member*>(f))] = v;
}

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
FakeJni::FakeJni() {
  gCurrent = this;
  functions_.FindClass = [](JNIEnv* e, const char* name) { return of(e).findClass(name); };
  functions_.GetFieldID = [](JNIEnv* e, jclass c, const char* n, const char* s) {
    return static_cast<jfieldID>(of(e).findMember(c, n, s, false));
  };
  functions_.GetStaticFieldID = [](JNIEnv* e, jclass c, const char* n, const char* s) {
    return static_cast<jfieldID>(of(e).findMember(c, n, s, true));
  };
  functions_.GetMethodID = [](JNIEnv* e, jclass c, const char* n, const char* s) {
    return static_cast<jmethodID>(of(e).findMember(c, n, s, false));
  };
  functions_.GetStaticMethodID = [](JNIEnv* e, jclass c, const char* n, const char* s) {
    return static_cast<jmethodID>(of(e).findMember(c, n, s, true));
  };
  functions_.ExceptionCheck = [](JNIEnv* e) -> jboolean { return of(e).pending_; };
  functions_.ExceptionClear = [](JNIEnv* e) { of(e).pending_ = false; };
  functions_.NewGlobalRef = [](JNIEnv* e, jobject o) {
    ++of(e).globalRefs_;
    return o;
  };
  functions_.DeleteLocalRef = [](JNIEnv*, jobject) {};
  functions_.SetStaticLongField = [](JNIEnv* e, jclass, jfieldID f, jlong v) {
    of(e).setStatic(f, v);
  };
  functions_.SetStaticIntField = [](JNIEnv* e, jclass, jfieldID f, jint v) {
    of(e).setStatic(f, v);
  };
  functions_.SetStaticBooleanField = [](JNIEnv* e, jclass, jfieldID f, jboolean v) {
    of(e).setStatic(f, v);
  };
  functions_.SetStaticObjectField = [](JNIEnv* e, jclass, jfieldID f, jobject v) {
    of(e).setStatic(f, reinterpret_cast<long long>(v));
  };
  env_.functions = &functions_;
}
#pragma GCC diagnostic pop

}  // namespace dragnet::test
