// Mode lifetime, at each flush: what a killed JVM's profile knows of the objects still
// alive. Deaths are written when a collection finds them (Objects chunks), so without
// this every object alive at a kill, the leak suspects first, would be missing. The
// flush thread writes the deaths found so far, then a Live record of every live object
// whose record changed since the flush that last wrote it: a new object, or one with a
// new first or last use. An object's later Live record, and its death record, supersede
// it (the reader keeps the newest); a complete profile's deaths supersede them all.
//
// Cost: one pass over the record table per flush (reading each live record), and Live
// records for the objects born or used since the previous flush, at most one per live
// object per flush; an object left alone (the drag of a leak) is written once. A record
// per slot of what was last written (a 64-bit digest, 8 bytes a slot) tells which changed.
// Bounded: an object is first written once it has lived through a whole flush interval
// (allocated before the previous flush): most objects die younger and are never written,
// and a killed run loses only the objects younger than that, as it loses those born
// after the last flush anyway. That first record is always written (at most one per
// object, like its death record); the records of objects written before and used since
// only while all Live chunks together stay within a quarter of the rest of the profile
// (past that they wait for a later flush).
#include <sys/mman.h>

#include <algorithm>
#include <cstring>
#include <mutex>
#include <vector>

#include "analyses/lifetime/agent/lifetime.h"
#include "analyses/lifetime/agent/lifetime_state.h"

namespace dragnet::analyses::lifetime::tracking {
namespace {

using profile::ObjectRecord;

constexpr size_t kLiveBatch = 16384;  // records per Live chunk

uint64_t mix(uint64_t h, uint64_t v) {
  h ^= v + 0x9E3779B97F4A7C15ull + (h << 6) + (h >> 2);
  h ^= h >> 31;
  h *= 0xBF58476D1CE4E5B9ull;
  return h ^ (h >> 29);
}

// What a slot's last Live record was: the object's id (low 32 bits: ids are unique and
// increase, so a slot's next object differs there) and a 32-bit digest of everything the
// record holds (an update whose digest collides waits for the object's next change).
// Never 0, which marks a slot not written.
uint64_t digest(const ObjectRecord& o) {
  uint64_t h = 0;
  for (uint64_t v : {o.id, o.size, o.alloc, o.firstGet, o.lastGet, o.firstPut, o.lastPut,
                     uint64_t{o.thread} << 32 | o.node, uint64_t{o.key}}) {
    h = mix(h, v);
  }
  for (const profile::EventAt* at : {&o.firstGetAt, &o.lastGetAt, &o.firstPutAt, &o.lastPutAt}) {
    h = mix(h, uint64_t{at->thread} << 32 | at->node);
  }
  uint64_t w = (o.id & 0xFFFFFFFFu) << 32 | ((h ^ (h >> 32)) & 0xFFFFFFFFu);
  return w == 0 ? 1 : w;
}

bool sameObject(uint64_t a, uint64_t b) { return a != 0 && b != 0 && (a >> 32) == (b >> 32); }

struct Live {
  std::mutex mu;                // one live flush at a time; finishLifetime waits for it
  uint64_t* written = nullptr;  // per slot: digest() of its last Live record (reserved range)
  uint32_t committed = 0;       // chunks of `written` usable
  uint64_t records = 0;         // Live records written
  uint64_t bytes = 0;           // and their chunks' bytes
  uint64_t previous = 0;        // the clock at the previous live flush
};
Live gLive;

// `written` for every slot below chunk `chunks` (committed in record-table chunks).
bool commitWritten(uint32_t chunks) {
  Live& l = gLive;
  if (!l.written) {
    void* p = mmap(nullptr, sizeof(uint64_t) * kChunkSlots * kMaxChunks, PROT_NONE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED) return false;
    l.written = static_cast<uint64_t*>(p);
  }
  for (; l.committed < chunks; ++l.committed) {
    uint64_t* first = l.written + uint64_t{l.committed} * kChunkSlots;
    if (mprotect(first, sizeof(uint64_t) * kChunkSlots, PROT_READ | PROT_WRITE) != 0) return false;
  }
  return true;
}

}  // namespace

void flushLifetime() {
  State* s = gLife;
  if (!s || !s->probes) return;
  Live& l = gLive;
  std::lock_guard lock(l.mu);
  if (s->ended.load(std::memory_order_acquire)) return;
  writeOut(true);  // the deaths found so far: they supersede earlier Live records
  auto time = static_cast<uint64_t>(s->clock.load(std::memory_order_acquire));
  uint32_t high = s->nextSlot.load(std::memory_order_acquire);
  if (!commitWritten((high + kChunkSlots - 1) / kChunkSlots)) return;
  // Updates of objects written before are within budget (see above) at this flush.
  uint64_t total = s->writer->bytesWritten();
  bool updates = 4 * l.bytes <= total - std::min(total, l.bytes);
  uint64_t born = l.previous;  // objects allocated before it are old enough
  l.previous = time;
  std::vector<ObjectRecord> batch;
  batch.reserve(std::min<size_t>(high, kLiveBatch));
  for (uint32_t slot = 0; slot < high; ++slot) {
    // Racy by design, like a flush of a running thread's tree: a record being written by
    // its thread may be read half old, half new; its digest then changes again and the
    // next flush writes it whole. A dead object's record has id 0.
    uint64_t id = __atomic_load_n(&rec(slot).id, __ATOMIC_ACQUIRE);
    if (id == 0) {
      l.written[slot] = 0;
      continue;
    }
    ObjectRecord o = finished(slot, time, 0);
    if (o.id != id) continue;
    uint64_t d = digest(o);
    bool known = sameObject(l.written[slot], d);  // written before
    if (l.written[slot] == d || (known ? !updates : o.alloc >= born)) continue;
    l.written[slot] = d;
    batch.push_back(o);
    if (batch.size() == kLiveBatch) {
      l.bytes += s->writer->live(time, batch);
      l.records += batch.size();
      batch.clear();
    }
  }
  l.bytes += s->writer->live(time, batch);
  l.records += batch.size();
}

void waitForLiveFlush() { std::lock_guard lock(gLive.mu); }

uint64_t liveBytes() { return uint64_t{gLive.committed} * kChunkSlots * sizeof(uint64_t); }

uint64_t liveRecords() { return gLive.records; }

}  // namespace dragnet::analyses::lifetime::tracking
