#include "agent/runtime_bridge.h"

#include <array>
#include <climits>
#include <span>
#include <string_view>

#include "agent/binding.h"
#include "agent/mode.h"
#include "agent/tree_memory.h"
#include "common/embedded.h"

namespace dragnet::agent {

namespace {

jvmtiEnv* gJvmti = nullptr;

// This JVM's array layout, measured once with real arrays (JNI) and GetObjectSize.
struct ArrayLayout {
  int alignment = 8;
  std::array<int, 10> elemSize{};  // by element kind (profile::ElemKind)
  std::array<int, 10> base{};      // bytes before element 0
};

jlong sizeOf(JNIEnv* jni, jobject o) {
  jlong s = 0;
  if (o) gJvmti->GetObjectSize(o, &s);
  if (o) jni->DeleteLocalRef(o);
  return s;
}

// `object`: java/lang/Object, the element class of kind 1.
jlong arraySize(JNIEnv* jni, jclass object, int kind, jsize n) {
  switch (kind) {
    case 1:
      return sizeOf(jni, jni->NewObjectArray(n, object, nullptr));
    case 2:
      return sizeOf(jni, jni->NewBooleanArray(n));
    case 3:
      return sizeOf(jni, jni->NewByteArray(n));
    case 4:
      return sizeOf(jni, jni->NewCharArray(n));
    case 5:
      return sizeOf(jni, jni->NewShortArray(n));
    case 6:
      return sizeOf(jni, jni->NewIntArray(n));
    case 7:
      return sizeOf(jni, jni->NewFloatArray(n));
    case 8:
      return sizeOf(jni, jni->NewLongArray(n));
    default:
      return sizeOf(jni, jni->NewDoubleArray(n));
  }
}

ArrayLayout measure(JNIEnv* jni, jclass object) {
  ArrayLayout l;
  // The alignment: the smallest step between the sizes of byte arrays of growing length.
  jlong prev = arraySize(jni, object, 3, 0), step = LLONG_MAX;
  for (jsize n = 1; n <= 64; ++n) {
    jlong s = arraySize(jni, object, 3, n);
    if (s != prev) step = std::min(step, s - prev);
    prev = s;
  }
  l.alignment = step == LLONG_MAX ? 8 : static_cast<int>(step);
  const jlong a = l.alignment;
  for (int kind = 1; kind <= 9; ++kind) {
    std::array<jlong, 17> s{};
    for (jsize n = 0; n <= 16; ++n) s[n] = arraySize(jni, object, kind, n);
    jlong es = (s[16] - s[0]) / 16;
    // The base: the offset b with align(b + n * es) == size(n) for every n measured (the
    // pattern repeats within 16 elements, so any b that fits all of them is exact).
    jlong base = s[0];
    for (jlong b = s[0] - a + 1; b <= s[0]; ++b) {
      bool fits = true;
      for (jsize n = 0; n <= 16 && fits; ++n) fits = (b + n * es + a - 1) / a * a == s[n];
      if (fits) {
        base = b;
        break;
      }
    }
    l.elemSize[kind] = static_cast<int>(es);
    l.base[kind] = static_cast<int>(base);
  }
  return l;
}

}  // namespace

void addThreadStateField(classfile::ClassFile& thread) {
  auto add = [&](const char* name, const char* desc) {
    classfile::Member f;
    f.access = 0x1000;  // ACC_SYNTHETIC, package-private: only java.lang code sees it
    f.name = thread.pool.addUtf8(name);
    f.descriptor = thread.pool.addUtf8(desc);
    thread.fields.push_back(std::move(f));
  };
  add(kThreadStateField, kThreadStateDesc);
  add(kThreadStackLo, "J");
  add(kThreadStackHi, "J");
  add(kThreadClonePending, "Z");
}

bool runAgentThread(jvmtiEnv* jvmti, JNIEnv* jni, const char* name, jvmtiStartFunction run,
                    jint priority, void* arg) {
  binding::Class thread;
  binding::Method init;
  const binding::Member members[] = {
      {"java/lang/Thread", nullptr, nullptr, &thread},
      {"java/lang/Thread", "<init>", "(Ljava/lang/String;)V", &init}};
  std::string error;
  if (!binding::bind(jni, members, error)) return false;
  jobject t = jni->NewObject(thread, init, jni->NewStringUTF(name));
  if (t && jvmti->RunAgentThread(t, run, arg, priority) == JVMTI_ERROR_NONE) return true;
  jni->ExceptionClear();
  return false;
}

const EmbeddedFile* findRuntimeFile(std::string_view className) {
  for (const EmbeddedFile& f : agentRuntimeFiles()) {
    if (f.path.size() == className.size() + 6 && f.path.starts_with(className)) return &f;
  }
  return nullptr;
}

jclass defineRuntimeClass(JNIEnv* jni, std::string_view name, std::span<const uint8_t> bytes,
                          std::string& error) {
  std::string n(name);
  jclass c = jni->DefineClass(n.c_str(), nullptr, reinterpret_cast<const jbyte*>(bytes.data()),
                              static_cast<jsize>(bytes.size()));
  if (!c) {
    jni->ExceptionClear();
    error = "cannot define the runtime helper class " + n;
  }
  return c;
}

namespace {

// The trees' native memory: DragnetState.U (the probes' raw-address accessors), the bound,
// then DragnetRt.start() (binds the allocator's natives while the probes are off, and makes
// the SINK's tables).
// bytecodes=on's instruction counts are Java arrays: they may take 1/64 of the maximum heap
// (Runtime.maxMemory; the probes are not on yet, so the call records nothing).
void setInsnsBudget(JNIEnv* jni) {
  binding::StaticMethod getRuntime;
  binding::Method maxMemory;
  binding::StaticField budget;
  const binding::Member members[] = {
      {"java/lang/Runtime", "getRuntime", "()Ljava/lang/Runtime;", &getRuntime},
      {"java/lang/Runtime", "maxMemory", "()J", &maxMemory},
      {kStateClass, "insnsBudget", "J", &budget}};
  std::string error;
  if (!binding::bind(jni, members, error)) return;  // no budget: the helper's default
  jobject r = jni->CallStaticObjectMethod(getRuntime.cls, getRuntime);
  jlong bytes = r ? jni->CallLongMethod(r, maxMemory) : 0;
  if (jni->ExceptionCheck() || bytes <= 0) {
    jni->ExceptionClear();
    return;
  }
  jni->SetStaticLongField(budget.cls, budget, bytes / 64 / 8);
}

bool startTrees(JNIEnv* jni, const ProbeSettings& settings, std::string& error) {
  trees::setLimit(settings.maxMemory, settings.quiet);
  binding::StaticField u, theUnsafe;
  binding::StaticMethod start;
  const binding::Member members[] = {
      {kStateClass, "U", "Ljdk/internal/misc/Unsafe;", &u},
      {"jdk/internal/misc/Unsafe", "theUnsafe", "Ljdk/internal/misc/Unsafe;", &theUnsafe},
      {kRuntimeClass, "start", "()Z", &start}};
  if (!binding::bind(jni, members, error)) return false;
  jni->SetStaticObjectField(u.cls, u, jni->GetStaticObjectField(theUnsafe.cls, theUnsafe));
  if (settings.bytecodes) setInsnsBudget(jni);
  bool ok = jni->CallStaticBooleanMethod(start.cls, start) == JNI_TRUE;
  if (jni->ExceptionCheck() || !ok) {
    jni->ExceptionClear();
    error = "no native memory for the calling-context trees (max-memory too small?)";
    return false;
  }
  return true;
}

}  // namespace

bool defineRuntime(JNIEnv* jni, jvmtiEnv* jvmti, std::string& error) {
  gJvmti = jvmti;
  for (const EmbeddedFile& f : agentRuntimeFiles()) {
    if (!f.path.ends_with(".class")) continue;
    std::string_view name = f.path.substr(0, f.path.size() - 6);
    if (isLateRuntimeClass(name)) continue;
    jclass c = defineRuntimeClass(jni, name, f.bytes, error);
    if (!c) return false;
    jni->DeleteLocalRef(c);
  }
  return true;
}

bool startProbes(JNIEnv* jni, const ProbeSettings& settings, std::string& error) {
  binding::Class object;
  binding::StaticField elemSize, arrayBase, on;
  const binding::Member members[] = {{kRuntimeClass, "ELEM_SIZE", "[I", &elemSize},
                                     {kRuntimeClass, "ARRAY_BASE", "[I", &arrayBase},
                                     {kRuntimeClass, "on", "Z", &on},
                                     {"java/lang/Object", nullptr, nullptr, &object}};
  if (!binding::bind(jni, members, error)) return false;
  ArrayLayout layout = measure(jni, object);
  for (auto [f, values] : {std::pair{&elemSize, &layout.elemSize}, {&arrayBase, &layout.base}}) {
    auto arr = static_cast<jintArray>(jni->GetStaticObjectField(f->cls, *f));
    if (arr) jni->SetIntArrayRegion(arr, 0, 10, values->data());
  }
  uint32_t maxDepth = settings.maxDepth;
  if (!binding::configure(jni, kRuntimeClass,
                          {{"alignment", "I", jint{layout.alignment}},
                           {"maxDepth", "I", maxDepth == 0 ? INT_MAX : static_cast<jint>(maxDepth)},
                           {"threadCaches", "Z", settings.threadCaches},
                           {"bytecodes", "Z", settings.bytecodes}},
                          error) ||
      !startTrees(jni, settings, error)) {
    return false;
  }
  // Last: the probes start recording (record=off leaves them returning at once). A thread
  // that sees `on` sees the fields above (x86-64 keeps stores in order, and the helper
  // reads `threadCaches` and `bytecodes` only in out-of-line code after its read of `on`).
  if (settings.record) jni->SetStaticBooleanField(on.cls, on, JNI_TRUE);
  return true;
}

}  // namespace dragnet::agent
