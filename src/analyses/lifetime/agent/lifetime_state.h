// Mode lifetime, inside the agent: the object records and the collection events that both
// variants share (lifetime.cpp defines them). The exact variant's runtime helper
// (DragnetLife) writes every new object's record itself, keeps a phantom reference per object
// and an identity-hash index of the records, and hands the slots of the objects the
// collector cleared to the agent (lifetime_exact.cpp). The sampled variant registers the
// objects the JVM's allocation sampler picks (lifetime_sampled.cpp) with a JVMTI tag, its
// record's slot + 1, whose ObjectFree event ends it. Either way uses widen the record's
// first/last get and put times, a death completes the record with the time of the
// collection that freed it, and the records' writer thread writes it.
#pragma once

#include <jni.h>
#include <jvmti.h>

#include <atomic>
#include <climits>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "analyses/lifetime/agent/lifetime.h"
#include "profile/writer.h"

namespace dragnet::analyses::lifetime::tracking {

// One object's record while it lives. Use times are updated by any thread (CAS).
struct Rec {
  uint64_t id = 0, alloc = 0, size = 0;
  uint32_t key = 0, thread = 0, node = 0;
  uint32_t hash = 0;  // sampled variant: the object's identity hash (its FILTER bucket)
  std::atomic<uint64_t> firstGet{profile::kNoTime}, lastGet{profile::kNoTime},
      firstPut{profile::kNoTime}, lastPut{profile::kNoTime};
  uint32_t next = 0;  // exact variant: the next record in its identity-index chain (slot + 1)
};
// DragnetLife.record updates first/last at REC_GET (REC_PUT) and 8 bytes on, by CAS on
// plain 64-bit words.
static_assert(offsetof(Rec, lastGet) == offsetof(Rec, firstGet) + 8);
static_assert(offsetof(Rec, lastPut) == offsetof(Rec, firstPut) + 8);
static_assert(sizeof(std::atomic<uint64_t>) == 8 && std::atomic<uint64_t>::is_always_lock_free);

// stacks=on: where the four uses happened, in a table of its own (32 bytes a slot that a
// run without stacks does not pay). Written racily with the times: a pattern may pair a
// time with a neighbouring use's context when two threads race on one object.
struct Places {
  profile::EventAt at[4];
};

// Records live in one reserved address range (no memory until used), committed a chunk
// at a time: a record's address is base + slot, which the runtime helper computes too
// (it updates the use times of objects whose slot it knows, without a JNI call).
constexpr uint32_t kChunkBits = 16, kChunkSlots = 1u << kChunkBits, kMaxChunks = 1u << 12;
constexpr uint32_t kBatch = 256;  // slots a thread takes from the pool at a time

struct State {
  jvmtiEnv* jvmti = nullptr;
  profile::Writer* writer = nullptr;
  LifetimeOptions options;
  // Records (and with stacks their places): reserved ranges, chunks committed on demand
  // (under poolMu), never freed before exit.
  Rec* recs = nullptr;
  Places* places = nullptr;
  uint32_t committed = 0;  // chunks
  std::mutex poolMu;
  std::vector<uint32_t> freeSlots;  // returned by deaths
  // Exact variant: slots of the objects the current scan found dead (settling), and of
  // those the previous scan found (quarantine); a slot is reused only after the scan that
  // follows its death, so that a lookup walking an identity chain when it was unlinked
  // does not follow a reused record's link.
  std::vector<uint32_t> settling, quarantine;
  std::atomic<uint32_t> nextSlot{0};     // slots never used yet start here (the helper reads it)
  std::atomic<uint64_t> nextIdBlock{0};  // object ids, 1024 at a time (also DragnetLife.IDS)
  // The global clock (the runtime helper's CLOCK points here), read by the GC callbacks.
  alignas(64) std::atomic<int64_t> clock{0};
  // Collections not yet written, and the latest one (the time deaths get; gcCount is its
  // 1-based number).
  std::mutex gcMu;
  std::vector<profile::GcEvent> gcsUnwritten;
  uint32_t gcsWritten = 0;
  std::atomic<uint64_t> lastGcTime{0};
  std::atomic<uint32_t> gcCount{0};
  std::atomic<bool> forcing{false};
  // Exact variant: a collection ended whose cleared references no scan has looked at yet
  // (the helper reads and clears it; an int for Unsafe).
  alignas(64) std::atomic<int32_t> scanDue{0};
  // Deaths not yet written, and how many were written (every registered object is, once).
  std::mutex outMu;
  std::vector<profile::ObjectRecord> out;
  // writeOut runs on the records' writer and the flush thread: one at a time, so that
  // Gcs chunks are written in order.
  std::mutex writeMu;
  uint64_t objectsWritten = 0;
  // Forced collections: one at a time (under mu), when the clock passes nextGcAt.
  std::mutex mu;
  std::atomic<int64_t> nextGcAt{LLONG_MAX};
  // gc-budget (collectionAllowed): no collection is forced before this monotonic time;
  // thresholds passed before it are counted and moved on by a gc-interval.
  std::atomic<int64_t> gcEarliestNs{0};
  std::atomic<uint64_t> gcDeferred{0};
  bool stopping = false;
  jclass probes = nullptr;      // the runtime helper class whose static `on` starts the probes
  jfieldID probesOn = nullptr;  // that `on`
  std::atomic<uint64_t> untrackedUses{0};
  std::atomic<bool> ended{false};  // records written at VM death: uses no longer count
  // Sampled variant: per identity-hash bucket, how many live registered objects have a
  // hash in it (saturating at 255); the probes read it. Null in the exact variant.
  uint8_t* filter = nullptr;
  uint32_t filterMask = 0;
  // The records' writer: a thread of the agent's own, woken after each forced collection,
  // so that encoding and writing the dead objects' records (hundreds of MB on big runs)
  // is not done by the application thread that collected.
  std::thread writerThread;
  std::mutex writerMu;
  std::condition_variable writerWake;
  bool writerDue = false, writerStop = false;
};

extern State* gLife;

inline Rec& rec(uint32_t slot) { return gLife->recs[slot]; }
inline profile::EventAt* places(uint32_t slot) { return gLife->places[slot].at; }

// Reserves the record ranges for `s` (installed as gLife). False with `error` set.
bool initRecords(State& s, std::string& error);
// Registers object `o` (tags it): its record's slot, or -1 if it goes untracked.
jint registerObject(jobject o, uint32_t key, uint32_t thread, uint32_t node, uint64_t time,
                    uint64_t size, uint32_t hash);
// Takes up to `max` free slots (committing record chunks as needed) into `out`; how many.
uint32_t takeSlots(uint32_t* out, uint32_t max);
// Moves the record's first/last get or put times to include t (any thread: CAS). Returns
// the object's slot, or -1 if it is not registered (has no tag).
jint use(jobject o, bool put, uint64_t t, profile::EventAt at);
// The same for the record in `slot`.
void useSlot(uint32_t slot, bool put, uint64_t t, profile::EventAt at);
// The record of `slot` completed with its death (deathGc 0: alive at the end).
profile::ObjectRecord finished(uint32_t slot, uint64_t death, uint32_t deathGc);
// Writes the collections and, if `all` or enough of them wait, the dead objects' records.
void writeOut(bool all);
// gc-budget: whether a collection may be forced now (else the deferral is counted).
bool collectionAllowed(State& s);
// After a forced collection (with the agent's work around it) that began at `startNs`
// (monotonicNs): the earliest time of the next, so that forced collections take at most
// gc-budget percent of the run's time. Large heaps, whose full collections take long,
// get fewer of them (a coarser precision, which the report gives) instead of a run that
// spends most of its time collecting (a full collection's cost grows with the live heap,
// while the interval is in bytes allocated).
void collectionTook(State& s, int64_t startNs);
int64_t monotonicNs();
void JNICALL onGcStart(jvmtiEnv*);
void JNICALL onObjectFree(jvmtiEnv*, jlong tag);
void JNICALL onGcFinish(jvmtiEnv*);
void wakeWriter();
// Exact variant (lifetime_exact.cpp; no-ops in the sampled one): the helper's last scan
// for deaths at VM death, the identity index's memory, and a note on the Java heap its
// phantom references hold, for the closing line.
void scanAtEnd(JNIEnv* jni);
uint64_t exactIndexBytes();
std::string exactHeapNote();
// lifetime_live.cpp: waits for a live flush in progress to end (set `ended` first); the
// memory of its per-slot digests; the Live records written.
void waitForLiveFlush();
uint64_t liveBytes();
uint64_t liveRecords();
// Turns on ObjectFree and GarbageCollectionStart and starts the records' writer.
void startEvents();
// After a forced collection: delivers its deaths (on this thread) and wakes the writer.
void collected();

}  // namespace dragnet::analyses::lifetime::tracking
