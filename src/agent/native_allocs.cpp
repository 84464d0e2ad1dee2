#include "agent/native_allocs.h"

#include <atomic>
#include <cstdarg>
#include <map>
#include <mutex>
#include <set>
#include <tuple>
#include <utility>

#include "agent/binding.h"
#include "agent/runtime_bridge.h"

namespace dragnet::agent {
namespace {

// The arrays of the runtime helper that its probes grow (see ownArray): DragnetState's
// fields and DragnetRt's static ones.
constexpr std::pair<const char*, const char*> kStateArrays[] = {
    {"insns", "[J"},    {"dynBase", "[I"},
    {"dynKey", "[I"},   {"dynClass", "[Ljava/lang/Class;"},
    {"pendKey", "[I"},  {"pendDepth", "[I"},
    {"pendTime", "[J"}, {"gets", "[J"},
    {"puts", "[J"},     {"got", "[Ljava/lang/Object;"},
    {"gotAt", "[I"},    {"put", "[Ljava/lang/Object;"},
    {"putAt", "[I"},    {"gotSlot", "[I"},
    {"putSlot", "[I"},  {"slots", "[I"}};
constexpr std::pair<const char*, const char*> kRtArrays[] = {
    {"dynClass", "[Ljava/lang/Class;"}, {"dynBase", "[I"}, {"dynKeys", "[I"}, {"dynIndex", "[I"}};

struct State {
  std::atomic<bool> active{false};
  jvmtiEnv* jvmti = nullptr;
  JniChain chain;              // the functions the wrappers call (jni_table.h)
  binding::StaticMethod dyn;   // DragnetRt.dyn(Object, int): records in the thread's context
  binding::Field stringValue;  // java/lang/String.value
  jint vmBase = 0, jniBase = 0;
  // Natives whose allocation a probe at the call site counts (countedByProbe).
  binding::Method clone, allocateInstance;
  binding::StaticMethod newArray, multiNewArray;

