#include "agent/virtual_threads.h"

#include <cstddef>
#include <cstring>

namespace dragnet::agent {

namespace {

static_assert(offsetof(EventCallbacks, virtualThreadStart) == sizeof(jvmtiEventCallbacks),
              "JDK 21's callbacks follow JDK 17's last one");
constexpr jint kVirtualThreadEnd = 88;  // JVMTI_EVENT_VIRTUAL_THREAD_END

// can_support_virtual_threads: the bit after can_generate_sampled_object_alloc_events.
// Found by setting that field and looking for its bit, so that the bit-field layout is the
// compiler's own (the next field takes the next bit in allocation order).
jvmtiCapabilities virtualThreadCapability() {
  jvmtiCapabilities sampled{};
  sampled.can_generate_sampled_object_alloc_events = 1;
  unsigned char bytes[sizeof sampled];
  std::memcpy(bytes, &sampled, sizeof bytes);
  size_t bit = 0;
  while (bit < 8 * sizeof bytes && !(bytes[bit / 8] >> (bit % 8) & 1)) ++bit;
  unsigned char want[sizeof sampled] = {};
  ++bit;
  if (bit < 8 * sizeof want) want[bit / 8] = static_cast<unsigned char>(1u << (bit % 8));
  jvmtiCapabilities caps{};
  std::memcpy(&caps, want, sizeof caps);
  return caps;
}

bool contains(const jvmtiCapabilities& all, const jvmtiCapabilities& one) {
  unsigned char a[sizeof all], o[sizeof one];
  std::memcpy(a, &all, sizeof a);
  std::memcpy(o, &one, sizeof o);
  bool any = false;
  for (size_t i = 0; i < sizeof a; ++i) {
    if ((a[i] & o[i]) != o[i]) return false;
    any |= o[i] != 0;
  }
  return any;
}

}  // namespace

bool addVirtualThreadCapability(jvmtiEnv* jvmti) {
  jint version = 0;
  // JVMTI 19 and newer (0x30130000: major version in bits 16-27).
  if (jvmti->GetVersionNumber(&version) != JVMTI_ERROR_NONE || ((version >> 16) & 0xFFF) < 19) {
    return false;
  }
  jvmtiCapabilities potential{};
  jvmtiCapabilities want = virtualThreadCapability();
  if (jvmti->GetPotentialCapabilities(&potential) != JVMTI_ERROR_NONE ||
      !contains(potential, want)) {
    return false;
  }
  return jvmti->AddCapabilities(&want) == JVMTI_ERROR_NONE;
}

bool enableVirtualThreadEnd(jvmtiEnv* jvmti) {
  return jvmti->SetEventNotificationMode(JVMTI_ENABLE, static_cast<jvmtiEvent>(kVirtualThreadEnd),
                                         nullptr) == JVMTI_ERROR_NONE;
}

bool startVirtualThreads(JNIEnv* jni, bool merge, std::string& error) {
  jclass rt = jni->FindClass("java/lang/DragnetRt");
  jclass vt = rt ? jni->FindClass("java/lang/VirtualThread") : nullptr;
  jmethodID enable =
      vt ? jni->GetStaticMethodID(rt, "enableVirtual", "(Ljava/lang/Class;Z)V") : nullptr;
  if (!enable) {
    jni->ExceptionClear();
    error = "java.lang.VirtualThread or DragnetRt.enableVirtual is missing";
    return false;
  }
  jni->CallStaticVoidMethod(rt, enable, vt, merge ? JNI_TRUE : JNI_FALSE);
  if (jni->ExceptionCheck()) {
    jni->ExceptionClear();
    error = "DragnetRt.enableVirtual failed";
    return false;
  }
  return true;
}

jobjectArray liveVirtualStates(JNIEnv* jni) {
  jclass rt = jni->FindClass("java/lang/DragnetRt");
  jmethodID live =
      rt ? jni->GetStaticMethodID(rt, "liveVirtuals", "()[Ljava/lang/DragnetState;") : nullptr;
  auto states = live ? static_cast<jobjectArray>(jni->CallStaticObjectMethod(rt, live)) : nullptr;
  if (jni->ExceptionCheck()) {
    jni->ExceptionClear();
    states = nullptr;
  }
  if (rt) jni->DeleteLocalRef(rt);
  return states;
}

}  // namespace dragnet::agent
