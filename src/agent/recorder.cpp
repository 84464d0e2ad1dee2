#include "agent/recorder.h"

#include <algorithm>
#include <cstring>

#include "agent/runtime_bridge.h"
#include "agent/tree_memory.h"
#include "agent/virtual_threads.h"

namespace dragnet::agent {

namespace {

// Reads elements [from, from + n) of the int[] / long[] `arr` into `out` (resized to n,
// its capacity kept from flush to flush) and deletes the local reference. False if the
// array is missing or shorter.
template <class T>
bool readArray(JNIEnv* jni, jarray arr, jint from, jint n, std::vector<T>& out) {
  out.resize(static_cast<size_t>(n));
  bool ok = arr && jni->GetArrayLength(arr) >= from + n;
  if (!ok) {
  } else if constexpr (sizeof(T) == 4) {
    jni->GetIntArrayRegion(static_cast<jintArray>(arr), from, n,
                           reinterpret_cast<jint*>(out.data()));
  } else {
    jni->GetLongArrayRegion(static_cast<jlongArray>(arr), from, n,
                            reinterpret_cast<jlong*>(out.data()));
  }
  if (arr) jni->DeleteLocalRef(arr);
  return ok;
}

// Nodes a Thread chunk carries at most. A flush reads and writes a tree a block at a time,
// through buffers it keeps: copying the whole tree each time would make the flush thread
// fault the tree's size in fresh memory in per flush (hundreds of MB for a tree of
// millions of nodes).
constexpr uint32_t kFlushBlock = 16384;
}  // namespace

// Java heap the thread's tree holds: its instruction counts (bytecodes=on; the rest of
// the tree is native memory, counted by tree_memory).
uint64_t Recorder::treeHeapBytes(JNIEnv* jni, jobject state) {
  auto insns = static_cast<jarray>(jni->GetObjectField(state, insns_));
  if (!insns) return 0;
  auto bytes = static_cast<uint64_t>(jni->GetArrayLength(insns)) * 8;
  jni->DeleteLocalRef(insns);
  return bytes;
}

void Recorder::addClass(contexts::ClassResult&& r) {
  std::lock_guard lock(defsMu_);
  if (r.changed) ++classesChanged_;
  for (auto& m : r.methods) methods_.push_back(std::move(m));
  for (auto& c : r.callSites) callSites_.push_back(std::move(c));
  for (auto& s : r.sites) {
    if (profile::isDynamicSite(s.kind) || s.type.empty()) {  // typed at run time
      uint32_t key = s.key;
      dynamicBases_.emplace(key, std::move(s));
      continue;
    }
    if (s.kind == profile::SiteKind::New ||
        (s.kind == profile::SiteKind::Clone && !s.type.starts_with("["))) {
      objectTypes_.insert(s.type);
    }
    sites_.push_back(std::move(s));
  }
  for (auto& f : r.failures) {
    (profile::isPartial(f) ? partialCount_ : failureCount_) += 1;
    failures_.push_back(std::move(f));
  }
}

uint32_t Recorder::addNativeBase(contexts::IdSource& ids, profile::SiteKind kind) {
  profile::SiteDef d;
  d.key = profile::kAllocBit | ids.nextSite.fetch_add(1) << 4;
  d.kind = kind;
  std::lock_guard lock(defsMu_);
  dynamicBases_.emplace(d.key, d);
  return d.key;
}

void Recorder::addFailure(profile::Failure f) {
  std::lock_guard lock(defsMu_);
  ++failureCount_;
  failures_.push_back(std::move(f));
}

bool Recorder::init(JNIEnv* jni, std::string& error) {
  binding::StaticField stride, nodeBytes, elements, bytes;
  const binding::Member members[] = {
      {"java/lang/Thread", kThreadStateField, kThreadStateDesc, &threadState_},
      {kStateClass, "id", "I", &id_},
      {kStateClass, "size", "I", &size_},
      // The native tables' addresses: nodes (parent, key) and lines (count and cached
      // children, or an allocation node's counters).
      {kStateClass, "nodes", "J", &nodes_},
      {kStateClass, "calls", "J", &lines_},
      {kStateClass, "STRIDE", "I", &stride},
      {kStateClass, "NODE", "I", &nodeBytes},
      {kStateClass, "release", "()V", &release_},
      // An allocation node's array counters are in its line of `calls` (it has no children).
      {kStateClass, "ELEMENTS", "I", &elements},
      {kStateClass, "BYTES", "I", &bytes},
      {kStateClass, "insns", "[J", &insns_},  // null unless bytecodes=on
      {kStateClass, "collapsed", "J", &collapsed_},
      {kStateClass, "dropped", "J", &dropped_},
      {kStateClass, "lookups", "J", &lookups_},
      {kRuntimeClass, nullptr, nullptr, &rt_},
      {kRuntimeClass, "dynCount", "I", &dynCount_},
      {kRuntimeClass, "dynClass", "[Ljava/lang/Class;", &dynClass_},
      {kRuntimeClass, "dynBase", "[I", &dynBase_},
      {kRuntimeClass, "merged", "Ljava/lang/DragnetState;", &merged_},
      {kRuntimeClass, "virtualsEnded", "J", &virtualsEnded_},
      {kRuntimeClass, "virtualEnded", "(Ljava/lang/Thread;)V", &virtualEnded_},
      {kRuntimeClass, "mergeLiveVirtuals", "()V", &mergeLiveVirtuals_}};
  if (!binding::bind(jni, members, error)) return false;
  stride_ = jni->GetStaticIntField(stride.cls, stride);
  nodeBytes_ = jni->GetStaticIntField(nodeBytes.cls, nodeBytes);
  elementsAt_ = jni->GetStaticIntField(elements.cls, elements);
  bytesAt_ = jni->GetStaticIntField(bytes.cls, bytes);
  ready_ = true;
  return true;
}

// Sites for the (base site, runtime class) pairs the runtime added since the last call
// (DragnetRt.globalDynKey). Called with flushMu_ held.
void Recorder::collectDynamicSites(JNIEnv* jni, std::vector<profile::SiteDef>& out) {
  if (!rt_ || !dynCount_ || !dynClass_ || !dynBase_) return;
  jint n = jni->GetStaticIntField(rt_, dynCount_);  // first: entries below it are whole
  if (n <= dynWritten_) return;
  auto classes = static_cast<jobjectArray>(jni->GetStaticObjectField(rt_, dynClass_));
  auto bases = static_cast<jintArray>(jni->GetStaticObjectField(rt_, dynBase_));
  if (!classes || !bases || jni->GetArrayLength(bases) < n || jni->GetArrayLength(classes) < n) {
    return;
  }
  std::vector<jint> base(static_cast<size_t>(n));
  jni->GetIntArrayRegion(bases, 0, n, base.data());
  std::lock_guard lock(defsMu_);
  for (jint i = dynWritten_; i < n; ++i) {
    auto cls = static_cast<jclass>(jni->GetObjectArrayElement(classes, i));
    char* sig = nullptr;
    std::string type;
    if (cls && jvmti_->GetClassSignature(cls, &sig, nullptr) == JVMTI_ERROR_NONE && sig) {
      std::string_view v(sig);
      type = v.starts_with("L") && v.ends_with(";") ? std::string(v.substr(1, v.size() - 2))
                                                    : std::string(v);
      jvmti_->Deallocate(reinterpret_cast<unsigned char*>(sig));
    }
    if (cls) jni->DeleteLocalRef(cls);
    auto b = dynamicBases_.find(static_cast<uint32_t>(base[static_cast<size_t>(i)]));
    profile::SiteDef d = b == dynamicBases_.end() ? profile::SiteDef{} : b->second;
    auto kind = contexts::elementKind(type);
    d.key = profile::kAllocBit | static_cast<uint32_t>(contexts::kDynamicTop - i) << 4 |
            static_cast<uint32_t>(kind);
    d.type = type;
    if (kind == profile::ElemKind::Object) objectTypes_.insert(type);
    out.push_back(std::move(d));
  }
  dynWritten_ = n;
  jni->DeleteLocalRef(classes);
  jni->DeleteLocalRef(bases);
}

void Recorder::writePendingDefinitions(JNIEnv* jni) {
  std::vector<profile::MethodDef> methods;
  std::vector<profile::SiteDef> sites;
  std::vector<profile::CallSite> calls;
  std::vector<profile::Failure> failures;
  collectDynamicSites(jni, sites);
  {
    std::lock_guard lock(defsMu_);
    methods.swap(methods_);
    sites.insert(sites.end(), std::make_move_iterator(sites_.begin()),
                 std::make_move_iterator(sites_.end()));
    sites_.clear();
    calls.swap(callSites_);
    failures.swap(failures_);
  }
  writer_.methods(methods);
  writer_.sites(sites);
  writer_.callSites(calls);
  writer_.failures(failures);
}

std::string Recorder::threadName(jthread thread) {
  jvmtiThreadInfo info{};
  if (jvmti_->GetThreadInfo(thread, &info) != JVMTI_ERROR_NONE) return {};
  std::string name = info.name ? info.name : "";
  if (info.name) jvmti_->Deallocate(reinterpret_cast<unsigned char*>(info.name));
  return name;
}

void Recorder::flushThread(JNIEnv* jni, jthread thread, bool ended) {
  if (!ready_) return;
  jobject state = jni->GetObjectField(thread, threadState_);
  if (!state) return;  // the thread never ran instrumented code
  // The thread ended (ThreadEnd, or a virtual thread's end with own trees; at VM death
  // other threads still run): its tables go back once written.
  flushState(jni, state, threadName(thread), ended, ended && !dying_);
  jni->DeleteLocalRef(state);
}

void Recorder::virtualEnded(JNIEnv* jni, jthread thread) {
  if (!ready_ || !rt_ || !virtualEnded_) return;
  if (!mergeVirtual_) flushThread(jni, thread, true);
  jni->CallStaticVoidMethod(rt_, virtualEnded_, thread);
  if (jni->ExceptionCheck()) jni->ExceptionClear();  // OutOfMemoryError: the tree is lost
}

void Recorder::flushState(JNIEnv* jni, jobject state, const std::string& name, bool ended,
                          bool release) {
  std::lock_guard lock(flushMu_);
  if (finished_) return;
  {
    trees::ReadScope reading;  // the thread may grow its tables meanwhile: keep the old ones
    writeState(jni, state, name, ended);
    jint id = jni->GetIntField(state, id_);
    if (observer_ && id > 0) observer_(jni, state, static_cast<uint32_t>(id), ended);
  }
  // DragnetState.release (on the ended thread itself) under flushMu_: it replaces the
  // tables with the SINK's, which a concurrent flush of this state must not read with
  // the size it read before.
  if (release && release_) {
    jni->CallVoidMethod(state, release_);
    if (jni->ExceptionCheck()) jni->ExceptionClear();
  }
}

// The body of flushState, with flushMu_ held.
void Recorder::writeState(JNIEnv* jni, jobject state, const std::string& name, bool ended) {
  writePendingDefinitions(jni);
  // Numbered by the helper when it made the state (DragnetRt.create): 1, 2, ...; 0 for a
  // virtual thread's, which is written as part of the merged state.
  jint id = jni->GetIntField(state, id_);
  if (id <= 0) return;
  Book& book = books_[static_cast<uint32_t>(id)];
  // `size` first: every array read afterwards holds at least that many whole nodes.
  jint size = jni->GetIntField(state, size_);
  book.heapBytes = treeHeapBytes(jni, state);
  uint64_t collapsed = static_cast<uint64_t>(jni->GetLongField(state, collapsed_));
  uint64_t dropped = static_cast<uint64_t>(jni->GetLongField(state, dropped_));
  if (lookups_) book.lookups = static_cast<uint64_t>(jni->GetLongField(state, lookups_));
  if (size <= 0) return;
  profile::ThreadChunk& chunk = chunk_;
  chunk.thread = static_cast<uint32_t>(id);
  chunk.name = name;
  chunk.collapsed = collapsed;
  chunk.dropped = dropped;
  auto n = static_cast<uint32_t>(size);
  book.last.resize(std::max<size_t>(book.last.size(), n));
  bool wrote = false;
  for (uint32_t from = 0; from < n; from += kFlushBlock) {
    uint32_t to = std::min(n, from + kFlushBlock);
    if (!readBlock(jni, state, from, to)) return;
    chunk.nodes.clear();
    chunk.counters.clear();
    chunk.firstNode = std::max(from, book.nodesWritten);
    for (uint32_t i = chunk.firstNode; i < to; ++i) {
      chunk.nodes.push_back({block_.parent[i - from], block_.key[i - from]});
    }
    for (uint32_t i = std::max(from, 1u); i < to; ++i) {
      size_t k = i - from;
      const uint64_t* line = &block_.calls[static_cast<size_t>(stride_) * k];
      bool array = profile::isAllocKey(block_.key[k]);
      profile::Counters c{line[0], array ? line[elementsAt_] : 0, array ? line[bytesAt_] : 0,
                          block_.insns[k]};
      if (c == book.last[i]) continue;
      if (array) addRate(block_.key[k], book.last[i], c);
      book.last[i] = c;
      chunk.counters.emplace_back(i, c);
    }
    book.nodesWritten = std::max(book.nodesWritten, to);
    // The thread's end goes with its last chunk: a profile cut off within this flush
    // does not show an ended thread with part of its final counts.
    chunk.ended = ended && to == n;
    bool last =
        to == n && (ended || (!wrote && (collapsed != book.collapsed || dropped != book.dropped)));
    if (chunk.nodes.empty() && chunk.counters.empty() && !last) continue;
    contextsWritten_ += chunk.nodes.size();
    writer_.thread(chunk);
    writeRate(chunk.thread);
    wrote = true;
  }
  book.dropped = dropped;
  book.collapsed = collapsed;
}

// What an allocation node's counters grew by since the thread's last chunk, summed by key
// into rate_ (counters only grow; a smaller one, never seen, adds nothing).
void Recorder::addRate(uint32_t key, const profile::Counters& was, const profile::Counters& now) {
  auto grown = [](uint64_t a, uint64_t b) { return b > a ? b - a : 0; };
  profile::Counters& r = rate_[key];
  r.count += grown(was.count, now.count);
  r.elements += grown(was.elements, now.elements);
  r.bytes += grown(was.bytes, now.bytes);
}

// The Rate chunk of what addRate summed since the last one (none if nothing grew).
void Recorder::writeRate(uint32_t thread) {
  if (rate_.empty()) return;
  rateChunk_.thread = thread;
  rateChunk_.time = writer_.millis();
  rateChunk_.keys.assign(rate_.begin(), rate_.end());
  rate_.clear();
  writer_.rate(rateChunk_);
}

// Reads nodes [from, to) of a thread's tree into block_: from its native tables (the
// addresses read now: a table the thread replaced meanwhile is kept until the read ends,
// trees::ReadScope, and holds every node below the size read before). False if a table
// is missing or the instruction counts are shorter (never, unless the state is broken).
bool Recorder::readBlock(JNIEnv* jni, jobject state, uint32_t from, uint32_t to) {
  auto nodes = static_cast<uintptr_t>(jni->GetLongField(state, nodes_));
  auto lines = static_cast<uintptr_t>(jni->GetLongField(state, lines_));
  if (!nodes || !lines) return false;
  size_t n = to - from;
  block_.parent.resize(n);
  block_.key.resize(n);
  for (size_t i = 0; i < n; ++i) {
    uint32_t pk[2];
    std::memcpy(pk, reinterpret_cast<const void*>(nodes + (from + i) * nodeBytes_), sizeof pk);
    block_.parent[i] = pk[0];
    block_.key[i] = pk[1];
  }
  size_t stride = static_cast<size_t>(stride_);
  block_.calls.resize(stride * n);
  std::memcpy(block_.calls.data(), reinterpret_cast<const void*>(lines + from * stride * 8),
              stride * n * 8);
  return readInsns(jni, state, static_cast<jint>(from), static_cast<jint>(n));
}

// bytecodes=on: the block's instruction counts; otherwise (no array) zeros.
bool Recorder::readInsns(JNIEnv* jni, jobject state, jint from, jint n) {
  auto arr = static_cast<jarray>(jni->GetObjectField(state, insns_));
  if (!arr) {
    block_.insns.assign(static_cast<size_t>(n), 0);
    return true;
  }
  return readArray(jni, arr, from, n, block_.insns);
}

// Merged: the tree of the virtual threads that ended (at VM death, with the trees of those
// still alive: they will not end before the profile does). Own trees: the trees of the live
// virtual threads (those that ended were written then).
void Recorder::flushVirtualThreads(JNIEnv* jni, bool final) {
  if (!rt_ || !merged_ || !mergeLiveVirtuals_) return;
  if (final) {
    trees::ReadScope reading;  // reads the tables of threads that may still grow them
    jni->CallStaticVoidMethod(rt_, mergeLiveVirtuals_);
    if (jni->ExceptionCheck()) jni->ExceptionClear();
  }
  if (mergeVirtual_) {
    jobject merged = jni->GetStaticObjectField(rt_, merged_);
    if (!merged) return;  // no virtual threads (JDK 17)
    flushState(jni, merged, "virtual threads", final);
    jni->DeleteLocalRef(merged);
    return;
  }
  jobjectArray live = liveVirtualStates(jni);
  if (!live) return;
  jsize n = jni->GetArrayLength(live);
  for (jsize i = 0; i < n; ++i) {
    jobject state = jni->GetObjectArrayElement(live, i);
    if (state) flushState(jni, state, "virtual thread", final);
    if (state) jni->DeleteLocalRef(state);
  }
  if (final) liveVirtualsAtEnd_ = static_cast<uint64_t>(n);
  jni->DeleteLocalRef(live);
}

void Recorder::flushAll(JNIEnv* jni, bool final, std::map<std::string, std::string> more) {
  if (!ready_) return;
  if (final) dying_ = true;
  jint n = 0;
  jthread* threads = nullptr;
  if (jvmti_->GetAllThreads(&n, &threads) == JVMTI_ERROR_NONE) {
    jni->EnsureLocalCapacity(n + 16);  // the array holds a local reference per thread
    for (jint i = 0; i < n; ++i) {
      flushThread(jni, threads[i], final);
      jni->DeleteLocalRef(threads[i]);
    }
    jvmti_->Deallocate(reinterpret_cast<unsigned char*>(threads));
  }
  flushVirtualThreads(jni, final);
  if (!final) {
    // Not under flushMu_: a thread that ends meanwhile need not wait for the measuring.
    writeClassSizes(jni, false);
    return;
  }
  std::lock_guard lock(flushMu_);
  writePendingDefinitions(jni);
  writeClassSizes(jni, true);
  std::map<std::string, std::string> totals;
  totals["classes.instrumented"] = std::to_string(classesChanged_);
  totals["failures"] = std::to_string(failureCount_);
  totals["failures.partial"] = std::to_string(partialCount_);
  totals["threads"] = std::to_string(books_.size());
  if (rt_ && virtualsEnded_) {
    auto ended = static_cast<uint64_t>(jni->GetStaticLongField(rt_, virtualsEnded_));
    totals["threads.virtual"] = std::to_string(ended + liveVirtualsAtEnd_);
  }
  totals["contexts"] = std::to_string(contextsWritten_);
  uint64_t heap = 0, lookups = 0;
  for (const auto& [id, book] : books_) {
    heap += book.heapBytes;
    lookups += book.lookups;
  }
  totals["runtime.heap.bytes"] = std::to_string(heap);
  trees::Usage memory = trees::usage();
  totals["runtime.native.bytes"] = std::to_string(memory.current);
  totals["runtime.native.peak"] = std::to_string(memory.peak);
  totals["runtime.native.limit"] = std::to_string(memory.limit);
  totals["runtime.index.lookups"] = std::to_string(lookups);
  totals.merge(more);
  writer_.end(totals);
  finished_ = true;
}

// Instance sizes of the allocated classes not measured yet (ClassSizer: at a flush those
// without a finalizer, at VM death the rest).
void Recorder::writeClassSizes(JNIEnv* jni, bool final) {
  std::set<std::string> wanted;
  {
    std::lock_guard lock(defsMu_);
    wanted = objectTypes_;
  }
  writer_.classSizes(sizer_.measure(jni, wanted, final));
}

}  // namespace dragnet::agent
