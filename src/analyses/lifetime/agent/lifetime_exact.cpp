// Mode lifetime, exact variant: the agent's side of java/lang/DragnetLife.
//
// The helper registers every object itself (record, phantom reference, identity index; see
// DragnetLife.java): no JVMTI tag, no call into the agent per object. The agent gives it
// the memory it writes (the record table, the index's bucket heads, the shared counters)
// and its natives: slots in batches (refill0), deaths after each scan of the phantom
// references (died0), uses with their places when stacks are on (useAt0), the forced
// collections (gcDue). Why not tags: docs/LIFETIME-DESIGN.md, "Identity and death".
#include <sys/mman.h>

#include <algorithm>
#include <cstddef>
#include <cstdlib>
#include <utility>

#include "agent/binding.h"
#include "agent/native_allocs.h"
#include "agent/runtime_bridge.h"
#include "agent/virtual_threads.h"
#include "analyses/lifetime/agent/jni_uses.h"
#include "analyses/lifetime/agent/lifetime.h"
#include "analyses/lifetime/agent/lifetime_state.h"
#include "analyses/lifetime/agent/reference_class.h"

namespace dragnet::analyses::lifetime::tracking {

using agent::AgentScope;
using agent::kStateClass;
using agent::kThreadStateDesc;
using agent::kThreadStateField;
using agent::liveVirtualStates;
using agent::skipVmAllocsOf;
namespace binding = agent::binding;

namespace {

// The identity index's bucket heads: 2^22 ints (16 MB reserved, pages committed as the
// hashes touch them), about 0.4 records a chain at fop's peak of 1.5 M live objects.
constexpr uint32_t kHeadBits = 22;
constexpr int kDeadCap = 4096;  // dead slots died0 takes at a time
constexpr const char* kLifeClass = "java/lang/DragnetLife";

// The exact variant's runtime helper (DragnetLife): the memory it shares with the agent,
// and the fields of the per-thread caches the agent clears before a forced collection.
struct Exact {
  uint32_t* heads = nullptr;  // the identity index's bucket heads
  int32_t* dead = nullptr;    // dead slots, kDeadCap at a time (died0)
  jclass life = nullptr;      // java/lang/DragnetLife (global ref), null until started
  binding::StaticMethod scan;
  binding::StaticField nextGc;
  binding::Field threadState, lastBorn;
  binding::Field cacheArrays[2];  // DragnetState.got, .put (second-level caches)
};
Exact gExact;

uintptr_t addr(const void* p) { return reinterpret_cast<uintptr_t>(p); }

// Tells the runtime helper where records are, the layout of a record, and where the
// memory it shares with the agent lies.
bool setRecordLayout(JNIEnv* jni, std::string& error) {
  const Exact& x = gExact;
  State& s = *gLife;
  static_assert(sizeof(Places) == 32 && sizeof(std::atomic<uint32_t>) == 4 &&
                sizeof(std::atomic<int32_t>) == 4);
  auto at = [](const void* p) { return static_cast<jlong>(addr(p)); };
  auto offset = [](size_t o) { return static_cast<jlong>(o); };
  return binding::configure(jni, kLifeClass,
                            {{"RECS", "J", at(s.recs)},
                             {"REC_SIZE", "J", offset(sizeof(Rec))},
                             {"REC_GET", "J", offset(offsetof(Rec, firstGet))},
                             {"REC_PUT", "J", offset(offsetof(Rec, firstPut))},
                             {"REC_ID", "J", offset(offsetof(Rec, id))},
                             {"REC_ALLOC", "J", offset(offsetof(Rec, alloc))},
                             {"REC_BYTES", "J", offset(offsetof(Rec, size))},
                             {"REC_KEY", "J", offset(offsetof(Rec, key))},
                             {"REC_THREAD", "J", offset(offsetof(Rec, thread))},
                             {"REC_NODE", "J", offset(offsetof(Rec, node))},
                             {"REC_HASH", "J", offset(offsetof(Rec, hash))},
                             {"REC_NEXT", "J", offset(offsetof(Rec, next))},
                             {"PLACES", "J", at(s.places)},
                             {"HEADS", "J", at(x.heads)},
                             {"IDS", "J", at(&s.nextIdBlock)},  // the helper adds 1024 at a time
                             {"HIGH", "J", at(&s.nextSlot)},
                             {"SCAN_DUE", "J", at(&s.scanDue)},
                             {"UNTRACKED", "J", at(&s.untrackedUses)},
                             {"DEAD", "J", at(x.dead)}},
                            error);
}

void collect(JNIEnv* jni);
void setNextGc(JNIEnv* jni, int64_t at);

}  // namespace

void scanAtEnd(JNIEnv* jni) {
  const Exact& x = gExact;
  if (!x.life) return;
  jni->CallStaticVoidMethod(x.scan.cls, x.scan);
  if (jni->ExceptionCheck()) jni->ExceptionClear();
}

uint64_t exactIndexBytes() { return gExact.heads ? (uint64_t{4} << kHeadBits) : 0; }

std::string exactHeapNote() {
  if (!gExact.life) return "";
  return " (and in the Java heap a phantom reference per live object, 32 bytes, and " +
         std::to_string((gLife->committed * kChunkSlots * 4) >> 20) + " MB of arrays for them)";
}

}  // namespace dragnet::analyses::lifetime::tracking

