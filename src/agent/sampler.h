// The sampled modes' sampler (sample=SIZE, sampled_mode.h). The JVM samples about one
// allocation per SIZE bytes (JVMTI SampledObjectAlloc, the mechanism JFR and async-profiler
// use) and reports it with the allocating thread's stack. Each sample stands for the
// allocations around it: its weight is the expected number of objects like it allocated
// per sample, 1 / (1 - exp(-size / SIZE)), so small objects count for many and an object
// larger than the interval for about one. Estimates are written as the same calling-context
// trees the exact modes write (one per platform thread, named; the virtual threads share
// one, "virtual threads"), with the same Rate chunks, so every report works on both; the
// profile's meta "sample" says the numbers are estimates.
#pragma once

#include <jni.h>
#include <jvmti.h>

#include <atomic>
#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <tuple>
#include <unordered_map>
#include <vector>

#include "profile/writer.h"

namespace dragnet::agent {

class Sampler {
 public:
  Sampler(jvmtiEnv* jvmti, profile::Writer& writer, uint64_t interval, uint32_t maxDepth);

  // Capabilities and the sampling interval (Agent_OnLoad). `programOnly`: leave out the
  // objects the JVM allocates for itself (see Site), which the exact modes cannot see either.
  bool configure(std::string& error, bool programOnly = false);
  // Turns the SampledObjectAlloc events on and primes the calling thread's sample point
  // (VM init, on the main thread; see there). Returns the bytes it allocated for that, 0
  // if no sample came (the thread stays unprimed until its TLAB's end).
  uint64_t start(JNIEnv* jni);
  // True for the sample of start()'s own allocation, which the callback must drop before
  // anything else (a mode's own sample callback may also ignore samples inside AgentScope).
  static bool primingSample();

  // Where a sample was allocated: its thread (the id of its tree), its context (the
  // allocating method's node in that tree) and its site key; weight is the objects it
  // stands for.
  //
  // Native frames on top of the stack are left out: an allocation inside a native method
  // (Object.clone, Unsafe.allocateInstance, reflection, JNI) belongs to the call site of
  // that native in the Java method that called it, as in the exact modes, whose probes and
  // VMObjectAlloc/JNI records attribute it there (natives have no context of their own).
  //
  // A sample allocated by the agent's own Java helper (java/lang/Dragnet*, possibly
  // through Unsafe or natives above it: the JVM resolving a string constant of the
  // helper's, a helper's own array) is not the program's: it is dropped and counted
  // (samples.agent), as the exact modes never count the helper's allocations.
  //
  // With `programOnly`, so are (samples.jvm) the objects the JVM allocates for itself,
  // which the exact modes cannot see: class objects, string constants resolved by ldc and
  // whatever else a bytecode that does not allocate makes the JVM allocate (resolution,
  // class loading), and what class-loading natives allocate (ClassLoader's, Class.forName0,
  // MethodHandleNatives'). Natives whose allocations the exact modes do record (clone,
  // reflection, JNI) keep theirs.
  struct Site {
    bool ok = false;  // false after the final flush and for the agent's own allocations
    uint32_t thread = 0, node = 0, key = 0;
    double weight = 0;
    // The sample was allocated by the native Object.clone, which then copies the original
    // over it and resets its header: whatever the callback writes there is lost.
    bool inClone = false;
  };

  // The SampledObjectAlloc callback: any thread, concurrently.
  Site onSample(JNIEnv* jni, jthread thread, jobject object, jclass cls, jlong size);

  // Writes new definitions, the trees' changes and what their allocation counters grew by
  // (Rate chunks); `final` adds the End chunk, with
  // `totals` added to the sampler's own.
  void flush(bool final, std::map<std::string, std::string> totals = {});

  uint64_t samples() const { return samples_; }

