#include "agent/virtual_threads.h"

#include <cstddef>
#include <cstring>

#include "agent/binding.h"
#include "agent/runtime_bridge.h"

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

// The loaded class with this signature, or null. Unlike JNI FindClass, which initializes
// the class it finds: VirtualThread's <clinit> makes the default scheduler (through
// lambdas: on JDK 25 about 600 more classes at start-up, +150 ms for a hello world) and
// reads its system properties, which a program may still set in main(). The JVM loads
// VirtualThread at start-up (a well-known class since JDK 19), so it is found here.
jclass loadedClass(jvmtiEnv* jvmti, JNIEnv* jni, const char* signature) {
  jint count = 0;
  jclass* classes = nullptr;
  if (jvmti->GetLoadedClasses(&count, &classes) != JVMTI_ERROR_NONE) return nullptr;
  jclass found = nullptr;
  for (jint i = 0; i < count; ++i) {
    char* sig = nullptr;
    if (!found && jvmti->GetClassSignature(classes[i], &sig, nullptr) == JVMTI_ERROR_NONE && sig &&
        std::strcmp(sig, signature) == 0) {
      found = classes[i];
    } else {
      jni->DeleteLocalRef(classes[i]);
    }
    if (sig) jvmti->Deallocate(reinterpret_cast<unsigned char*>(sig));
  }
  jvmti->Deallocate(reinterpret_cast<unsigned char*>(classes));
  return found;
}

}  // namespace

jclass virtualThreadClass(jvmtiEnv* jvmti, JNIEnv* jni) {
  jclass local = loadedClass(jvmti, jni, "Ljava/lang/VirtualThread;");
  if (!local) return nullptr;
  auto global = static_cast<jclass>(jni->NewGlobalRef(local));
  jni->DeleteLocalRef(local);
  return global;
}

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

bool startVirtualThreads(jvmtiEnv* jvmti, JNIEnv* jni, bool merge, std::string& error) {
  binding::StaticMethod enable;
  const binding::Member members[] = {
      {kRuntimeClass, "enableVirtual", "(Ljava/lang/Class;Z)V", &enable}};
  if (!binding::bind(jni, members, error)) return false;
  jclass vt = loadedClass(jvmti, jni, "Ljava/lang/VirtualThread;");
  if (!vt) {
    error = "java.lang.VirtualThread is not loaded";
    return false;
  }
  jni->CallStaticVoidMethod(enable.cls, enable, vt, merge ? JNI_TRUE : JNI_FALSE);
  if (jni->ExceptionCheck()) {
    jni->ExceptionClear();
    error = "DragnetRt.enableVirtual failed";
    return false;
  }
  return true;
}

jobjectArray liveVirtualStates(JNIEnv* jni) {
  // Bound at the first call (a flush, or an analysis's own call before it).
  static const binding::StaticMethod live = [jni] {
    binding::StaticMethod m;
    const binding::Member members[] = {
        {kRuntimeClass, "liveVirtuals", "()[Ljava/lang/DragnetState;", &m}};
    std::string error;
    binding::bind(jni, members, error);
    return m;
  }();
  if (!live) return nullptr;
  auto states = static_cast<jobjectArray>(jni->CallStaticObjectMethod(live.cls, live));
  if (jni->ExceptionCheck()) {
    jni->ExceptionClear();
    states = nullptr;
  }
  return states;
}

}  // namespace dragnet::agent
