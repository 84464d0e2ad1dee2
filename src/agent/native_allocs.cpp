#include "agent/native_allocs.h"

#include <atomic>
#include <cstdarg>
#include <map>
#include <mutex>
#include <set>
#include <tuple>
#include <utility>

#include "analyses/lifetime/agent/jni_uses.h"

namespace dragnet::agent {
namespace {

thread_local bool tInAgent = false;

struct State {
  std::atomic<bool> active{false};
  jvmtiEnv* jvmti = nullptr;
  const JNINativeInterface_* original = nullptr;  // the JVM's table, for the real calls
  JNINativeInterface_ wrapped{};
  jclass rt = nullptr;  // java/lang/DragnetRt (global ref)
  jmethodID dyn = nullptr;
  jfieldID stringValue = nullptr;  // java/lang/String.value
  jint vmBase = 0, jniBase = 0;
  jmethodID covered[4] = {};  // natives whose allocation a probe at the call site counts

  // The runtime's own arrays (see ownArray).
  jclass intArray = nullptr, longArray = nullptr, classArray = nullptr, objectArray = nullptr;
  // DragnetLife's own reference class: made with Unsafe.allocateInstance where the JVM
  // verifies boot classes (runtime_bridge.h), which on JDK 23+ posts VMObjectAlloc.
  jclass lifeRef = nullptr;
  jfieldID threadState = nullptr;
  std::vector<jfieldID> stateArrays;  // DragnetState's array fields
  std::vector<jfieldID> rtArrays;     // DragnetRt's static array fields

