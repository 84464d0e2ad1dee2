#include "agent/lifetime.h"

#include <sys/mman.h>

#include <algorithm>
#include <new>

#include "agent/jni_uses.h"
#include "agent/lifetime_state.h"
#include "agent/native_allocs.h"

namespace dragnet::agent::life {

using profile::EventAt;
using profile::kNoTime;
using profile::ObjectRecord;

State* gLife = nullptr;

namespace {

// --- slots ---------------------------------------------------------------------------

struct ThreadSlots {
  std::vector<uint32_t> slots;
  uint64_t nextId = 0, idEnd = 0;
};
thread_local ThreadSlots tSlots;

// Reserves address space for every chunk of `T` (no memory is committed), or null.
template <class T>
T* reserve() {
  void* p = mmap(nullptr, sizeof(T) * kChunkSlots * kMaxChunks, PROT_NONE,
                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  return p == MAP_FAILED ? nullptr : static_cast<T*>(p);
}

template <class T>
bool commit(T* base, uint32_t chunk) {
  T* first = base + uint64_t{chunk} * kChunkSlots;
  if (mprotect(first, sizeof(T) * kChunkSlots, PROT_READ | PROT_WRITE) != 0) return false;
  new (first) T[kChunkSlots];  // fresh records: no id (not live), no use times
  return true;
}

// Makes the next chunk of slots usable (under poolMu).
bool commitChunk(State& s) {
  if (s.committed == kMaxChunks || !commit(s.recs, s.committed)) return false;
  if (s.places && !commit(s.places, s.committed)) return false;
  ++s.committed;
  return true;
}

bool refill(ThreadSlots& t) {
  State& s = *gLife;
  std::lock_guard lock(s.poolMu);
  while (t.slots.size() < kBatch) {
    if (!s.freeSlots.empty()) {
      t.slots.push_back(s.freeSlots.back());
      s.freeSlots.pop_back();
      continue;
    }
    uint32_t slot = s.nextSlot;
    uint32_t c = slot >> kChunkBits;
    if (c >= kMaxChunks) return !t.slots.empty();
    if (c == s.committed && !commitChunk(s)) return !t.slots.empty();
    ++s.nextSlot;
    t.slots.push_back(slot);
  }
  return true;
}

uint64_t nextId(ThreadSlots& t) {
  if (t.nextId == t.idEnd) {
    t.nextId = gLife->nextIdBlock.fetch_add(1024) + 1;
    t.idEnd = t.nextId + 1024;
  }
  return t.nextId++;
}

}  // namespace

ObjectRecord finished(uint32_t slot, uint64_t death, uint32_t deathGc) {
  const State& s = *gLife;
  Rec& r = rec(slot);
  ObjectRecord o;
  o.id = r.id;
  o.thread = r.thread;
  o.node = r.node;
  o.key = r.key;
  o.size = r.size;
  o.alloc = r.alloc;
  o.death = death < r.alloc ? r.alloc : death;
  o.deathGc = deathGc;
  o.firstGet = r.firstGet.load(std::memory_order_relaxed);
  o.lastGet = r.lastGet.load(std::memory_order_relaxed);
  o.firstPut = r.firstPut.load(std::memory_order_relaxed);
  o.lastPut = r.lastPut.load(std::memory_order_relaxed);
  if (s.options.stacks) {
    const EventAt* at = places(slot);
    o.firstGetAt = at[0];
    o.lastGetAt = at[1];
    o.firstPutAt = at[2];
    o.lastPutAt = at[3];
  }
  return o;
}

void writeOut(bool all) {
  State& s = *gLife;
  std::vector<ObjectRecord> batch;
  std::vector<profile::GcEvent> gcs;
  uint32_t firstGc = 0;
  {
    std::lock_guard lock(s.gcMu);
    gcs.swap(s.gcsUnwritten);
    firstGc = s.gcsWritten + 1;
    s.gcsWritten += static_cast<uint32_t>(gcs.size());
  }
  s.writer->gcs(firstGc, gcs);
  {
    std::lock_guard lock(s.outMu);
    if (!all && s.out.size() < 16384) return;
    batch.swap(s.out);
    s.objectsWritten += batch.size();
  }
  s.writer->objects(batch);
}

namespace {

void writerLoop() {
  State& s = *gLife;
  std::unique_lock lock(s.writerMu);
  while (!s.writerStop) {
    s.writerWake.wait(lock, [&] { return s.writerDue || s.writerStop; });
    s.writerDue = false;
    lock.unlock();
    writeOut(false);
    lock.lock();
  }
}

void wakeWriter() {
  State& s = *gLife;
  {
    std::lock_guard lock(s.writerMu);
    s.writerDue = true;
  }
  s.writerWake.notify_one();
}

// first = min(first, t), last = max(last, t); returns which of the two changed.
std::pair<bool, bool> widen(std::atomic<uint64_t>& first, std::atomic<uint64_t>& last, uint64_t t) {
  bool f = false, l = false;
  uint64_t cur = first.load(std::memory_order_relaxed);
  while ((cur == kNoTime || t < cur) && !first.compare_exchange_weak(cur, t)) {
  }
  f = cur == kNoTime || t < cur;
  cur = last.load(std::memory_order_relaxed);
  while ((cur == kNoTime || t > cur) && !last.compare_exchange_weak(cur, t)) {
  }
  l = cur == kNoTime || t >= cur;
  return {f, l};
}

}  // namespace

// --- events --------------------------------------------------------------------------

void JNICALL onGcStart(jvmtiEnv*) {
  // No JNI or JVMTI here (the world is stopped): memory and our own locks only.
  State& s = *gLife;
  auto now = static_cast<uint64_t>(s.clock.load(std::memory_order_acquire));
  s.lastGcTime.store(now, std::memory_order_release);
  s.gcCount.fetch_add(1, std::memory_order_acq_rel);
  std::lock_guard lock(s.gcMu);
  profile::GcEvent g{now, s.forcing.load()};
  s.gcsUnwritten.push_back(g);
}

void JNICALL onObjectFree(jvmtiEnv*, jlong tag) {
  State& s = *gLife;
  auto slot = static_cast<uint32_t>(tag - 1);
  ObjectRecord o = finished(slot, s.lastGcTime.load(std::memory_order_acquire),
                            s.gcCount.load(std::memory_order_acquire));
  {
    std::lock_guard lock(s.poolMu);
    Rec& r = rec(slot);
    r.id = 0;  // free: no longer live (see finishLifetime)
    if (s.filter) {
      uint8_t& n = s.filter[r.hash & s.filterMask];
      if (n > 0 && n < 255) --n;  // a saturated bucket stays: it no longer knows its count
    }
    s.freeSlots.push_back(slot);
  }
  std::lock_guard lock(s.outMu);
  s.out.push_back(o);
}

bool initRecords(State& s, std::string& error) {
  gLife = &s;
  s.recs = reserve<Rec>();
  s.places = s.options.stacks ? reserve<Places>() : nullptr;
  if (!s.recs || (s.options.stacks && !s.places)) {
    error = "cannot reserve address space for the object records";
    return false;
  }
  return true;
}

jint registerObject(jobject o, uint32_t key, uint32_t thread, uint32_t node, uint64_t time,
                    uint64_t size, uint32_t hash) {
  ThreadSlots& t = tSlots;
  if (t.slots.empty() && !refill(t)) return -1;  // out of slots: the object goes untracked
  uint32_t slot = t.slots.back();
  if (gLife->jvmti->SetTag(o, slot + 1) != JVMTI_ERROR_NONE) return -1;
  t.slots.pop_back();
  Rec& r = rec(slot);
  r.id = nextId(t);
  r.alloc = time;
  r.size = size;
  r.key = key;
  r.thread = thread;
  r.node = node;
  r.hash = hash;
  r.firstGet.store(kNoTime, std::memory_order_relaxed);
  r.lastGet.store(kNoTime, std::memory_order_relaxed);
  r.firstPut.store(kNoTime, std::memory_order_relaxed);
  r.lastPut.store(kNoTime, std::memory_order_relaxed);
  if (gLife->options.stacks) std::fill_n(places(slot), 4, EventAt{});
  return static_cast<jint>(slot);
}

jint use(jobject o, bool put, uint64_t t, EventAt at) {
  jlong tag = 0;
  if (gLife->jvmti->GetTag(o, &tag) != JVMTI_ERROR_NONE || tag == 0) {
    gLife->untrackedUses.fetch_add(1, std::memory_order_relaxed);
    return -1;
  }
  auto slot = static_cast<uint32_t>(tag - 1);
  Rec& r = rec(slot);
  auto [f, l] = put ? widen(r.firstPut, r.lastPut, t) : widen(r.firstGet, r.lastGet, t);
  if (gLife->options.stacks) {
    EventAt* p = places(slot);
    if (f) p[put ? 2 : 0] = at;
    if (l) p[put ? 3 : 1] = at;
  }
  return static_cast<jint>(slot);
}

void startEvents() {
  for (jvmtiEvent e : {JVMTI_EVENT_OBJECT_FREE, JVMTI_EVENT_GARBAGE_COLLECTION_START}) {
    gLife->jvmti->SetEventNotificationMode(JVMTI_ENABLE, e, nullptr);
  }
  gLife->writerThread = std::thread(writerLoop);
}

void collected() {
  // Re-enabling ObjectFree posts every pending event on this thread before it returns.
  gLife->jvmti->SetEventNotificationMode(JVMTI_ENABLE, JVMTI_EVENT_OBJECT_FREE, nullptr);
  wakeWriter();
}

}  // namespace dragnet::agent::life

namespace dragnet::agent {
namespace {

using namespace life;

// Tells the runtime helper where records are and where their use times lie in them.
bool setRecordLayout(JNIEnv* jni, jclass life) {
  const std::pair<const char*, jlong> fields[] = {
      {"RECS", static_cast<jlong>(reinterpret_cast<uintptr_t>(gLife->recs))},
      {"REC_SIZE", static_cast<jlong>(sizeof(Rec))},
      {"REC_GET", static_cast<jlong>(offsetof(Rec, firstGet))},
      {"REC_PUT", static_cast<jlong>(offsetof(Rec, firstPut))}};
  for (auto [name, value] : fields) {
    jfieldID f = jni->GetStaticFieldID(life, name, "J");
    if (!f) {
      jni->ExceptionClear();
      return false;
    }
    jni->SetStaticLongField(life, f, value);
  }
  return true;
}

// The exact variant's runtime helper (DragnetLife) and the per-thread caches it keeps.
struct Exact {
  jfieldID nextGc = nullptr, threadState = nullptr;
  jfieldID cacheFields[4] = {};
  jfieldID cacheArrays[3] = {};  // DragnetState.got, .put (second-level caches), .addr
};
Exact gExact;

void collect(JNIEnv* jni);

}  // namespace
}  // namespace dragnet::agent

// --- natives of java.lang.DragnetLife -------------------------------------------------------
// Exported under their JNI names: the JVM finds the natives of boot classes in agent
// libraries (RegisterNatives on a java.base class would print a warning on stderr).
using namespace dragnet::agent;
using namespace dragnet::agent::life;
using dragnet::profile::EventAt;

extern "C" {

JNIEXPORT jint JNICALL Java_java_lang_DragnetLife_born0(JNIEnv*, jclass, jobject o, jint key,
                                                        jint thread, jint node, jlong time,
                                                        jlong size) {
  return registerObject(o, static_cast<uint32_t>(key), static_cast<uint32_t>(thread),
                        static_cast<uint32_t>(node), static_cast<uint64_t>(time),
                        static_cast<uint64_t>(size), 0);
}

JNIEXPORT jint JNICALL Java_java_lang_DragnetLife_use0(JNIEnv*, jclass, jobject o, jint kind,
                                                       jlong time, jint thread, jint node) {
  return use(o, kind != 0, static_cast<uint64_t>(time),
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
JNIEXPORT void JNICALL Java_java_lang_DragnetLife_gcDue(JNIEnv* jni, jclass) {
  State& s = *gLife;
  std::lock_guard lock(s.mu);
  if (s.stopping || s.clock.load() < s.nextGcAt) return;
  AgentScope scope;
  collect(jni);
}

}  // extern "C"

namespace dragnet::agent {
namespace {

// Nulls every thread's use caches and last-born object, so that they keep nothing alive
// through the collection. Racy by design: a thread that uses an object meanwhile puts it
// back; the next forced collection gets it.
void clearCaches(JNIEnv* jni) {
  State& s = *gLife;
  jint n = 0;
  jthread* threads = nullptr;
  if (s.jvmti->GetAllThreads(&n, &threads) != JVMTI_ERROR_NONE) return;
  jni->EnsureLocalCapacity(n + 16);  // the array holds a local reference per thread
  for (jint i = 0; i < n; ++i) {
    jobject st = jni->GetObjectField(threads[i], gExact.threadState);
    if (st) {
      for (jfieldID f : gExact.cacheFields) jni->SetObjectField(st, f, nullptr);
      for (jfieldID f : gExact.cacheArrays) {
        auto a = static_cast<jobjectArray>(jni->GetObjectField(st, f));
        if (!a) continue;
        for (jsize k = 0, len = jni->GetArrayLength(a); k < len; ++k) {
          jni->SetObjectArrayElement(a, k, nullptr);
        }
        jni->DeleteLocalRef(a);
      }
      jni->DeleteLocalRef(st);
    }
    jni->DeleteLocalRef(threads[i]);
  }
  s.jvmti->Deallocate(reinterpret_cast<unsigned char*>(threads));
}

// Where an Object[]'s first element is (the runtime reads references as bits there), or
// -1. Unsafe.arrayBaseOffset returns an int up to JDK 22, a long since.
jlong refArrayBase(JNIEnv* jni, jclass unsafe, jobject theUnsafe) {
  jclass objects = jni->FindClass("[Ljava/lang/Object;");
  if (!objects) return -1;
  jlong base = -1;
  if (jmethodID m = jni->GetMethodID(unsafe, "arrayBaseOffset", "(Ljava/lang/Class;)I")) {
    base = jni->CallIntMethod(theUnsafe, m, objects);
  } else {
    jni->ExceptionClear();  // NoSuchMethodError: the newer signature
    jmethodID l = jni->GetMethodID(unsafe, "arrayBaseOffset", "(Ljava/lang/Class;)J");
    if (l) base = jni->CallLongMethod(theUnsafe, l, objects);
  }
  if (jni->ExceptionCheck()) {
    jni->ExceptionClear();
    return -1;
  }
  return base;
}

void setNextGc(JNIEnv* jni, int64_t at) {
  gLife->nextGcAt = at;
  jni->SetStaticLongField(gLife->probes, gExact.nextGc, at);
}

// One forced collection (under State::mu), its deaths delivered before it returns. The
// threshold stays where it is meanwhile: other threads that pass it wait in gcDue, so
// nothing is allocated past it before the collection ends.
void collect(JNIEnv* jni) {
  State& s = *gLife;
  clearCaches(jni);
  s.forcing = true;
  s.jvmti->ForceGarbageCollection();
  s.forcing = false;
  collected();
  setNextGc(jni, s.clock.load() + static_cast<int64_t>(s.options.gcInterval));
}

}  // namespace

bool addLifetimeCapabilities(jvmtiEnv* jvmti) {
  jvmtiCapabilities caps{};
  caps.can_tag_objects = 1;
  caps.can_generate_object_free_events = 1;
  caps.can_generate_garbage_collection_events = 1;
  return jvmti->AddCapabilities(&caps) == JVMTI_ERROR_NONE;
}

void lifetimeCallbacks(jvmtiEventCallbacks& cb) {
  cb.ObjectFree = onObjectFree;
  cb.GarbageCollectionStart = onGcStart;
}

bool startLifetime(jvmtiEnv* jvmti, JNIEnv* jni, profile::Writer& writer,
                   const LifetimeOptions& options, uint32_t constructedBase, std::string& error) {
  auto* s = new State();  // lives as long as the JVM: events may come until the end
  s->jvmti = jvmti;
  s->writer = &writer;
  s->options = options;
  if (!initRecords(*s, error)) return false;
  jclass life = jni->FindClass("java/lang/DragnetLife");
  jclass state = jni->FindClass("java/lang/DragnetState");
  jclass thread = jni->FindClass("java/lang/Thread");
  jclass unsafe = jni->FindClass("jdk/internal/misc/Unsafe");
  if (!life || !state || !thread || !unsafe) {
    jni->ExceptionClear();
    error = "the lifetime runtime helper java/lang/DragnetLife is missing or incomplete";
    return false;
  }
  s->probes = static_cast<jclass>(jni->NewGlobalRef(life));
  Exact& x = gExact;
  x.nextGc = jni->GetStaticFieldID(life, "nextGc", "J");
  x.threadState = jni->GetFieldID(thread, "dragnet$state", "Ljava/lang/DragnetState;");
  const char* caches[4] = {"g0", "g1", "p0", "lastBorn"};
  for (int i = 0; i < 4; ++i)
    x.cacheFields[i] = jni->GetFieldID(state, caches[i], "Ljava/lang/Object;");
  x.cacheArrays[0] = jni->GetFieldID(state, "got", "[Ljava/lang/Object;");
  x.cacheArrays[1] = jni->GetFieldID(state, "put", "[Ljava/lang/Object;");
  x.cacheArrays[2] = jni->GetFieldID(state, "addr", "Ljava/lang/Object;");
  jfieldID theUnsafe = jni->GetStaticFieldID(unsafe, "theUnsafe", "Ljdk/internal/misc/Unsafe;");
  jfieldID u = jni->GetStaticFieldID(life, "U", "Ljdk/internal/misc/Unsafe;");
  jfieldID clock = jni->GetStaticFieldID(life, "CLOCK", "J");
  jfieldID shift = jni->GetStaticFieldID(life, "epochShift", "I");
  jfieldID stacks = jni->GetStaticFieldID(life, "stacks", "Z");
  jfieldID base = jni->GetStaticFieldID(life, "constructedBase", "I");
  jfieldID on = jni->GetStaticFieldID(life, "on", "Z");
  if (jni->ExceptionCheck() || !x.nextGc || !x.threadState || !theUnsafe || !u || !clock ||
      !shift || !stacks || !base || !on) {
    jni->ExceptionClear();
    error = "the lifetime runtime helper lacks a configuration field";
    return false;
  }
  jobject theU = jni->GetStaticObjectField(unsafe, theUnsafe);
  jni->SetStaticObjectField(life, u, theU);
  jfieldID refBase = jni->GetStaticFieldID(life, "REF_BASE", "J");
  jlong refOffset = refArrayBase(jni, unsafe, theU);
  if (refBase && refOffset > 0) jni->SetStaticLongField(life, refBase, refOffset);
  if (jni->ExceptionCheck() || refOffset <= 0) {
    jni->ExceptionClear();
    error = "cannot read the layout of Object[]";
    return false;
  }
  jni->SetStaticLongField(life, clock, reinterpret_cast<jlong>(&s->clock));
  jni->SetStaticIntField(life, shift, options.epochShift);
  jni->SetStaticBooleanField(life, stacks, options.stacks ? JNI_TRUE : JNI_FALSE);
  jni->SetStaticIntField(life, base, static_cast<jint>(constructedBase));
  if (!setRecordLayout(jni, life)) {
    error = "the lifetime runtime helper lacks the record layout fields";
    return false;
  }
  setNextGc(jni, static_cast<int64_t>(options.gcInterval));
  startEvents();
  jni->SetStaticBooleanField(life, on, JNI_TRUE);  // last: the probes start recording
  if (!startJniUses(jni, "java/lang/DragnetLife", error)) {
    error = "uses through JNI are not counted: " + error;
  }
  return true;
}

void nativeUse(jobject o, bool put) {
  State* s = gLife;
  if (!s || !s->probes || s->ended.load(std::memory_order_acquire)) return;
  use(o, put, static_cast<uint64_t>(s->clock.load(std::memory_order_acquire)), EventAt{});
}

std::string finishLifetime(JNIEnv* jni) {
  if (!gLife || !gLife->probes) return "no lifetime data";
  State& s = *gLife;
  jni->SetStaticBooleanField(s.probes, jni->GetStaticFieldID(s.probes, "on", "Z"), JNI_FALSE);
  s.ended.store(true, std::memory_order_release);
  {
    std::lock_guard lock(s.mu);  // waits for a collection in progress
    s.stopping = true;
  }
  s.jvmti->SetEventNotificationMode(JVMTI_DISABLE, JVMTI_EVENT_OBJECT_FREE, nullptr);
  s.jvmti->SetEventNotificationMode(JVMTI_DISABLE, JVMTI_EVENT_GARBAGE_COLLECTION_START, nullptr);
  {
    std::lock_guard lock(s.writerMu);
    s.writerStop = true;
  }
  s.writerWake.notify_one();
  if (s.writerThread.joinable()) s.writerThread.join();
  auto end = static_cast<uint64_t>(s.clock.load());
  uint64_t alive = 0;
  {
    // A slot is live while its record has an id: fresh slots and freed ones have none.
    std::lock_guard lock(s.poolMu);
    std::lock_guard out(s.outMu);
    for (uint32_t slot = 0; slot < s.nextSlot; ++slot) {
      if (rec(slot).id == 0) continue;
      s.out.push_back(finished(slot, end, 0));
      ++alive;
    }
  }
  writeOut(true);
  // The agent's own memory: the record table (chunks are never freed) and its free list.
  uint64_t chunks = s.committed;
  uint64_t slotBytes = sizeof(Rec) + (s.options.stacks ? sizeof(Places) : 0);
  uint64_t bytes = chunks * kChunkSlots * slotBytes + s.freeSlots.capacity() * sizeof(uint32_t);
  return std::to_string(s.objectsWritten) + " objects, " + std::to_string(alive) +
         " alive at the end, " + std::to_string(s.gcCount.load()) + " collections, " +
         std::to_string(s.untrackedUses.load()) + " uses of untracked objects; records " +
         std::to_string(s.nextSlot) + " slots, " + std::to_string(bytes >> 20) + " MB";
}

}  // namespace dragnet::agent
