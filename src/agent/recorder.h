// The agent's recording side: definitions produced by class rewriting, and the threads'
// calling-context trees read from their DragnetState objects (runtime/agent: native
// tables, their addresses read through JNI), written to the profile as chunks. Nothing
// here runs per event: definitions arrive once per class, trees are read when a thread
// ends, by the flush thread, and at VM death.
#pragma once

#include <jni.h>
#include <jvmti.h>

#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include "agent/binding.h"
#include "agent/class_sizes.h"
#include "contexts/probes.h"
#include "profile/writer.h"

namespace dragnet::agent {

class Recorder {
 public:
  // `ownVirtualTrees`: each virtual thread's tree is written as a thread's instead of
  // merged into one (for an analysis whose records name contexts of their own thread's
  // tree).
  Recorder(jvmtiEnv* jvmti, profile::Writer& writer, bool ownVirtualTrees)
      : jvmti_(jvmti), writer_(writer), sizer_(jvmti), mergeVirtual_(!ownVirtualTrees) {}

  // Called from the class-load hook, any thread.
  void addClass(contexts::ClassResult&& r);
  // A base site for allocations recorded by the agent itself (VM / JNI); returns its key.
  uint32_t addNativeBase(contexts::IdSource& ids, profile::SiteKind kind);
  void addFailure(profile::Failure f);

  // Looks up the JNI field ids; in the live phase (VMInit). False if the runtime helper
  // or the Thread field is missing.
  bool init(JNIEnv* jni, std::string& error);
  bool ready() const { return ready_; }

  // Writes pending definitions, then the thread's tree (new nodes, changed counters).
  void flushThread(JNIEnv* jni, jthread thread, bool ended);
  // Every live thread, the merged tree of the virtual threads and the sizes of the classes
  // allocated since (ClassSizer: those without a finalizer); at VM death also the trees of
  // the virtual threads still alive, the remaining class sizes and the End chunk (with
  // `more` among its totals).
  void flushAll(JNIEnv* jni, bool final, std::map<std::string, std::string> more = {});
  // A virtual thread ends (JVMTI VirtualThreadEnd, on that thread): its tree is merged
  // into the virtual threads' (DragnetRt.virtualEnded), or written (own trees).
  void virtualEnded(JNIEnv* jni, jthread thread);

  // An analysis's per-thread records: called for every state the recorder flushes, after
  // its tree, with the recorder's lock held and the state's tables kept alive (thread id
  // as in the Thread chunks; `ended`: its last flush).
  using StateObserver = std::function<void(JNIEnv*, jobject state, uint32_t thread, bool ended)>;
  void observeStates(StateObserver o) { observer_ = std::move(o); }

  uint64_t classesChanged() const { return classesChanged_; }
  uint64_t failures() const { return failureCount_; }  // methods or classes left unchanged
  uint64_t partial() const { return partialCount_; }   // methods rewritten with fewer probes

 private:
  struct Book {
    uint32_t nodesWritten = 1;  // node 0, the root, is implicit
    std::vector<profile::Counters> last;
    uint64_t collapsed = 0;
    uint64_t dropped = 0;
    uint64_t heapBytes = 0;  // Java heap of the thread's tree at its last flush (insns)
    uint64_t lookups = 0;    // index lookups (DragnetState.lookups)
  };
  uint64_t treeHeapBytes(JNIEnv* jni, jobject state);
  bool readBlock(JNIEnv* jni, jobject state, uint32_t from, uint32_t to);
  bool readInsns(JNIEnv* jni, jobject state, jint from, jint n);
  // `release`: the thread ended; its tables go back to the agent once written.
  void flushState(JNIEnv* jni, jobject state, const std::string& name, bool ended,
                  bool release = false);
  void writeState(JNIEnv* jni, jobject state, const std::string& name, bool ended);
  void flushVirtualThreads(JNIEnv* jni, bool final);
  void addRate(uint32_t key, const profile::Counters& was, const profile::Counters& now);
  void writeRate(uint32_t thread);
  void writePendingDefinitions(JNIEnv* jni);
  void collectDynamicSites(JNIEnv* jni, std::vector<profile::SiteDef>& out);
  void writeClassSizes(JNIEnv* jni, bool final);
  std::string threadName(jthread thread);

  jvmtiEnv* jvmti_;
  profile::Writer& writer_;

  std::mutex defsMu_;
  std::vector<profile::MethodDef> methods_;
  std::vector<profile::SiteDef> sites_;
  std::vector<profile::CallSite> callSites_;
  std::vector<profile::Failure> failures_;
  std::set<std::string> objectTypes_;  // classes to size (sizer_)
  ClassSizer sizer_;
  // Sites of dynamic-type allocations (SiteKind::Reflect and later): never written
  // themselves; each (base, runtime class) pair the runtime reports becomes a site.
  std::map<uint32_t, profile::SiteDef> dynamicBases_;
  // The runtime helper's members, bound by init (recorder.cpp, its table).
  binding::Class rt_;  // java/lang/DragnetRt
  binding::Field lookups_;
  binding::StaticField dynCount_, dynClass_, dynBase_;
  binding::Field dropped_;
  // Virtual threads (DragnetRt): the merged state, how many ended, the two calls.
  bool mergeVirtual_ = true;
  uint64_t liveVirtualsAtEnd_ = 0;  // own trees: written at VM death, not ended
  binding::StaticField merged_, virtualsEnded_;
  binding::StaticMethod virtualEnded_, mergeLiveVirtuals_;
  jint dynWritten_ = 0;
  jint stride_ = 1;  // DragnetState.STRIDE: longs per node in `calls`, the count first
  uint64_t classesChanged_ = 0, failureCount_ = 0, partialCount_ = 0, contextsWritten_ = 0;

  std::mutex flushMu_;  // one flush at a time: thread ends, the flush thread, VM death
  std::map<uint32_t, Book> books_;
  // A flush's buffers (flushMu_): one block of a tree's arrays, and the chunk it becomes.
  struct Block {
    std::vector<uint32_t> parent, key;
    std::vector<uint64_t> calls, insns;
  } block_;
  profile::ThreadChunk chunk_;
  // The growth of the allocation counters in the chunk being written, by key (Rate chunks).
  std::map<uint32_t, profile::Counters> rate_;
  profile::RateChunk rateChunk_;
  StateObserver observer_;
  bool ready_ = false;
  bool finished_ = false;
  std::atomic<bool> dying_{false};  // the final flush began: threads are no longer released
  binding::Field threadState_, id_, size_, nodes_, lines_, insns_, collapsed_;
  binding::Method release_;            // DragnetState.release: the tables of an ended thread
  jint nodeBytes_ = 8;                 // DragnetState.NODE: parent and key, two ints
  jint elementsAt_ = 1, bytesAt_ = 2;  // DragnetState.ELEMENTS, BYTES: in a node's line
};

}  // namespace dragnet::agent
