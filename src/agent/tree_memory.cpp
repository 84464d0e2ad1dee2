#include "agent/tree_memory.h"

#include <jni.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

namespace dragnet::agent::trees {

namespace {

// In front of every block: what free() needs, and the bytes it counts.
struct alignas(64) Header {
  void* base;
  uint64_t bytes;
};
constexpr uint64_t kAlign = 64;
constexpr uint64_t kOverhead = sizeof(Header) + kAlign;

std::atomic<uint64_t> gLimit{uint64_t{1} << 30};
std::atomic<uint64_t> gCurrent{0}, gPeak{0}, gRefused{0};
bool gQuiet = false;
std::atomic<bool> gWarned{false};
std::atomic<bool> gHeapWarned{false};  // the bytecodes=on Java-heap share was reached

std::mutex gMu;  // readers and retired: growth and the recorder's reads only, never per event
int gReaders = 0;
std::vector<void*> gRetired;

Header* headerOf(void* block) { return static_cast<Header*>(block) - 1; }

void release(void* block) {
  Header* h = headerOf(block);
  gCurrent.fetch_sub(h->bytes + kOverhead);
  std::free(h->base);
}

// The limit as the option would be written: 1g, 512m, 300k or bytes.
std::string sizeText(uint64_t bytes) {
  for (auto [shift, unit] : {std::pair{30, "g"}, std::pair{20, "m"}, std::pair{10, "k"}}) {
    if (bytes && bytes % (uint64_t{1} << shift) == 0) return std::to_string(bytes >> shift) + unit;
  }
  return std::to_string(bytes);
}

void warnOnce() {
  gRefused.fetch_add(1);
  if (gQuiet || gWarned.exchange(true)) return;
  std::fprintf(stderr,
               "dragnet: warning: the calling-context trees reached max-memory=%s; from now on "
               "the events of new contexts are counted at their thread's root as dropped "
               "(raise max-memory to record them)\n",
               sizeText(gLimit.load()).c_str());
}

// Counts `bytes` against the limit; false (nothing counted) if they would pass it.
bool charge(uint64_t bytes) {
  uint64_t now = gCurrent.fetch_add(bytes) + bytes;
  if (now > gLimit.load()) {
    gCurrent.fetch_sub(bytes);
    return false;
  }
  uint64_t peak = gPeak.load();
  while (now > peak && !gPeak.compare_exchange_weak(peak, now)) {
  }
  return true;
}

// A zeroed block of `bytes`, 64-byte aligned (calloc: large blocks come from fresh,
// untouched pages); nullptr past the limit or without memory.
void* allocate(uint64_t bytes) {
  if (!charge(bytes + kOverhead)) return nullptr;
  void* base = std::calloc(1, bytes + kOverhead);
  if (!base) {
    gCurrent.fetch_sub(bytes + kOverhead);
    return nullptr;
  }
  auto at = (reinterpret_cast<uintptr_t>(base) + sizeof(Header) + kAlign - 1) & ~(kAlign - 1);
  auto* block = reinterpret_cast<void*>(at);
  *headerOf(block) = Header{base, bytes};
  return block;
}

}  // namespace

void setLimit(uint64_t bytes, bool quiet) {
  gLimit.store(bytes);
  gQuiet = quiet;
}

Usage usage() { return {gCurrent.load(), gPeak.load(), gLimit.load(), gRefused.load()}; }

uint64_t blockBytes(uintptr_t block) { return headerOf(reinterpret_cast<void*>(block))->bytes; }

ReadScope::ReadScope() {
  std::lock_guard lock(gMu);
  ++gReaders;
}

ReadScope::~ReadScope() {
  std::vector<void*> done;
  {
    std::lock_guard lock(gMu);
    if (--gReaders == 0) done.swap(gRetired);
  }
  for (void* b : done) release(b);
}

}  // namespace dragnet::agent::trees

// --- natives of java.lang.DragnetState ------------------------------------------------------
// Exported under their JNI names: the JVM finds the natives of boot classes in agent
// libraries (RegisterNatives on a java.base class would print a warning on stderr).
using namespace dragnet::agent::trees;

extern "C" {

JNIEXPORT jlong JNICALL Java_java_lang_DragnetState_grow0(JNIEnv*, jclass, jlong old, jlong used,
                                                          jlong bytes) {
  if (bytes <= 0 || used < 0 || used > bytes) return 0;
  void* block = allocate(static_cast<uint64_t>(bytes));
  if (!block) {
    warnOnce();
    return 0;
  }
  if (old != 0 && used > 0) {
    std::memcpy(block, reinterpret_cast<const void*>(old), static_cast<size_t>(used));
  }
  return static_cast<jlong>(reinterpret_cast<uintptr_t>(block));
}

JNIEXPORT void JNICALL Java_java_lang_DragnetState_heapRefused0(JNIEnv*, jclass, jboolean bind) {
  if (bind) return;
  gRefused.fetch_add(1);
  if (gQuiet || gHeapWarned.exchange(true)) return;
  std::fprintf(stderr,
               "dragnet: warning: bytecodes=on keeps its instruction counts on the Java heap, "
               "and they reached their share of it (1/64 of the maximum heap); from now on the "
               "events of new contexts are counted at their thread's root as dropped\n");
}

JNIEXPORT void JNICALL Java_java_lang_DragnetState_retire0(JNIEnv*, jclass, jlong address) {
  if (address == 0) return;
  void* block = reinterpret_cast<void*>(static_cast<uintptr_t>(address));
  {
    std::lock_guard lock(gMu);
    if (gReaders > 0) {
      gRetired.push_back(block);  // a read in progress may hold its address
      return;
    }
  }
  release(block);
}

}  // extern "C"
