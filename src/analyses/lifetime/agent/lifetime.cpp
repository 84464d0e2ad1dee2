#include "analyses/lifetime/agent/lifetime.h"

#include <sys/mman.h>

#include <algorithm>
#include <chrono>
#include <new>

#include "analyses/lifetime/agent/jni_uses.h"
#include "analyses/lifetime/agent/lifetime_state.h"

namespace dragnet::analyses::lifetime::tracking {

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
  t.slots.resize(kBatch);
  t.slots.resize(takeSlots(t.slots.data(), kBatch));
  return !t.slots.empty();
}

uint64_t nextId(ThreadSlots& t) {
  if (t.nextId == t.idEnd) {
    t.nextId = gLife->nextIdBlock.fetch_add(1024) + 1;
    t.idEnd = t.nextId + 1024;
  }
  return t.nextId++;
}

}  // namespace

uint32_t takeSlots(uint32_t* out, uint32_t max) {
  State& s = *gLife;
  std::lock_guard lock(s.poolMu);
  uint32_t n = 0;
  while (n < max) {
    if (!s.freeSlots.empty()) {
      out[n++] = s.freeSlots.back();
      s.freeSlots.pop_back();
      continue;
    }
    uint32_t slot = s.nextSlot.load(std::memory_order_relaxed);
    uint32_t c = slot >> kChunkBits;
    if (c >= kMaxChunks) break;
    if (c == s.committed && !commitChunk(s)) break;
    s.nextSlot.store(slot + 1, std::memory_order_release);
    out[n++] = slot;
  }
  return n;
}

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
  std::lock_guard serial(s.writeMu);
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

void wakeWriter() {
  State& s = *gLife;
  {
    std::lock_guard lock(s.writerMu);
    s.writerDue = true;
  }
  s.writerWake.notify_one();
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

// --- forced collections --------------------------------------------------------------

int64_t monotonicNs() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

// With gc-budget 100 gcEarliestNs stays 0 (collectionTook), so every collection is allowed.
bool collectionAllowed(State& s) {
  if (monotonicNs() >= s.gcEarliestNs.load()) return true;
  s.gcDeferred.fetch_add(1, std::memory_order_relaxed);
  return false;
}

void collectionTook(State& s, int64_t startNs) {
  const int64_t end = monotonicNs(), took = end - startNs;
  const int64_t budget = s.options.gcBudget;
  if (budget >= 100 || took <= 0) return;
  s.gcEarliestNs = end + took * (100 - budget) / budget;
}

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

void JNICALL onGcFinish(jvmtiEnv*) {
  // The exact variant's helper scans its phantom references at its next clock reservation.
  gLife->scanDue.store(1, std::memory_order_release);
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
  useSlot(slot, put, t, at);
  return static_cast<jint>(slot);
}

void useSlot(uint32_t slot, bool put, uint64_t t, EventAt at) {
  Rec& r = rec(slot);
  auto [f, l] = put ? widen(r.firstPut, r.lastPut, t) : widen(r.firstGet, r.lastGet, t);
  if (gLife->options.stacks) {
    EventAt* p = places(slot);
    if (f) p[put ? 2 : 0] = at;
    if (l) p[put ? 3 : 1] = at;
  }
}

void startEvents() {
  for (jvmtiEvent e : {JVMTI_EVENT_OBJECT_FREE, JVMTI_EVENT_GARBAGE_COLLECTION_START,
                       JVMTI_EVENT_GARBAGE_COLLECTION_FINISH}) {
    gLife->jvmti->SetEventNotificationMode(JVMTI_ENABLE, e, nullptr);
  }
  gLife->writerThread = std::thread(writerLoop);
}

void collected() {
  // Re-enabling ObjectFree posts every pending event on this thread before it returns.
  gLife->jvmti->SetEventNotificationMode(JVMTI_ENABLE, JVMTI_EVENT_OBJECT_FREE, nullptr);
  wakeWriter();
}

bool addLifetimeCapabilities(jvmtiEnv* jvmti) {
  jvmtiCapabilities caps{};
  caps.can_tag_objects = 1;
  caps.can_generate_object_free_events = 1;
  caps.can_generate_garbage_collection_events = 1;
  return jvmti->AddCapabilities(&caps) == JVMTI_ERROR_NONE && addJniUses();
}

void lifetimeCallbacks(jvmtiEventCallbacks& cb) {
  cb.ObjectFree = onObjectFree;
  cb.GarbageCollectionStart = onGcStart;
  cb.GarbageCollectionFinish = onGcFinish;
}

void nativeUse(jobject o, bool put) {
  State* s = gLife;
  if (!s || !s->probes || s->ended.load(std::memory_order_acquire)) return;
  use(o, put, static_cast<uint64_t>(s->clock.load(std::memory_order_acquire)), EventAt{});
}

std::string finishLifetime(JNIEnv* jni) {
  if (!gLife || !gLife->probes) return "no lifetime data";
  State& s = *gLife;
  jni->SetStaticBooleanField(s.probes, s.probesOn, JNI_FALSE);
  s.ended.store(true, std::memory_order_release);
  waitForLiveFlush();
  {
    std::lock_guard lock(s.mu);  // waits for a collection in progress
    s.stopping = true;
  }
  scanAtEnd(jni);  // exact variant: deaths of the collections not scanned yet
  for (jvmtiEvent e : {JVMTI_EVENT_OBJECT_FREE, JVMTI_EVENT_GARBAGE_COLLECTION_START,
                       JVMTI_EVENT_GARBAGE_COLLECTION_FINISH}) {
    s.jvmti->SetEventNotificationMode(JVMTI_DISABLE, e, nullptr);
  }
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
    for (uint32_t slot = 0, n = s.nextSlot.load(); slot < n; ++slot) {
      if (rec(slot).id == 0) continue;
      s.out.push_back(finished(slot, end, 0));
      ++alive;
    }
  }
  writeOut(true);
  // The agent's own memory: the record table (chunks are never freed) and its free list.
  uint64_t chunks = s.committed;
  uint64_t slotBytes = sizeof(Rec) + (s.options.stacks ? sizeof(Places) : 0);
  uint64_t bytes = chunks * kChunkSlots * slotBytes + s.freeSlots.capacity() * sizeof(uint32_t) +
                   exactIndexBytes() + liveBytes();
  return std::to_string(s.objectsWritten) + " objects, " + std::to_string(alive) +
         " alive at the end, " + std::to_string(s.gcCount.load()) + " collections" +
         (s.gcDeferred.load() == 0
              ? std::string(", ")
              : " (" + std::to_string(s.gcDeferred.load()) + " thresholds passed over, gc-budget " +
                    std::to_string(s.options.gcBudget) + "%), ") +
         std::to_string(s.untrackedUses.load()) + " uses of untracked objects, " +
         std::to_string(liveRecords()) + " live records at flushes; records " +
         std::to_string(s.nextSlot.load()) + " slots, " + std::to_string(bytes >> 20) + " MB" +
         exactHeapNote();
}

std::map<std::string, std::string> lifetimeTotals() {
  return {{"gc.deferred", std::to_string(gLife ? gLife->gcDeferred.load() : 0)},
          {"live.records", std::to_string(liveRecords())}};
}

}  // namespace dragnet::analyses::lifetime::tracking