  std::mutex mu;
  std::set<std::tuple<std::string, std::string, std::string, uint32_t>> probed;
  // countedByProbe's answers by caller frame (method, bci): without it each event read
  // the caller's names through JVMTI (JDK 23+ posts one for every Unsafe.allocateInstance,
  // so for every capturing lambda made and reflective newInstance). A class's probed
  // calls are noted in the load hook, before any frame of its methods runs, so an answer
  // never changes; jmethodIDs are never reused.
  std::map<std::pair<jmethodID, jlocation>, bool> answers;
};

State& state() {
  static State* s = new State();  // never destroyed: callbacks may run until the JVM exits
  return *s;
}

// Records `obj` in the current context of this thread, under base site `base`.
void record(JNIEnv* jni, jobject obj, jint base) {
  State& s = state();
  if (!obj || tInAgent || !s.active.load(std::memory_order_acquire)) return;
  if (s.original->ExceptionCheck(jni)) return;  // calling Java now would be illegal
  tInAgent = true;
  s.original->CallStaticVoidMethod(jni, s.rt, s.dyn, obj, base);
  if (s.original->ExceptionCheck(jni)) s.original->ExceptionClear(jni);  // ours, not theirs
  tInAgent = false;
}

void recordJni(JNIEnv* jni, jobject obj) { record(jni, obj, state().jniBase); }

// A String made natively comes with its value array, allocated by the JVM too.
void recordJniString(JNIEnv* jni, jstring str) {
  State& s = state();
  if (!str || tInAgent || !s.active.load(std::memory_order_acquire)) return;
  recordJni(jni, str);
  if (!s.stringValue) return;
  jobject value = s.original->GetObjectField(jni, str, s.stringValue);
  recordJni(jni, value);
  if (value) s.original->DeleteLocalRef(jni, value);
}

// ---- JNI wrappers: the real function, then the record ----

jobject JNICALL wAllocObject(JNIEnv* jni, jclass c) {
  jobject o = state().original->AllocObject(jni, c);
  recordJni(jni, o);
  return o;
}

jobject JNICALL wNewObjectV(JNIEnv* jni, jclass c, jmethodID m, va_list args) {
  jobject o = state().original->NewObjectV(jni, c, m, args);
  recordJni(jni, o);
  return o;
}

jobject JNICALL wNewObject(JNIEnv* jni, jclass c, jmethodID m, ...) {
  va_list args;
  va_start(args, m);
  jobject o = state().original->NewObjectV(jni, c, m, args);
  va_end(args);
  recordJni(jni, o);
  return o;
}

jobject JNICALL wNewObjectA(JNIEnv* jni, jclass c, jmethodID m, const jvalue* args) {
  jobject o = state().original->NewObjectA(jni, c, m, args);
  recordJni(jni, o);
  return o;
}

jobjectArray JNICALL wNewObjectArray(JNIEnv* jni, jsize n, jclass c, jobject init) {
  jobjectArray o = state().original->NewObjectArray(jni, n, c, init);
  recordJni(jni, o);
  return o;
}

jstring JNICALL wNewString(JNIEnv* jni, const jchar* chars, jsize n) {
  jstring o = state().original->NewString(jni, chars, n);
  recordJniString(jni, o);
  return o;
}

jstring JNICALL wNewStringUTF(JNIEnv* jni, const char* utf) {
  jstring o = state().original->NewStringUTF(jni, utf);
  recordJniString(jni, o);
  return o;
}

jobject JNICALL wNewDirectByteBuffer(JNIEnv* jni, void* address, jlong capacity) {
  jobject o = state().original->NewDirectByteBuffer(jni, address, capacity);
  recordJni(jni, o);
  return o;
}

// New<Primitive>Array: one wrapper per function, made by a template over the member.
template <class A, A (JNICALL* JNINativeInterface_::*F)(JNIEnv*, jsize)>
A JNICALL wNewArray(JNIEnv* jni, jsize n) {
  A o = (state().original->*F)(jni, n);
  recordJni(jni, o);
  return o;
}

void installWrappers(State& s) {
  JNINativeInterface_& t = s.wrapped;
  t.AllocObject = wAllocObject;
  t.NewObject = wNewObject;
  t.NewObjectV = wNewObjectV;
  t.NewObjectA = wNewObjectA;
  t.NewObjectArray = wNewObjectArray;
  t.NewString = wNewString;
  t.NewStringUTF = wNewStringUTF;
  t.NewDirectByteBuffer = wNewDirectByteBuffer;
  using I = JNINativeInterface_;
  t.NewBooleanArray = wNewArray<jbooleanArray, &I::NewBooleanArray>;
  t.NewByteArray = wNewArray<jbyteArray, &I::NewByteArray>;
  t.NewCharArray = wNewArray<jcharArray, &I::NewCharArray>;
  t.NewShortArray = wNewArray<jshortArray, &I::NewShortArray>;
  t.NewIntArray = wNewArray<jintArray, &I::NewIntArray>;
  t.NewLongArray = wNewArray<jlongArray, &I::NewLongArray>;
  t.NewFloatArray = wNewArray<jfloatArray, &I::NewFloatArray>;
  t.NewDoubleArray = wNewArray<jdoubleArray, &I::NewDoubleArray>;
}

std::string deallocated(jvmtiEnv* jvmti, char* p) {
  std::string s = p ? p : "";
  if (p) jvmti->Deallocate(reinterpret_cast<unsigned char*>(p));
  return s;
}

// The class (internal name), name and descriptor of `method`.
bool methodNames(State& s, jmethodID method, std::string& cls, std::string& name,
                 std::string& desc) {
  char *n = nullptr, *d = nullptr, *sig = nullptr;
  jclass owner = nullptr;
  if (s.jvmti->GetMethodName(method, &n, &d, nullptr) != JVMTI_ERROR_NONE) return false;
  name = deallocated(s.jvmti, n);
  desc = deallocated(s.jvmti, d);
  if (s.jvmti->GetMethodDeclaringClass(method, &owner) != JVMTI_ERROR_NONE) return false;
  s.jvmti->GetClassSignature(owner, &sig, nullptr);
  std::string v = deallocated(s.jvmti, sig);
  cls = v.size() > 2 ? v.substr(1, v.size() - 2) : v;
  return true;
}

// True if `obj` is one of the runtime helper's own arrays. Java code that runs inside a
// JVM call (class loading during getDeclaredMethods0, say) has its slow-path allocations
// reported as VMObjectAlloc at the end of that call; the probes' tree growth is among
// them. Those arrays are still held by the thread's DragnetState (or DragnetRt's shared
// table) when the event comes, so identity finds them.
bool ownArray(State& s, JNIEnv* jni, jthread thread, jobject obj) {
  jclass c = s.original->GetObjectClass(jni, obj);
  bool candidate = s.original->IsSameObject(jni, c, s.intArray) ||
                   s.original->IsSameObject(jni, c, s.longArray) ||
                   s.original->IsSameObject(jni, c, s.classArray) ||
                   s.original->IsSameObject(jni, c, s.objectArray);
  s.original->DeleteLocalRef(jni, c);
  if (!candidate) return false;
  auto same = [&](jobject holder, jfieldID f, bool isStatic) {
    jobject a = isStatic ? s.original->GetStaticObjectField(jni, static_cast<jclass>(holder), f)
                         : s.original->GetObjectField(jni, holder, f);
    bool eq = a && s.original->IsSameObject(jni, a, obj);
    if (a) s.original->DeleteLocalRef(jni, a);
    return eq;
  };
  bool own = false;
  for (jfieldID f : s.rtArrays) own = own || same(s.rt, f, true);
  jobject state = s.original->GetObjectField(jni, thread, s.threadState);
  if (state) {
    for (jfieldID f : s.stateArrays) own = own || same(state, f, false);
    s.original->DeleteLocalRef(jni, state);
  }
  return own;
}

// True if a probe at the caller's call site counts this VM allocation already.
bool countedByProbe(State& s, jthread thread) {
  jvmtiFrameInfo frames[2];
  jint n = 0;
  if (s.jvmti->GetStackTrace(thread, 0, 2, frames, &n) != JVMTI_ERROR_NONE || n < 2) {
    return false;
  }
  bool covered = false;
  for (jmethodID m : s.covered) covered |= m != nullptr && m == frames[0].method;
  if (!covered) return false;
  const std::pair<jmethodID, jlocation> caller{frames[1].method, frames[1].location};
  {
    std::lock_guard lock(s.mu);
    if (auto it = s.answers.find(caller); it != s.answers.end()) return it->second;
  }
  std::string cls, name, desc;
  if (!methodNames(s, caller.first, cls, name, desc)) return false;
  auto bci = static_cast<uint32_t>(caller.second);
  std::lock_guard lock(s.mu);
  // The runtime helper's own objects (DragnetLife's phantom references, where made with
  // Unsafe.allocateInstance) are not the program's.
  bool counted = cls.starts_with("java/lang/Dragnet") || s.probed.count({cls, name, desc, bci});
  s.answers.emplace(caller, counted);
  return counted;
}

bool resolveOwnArrays(State& s, JNIEnv* jni, jclass rt) {
  auto global = [&](const char* name) {
    jclass c = jni->FindClass(name);
    return c ? static_cast<jclass>(jni->NewGlobalRef(c)) : nullptr;
  };
  s.intArray = global("[I");
  s.longArray = global("[J");
  s.classArray = global("[Ljava/lang/Class;");
  s.objectArray = global("[Ljava/lang/Object;");
  s.lifeRef = global("java/lang/DragnetLife$Ref");
  jclass thread = jni->FindClass("java/lang/Thread");
  jclass state = jni->FindClass("java/lang/DragnetState");
  if (!s.intArray || !s.longArray || !s.classArray || !s.objectArray || !s.lifeRef || !thread ||
      !state) {
    return false;
  }
  s.threadState = jni->GetFieldID(thread, "dragnet$state", "Ljava/lang/DragnetState;");
  const std::pair<const char*, const char*> stateFields[] = {
      {"insns", "[J"},    {"dynBase", "[I"},
      {"dynKey", "[I"},   {"dynClass", "[Ljava/lang/Class;"},
      {"pendKey", "[I"},  {"pendDepth", "[I"},
      {"pendTime", "[J"}, {"gets", "[J"},
      {"puts", "[J"},     {"got", "[Ljava/lang/Object;"},
      {"gotAt", "[I"},    {"put", "[Ljava/lang/Object;"},
      {"putAt", "[I"},    {"gotSlot", "[I"},
      {"putSlot", "[I"},  {"slots", "[I"}};
  for (auto [name, sig] : stateFields) s.stateArrays.push_back(jni->GetFieldID(state, name, sig));
  const std::pair<const char*, const char*> rtFields[] = {
      {"dynClass", "[Ljava/lang/Class;"}, {"dynBase", "[I"}, {"dynKeys", "[I"}, {"dynIndex", "[I"}};
  for (auto [name, sig] : rtFields) s.rtArrays.push_back(jni->GetStaticFieldID(rt, name, sig));
  return !jni->ExceptionCheck();
}

}  // namespace

AgentScope::AgentScope() : saved_(tInAgent) { tInAgent = true; }
AgentScope::~AgentScope() { tInAgent = saved_; }
bool AgentScope::active() { return tInAgent; }

bool addNativeAllocCapabilities(jvmtiEnv* jvmti) {
  jvmtiCapabilities caps{};
  caps.can_generate_vm_object_alloc_events = 1;
  return jvmti->AddCapabilities(&caps) == JVMTI_ERROR_NONE;
}

void noteProbedCalls(std::vector<ProbedCall> calls) {
  if (calls.empty()) return;
  State& s = state();
  std::lock_guard lock(s.mu);
  for (ProbedCall& c : calls) {
    s.probed.emplace(std::move(c.cls), std::move(c.name), std::move(c.descriptor), c.bci);
  }
}

namespace {

// Installs the JNI function table: the JVM's, with the allocation wrappers (`allocs`) and
// the use wrappers (`uses`, jni_uses.h) in it.
bool interpose(State& s, jvmtiEnv* jvmti, bool allocs, bool uses, std::string& error) {
  jniNativeInterface* table = nullptr;
  if (jvmti->GetJNIFunctionTable(&table) != JVMTI_ERROR_NONE) {
    error = "cannot read the JNI function table";
    return false;
  }
  s.original = table;  // JVMTI-allocated copy, kept for the life of the JVM
  s.wrapped = *table;
  if (allocs) installWrappers(s);
  if (uses) installJniUses(s.wrapped, s.original);
  if (jvmti->SetJNIFunctionTable(&s.wrapped) != JVMTI_ERROR_NONE) {
    error = "cannot install the JNI function wrappers";
    return false;
  }
  return true;
}

}  // namespace

bool startNativeAllocs(jvmtiEnv* jvmti, JNIEnv* jni, uint32_t vmBase, uint32_t jniBase,
                       bool jniUses, std::string& error) {
  State& s = state();
  s.jvmti = jvmti;
  s.vmBase = static_cast<jint>(vmBase);
  s.jniBase = static_cast<jint>(jniBase);
  jclass rt = jni->FindClass("java/lang/DragnetRt");
  jclass object = jni->FindClass("java/lang/Object");
  jclass array = jni->FindClass("java/lang/reflect/Array");
  jclass unsafe = jni->FindClass("jdk/internal/misc/Unsafe");
  jclass string = jni->FindClass("java/lang/String");
  if (!rt || !object || !array || !unsafe || !string) {
    jni->ExceptionClear();
    error = "a class the agent needs for native allocations is missing";
    return false;
  }
  s.rt = static_cast<jclass>(jni->NewGlobalRef(rt));
  s.dyn = jni->GetStaticMethodID(rt, "dyn", "(Ljava/lang/Object;I)V");
  s.covered[0] = jni->GetMethodID(object, "clone", "()Ljava/lang/Object;");
  s.covered[1] =
      jni->GetStaticMethodID(array, "newArray", "(Ljava/lang/Class;I)Ljava/lang/Object;");
  s.covered[2] =
      jni->GetStaticMethodID(array, "multiNewArray", "(Ljava/lang/Class;[I)Ljava/lang/Object;");
  s.covered[3] =
      jni->GetMethodID(unsafe, "allocateInstance", "(Ljava/lang/Class;)Ljava/lang/Object;");
  s.stringValue = jni->GetFieldID(string, "value", "[B");
  if (!resolveOwnArrays(s, jni, rt)) {
    jni->ExceptionClear();
    error = "the runtime helper lacks an array field the agent needs";
    return false;
  }
  if (jni->ExceptionCheck() || !s.dyn) {
    jni->ExceptionClear();
    error = "a method the agent needs for native allocations is missing";
    return false;
  }
  if (!interpose(s, jvmti, true, jniUses, error)) return false;
  s.active.store(true, std::memory_order_release);
  jvmti->SetEventNotificationMode(JVMTI_ENABLE, JVMTI_EVENT_VM_OBJECT_ALLOC, nullptr);
  return true;
}

bool startJniUsesOnly(jvmtiEnv* jvmti, std::string& error) {
  return interpose(state(), jvmti, false, true, error);
}

void stopNativeAllocs() { state().active.store(false, std::memory_order_release); }

void JNICALL onVMObjectAlloc(jvmtiEnv*, JNIEnv* jni, jthread thread, jobject object, jclass cls,
                             jlong) {
  State& s = state();
  if (tInAgent || !s.active.load(std::memory_order_acquire)) return;
  if (s.original->IsSameObject(jni, cls, s.lifeRef)) return;  // before the stack walk below
  if (countedByProbe(s, thread) || ownArray(s, jni, thread, object)) return;
  record(jni, object, s.vmBase);
}

}  // namespace dragnet::agent