  // The runtime's own arrays (see ownArray).
  binding::Class intArray, longArray, classArray, objectArray;
  binding::Field threadState;
  binding::Field stateArrays[std::size(kStateArrays)];
  binding::StaticField rtArrays[std::size(kRtArrays)];
  std::atomic<jclass> skipped{nullptr};  // skipVmAllocsOf

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

const JNINativeInterface_* jvm() { return state().chain.jvm; }
const JNINativeInterface_* next() { return state().chain.next; }

// Records `obj` in the current context of this thread, under base site `base`.
void record(JNIEnv* jni, jobject obj, jint base) {
  State& s = state();
  if (!obj || AgentScope::active() || !s.active.load(std::memory_order_acquire)) return;
  if (jvm()->ExceptionCheck(jni)) return;  // calling Java now would be illegal
  agentUpcall(jni, jvm(), s.dyn.cls, s.dyn.id, obj, base);
}

void recordJni(JNIEnv* jni, jobject obj) { record(jni, obj, state().jniBase); }

// A String made natively comes with its value array, allocated by the JVM too.
void recordJniString(JNIEnv* jni, jstring str) {
  State& s = state();
  if (!str || AgentScope::active() || !s.active.load(std::memory_order_acquire)) return;
  recordJni(jni, str);
  if (!s.stringValue) return;
  jobject value = jvm()->GetObjectField(jni, str, s.stringValue);
  recordJni(jni, value);
  if (value) jvm()->DeleteLocalRef(jni, value);
}

// ---- JNI wrappers: the next function down, then the record ----

jobject JNICALL wAllocObject(JNIEnv* jni, jclass c) {
  jobject o = next()->AllocObject(jni, c);
  recordJni(jni, o);
  return o;
}

jobject JNICALL wNewObjectV(JNIEnv* jni, jclass c, jmethodID m, va_list args) {
  jobject o = next()->NewObjectV(jni, c, m, args);
  recordJni(jni, o);
  return o;
}

jobject JNICALL wNewObject(JNIEnv* jni, jclass c, jmethodID m, ...) {
  va_list args;
  va_start(args, m);
  jobject o = next()->NewObjectV(jni, c, m, args);
  va_end(args);
  recordJni(jni, o);
  return o;
}

jobject JNICALL wNewObjectA(JNIEnv* jni, jclass c, jmethodID m, const jvalue* args) {
  jobject o = next()->NewObjectA(jni, c, m, args);
  recordJni(jni, o);
  return o;
}

jobjectArray JNICALL wNewObjectArray(JNIEnv* jni, jsize n, jclass c, jobject init) {
  jobjectArray o = next()->NewObjectArray(jni, n, c, init);
  recordJni(jni, o);
  return o;
}

jstring JNICALL wNewString(JNIEnv* jni, const jchar* chars, jsize n) {
  jstring o = next()->NewString(jni, chars, n);
  recordJniString(jni, o);
  return o;
}

jstring JNICALL wNewStringUTF(JNIEnv* jni, const char* utf) {
  jstring o = next()->NewStringUTF(jni, utf);
  recordJniString(jni, o);
  return o;
}

jobject JNICALL wNewDirectByteBuffer(JNIEnv* jni, void* address, jlong capacity) {
  jobject o = next()->NewDirectByteBuffer(jni, address, capacity);
  recordJni(jni, o);
  return o;
}

// New<Primitive>Array: one wrapper per function, made by a template over the member.
template <class A, A (JNICALL* JNINativeInterface_::*F)(JNIEnv*, jsize)>
A JNICALL wNewArray(JNIEnv* jni, jsize n) {
  A o = (next()->*F)(jni, n);
  recordJni(jni, o);
  return o;
}

// The allocation wrappers (a client of jni_table.h).
void wrapAllocs(JNINativeInterface_& t, const JniChain& chain) {
  state().chain = chain;
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
  const JNINativeInterface_* f = jvm();
  jclass c = f->GetObjectClass(jni, obj);
  bool candidate = f->IsSameObject(jni, c, s.intArray) || f->IsSameObject(jni, c, s.longArray) ||
                   f->IsSameObject(jni, c, s.classArray) || f->IsSameObject(jni, c, s.objectArray);
  f->DeleteLocalRef(jni, c);
  if (!candidate) return false;
  auto same = [&](jobject a) {
    bool eq = a && f->IsSameObject(jni, a, obj);
    if (a) f->DeleteLocalRef(jni, a);
    return eq;
  };
  bool own = false;
  for (const binding::StaticField& a : s.rtArrays) {
    own = own || same(f->GetStaticObjectField(jni, a.cls, a));
  }
  jobject state = f->GetObjectField(jni, thread, s.threadState);
  if (state) {
    for (const binding::Field& a : s.stateArrays) {
      own = own || same(f->GetObjectField(jni, state, a));
    }
    f->DeleteLocalRef(jni, state);
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
  for (jmethodID m : {s.clone.id, s.newArray.id, s.multiNewArray.id, s.allocateInstance.id}) {
    covered |= m != nullptr && m == frames[0].method;
  }
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
  // The runtime helpers' own objects (made with Unsafe.allocateInstance) are not the
  // program's.
  bool counted = cls.starts_with("java/lang/Dragnet") || s.probed.count({cls, name, desc, bci});
  s.answers.emplace(caller, counted);
  return counted;
}

// What the callbacks and wrappers reach in Java: the upcall, the natives a probe counts,
// String.value and the runtime helper's arrays.
bool resolve(State& s, JNIEnv* jni, std::string& error) {
  std::vector<binding::Member> members = {
      {kRuntimeClass, "dyn", "(Ljava/lang/Object;I)V", &s.dyn},
      {"java/lang/Object", "clone", "()Ljava/lang/Object;", &s.clone},
      {"java/lang/reflect/Array", "newArray", "(Ljava/lang/Class;I)Ljava/lang/Object;",
       &s.newArray},
      {"java/lang/reflect/Array", "multiNewArray", "(Ljava/lang/Class;[I)Ljava/lang/Object;",
       &s.multiNewArray},
      {"jdk/internal/misc/Unsafe", "allocateInstance", "(Ljava/lang/Class;)Ljava/lang/Object;",
       &s.allocateInstance},
      {"java/lang/String", "value", "[B", &s.stringValue},
      {"[I", nullptr, nullptr, &s.intArray},
      {"[J", nullptr, nullptr, &s.longArray},
      {"[Ljava/lang/Class;", nullptr, nullptr, &s.classArray},
      {"[Ljava/lang/Object;", nullptr, nullptr, &s.objectArray},
      {"java/lang/Thread", kThreadStateField, kThreadStateDesc, &s.threadState}};
  for (size_t i = 0; i < std::size(kStateArrays); ++i) {
    members.push_back(
        {kStateClass, kStateArrays[i].first, kStateArrays[i].second, &s.stateArrays[i]});
  }
  for (size_t i = 0; i < std::size(kRtArrays); ++i) {
    members.push_back({kRuntimeClass, kRtArrays[i].first, kRtArrays[i].second, &s.rtArrays[i]});
  }
  return binding::bind(jni, members, error);
}

}  // namespace

bool addNativeAllocCapabilities(jvmtiEnv* jvmti) {
  jvmtiCapabilities caps{};
  caps.can_generate_vm_object_alloc_events = 1;
  return jvmti->AddCapabilities(&caps) == JVMTI_ERROR_NONE && addJniWrappers(wrapAllocs);
}

void noteProbedCalls(std::vector<ProbedCall> calls) {
  if (calls.empty()) return;
  State& s = state();
  std::lock_guard lock(s.mu);
  for (ProbedCall& c : calls) {
    s.probed.emplace(std::move(c.cls), std::move(c.name), std::move(c.descriptor), c.bci);
  }
}

bool startNativeAllocs(jvmtiEnv* jvmti, JNIEnv* jni, uint32_t vmBase, uint32_t jniBase,
                       std::string& error) {
  State& s = state();
  s.jvmti = jvmti;
  s.vmBase = static_cast<jint>(vmBase);
  s.jniBase = static_cast<jint>(jniBase);
  if (!resolve(s, jni, error) || !installJniTable(jvmti, error)) return false;
  s.active.store(true, std::memory_order_release);
  jvmti->SetEventNotificationMode(JVMTI_ENABLE, JVMTI_EVENT_VM_OBJECT_ALLOC, nullptr);
  return true;
}

void skipVmAllocsOf(jclass cls) { state().skipped.store(cls, std::memory_order_release); }

void stopNativeAllocs() { state().active.store(false, std::memory_order_release); }

void JNICALL onVMObjectAlloc(jvmtiEnv*, JNIEnv* jni, jthread thread, jobject object, jclass cls,
                             jlong) {
  State& s = state();
  if (AgentScope::active() || !s.active.load(std::memory_order_acquire)) return;
  jclass skipped = s.skipped.load(std::memory_order_acquire);
  if (skipped && jvm()->IsSameObject(jni, cls, skipped)) return;  // before the stack walk
  if (countedByProbe(s, thread) || ownArray(s, jni, thread, object)) return;
  record(jni, object, s.vmBase);
}

}  // namespace dragnet::agent