 private:
  struct Node {
    uint32_t parent = 0, key = 0;
    double count = 0, elements = 0, bytes = 0;
  };
  // One thread's tree (or the virtual threads'), numbered by first sample: id = index + 1.
  struct Tree {
    std::string name;
    std::vector<Node> nodes{Node{0, profile::kRootKey}};
    std::unordered_map<uint64_t, uint32_t> index;  // parent << 32 | key -> node
    std::vector<profile::Counters> written;        // last counters written, per node
    uint32_t nodesWritten = 1;
  };
  // What a platform thread's JVMTI thread-local storage holds: the sampler's generation and
  // its tree's id (a session attached later has another generation: its trees are new).
  // Virtual threads are told by their class and share one tree, without storage.
  struct ThreadSlot {
    bool known = false, isVirtual = false;
    std::string name;  // a platform thread's name, when its storage had no tree
  };
  uint64_t tlsValue(uint32_t tree) const { return generation_ << 32 | tree; }
  ThreadSlot threadSlot(JNIEnv* jni, jthread thread, uint32_t& tree);
  uint32_t treeFor(ThreadSlot& slot);
  void flushTree(uint32_t id, Tree& t, bool final);
  struct MethodInfo {
    uint32_t id = 0;
    bool native = false;
    bool objectClone = false;   // java/lang/Object.clone()
    bool helper = false;        // a class of the agent's runtime helper (java/lang/Dragnet*)
    bool unsafe = false;        // jdk/internal/misc/Unsafe, which the helper calls
    bool loadsClasses = false;  // a native that allocates for class loading or linking
    bool codeRead = false;      // `code` holds the method's bytecode (if JVMTI gave it)
    std::vector<uint8_t> code;
  };
  const MethodInfo& method(jmethodID m);
  uint32_t methodId(jmethodID m) { return method(m).id; }
  uint32_t siteKey(uint32_t method, jmethodID m, jlocation bci, std::string type);
  uint32_t child(Tree& t, uint32_t parent, uint32_t key);
  // The key of a frame of `callee` called from `caller` at `bci`: with the number of that
  // call site in the caller (profile::NodeDef::slot), if it has one.
  uint32_t calledKey(uint32_t callee, jmethodID caller, jlocation bci);
  int32_t lineOf(jmethodID m, jlocation bci);
  // The sample was allocated by the helper: only natives and Unsafe lie above its frame.
  bool byHelper(const jvmtiFrameInfo* frames, jint n);
  // The sample is an object the JVM allocated for itself (programOnly, see Site).
  bool byJvm(const jvmtiFrameInfo* frames, jint n, const std::string& type);
  // The opcode at `bci` of method m, or -1 if unknown.
  int opcodeAt(jmethodID m, jlocation bci);
  std::string classSignature(jclass cls);

  jvmtiEnv* jvmti_;
  profile::Writer& writer_;
  uint64_t interval_;
  uint32_t maxDepth_;

  std::mutex mu_;  // everything below; held per sample (samples are rare by design)
  std::unordered_map<jmethodID, MethodInfo> methods_;
  std::map<std::tuple<uint32_t, jlocation, std::string>, uint32_t> sites_;
  std::vector<profile::MethodDef> newMethods_;
  std::vector<profile::SiteDef> newSites_;
  std::vector<Tree> trees_;
  uint32_t virtualTree_ = 0;  // the id of the virtual threads' tree, 0: none yet
  // java.lang.VirtualThread (set by start(), which may race with early samples; null
  // before JDK 19).
  std::atomic<jclass> virtualClass_{nullptr};
  uint64_t generation_ = 0;
  profile::RateChunk rate_;
  std::map<std::pair<uint32_t, jlocation>, uint32_t> callSites_;  // (method, bci) -> number
  std::unordered_map<uint32_t, uint32_t> callSiteCount_;          // per method
  std::vector<profile::CallSite> newCallSites_;
  uint64_t samples_ = 0, truncated_ = 0, agentSamples_ = 0, jvmSamples_ = 0;
  uint64_t primingBytes_ = 0;  // what start() allocated to prime the main thread, 0: unprimed
  bool programOnly_ = false;
  bool finished_ = false;
};

}  // namespace dragnet::agent
