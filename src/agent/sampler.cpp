#include "agent/sampler.h"

#include <atomic>
#include <cmath>

#include "agent/virtual_threads.h"
#include "contexts/probes.h"
#include "instrument/stack_effect.h"

namespace dragnet::agent {
namespace {

constexpr uint32_t kMaxFrames = 2048;  // JVMTI stack traces are read into a fixed buffer

std::string take(jvmtiEnv* jvmti, char* p) {
  std::string s = p ? p : "";
  if (p) jvmti->Deallocate(reinterpret_cast<unsigned char*>(p));
  return s;
}

// "Ljava/lang/String;" -> "java/lang/String"; array descriptors stay as they are.
std::string internalName(std::string sig) {
  if (sig.size() > 2 && sig.front() == 'L' && sig.back() == ';')
    return sig.substr(1, sig.size() - 2);
  return sig;
}

uint64_t rounded(double v) { return v <= 0 ? 0 : static_cast<uint64_t>(std::llround(v)); }

}  // namespace

// Samplers made in this process (a later attached session makes another): the generation
// a thread's storage names, so that it never points into an earlier sampler's trees.
std::atomic<uint32_t> gGenerations{0};

Sampler::Sampler(jvmtiEnv* jvmti, profile::Writer& writer, uint64_t interval, uint32_t maxDepth)
    : jvmti_(jvmti),
      writer_(writer),
      interval_(interval),
      maxDepth_(maxDepth == 0 || maxDepth > kMaxFrames ? kMaxFrames : maxDepth),
      generation_(gGenerations.fetch_add(1) + 1) {}

bool Sampler::configure(std::string& error, bool programOnly) {
  jvmtiCapabilities caps{};
  caps.can_generate_sampled_object_alloc_events = 1;
  caps.can_get_line_numbers = 1;
  caps.can_get_source_file_name = 1;
  caps.can_get_bytecodes = programOnly ? 1 : 0;
  programOnly_ = programOnly;
  if (jvmti_->AddCapabilities(&caps) != JVMTI_ERROR_NONE) {
    error = "the JVM does not offer allocation sampling (JVMTI SampledObjectAlloc)";
    return false;
  }
  if (jvmti_->SetHeapSamplingInterval(static_cast<jint>(interval_)) != JVMTI_ERROR_NONE) {
    error = "the JVM refused the sampling interval " + std::to_string(interval_);
    return false;
  }
  return true;
}

namespace {
// Set on the thread that primes its sample point (Sampler::start) while it does; the
// callback reports the sample it gets by setting tPrimed (tPriming stays a plain flag read
// on every sample: a thread-local load, no lock).
thread_local bool tPriming = false;
thread_local bool tPrimed = false;
}  // namespace

bool Sampler::primingSample() {
  if (!tPriming) return false;
  tPrimed = true;
  return true;
}

uint64_t Sampler::start(JNIEnv* jni) {
  if (!virtualClass_.load()) virtualClass_.store(virtualThreadClass(jvmti_, jni));
  jvmti_->SetEventNotificationMode(JVMTI_ENABLE, JVMTI_EVENT_SAMPLED_OBJECT_ALLOC, nullptr);
  // HotSpot moves a thread's TLAB end to its next sample point only when the thread
  // allocates through the runtime with the event on. Before JDK 25 only the slow path does
  // (a TLAB refill or an allocation outside the TLAB: MemAllocator::Allocation::
  // notify_allocation_jvmti_sampler, then ThreadLocalAllocBuffer::set_sample_end); from
  // JDK 25 on any allocation the runtime makes (JDK-8356372). The main thread's TLAB was
  // taken during start-up, before the event was on, and compiled or interpreted code
  // allocating inside it never calls the runtime: with the serial and parallel collectors
  // it can hold a small program's whole run unsampled.
  // So this thread allocates byte arrays through JNI, of doubling size until one takes the
  // slow path (JDK 25: one is enough). Before JDK 25 that one is sampled, a thread's first
  // slow path with the event on always is, which ends the loop. The sample is dropped
  // (primingSample). The cost: no collection, at most the TLAB's rest and one array of heap.
  // Threads started before VM init (Reference Handler, Finalizer, Signal Dispatcher)
  // allocate next to nothing; their first refill starts their sampling.
  constexpr jsize kFirst = 1 << 10, kLargest = 1 << 20;
  constexpr uint64_t kLimit = uint64_t{64} << 20;  // a TLAB larger than this stays unprimed
  jint version = 0;
  jvmti_->GetVersionNumber(&version);
  bool oneIsEnough = (version & JVMTI_VERSION_MASK_MAJOR) >> JVMTI_VERSION_SHIFT_MAJOR >= 25;
  tPriming = true;
  tPrimed = false;
  uint64_t bytes = 0;
  for (jsize n = kFirst; !tPrimed && bytes < kLimit && !(oneIsEnough && bytes > 0);
       n = n < kLargest ? n * 2 : n) {
    jbyteArray a = jni->NewByteArray(n);
    if (!a) break;  // out of memory: the program would be too
    jni->DeleteLocalRef(a);
    bytes += static_cast<uint64_t>(n);
  }
  jni->ExceptionClear();
  tPriming = false;
  std::lock_guard lock(mu_);
  primingBytes_ = tPrimed || oneIsEnough ? bytes : 0;
  return primingBytes_;
}

const Sampler::MethodInfo& Sampler::method(jmethodID m) {
  auto [it, fresh] = methods_.try_emplace(m);
  MethodInfo& info = it->second;
  if (!fresh) return info;
  info.id = static_cast<uint32_t>(methods_.size());
  jboolean native = JNI_FALSE;
  info.native = jvmti_->IsMethodNative(m, &native) == JVMTI_ERROR_NONE && native;
  profile::MethodDef d;
  d.id = info.id;
  char *name = nullptr, *desc = nullptr;
  if (jvmti_->GetMethodName(m, &name, &desc, nullptr) == JVMTI_ERROR_NONE) {
    d.name = take(jvmti_, name);
    d.descriptor = take(jvmti_, desc);
  }
  jclass owner = nullptr;
  if (jvmti_->GetMethodDeclaringClass(m, &owner) == JVMTI_ERROR_NONE) {
    char* sig = nullptr;
    if (jvmti_->GetClassSignature(owner, &sig, nullptr) == JVMTI_ERROR_NONE) {
      d.cls = internalName(take(jvmti_, sig));
    }
    char* source = nullptr;
    if (jvmti_->GetSourceFileName(owner, &source) == JVMTI_ERROR_NONE) {
      d.source = take(jvmti_, source);
    }
  }
  info.objectClone = info.native && d.cls == "java/lang/Object" && d.name == "clone";
  info.helper = d.cls.starts_with("java/lang/Dragnet");
  info.unsafe = d.cls == "jdk/internal/misc/Unsafe";
  info.loadsClasses = info.native && (d.cls == "java/lang/ClassLoader" ||
                                      d.cls == "java/lang/invoke/MethodHandleNatives" ||
                                      (d.cls == "java/lang/Class" && d.name == "forName0"));
  newMethods_.push_back(std::move(d));
  return info;
}

int32_t Sampler::lineOf(jmethodID m, jlocation bci) {
  jint n = 0;
  jvmtiLineNumberEntry* table = nullptr;
  if (jvmti_->GetLineNumberTable(m, &n, &table) != JVMTI_ERROR_NONE) return -1;
  int32_t line = -1;
  jlocation best = -1;
  for (jint i = 0; i < n; ++i) {  // the entry with the greatest start at or before bci
    if (table[i].start_location <= bci && table[i].start_location > best) {
      best = table[i].start_location;
      line = table[i].line_number;
    }
  }
  jvmti_->Deallocate(reinterpret_cast<unsigned char*>(table));
  return line;
}

uint32_t Sampler::siteKey(uint32_t method, jmethodID m, jlocation bci, std::string type) {
  auto key = std::make_tuple(method, bci, type);
  auto it = sites_.find(key);
  if (it != sites_.end()) return it->second;
  profile::ElemKind kind = contexts::elementKind(type);
  profile::SiteDef d;
  d.key = profile::kAllocBit | static_cast<uint32_t>(sites_.size() + 1) << 4 |
          static_cast<uint32_t>(kind);
  d.method = method;
  d.bci = static_cast<uint32_t>(bci < 0 ? 0 : bci);
  d.line = lineOf(m, bci);
  d.kind = kind == profile::ElemKind::Object ? profile::SiteKind::New
           : kind == profile::ElemKind::Ref  ? profile::SiteKind::ANewArray
                                             : profile::SiteKind::NewArray;
  d.type = std::move(type);
  sites_.emplace(std::move(key), d.key);
  newSites_.push_back(std::move(d));
  return newSites_.back().key;
}

uint32_t Sampler::child(Tree& t, uint32_t parent, uint32_t key) {
  auto [it, fresh] =
      t.index.try_emplace(uint64_t{parent} << 32 | key, static_cast<uint32_t>(t.nodes.size()));
  if (fresh) t.nodes.push_back(Node{parent, key});
  return it->second;
}

// The sampled thread's tree. The callback runs on the allocating thread, so a platform
// thread's is in the current thread's JVMTI thread-local storage: one lookup, no lock (the
// `thread` argument would make HotSpot block virtual-thread transitions while it looks).
// A virtual thread is told by its class first (JDK 19+: one JNI type check), since a
// carrier's storage may show through while it is mounted. On a miss (a platform thread's
// first sample) its name, for treeFor.
Sampler::ThreadSlot Sampler::threadSlot(JNIEnv* jni, jthread thread, uint32_t& tree) {
  ThreadSlot slot;
  jclass virtualClass = virtualClass_.load(std::memory_order_relaxed);
  slot.isVirtual = virtualClass && thread && jni->IsInstanceOf(thread, virtualClass);
  if (slot.isVirtual) return slot;
  void* stored = nullptr;
  if (jvmti_->GetThreadLocalStorage(nullptr, &stored) == JVMTI_ERROR_NONE) {
    auto v = reinterpret_cast<uintptr_t>(stored);
    if (v >> 32 == generation_) {
      tree = static_cast<uint32_t>(v);
      slot.known = true;
      return slot;
    }
  }
  jvmtiThreadInfo info{};
  if (jvmti_->GetThreadInfo(thread, &info) == JVMTI_ERROR_NONE) {
    slot.name = take(jvmti_, info.name);
    if (info.thread_group) jni->DeleteLocalRef(info.thread_group);
    if (info.context_class_loader) jni->DeleteLocalRef(info.context_class_loader);
  }
  return slot;
}

// With mu_ held: the id of the tree of a thread threadSlot did not know (made now), a
// platform thread's remembered in its storage.
uint32_t Sampler::treeFor(ThreadSlot& slot) {
  uint32_t id = slot.isVirtual ? virtualTree_ : 0;
  if (id == 0) {
    trees_.emplace_back();
    trees_.back().name = slot.isVirtual ? "virtual threads" : std::move(slot.name);
    id = static_cast<uint32_t>(trees_.size());
    if (slot.isVirtual) virtualTree_ = id;
  }
  if (!slot.isVirtual) {
    jvmti_->SetThreadLocalStorage(nullptr, reinterpret_cast<void*>(tlsValue(id)));
  }
  return id;
}

uint32_t Sampler::calledKey(uint32_t callee, jmethodID caller, jlocation bci) {
  const MethodInfo& info = method(caller);
  if (info.native || bci < 0 || (callee & profile::kCallSlotMask) != 0) return callee;
  auto [it, fresh] = callSites_.try_emplace({info.id, bci}, 0);
  if (fresh) {
    uint32_t& count = callSiteCount_[info.id];
    if (count < profile::kMaxCallSlot) {
      it->second = ++count;
      profile::CallSite c;
      c.method = info.id;
      c.number = count;
      c.bci = static_cast<uint32_t>(bci);
      c.line = lineOf(caller, bci);
      newCallSites_.push_back(std::move(c));
    }
  }
  return callee | it->second << profile::kCallSlotShift;
}

std::string Sampler::classSignature(jclass cls) {
  char* sig = nullptr;
  if (jvmti_->GetClassSignature(cls, &sig, nullptr) != JVMTI_ERROR_NONE) return "?";
  return internalName(take(jvmti_, sig));
}

bool Sampler::byHelper(const jvmtiFrameInfo* frames, jint n) {
  for (jint i = 0; i < n; ++i) {
    const MethodInfo& m = method(frames[i].method);
    if (m.helper) return true;
    if (!m.native && !m.unsafe) return false;
  }
  return false;
}

int Sampler::opcodeAt(jmethodID m, jlocation bci) {
  MethodInfo& info = methods_[m];  // known: method(m) ran for this frame
  if (!info.codeRead) {
    info.codeRead = true;
    jint length = 0;
    unsigned char* bytes = nullptr;
    if (jvmti_->GetBytecodes(m, &length, &bytes) == JVMTI_ERROR_NONE) {
      info.code.assign(bytes, bytes + length);
      jvmti_->Deallocate(bytes);
    }
  }
  if (bci < 0 || static_cast<size_t>(bci) >= info.code.size()) return -1;
  return info.code[static_cast<size_t>(bci)];
}

bool Sampler::byJvm(const jvmtiFrameInfo* frames, jint n, const std::string& type) {
  if (type == "java/lang/Class") return true;  // only the JVM makes them
  if (n == 0) return false;
  const MethodInfo& top = method(frames[0].method);
  if (top.native) return top.loadsClasses;
  // The allocating bytecodes and calls (intrinsics allocate inline at the call: clone,
  // Arrays.copyOf, ...); anything else allocated for the JVM's own sake.
  int op = opcodeAt(frames[0].method, frames[0].location);
  if (op < 0) return false;  // unknown: kept
  auto code = static_cast<classfile::Op>(op);
  return !instrument::isAllocation(code) && !instrument::isInvoke(code);
}

Sampler::Site Sampler::onSample(JNIEnv* jni, jthread thread, jobject object, jclass cls,
                                jlong size) {
  jvmtiFrameInfo frames[kMaxFrames];
  jint n = 0;
  if (jvmti_->GetStackTrace(thread, 0, static_cast<jint>(maxDepth_), frames, &n) !=
      JVMTI_ERROR_NONE) {
    n = 0;
  }
  uint32_t tree = 0;
  ThreadSlot slot = threadSlot(jni, thread, tree);
  std::string type = classSignature(cls);
  double elements = type.starts_with("[") ? jni->GetArrayLength(static_cast<jarray>(object)) : 0;
  double s = static_cast<double>(size);
  double weight = 1.0 / -std::expm1(-s / static_cast<double>(interval_));
  std::lock_guard lock(mu_);
  if (finished_) return {};
  if (byHelper(frames, n)) {
    ++agentSamples_;
    return {};
  }
  if (programOnly_ && byJvm(frames, n, type)) {
    ++jvmSamples_;
    return {};
  }
  ++samples_;
  if (n == static_cast<jint>(maxDepth_)) ++truncated_;
  // The allocating Java frame: the first below any native ones (see Site).
  jint top = 0;
  while (top + 1 < n && method(frames[top].method).native) ++top;
  bool inClone = n > 0 && method(frames[0].method).objectClone;
  if (!slot.known) tree = treeFor(slot);
  if (tree == 0 || tree > trees_.size()) return {};  // never: treeFor makes it
  Tree& t = trees_[tree - 1];
  uint32_t node = 0;
  for (jint i = n - 1; i >= top; --i) {
    uint32_t id = methodId(frames[i].method);
    if (i + 1 < n) id = calledKey(id, frames[i + 1].method, frames[i + 1].location);
    node = child(t, node, id);
  }
  uint32_t key = n > 0 ? siteKey(methodId(frames[top].method), frames[top].method,
                                 frames[top].location, std::move(type))
                       : siteKey(0, nullptr, 0, std::move(type));
  Node& leaf = t.nodes[child(t, node, key)];
  leaf.count += weight;
  leaf.elements += weight * elements;
  leaf.bytes += weight * s;
  return {true, tree, node, key, weight, inClone};
}

// One tree's new nodes and changed counters, and what its allocation counters grew by.
void Sampler::flushTree(uint32_t id, Tree& t, bool final) {
  profile::ThreadChunk chunk;
  chunk.thread = id;
  chunk.name = t.name;
  chunk.ended = final;
  chunk.collapsed = id == 1 ? truncated_ : 0;  // the sampler's count, carried once
  chunk.firstNode = t.nodesWritten;
  auto n = static_cast<uint32_t>(t.nodes.size());
  for (uint32_t i = t.nodesWritten; i < n; ++i)
    chunk.nodes.push_back({t.nodes[i].parent, t.nodes[i].key});
  t.written.resize(n);
  std::map<uint32_t, profile::Counters> grown;
  for (uint32_t i = 1; i < n; ++i) {
    const Node& x = t.nodes[i];
    profile::Counters c{rounded(x.count), rounded(x.elements), rounded(x.bytes), 0};
    if (c == t.written[i]) continue;
    if (profile::isAllocKey(x.key)) {  // rounded estimates only grow
      profile::Counters& g = grown[x.key];
      g.count += c.count - std::min(c.count, t.written[i].count);
      g.elements += c.elements - std::min(c.elements, t.written[i].elements);
      g.bytes += c.bytes - std::min(c.bytes, t.written[i].bytes);
    }
    t.written[i] = c;
    chunk.counters.emplace_back(i, c);
  }
  t.nodesWritten = n;
  if (!chunk.nodes.empty() || !chunk.counters.empty() || final) writer_.thread(chunk);
  if (grown.empty()) return;
  rate_.thread = id;
  rate_.time = writer_.millis();
  rate_.keys.assign(grown.begin(), grown.end());
  writer_.rate(rate_);
}

void Sampler::flush(bool final, std::map<std::string, std::string> totals) {
  std::lock_guard lock(mu_);
  if (finished_) return;
  writer_.methods(newMethods_);
  writer_.sites(newSites_);
  writer_.callSites(newCallSites_);
  newMethods_.clear();
  newSites_.clear();
  newCallSites_.clear();
  uint64_t contexts = 0;
  for (uint32_t i = 0; i < trees_.size(); ++i) {
    flushTree(i + 1, trees_[i], final);
    contexts += trees_[i].nodes.size() - 1;
  }
  if (!final) return;
  std::map<std::string, std::string> own{{"samples", std::to_string(samples_)},
                                         {"samples.truncated", std::to_string(truncated_)},
                                         {"samples.agent", std::to_string(agentSamples_)},
                                         {"samples.jvm", std::to_string(jvmSamples_)},
                                         {"samples.priming", std::to_string(primingBytes_)},
                                         {"threads", std::to_string(trees_.size())},
                                         {"contexts", std::to_string(contexts)}};
  own.merge(totals);
  writer_.end(own);
  finished_ = true;
}

}  // namespace dragnet::agent
