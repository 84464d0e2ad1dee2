#include "analyses/lifetime/agent/lifetime_sampled.h"

#include <pthread.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <cstdint>
#include <cstdlib>
#include <mutex>

#include "agent/binding.h"
#include "agent/jni_table.h"
#include "agent/runtime_bridge.h"
#include "analyses/lifetime/agent/jni_uses.h"
#include "analyses/lifetime/agent/lifetime_state.h"

namespace dragnet::analyses::lifetime::tracking {

using agent::AgentScope;
using agent::kThreadClonePending;
using agent::kThreadStackHi;
using agent::kThreadStackLo;
using agent::runAgentThread;
using agent::Sampler;
namespace binding = agent::binding;

namespace {

constexpr uint32_t kFilterBits = 20;  // 1 MB of buckets: ~0.1 % hits for 1000 live samples
// Where DragnetSample.FAST_MASK lets the 31-bit hash start: bit 8 (JDK 17-23), 11 (24+).
constexpr int kMinHashShift = 8, kMaxHashShift = 11;
constexpr const char* kSampleClass = "java/lang/DragnetSample";

struct Sampled {
  Sampler* sampler = nullptr;
  // The collection thread sleeps on `wake` until the clock passes State::nextGcAt.
  std::mutex mu;
  std::condition_variable wake, done;
  bool due = false;
  bool running = false;      // the collection thread was started
  uint64_t collections = 0;  // forced collections completed
  // Thread.dragnet$stackLo / Hi: the thread's stack, [lo, hi), where the agent knows it
  // (the probes read a locked object's displaced header only from the current thread's
  // stack).
  binding::Field stackLo, stackHi;
  binding::Field clonePending;  // Thread.dragnet$clonePending: a PendingClone waits
  std::atomic<uint64_t> lateClones{0}, lostClones{0};
};
// Never destroyed: should the collection thread not have returned by the time stopSampledLifetime
// gives up on it, destroying a condition variable with a waiter would block exit.
Sampled& gSampled = *new Sampled();

// A sample allocated by the native Object.clone, waiting for the probe after the clone
// call (DragnetSample.cloned): the clone resets the object's header after the callback,
// identity hash included, and on JDK 20+ the tag map finds objects by that hash, so the
// object is registered only once it is back in Java code. Its birth is the callback's.
struct PendingClone {
  jweak object = nullptr;
  uint32_t key = 0, thread = 0, node = 0;
  uint64_t birth = 0, size = 0;
};
thread_local PendingClone tPendingClone;

// A bucket's count of live samples, saturating: a saturated bucket is never decremented
// (onObjectFree), so it only ever costs lookups, never a missed use.
void countHash(uint8_t& bucket) {
  std::atomic_ref<uint8_t> n(bucket);
  uint8_t cur = n.load(std::memory_order_relaxed);
  while (cur < 255 && !n.compare_exchange_weak(cur, static_cast<uint8_t>(cur + 1))) {
  }
}

void JNICALL collector(jvmtiEnv* jvmti, JNIEnv*, void*) {
  State& s = *gLife;
  Sampled& g = gSampled;
  for (;;) {
    {
      std::unique_lock lock(g.mu);
      g.wake.wait(lock, [&] { return g.due; });
    }
    bool stop = false;
    {
      std::lock_guard lock(s.mu);
      stop = s.stopping;
      if (!stop) {
        const int64_t start = monotonicNs();
        s.forcing = true;
        jvmti->ForceGarbageCollection();
        s.forcing = false;
        collected();
        collectionTook(s, start);
        s.nextGcAt = s.clock.load() + static_cast<int64_t>(s.options.gcInterval);
      }
    }
    {
      std::lock_guard lock(g.mu);
      g.due = false;
      ++g.collections;  // also when stopping: no sampling thread may wait for ever
    }
    g.done.notify_all();
    if (stop) return;
  }
}

// Where the identity hash sits in an object header, measured on an object whose hash the
// JVM just installed: hash == (mark >> shift) & 0x7FFFFFFF. Also whether a locked header
// keeps it (lightweight locking) or not (stack locking displaces the header).
struct HeaderLayout {
  int shift = -1;
  jlong unlocked = 1;
  bool lockedKeepsHash = false;
  bool displaced = false;  // a locked header points at the displaced one (stack locking)
};

// The Java side the sampled variant reaches at start-up.
struct Java {
  binding::Class helper, object;  // java/lang/DragnetSample, java/lang/Object
  binding::StaticField theUnsafe, u, on;
  binding::Method getLong;  // Unsafe.getLong(Object, long)
  binding::StaticMethod lockedMark, displacedMark, use0, cloned0;
};

bool measureHeader(jvmtiEnv* jvmti, JNIEnv* jni, const Java& j, jobject unsafe, HeaderLayout& out) {
  jobject o = jni->AllocObject(j.object);
  if (!o) return false;
  jint hash = 0;
  if (jvmti->GetObjectHashCode(o, &hash) != JVMTI_ERROR_NONE || hash == 0) return false;
  auto mark = static_cast<uint64_t>(jni->CallLongMethod(unsafe, j.getLong, o, jlong{0}));
  auto h = static_cast<uint64_t>(static_cast<uint32_t>(hash)) & 0x7FFFFFFF;
  for (int shift = 0; shift <= 33 && out.shift < 0; ++shift) {
    if (((mark >> shift) & 0x7FFFFFFF) == h) out.shift = shift;
  }
  if (out.shift < 2) return false;  // the lock bits must stay below the hash
  out.unlocked = static_cast<jlong>(mark & 3);
  auto locked = static_cast<uint64_t>(jni->CallStaticLongMethod(j.helper, j.lockedMark, o));
  out.lockedKeepsHash = (locked & 3) == 0 && ((locked >> out.shift) & 0x7FFFFFFF) == h;
  if ((locked & 3) == 0 && !out.lockedKeepsHash && locked != 0) {
    // A pointer (8-byte aligned, on this thread's stack): the displaced header must be the
    // object's unlocked header, hash and all, for the probes to read through it.
    auto d = static_cast<uint64_t>(jni->CallStaticLongMethod(j.helper, j.displacedMark, o));
    out.displaced = d == mark;
  }
  return !jni->ExceptionCheck();
}

bool configureProbes(JNIEnv* jni, const HeaderLayout& layout, State& s, std::string& error) {
  return binding::configure(
      jni, kSampleClass,
      {{"LOCKED_KEEPS_HASH", "Z", layout.lockedKeepsHash},
       {"DISPLACED", "Z", layout.displaced},
       {"HASH_SHIFT", "I", jint{layout.shift}},
       {"FILTER", "J", static_cast<jlong>(reinterpret_cast<uintptr_t>(s.filter))},
       {"FILTER_MASK", "I", static_cast<jint>(s.filterMask)},
       {"CLOCK", "J", static_cast<jlong>(reinterpret_cast<uintptr_t>(&s.clock))},
       {"epochShift", "I", jint{s.options.epochShift}}},
      error);
}

// Binds `j` and the Thread fields of the probes' stack bounds (gSampled; all or none).
bool bindJava(JNIEnv* jni, Java& j, std::string& error) {
  const char* unsafe = "jdk/internal/misc/Unsafe";
  Sampled& g = gSampled;
  constexpr auto optional = binding::Need::Optional;
  const binding::Member members[] = {
      {kSampleClass, nullptr, nullptr, &j.helper},
      {unsafe, "theUnsafe", "Ljdk/internal/misc/Unsafe;", &j.theUnsafe},
      {kSampleClass, "U", "Ljdk/internal/misc/Unsafe;", &j.u},
      {unsafe, "getLong", "(Ljava/lang/Object;J)J", &j.getLong},
      {kSampleClass, "lockedMark", "(Ljava/lang/Object;)J", &j.lockedMark},
      {kSampleClass, "displacedMark", "(Ljava/lang/Object;)J", &j.displacedMark},
      {"java/lang/Object", nullptr, nullptr, &j.object},
      {kSampleClass, "use0", "(Ljava/lang/Object;I)V", &j.use0},
      {kSampleClass, "cloned0", "(Ljava/lang/Object;)V", &j.cloned0},
      {kSampleClass, "on", "Z", &j.on},
      {"java/lang/Thread", kThreadStackLo, "J", &g.stackLo, optional},
      {"java/lang/Thread", kThreadStackHi, "J", &g.stackHi, optional},
      {"java/lang/Thread", kThreadClonePending, "Z", &g.clonePending, optional}};
  if (!binding::bind(jni, members, error)) return false;
  if (!g.stackLo || !g.stackHi || !g.clonePending) {
    g.stackLo = g.stackHi = {};
    g.clonePending = {};  // clones then registered in the callback, as others
  }
  return true;
}

}  // namespace

void onLifetimeThreadStart(JNIEnv* jni, jthread thread) {
  Sampled& g = gSampled;
  if (!g.stackLo || !thread) return;
  pthread_attr_t attr;
  if (pthread_getattr_np(pthread_self(), &attr) != 0) return;
  void* addr = nullptr;
  size_t size = 0;
  int rc = pthread_attr_getstack(&attr, &addr, &size);
  pthread_attr_destroy(&attr);
  if (rc != 0) return;
  auto lo = static_cast<jlong>(reinterpret_cast<uintptr_t>(addr));
  jni->SetLongField(thread, g.stackLo, lo);
  jni->SetLongField(thread, g.stackHi, lo + static_cast<jlong>(size));
}

bool startSampledLifetime(jvmtiEnv* jvmti, JNIEnv* jni, profile::Writer& writer,
                          const LifetimeOptions& options, Sampler& sampler, std::string& error) {
  auto* s = new State();  // lives as long as the JVM: events may come until the end
  s->jvmti = jvmti;
  s->writer = &writer;
  s->options = options;
  if (!initRecords(*s, error)) return false;
  s->filterMask = (1u << kFilterBits) - 1;
  s->filter = static_cast<uint8_t*>(std::calloc(size_t{1} << kFilterBits, 1));
  gSampled.sampler = &sampler;
  Java j;
  if (!s->filter) {
    error = "no memory for the identity-hash filter";
    return false;
  }
  if (!bindJava(jni, j, error)) return false;
  jobject unsafe = jni->GetStaticObjectField(j.theUnsafe.cls, j.theUnsafe);
  jni->SetStaticObjectField(j.u.cls, j.u, unsafe);  // lockedMark needs it already
  HeaderLayout layout;
  if (!unsafe || !measureHeader(jvmti, jni, j, unsafe, layout)) {
    jni->ExceptionClear();
    error = "cannot find the identity hash in this JVM's object header";
    return false;
  }
  // The probes' fast path has the layout compiled in (DragnetSample.FAST_MASK: the hash
  // within bits 8-41, unlocked = 01).
  if (layout.shift < kMinHashShift || layout.shift > kMaxHashShift || layout.unlocked != 1) {
    error = "this JVM's object header keeps the identity hash at bit " +
            std::to_string(layout.shift) + " (lock bits " + std::to_string(layout.unlocked) +
            "), where the probes do not look (bits 8 to 41, unlocked 01)";
    return false;
  }
  if (!configureProbes(jni, layout, *s, error)) return false;
  // Linked now, by calling them once (before sampling starts, and before s->probes makes
  // use0 record anything): the JVM looks a native up at its first call, and the objects it
  // allocates for that would be sampled as if the program had allocated them.
  // (RegisterNatives would avoid the lookup but logs a warning for java.base classes.)
  jni->CallStaticVoidMethod(j.helper, j.use0, nullptr, jint{0});
  jni->CallStaticVoidMethod(j.helper, j.cloned0, nullptr);
  if (jni->ExceptionCheck()) {
    jni->ExceptionClear();
    error = "cannot link the natives of java/lang/DragnetSample";
    return false;
  }
  s->probes = j.helper;
  s->probesOn = j.on;
  if (options.gcInterval > 0) {
    s->nextGcAt = static_cast<int64_t>(options.gcInterval);
    if (!runAgentThread(jvmti, jni, "dragnet gc", collector, JVMTI_THREAD_NORM_PRIORITY)) {
      error = "cannot start the collection thread";
      return false;
    }
    std::lock_guard lock(gSampled.mu);
    gSampled.running = true;
  }
  startEvents();
  sampler.start(jni);
  jni->SetStaticBooleanField(j.helper, j.on, JNI_TRUE);  // last: the probes start recording
  if (!startJniUses(jvmti, jni, nullptr, error)) {
    error = "uses through JNI are not counted: " + error;
  }
  return true;
}

namespace {

// Tags and hashes `object` and counts its hash in FILTER.
void registerSample(jobject object, uint32_t key, uint32_t thread, uint32_t node, uint64_t birth,
                    uint64_t size) {
  State& s = *gLife;
  jint hash = 0;
  if (s.jvmti->GetObjectHashCode(object, &hash) != JVMTI_ERROR_NONE) return;
  auto h = static_cast<uint32_t>(hash) & 0x7FFFFFFF;
  // The object is not in Java code's hands before its hash is counted (the allocating
  // thread is in the sample's callback, or in the probe after the clone call).
  if (registerObject(object, key, thread, node, birth, size, h) >= 0) {
    countHash(s.filter[h & s.filterMask]);
  }
}

// Registers this thread's pending clone: `object` if it is that clone, else the clone
// through its weak reference if it is still alive (its probe never came: a clone called
// from code without probes), counted either way.
void settlePendingClone(JNIEnv* jni, jobject object) {
  PendingClone p = tPendingClone;
  if (!p.object) return;
  AgentScope scope;  // its JNI calls are not the program's uses
  tPendingClone = {};
  if (object && jni->IsSameObject(p.object, object)) {
    registerSample(object, p.key, p.thread, p.node, p.birth, p.size);
  } else if (jobject late = jni->NewLocalRef(p.object)) {
    gSampled.lateClones.fetch_add(1, std::memory_order_relaxed);
    registerSample(late, p.key, p.thread, p.node, p.birth, p.size);
    jni->DeleteLocalRef(late);
  } else {
    gSampled.lostClones.fetch_add(1, std::memory_order_relaxed);
  }
  jni->DeleteWeakGlobalRef(p.object);
}

}  // namespace

void onLifetimeSample(JNIEnv* jni, jthread thread, jobject object, jclass cls, jlong size) {
  State& s = *gLife;
  if (s.ended.load(std::memory_order_acquire) || AgentScope::active()) return;
  AgentScope scope;  // the callback's JNI calls (the sampler's GetArrayLength) are not uses
  Sampler::Site site = gSampled.sampler->onSample(jni, thread, object, cls, size);
  if (!site.ok) return;
  // The bytes this sample stands for (>= its size): the clock's advance.
  auto bytes = static_cast<uint64_t>(size);
  auto stands = static_cast<uint64_t>(std::llround(site.weight * static_cast<double>(bytes)));
  if (stands < bytes) stands = bytes;
  int64_t now = s.clock.fetch_add(static_cast<int64_t>(stands)) + static_cast<int64_t>(stands);
  uint64_t birth = static_cast<uint64_t>(now) - bytes;
  Sampled& g = gSampled;
  if (site.inClone && g.clonePending && thread) {
    settlePendingClone(jni, nullptr);  // an earlier clone whose probe never came
    jweak weak = jni->NewWeakGlobalRef(object);
    if (weak) {
      tPendingClone = {weak, site.key, site.thread, site.node, birth, bytes};
      jni->SetBooleanField(thread, g.clonePending, JNI_TRUE);
    }
  } else {
    registerSample(object, site.key, site.thread, site.node, birth, bytes);
  }
  // Past the threshold: the sampling thread waits for the collection (in native code, so
  // the collection's safepoint does not wait for it), as the exact variant's allocating
  // thread does: a collection every gc-interval bytes, whatever the threads allocate.
  if (now >= s.nextGcAt.load(std::memory_order_relaxed)) {
    std::unique_lock lock(g.mu);
    if (!g.due) {
      if (now < s.nextGcAt.load()) return;  // another thread moved it meanwhile
      if (!collectionAllowed(s)) {          // gc-budget: the next threshold, an interval on
        s.nextGcAt = now + static_cast<int64_t>(s.options.gcInterval);
        return;
      }
    }
    uint64_t seen = g.collections;
    if (!g.due) {
      g.due = true;
      g.wake.notify_one();
    }
    g.done.wait(lock, [&] { return g.collections != seen || s.ended.load(); });
  }
}

void stopSampledLifetime() {
  Sampled& g = gSampled;
  std::unique_lock lock(g.mu);
  if (!g.running) return;
  g.running = false;
  // finishLifetime set State::stopping: woken, the thread counts one more round and
  // returns instead of collecting.
  uint64_t seen = g.collections;
  g.due = true;
  g.wake.notify_one();
  g.done.wait_for(lock, std::chrono::seconds(2), [&] { return g.collections != seen; });
}

std::string sampledLifetimeSummary() {
  uint64_t late = gSampled.lateClones.load(), lost = gSampled.lostClones.load();
  if (late == 0 && lost == 0) return "";
  return "; sampled clones without their probe: " + std::to_string(late) + " registered late, " +
         std::to_string(lost) + " lost";
}

}  // namespace dragnet::analyses::lifetime::tracking

using namespace dragnet::analyses::lifetime::tracking;

extern "C" {

JNIEXPORT void JNICALL Java_java_lang_DragnetSample_use0(JNIEnv*, jclass, jobject o, jint kind) {
  nativeUse(o, kind != 0);
}

JNIEXPORT void JNICALL Java_java_lang_DragnetSample_cloned0(JNIEnv* jni, jclass, jobject o) {
  settlePendingClone(jni, o);
}

}  // extern "C"