// --- natives of java.lang.DragnetLife -------------------------------------------------------
// Exported under their JNI names: the JVM finds the natives of boot classes in agent
// libraries (RegisterNatives on a java.base class would print a warning on stderr).
using namespace dragnet::analyses::lifetime::tracking;
using dragnet::profile::EventAt;
using dragnet::profile::ObjectRecord;

extern "C" {

JNIEXPORT jint JNICALL Java_java_lang_DragnetLife_refill0(JNIEnv* jni, jclass, jintArray into) {
  AgentScope scope;  // the array copy is ours, not a use by the program
  uint32_t slots[kBatch];
  auto want = static_cast<uint32_t>(std::min<jsize>(jni->GetArrayLength(into), kBatch));
  uint32_t n = takeSlots(slots, want);
  jni->SetIntArrayRegion(into, 0, static_cast<jsize>(n), reinterpret_cast<const jint*>(slots));
  return static_cast<jint>(n);
}

// A virtual thread ended: the slots of its batch it never used go back to the pool (a
// program that runs many virtual threads would otherwise hold a batch per thread).
JNIEXPORT void JNICALL Java_java_lang_DragnetLife_unused0(JNIEnv* jni, jclass, jintArray slots,
                                                          jint n) {
  AgentScope scope;  // the array copy is ours, not a use by the program
  if (n <= 0 || n > jni->GetArrayLength(slots)) return;
  std::vector<jint> free(static_cast<size_t>(n));
  jni->GetIntArrayRegion(slots, 0, n, free.data());
  State& s = *gLife;
  std::lock_guard lock(s.poolMu);
  for (jint slot : free) s.freeSlots.push_back(static_cast<uint32_t>(slot));
}

// The helper's scan found the first n slots of the dead buffer dead. They die at the
// latest collection: the one that cleared them or a later one that began meanwhile.
JNIEXPORT void JNICALL Java_java_lang_DragnetLife_died0(JNIEnv*, jclass, jint n, jboolean done) {
  State& s = *gLife;
  const int32_t* dead = gExact.dead;
  uint64_t time = s.lastGcTime.load(std::memory_order_acquire);
  uint32_t gc = s.gcCount.load(std::memory_order_acquire);
  std::vector<ObjectRecord> batch;
  batch.reserve(static_cast<size_t>(n));
  for (jint i = 0; i < n; ++i) batch.push_back(finished(static_cast<uint32_t>(dead[i]), time, gc));
  {
    std::lock_guard lock(s.poolMu);
    for (jint i = 0; i < n; ++i) {
      auto slot = static_cast<uint32_t>(dead[i]);
      rec(slot).id = 0;  // no longer live (see finishLifetime)
      s.settling.push_back(slot);
    }
    if (done) {
      s.freeSlots.insert(s.freeSlots.end(), s.quarantine.begin(), s.quarantine.end());
      s.quarantine.swap(s.settling);
      s.settling.clear();
    }
  }
  if (n > 0) {
    std::lock_guard lock(s.outMu);
    s.out.insert(s.out.end(), batch.begin(), batch.end());
  }
  if (done) wakeWriter();
}

JNIEXPORT void JNICALL Java_java_lang_DragnetLife_useAt0(JNIEnv*, jclass, jint slot, jint kind,
                                                         jlong time, jint thread, jint node) {
  useSlot(static_cast<uint32_t>(slot), kind != 0, static_cast<uint64_t>(time),
          EventAt{static_cast<uint32_t>(thread), static_cast<uint32_t>(node)});
}

JNIEXPORT jlong JNICALL Java_java_lang_DragnetLife_sizeOf(JNIEnv*, jclass, jobject o) {
  jlong size = 0;
  gLife->jvmti->GetObjectSize(o, &size);
  return size;
}

// The allocating thread that passed the threshold collects, and waits for it: a
// collection every gc-interval bytes exactly, as HUP did, whatever the threads allocate
// meanwhile. Threads passing it together collect once.
// Returns whether this thread collected (it then scans for the deaths).
JNIEXPORT jboolean JNICALL Java_java_lang_DragnetLife_gcDue(JNIEnv* jni, jclass) {
  State& s = *gLife;
  std::lock_guard lock(s.mu);
  if (s.stopping || s.clock.load() < s.nextGcAt) return JNI_FALSE;
  AgentScope scope;
  if (!collectionAllowed(s)) {  // gc-budget: the next threshold, one interval on
    setNextGc(jni, s.clock.load() + static_cast<int64_t>(s.options.gcInterval));
    return JNI_FALSE;
  }
  collect(jni);
  return JNI_TRUE;
}

}  // extern "C"

