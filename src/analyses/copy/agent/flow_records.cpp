#include "analyses/copy/agent/flow_records.h"

#include <vector>

namespace dragnet::analyses::copy {
namespace {

constexpr const char* kStateClass = "java/lang/DragnetState";
constexpr const char* kTableRt = "java/lang/DragnetFlowTable";
// DragnetCopy's records with dst 0: births and cuts (its class comment).
constexpr uint64_t kSpecialMask = uint64_t{7} << 61;
constexpr uint64_t kBirth = uint64_t{7} << 61;
constexpr uint64_t kCut = uint64_t{6} << 61;
constexpr uint64_t kClones = uint64_t{5} << 61;  // src = CLONES | node << 27 | site
constexpr uint64_t kSiteMask = (uint64_t{1} << 27) - 1;

}  // namespace

bool FlowRecords::init(JNIEnv* jni, std::string& error) {
  using agent::binding::Member;
  const Member members[] = {
      {kStateClass, "fcopies", "J", &copiesAt_},
      {kStateClass, "fcopyCap", "I", &copyCap_},
      {kTableRt, "NAMES", "[I", &names_},
      {kTableRt, "namesUsed", "I", &namesUsed_},
  };
  return table_.init(jni, error) && agent::binding::bind(jni, members, error);
}

void FlowRecords::flushState(JNIEnv* jni, jobject state, uint32_t thread, bool ended) {
  std::lock_guard lock(mu_);
  flushDefinitionsLocked(jni);
  profile::FlowThreadChunk chunk;
  chunk.thread = thread;
  chunk.ended = ended;
  std::map<uint32_t, uint64_t>& lastCopies = lastCopies_[thread];
  auto copies = static_cast<uintptr_t>(jni->GetLongField(state, copiesAt_));
  jint copyCap = jni->GetIntField(state, copyCap_);
  if (copies != 0 && copyCap > 0) {
    const auto* c = reinterpret_cast<const volatile uint64_t*>(copies);
    for (uint32_t n = 0; n < static_cast<uint32_t>(copyCap); ++n) {
      uint64_t v = c[n];
      if (v == 0) continue;
      uint64_t& was = lastCopies[n];
      if (v == was) continue;
      copies_ += v - was;
      was = v;
      chunk.copies.emplace_back(n, v);
    }
  }
  auto changed = [&](uint64_t src, uint64_t dst, uint64_t count, uint64_t was) {
    if (dst == 0 && (src & kSpecialMask) == kBirth) {
      chunk.births.push_back({static_cast<uint32_t>(src & kSiteMask),
                              static_cast<uint32_t>(src >> 27 & kSiteMask), count});
    } else if (dst == 0 && (src & kSpecialMask) == kClones) {
      chunk.clones.push_back({static_cast<uint32_t>(src >> 27 & 0xFFFFFFFFu),
                              static_cast<uint32_t>(src & kSiteMask), count});
    } else if (dst == 0 && (src & kSpecialMask) == kCut) {
      cuts_ += count - was;
      chunk.cuts.emplace_back(static_cast<uint32_t>(src), count);
    } else {
      if (was == 0) ++edgesSeen_;
      chunk.edges.push_back({src, dst, count});
    }
  };
  table_.read(jni, state, thread, ended, changed, copyCap > 0 ? uint64_t(copyCap) * 8 : 0);
  if (!chunk.edges.empty() || !chunk.births.empty() || !chunk.copies.empty() ||
      !chunk.cuts.empty() || !chunk.clones.empty() || ended) {
    writer_.flowThread(chunk);
  }
  if (ended) lastCopies_.erase(thread);
}

void FlowRecords::flushDefinitions(JNIEnv* jni) {
  std::lock_guard lock(mu_);
  flushDefinitionsLocked(jni);
}

void FlowRecords::flushDefinitionsLocked(JNIEnv* jni) {
  std::vector<profile::ObjectName> names;
  jint used = jni->GetStaticIntField(namesUsed_.cls, namesUsed_);
  if (used > namesWritten_) {
    auto arr = static_cast<jintArray>(jni->GetStaticObjectField(names_.cls, names_));
    std::vector<jint> v(2 * static_cast<size_t>(used));
    if (arr && jni->GetArrayLength(arr) >= 2 * used) {
      jni->GetIntArrayRegion(arr, 0, 2 * used, v.data());
      for (jint t = namesWritten_; t < used; ++t) {
        names.push_back({static_cast<uint32_t>(t), static_cast<uint32_t>(v[2 * t]),
                         static_cast<uint32_t>(v[2 * t + 1])});
      }
      namesWritten_ = used;
    }
    if (arr) jni->DeleteLocalRef(arr);
  }
  agent::writeFlowDefs(writer_, ids_, names);
}

}  // namespace dragnet::analyses::copy
