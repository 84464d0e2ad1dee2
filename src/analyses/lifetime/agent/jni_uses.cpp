#include "analyses/lifetime/agent/jni_uses.h"

#include <atomic>
#include <string>
#include <vector>

#include "agent/binding.h"
#include "agent/jni_table.h"
#include "analyses/lifetime/agent/lifetime.h"

namespace dragnet::analyses::lifetime::tracking {

using agent::addJniWrappers;
using agent::AgentScope;
using agent::agentUpcall;
using agent::ExceptionAside;
using agent::installJniTable;
using agent::JniChain;
namespace binding = agent::binding;

namespace {

enum class Kind : bool { Get = false, Put = true };

struct Uses {
  JniChain chain;                // the functions the wrappers call (jni_table.h)
  binding::StaticMethod upcall;  // the runtime helper's jni(Object, boolean), or null
  binding::Field stringValue;    // java/lang/String.value
  std::atomic<bool> on{false};
};

Uses gUses;  // trivially destructible: the wrappers may run until the process ends

// Critical regions the thread is in (Get*Critical without its Release yet). JNI allows
// no other JNI call there, so no upcall either: uses made there wait until the thread
// leaves its last region (the collector is held off meanwhile, so their objects stay
// where they are, and the thread allocates nothing, so its clock does not move).
thread_local int tCritical = 0;
struct Deferred {
  jobject o;
  Kind k;
};
constexpr int kMaxDeferred = 8;
thread_local Deferred tDeferred[kMaxDeferred];
thread_local int tDeferredCount = 0;

bool reporting() { return gUses.on.load(std::memory_order_acquire) && !AgentScope::active(); }

void upcall(JNIEnv* jni, jobject o, Kind k) {
  const Uses& u = gUses;
  ExceptionAside aside(jni, u.chain.jvm);
  agentUpcall(jni, u.chain.jvm, u.upcall.cls, u.upcall.id, o, jboolean{k == Kind::Put});
}

void use(JNIEnv* jni, jobject o, Kind k) {
  Uses& u = gUses;
  if (!o || !reporting()) return;
  if (!u.upcall || (tCritical > 0 && tDeferredCount == kMaxDeferred)) {
    nativeUse(o, k == Kind::Put);  // no helper: the agent records it at the global clock
  } else if (tCritical > 0) {
    tDeferred[tDeferredCount++] = {o, k};
  } else {
    upcall(jni, o, k);
  }
}

// After a Release*Critical: once out of every region, the uses made inside.
void leftCritical(JNIEnv* jni) {
  if (tCritical > 0) --tCritical;
  if (tCritical > 0) return;
  int n = tDeferredCount;
  tDeferredCount = 0;
  for (int i = 0; i < n; ++i) use(jni, tDeferred[i].o, tDeferred[i].k);
}

// Reading a String through JNI reads its value array too: both are got.
void useString(JNIEnv* jni, jstring s) {
  Uses& u = gUses;
  use(jni, s, Kind::Get);
  // Its value array needs a JNI call to find: not inside a critical region, nor with an
  // exception pending.
  if (!s || !reporting() || tCritical > 0 || u.chain.jvm->ExceptionCheck(jni)) return;
  jobject value = nullptr;
  {
    AgentScope scope;
    value = u.chain.jvm->GetObjectField(jni, s, u.stringValue);
  }
  use(jni, value, Kind::Get);
  if (value) u.chain.jvm->DeleteLocalRef(jni, value);
}

// The use comes first: the function may block (MonitorEnter) or throw (Throw), and a
// put is the same use whether reported before or after the write.
template <auto M, Kind K>
struct Before;
template <class R, class X, class... A, R (JNICALL* JNINativeInterface_::*M)(JNIEnv*, X, A...),
          Kind K>
struct Before<M, K> {
  static R JNICALL call(JNIEnv* jni, X o, A... a) {
    use(jni, o, K);
    return (gUses.chain.next->*M)(jni, o, a...);
  }
};

template <auto M>
struct StringGet;
template <class R, class... A, R (JNICALL* JNINativeInterface_::*M)(JNIEnv*, jstring, A...)>
struct StringGet<M> {
  static R JNICALL call(JNIEnv* jni, jstring s, A... a) {
    useString(jni, s);
    return (gUses.chain.next->*M)(jni, s, a...);
  }
};

// Release<Primitive>ArrayElements: copying back (mode 0 or JNI_COMMIT) writes the array.
template <auto M>
struct Release;
template <class X, class E, void (JNICALL* JNINativeInterface_::*M)(JNIEnv*, X, E, jint)>
struct Release<M> {
  static void JNICALL call(JNIEnv* jni, X array, E elems, jint mode) {
    (gUses.chain.next->*M)(jni, array, elems, mode);
    if (mode != JNI_ABORT) use(jni, array, Kind::Put);
  }
};

void* JNICALL wGetPrimitiveArrayCritical(JNIEnv* jni, jarray array, jboolean* isCopy) {
  use(jni, array, Kind::Get);
  void* p = gUses.chain.next->GetPrimitiveArrayCritical(jni, array, isCopy);
  if (p) ++tCritical;
  return p;
}

// The native may have written through the pointer: a put unless it aborts. (Read-only
// callers release with mode 0 too; puts do not make an object used, so this errs safely.)
void JNICALL wReleasePrimitiveArrayCritical(JNIEnv* jni, jarray array, void* p, jint mode) {
  gUses.chain.next->ReleasePrimitiveArrayCritical(jni, array, p, mode);
  leftCritical(jni);
  if (mode != JNI_ABORT) use(jni, array, Kind::Put);
}

const jchar* JNICALL wGetStringCritical(JNIEnv* jni, jstring s, jboolean* isCopy) {
  useString(jni, s);
  const jchar* p = gUses.chain.next->GetStringCritical(jni, s, isCopy);
  if (p) ++tCritical;
  return p;
}

void JNICALL wReleaseStringCritical(JNIEnv* jni, jstring s, const jchar* p) {
  gUses.chain.next->ReleaseStringCritical(jni, s, p);
  leftCritical(jni);
}

// The use wrappers (a client of jni_table.h).
void wrapUses(JNINativeInterface_& t, const JniChain& chain) {
  gUses.chain = chain;
  using I = JNINativeInterface_;
  constexpr Kind G = Kind::Get, P = Kind::Put;
  // One line per JNI type: the field accessors and the primitive-array functions.
#define DRAGNET_FIELD(T)                                \
  t.Get##T##Field = Before<&I::Get##T##Field, G>::call; \
  t.Set##T##Field = Before<&I::Set##T##Field, P>::call;
#define DRAGNET_ARRAY(T)                                                \
  t.Get##T##ArrayRegion = Before<&I::Get##T##ArrayRegion, G>::call;     \
  t.Set##T##ArrayRegion = Before<&I::Set##T##ArrayRegion, P>::call;     \
  t.Get##T##ArrayElements = Before<&I::Get##T##ArrayElements, G>::call; \
  t.Release##T##ArrayElements = Release<&I::Release##T##ArrayElements>::call;
  DRAGNET_FIELD(Object)
  DRAGNET_FIELD(Boolean)
  DRAGNET_FIELD(Byte)
  DRAGNET_FIELD(Char)
  DRAGNET_FIELD(Short)
  DRAGNET_FIELD(Int)
  DRAGNET_FIELD(Long)
  DRAGNET_FIELD(Float)
  DRAGNET_FIELD(Double)
  DRAGNET_ARRAY(Boolean)
  DRAGNET_ARRAY(Byte)
  DRAGNET_ARRAY(Char)
  DRAGNET_ARRAY(Short)
  DRAGNET_ARRAY(Int)
  DRAGNET_ARRAY(Long)
  DRAGNET_ARRAY(Float)
  DRAGNET_ARRAY(Double)
#undef DRAGNET_FIELD
#undef DRAGNET_ARRAY
  t.GetObjectArrayElement = Before<&I::GetObjectArrayElement, G>::call;
  t.SetObjectArrayElement = Before<&I::SetObjectArrayElement, P>::call;
  t.GetArrayLength = Before<&I::GetArrayLength, G>::call;
  t.MonitorEnter = Before<&I::MonitorEnter, G>::call;
  t.MonitorExit = Before<&I::MonitorExit, G>::call;
  t.IsInstanceOf = Before<&I::IsInstanceOf, G>::call;
  t.GetObjectClass = Before<&I::GetObjectClass, G>::call;
  t.Throw = Before<&I::Throw, G>::call;
  t.GetStringLength = StringGet<&I::GetStringLength>::call;
  t.GetStringChars = StringGet<&I::GetStringChars>::call;
  t.GetStringRegion = StringGet<&I::GetStringRegion>::call;
  t.GetStringUTFLength = StringGet<&I::GetStringUTFLength>::call;
  t.GetStringUTFChars = StringGet<&I::GetStringUTFChars>::call;
  t.GetStringUTFRegion = StringGet<&I::GetStringUTFRegion>::call;
  t.GetPrimitiveArrayCritical = wGetPrimitiveArrayCritical;
  t.ReleasePrimitiveArrayCritical = wReleasePrimitiveArrayCritical;
  t.GetStringCritical = wGetStringCritical;
  t.ReleaseStringCritical = wReleaseStringCritical;
}

}  // namespace

bool addJniUses() { return addJniWrappers(wrapUses); }

bool startJniUses(jvmtiEnv* jvmti, JNIEnv* jni, const char* helper, std::string& error) {
  Uses& u = gUses;
  std::vector<binding::Member> members = {{"java/lang/String", "value", "[B", &u.stringValue}};
  if (helper) members.push_back({helper, "jni", "(Ljava/lang/Object;Z)V", &u.upcall});
  if (!binding::bind(jni, members, error) || !installJniTable(jvmti, error)) return false;
  u.on.store(true, std::memory_order_release);
  return true;
}

}  // namespace dragnet::analyses::lifetime::tracking