namespace dragnet::analyses::lifetime::tracking {
namespace {

// Nulls one thread's use caches and last-born object.
void clearCaches(JNIEnv* jni, jobject st) {
  jni->SetObjectField(st, gExact.lastBorn, nullptr);
  for (const binding::Field& f : gExact.cacheArrays) {
    auto a = static_cast<jobjectArray>(jni->GetObjectField(st, f));
    if (!a) continue;
    for (jsize k = 0, len = jni->GetArrayLength(a); k < len; ++k) {
      jni->SetObjectArrayElement(a, k, nullptr);
    }
    jni->DeleteLocalRef(a);
  }
}

// Nulls every thread's use caches and last-born object, so that they keep nothing alive
// through the collection. Racy by design: a thread that uses an object meanwhile puts it
// back; the next forced collection gets it. Virtual threads are not in GetAllThreads: the
// helper lists their states.
void clearCaches(JNIEnv* jni) {
  State& s = *gLife;
  jint n = 0;
  jthread* threads = nullptr;
  if (s.jvmti->GetAllThreads(&n, &threads) != JVMTI_ERROR_NONE) return;
  jni->EnsureLocalCapacity(n + 16);  // the array holds a local reference per thread
  for (jint i = 0; i < n; ++i) {
    jobject st = jni->GetObjectField(threads[i], gExact.threadState);
    if (st) {
      clearCaches(jni, st);
      jni->DeleteLocalRef(st);
    }
    jni->DeleteLocalRef(threads[i]);
  }
  s.jvmti->Deallocate(reinterpret_cast<unsigned char*>(threads));
  if (jobjectArray live = liveVirtualStates(jni)) {
    for (jsize i = 0, len = jni->GetArrayLength(live); i < len; ++i) {
      jobject st = jni->GetObjectArrayElement(live, i);
      if (!st) continue;
      clearCaches(jni, st);
      jni->DeleteLocalRef(st);
    }
    jni->DeleteLocalRef(live);
  }
}

void setNextGc(JNIEnv* jni, int64_t at) {
  gLife->nextGcAt = at;
  jni->SetStaticLongField(gExact.nextGc.cls, gExact.nextGc, at);
}

// One forced collection (under State::mu); the helper scans for its deaths when gcDue
// returns. The threshold stays where it is meanwhile: other threads that pass it wait in
// gcDue, so nothing is allocated past it before the collection ends.
void collect(JNIEnv* jni) {
  State& s = *gLife;
  const int64_t start = monotonicNs();
  clearCaches(jni);
  s.forcing = true;
  s.jvmti->ForceGarbageCollection();
  s.forcing = false;
  collectionTook(s, start);
  setNextGc(jni, s.clock.load() + static_cast<int64_t>(s.options.gcInterval));
}

// What the helper needs to make phantom references without running a constructor.
struct RefJava {
  binding::Class reference;  // java/lang/ref/Reference
  binding::Method objectFieldOffset;
  // The queue of references made without one: ReferenceQueue.NULL up to JDK 23 or so,
  // NULL_QUEUE since (Temurin 25).
  binding::StaticField null, nullQueue;
};

// The identity index's memory, and what the helper needs to make phantom references without
// running a constructor: Reference's field offsets and ReferenceQueue's null queue.
bool startIdentity(JNIEnv* jni, const RefJava& j, jobject theU, std::string& error) {
  Exact& x = gExact;
  void* heads = mmap(nullptr, size_t{4} << kHeadBits, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  x.dead = static_cast<int32_t*>(std::calloc(kDeadCap, sizeof(int32_t)));
  if (heads == MAP_FAILED || !x.dead) {
    error = "cannot reserve memory for the identity index";
    return false;
  }
  x.heads = static_cast<uint32_t*>(heads);
  const binding::StaticField& null = j.null ? j.null : j.nullQueue;
  if (!null) {
    error = "java/lang/ref/ReferenceQueue has neither NULL nor NULL_QUEUE";
    return false;
  }
  auto fieldOffset = [&](const char* name) {
    jstring n = jni->NewStringUTF(name);
    jlong o = n ? jni->CallLongMethod(theU, j.objectFieldOffset, j.reference.ref, n) : -1;
    if (jni->ExceptionCheck()) {
      jni->ExceptionClear();
      o = -1;
    }
    if (n) jni->DeleteLocalRef(n);
    return o;
  };
  jlong referent = fieldOffset("referent"), queue = fieldOffset("queue");
  if (referent <= 0 || queue <= 0) {
    error = "the JDK's java.lang.ref.Reference lacks the fields referent and queue";
    return false;
  }
  if (!binding::configure(
          jni, kLifeClass,
          {{"REFERENT", "J", referent},
           {"QUEUE", "J", queue},
           {"HMASK", "I", jint{(1 << kHeadBits) - 1}},
           {"DEAD_CAP", "I", jint{kDeadCap}},
           {"NULL_QUEUE", "Ljava/lang/Object;", jni->GetStaticObjectField(null.cls, null)},
           {"NEW_REFS", "Z", referencesByNew()}},
          error)) {
    return false;
  }
  x.life = x.scan.cls;
  return true;
}

}  // namespace

bool startLifetime(jvmtiEnv* jvmti, JNIEnv* jni, profile::Writer& writer,
                   const LifetimeOptions& options, uint32_t constructedBase, std::string& error) {
  auto* s = new State();  // lives as long as the JVM: events may come until the end
  s->jvmti = jvmti;
  s->writer = &writer;
  s->options = options;
  if (!initRecords(*s, error)) return false;
  Exact& x = gExact;
  binding::Class life, ref;
  binding::StaticField theUnsafe, on;
  RefJava refs;
  const char* unsafe = "jdk/internal/misc/Unsafe";
  const char* queue = "java/lang/ref/ReferenceQueue";
  const char* queueDesc = "Ljava/lang/ref/ReferenceQueue;";
  const binding::Member members[] = {
      {kLifeClass, nullptr, nullptr, &life},
      {kLifeClass, "nextGc", "J", &x.nextGc},
      {kLifeClass, "scan", "()V", &x.scan},
      {kLifeClass, "on", "Z", &on},
      {kStateClass, "lastBorn", "Ljava/lang/Object;", &x.lastBorn},
      {kStateClass, "got", "[Ljava/lang/Object;", &x.cacheArrays[0]},
      {kStateClass, "put", "[Ljava/lang/Object;", &x.cacheArrays[1]},
      {"java/lang/Thread", kThreadStateField, kThreadStateDesc, &x.threadState},
      {unsafe, "theUnsafe", "Ljdk/internal/misc/Unsafe;", &theUnsafe},
      {unsafe, "objectFieldOffset", "(Ljava/lang/Class;Ljava/lang/String;)J",
       &refs.objectFieldOffset},
      {"java/lang/ref/Reference", nullptr, nullptr, &refs.reference},
      {queue, "NULL", queueDesc, &refs.null, binding::Need::Optional},
      {queue, "NULL_QUEUE", queueDesc, &refs.nullQueue, binding::Need::Optional},
      {"java/lang/DragnetLife$Ref", nullptr, nullptr, &ref}};
  jni->EnsureLocalCapacity(64);  // VM init's start-up makes more than JNI's default 16
  if (!binding::bind(jni, members, error)) return false;
  s->probes = life;
  s->probesOn = on;
  jobject theU = jni->GetStaticObjectField(theUnsafe.cls, theUnsafe);
  if (!binding::configure(jni, kLifeClass,
                          {{"U", "Ljdk/internal/misc/Unsafe;", theU},
                           {"CLOCK", "J", reinterpret_cast<jlong>(&s->clock)},
                           {"epochShift", "I", jint{options.epochShift}},
                           {"stacks", "Z", options.stacks},
                           {"constructedBase", "I", static_cast<jint>(constructedBase)}},
                          error) ||
      !startIdentity(jni, refs, theU, error) || !setRecordLayout(jni, error)) {
    return false;
  }
  setNextGc(jni, static_cast<int64_t>(options.gcInterval));
  // Where the JVM verifies boot classes the helper makes its phantom references with
  // Unsafe.allocateInstance (reference_class.h), which on JDK 23+ posts VMObjectAlloc.
  skipVmAllocsOf(ref);
  startEvents();
  jni->SetStaticBooleanField(on.cls, on, JNI_TRUE);  // last: the probes start recording
  if (!startJniUses(jvmti, jni, kLifeClass, error)) {
    error = "uses through JNI are not counted: " + error;
  }
  return true;
}
}  // namespace dragnet::analyses::lifetime::tracking
