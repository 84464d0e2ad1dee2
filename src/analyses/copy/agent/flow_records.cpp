#include "analyses/copy/agent/flow_records.h"

#include <algorithm>
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
constexpr size_t kSlot = 3;  // longs per table slot

}  // namespace

bool FlowRecords::init(JNIEnv* jni, std::string& error) {
  using agent::binding::Member;
  const Member members[] = {
      {kStateClass, "fedges", "J", &edges_},       {kStateClass, "fedgeCap", "I", &edgeCap_},
      {kStateClass, "fcopies", "J", &copiesAt_},   {kStateClass, "fcopyCap", "I", &copyCap_},
      {kStateClass, "fdropped", "J", &droppedAt_}, {kTableRt, "NAMES", "[I", &names_},
      {kTableRt, "namesUsed", "I", &namesUsed_},
  };
  return agent::binding::bind(jni, members, error);
}

void FlowRecords::flushState(JNIEnv* jni, jobject state, uint32_t thread, bool ended) {
  std::lock_guard lock(mu_);
  flushDefinitionsLocked(jni);
  Last& last = last_[thread];
  profile::FlowThreadChunk chunk;
  chunk.thread = thread;
  chunk.ended = ended;
  // The table's address and capacity are written by its thread after a grown table is
  // complete; the old one stays readable while the recorder's read is in progress.
  auto table = static_cast<uintptr_t>(jni->GetLongField(state, edges_));
  jint cap = jni->GetIntField(state, edgeCap_);
  if (table != 0 && cap > 0) {
    const auto* slots = reinterpret_cast<const volatile uint64_t*>(table);
    for (size_t i = 0; i < static_cast<size_t>(cap); ++i) {
      uint64_t src = slots[kSlot * i];
      if (src == 0) continue;
      uint64_t dst = slots[kSlot * i + 1], count = slots[kSlot * i + 2];
      uint64_t& was = last.table[{src, dst}];
      if (was == count) continue;
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
      was = count;
    }
  }
  auto copies = static_cast<uintptr_t>(jni->GetLongField(state, copiesAt_));
  jint copyCap = jni->GetIntField(state, copyCap_);
  if (copies != 0 && copyCap > 0) {
    const auto* c = reinterpret_cast<const volatile uint64_t*>(copies);
    for (uint32_t n = 0; n < static_cast<uint32_t>(copyCap); ++n) {
      uint64_t v = c[n];
      if (v == 0) continue;
      uint64_t& was = last.copies[n];
      if (v == was) continue;
      copies_ += v - was;
      was = v;
      chunk.copies.emplace_back(n, v);
    }
  }
  auto dropped = static_cast<uint64_t>(jni->GetLongField(state, droppedAt_));
  dropped_ += dropped - last.dropped;
  uint64_t bytes =
      (cap > 0 ? uint64_t(cap) * kSlot * 8 : 0) + (copyCap > 0 ? uint64_t(copyCap) * 8 : 0);
  uint64_t& was = tableBytes_[thread];
  tables_ = tables_ - was + bytes;
  was = bytes;
  peakTables_ = std::max(peakTables_, tables_);
  if (ended) {
    tables_ -= bytes;
    tableBytes_.erase(thread);
  }
  last.dropped = dropped;
  if (!chunk.edges.empty() || !chunk.births.empty() || !chunk.copies.empty() ||
      !chunk.cuts.empty() || !chunk.clones.empty() || ended) {
    writer_.flowThread(chunk);
  }
  if (ended) last_.erase(thread);
}

void FlowRecords::flushDefinitions(JNIEnv* jni) {
  std::lock_guard lock(mu_);
  flushDefinitionsLocked(jni);
}

void FlowRecords::flushDefinitionsLocked(JNIEnv* jni) {
  // Classes first: the fields of a class taken here were interned before it, so they are
  // taken below too.
  std::vector<profile::ClassLayout> classes;
  for (flow::ClassFields& c : ids_.takeNewClasses()) {
    classes.push_back({std::move(c.name), std::move(c.super), std::move(c.fields)});
  }
  std::vector<profile::FieldDef> fields;
  for (flow::FieldName& f : ids_.takeNewFields()) {
    fields.push_back(
        {f.id, std::move(f.cls), std::move(f.name), std::move(f.descriptor), f.isStatic});
  }
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
  writer_.flowDefs(fields, names, classes);
}

}  // namespace dragnet::analyses::copy
