#include "agent/flow_table.h"

#include <algorithm>

namespace dragnet::agent {
namespace {
constexpr const char* kStateClass = "java/lang/DragnetState";
constexpr size_t kSlot = 3;  // longs per table slot
}  // namespace

bool FlowTableReader::init(JNIEnv* jni, std::string& error) {
  const binding::Member members[] = {
      {kStateClass, "fedges", "J", &table_},
      {kStateClass, "fedgeCap", "I", &cap_},
      {kStateClass, "fdropped", "J", &dropped_at_},
  };
  return binding::bind(jni, members, error);
}

void FlowTableReader::read(JNIEnv* jni, jobject state, uint32_t thread, bool ended,
                           const Changed& changed, uint64_t extraBytes) {
  Last& last = last_[thread];
  // The table's address and capacity are written by its thread after a grown table is
  // complete; the old one stays readable while the recorder's read is in progress.
  auto table = static_cast<uintptr_t>(jni->GetLongField(state, table_));
  jint cap = jni->GetIntField(state, cap_);
  if (table != 0 && cap > 0) {
    const auto* slots = reinterpret_cast<const volatile uint64_t*>(table);
    for (size_t i = 0; i < static_cast<size_t>(cap); ++i) {
      uint64_t a = slots[kSlot * i];
      if (a == 0) continue;
      uint64_t b = slots[kSlot * i + 1], count = slots[kSlot * i + 2];
      uint64_t& was = last.counts[{a, b}];
      if (was == count) continue;
      changed(a, b, count, was);
      was = count;
    }
  }
  auto dropped = static_cast<uint64_t>(jni->GetLongField(state, dropped_at_));
  dropped_ += dropped - last.dropped;
  last.dropped = dropped;
  uint64_t bytes = (cap > 0 ? uint64_t(cap) * kSlot * 8 : 0) + extraBytes;
  uint64_t& was = bytes_[thread];
  total_ = total_ - was + bytes;
  was = bytes;
  peak_ = std::max(peak_, total_);
  if (ended) {
    total_ -= bytes;
    bytes_.erase(thread);
    last_.erase(thread);
  }
}

void writeFlowDefs(profile::Writer& writer, flow::FlowIds& ids,
                   const std::vector<profile::ObjectName>& names) {
  // Classes first: the fields of a class taken here were interned before it, so they are
  // taken below too.
  std::vector<profile::ClassLayout> classes;
  for (flow::ClassFields& c : ids.takeNewClasses()) {
    classes.push_back({std::move(c.name), std::move(c.super), std::move(c.fields)});
  }
  std::vector<profile::FieldDef> fields;
  for (flow::FieldName& f : ids.takeNewFields()) {
    fields.push_back(
        {f.id, std::move(f.cls), std::move(f.name), std::move(f.descriptor), f.isStatic});
  }
  writer.flowDefs(fields, names, classes);
}

}  // namespace dragnet::agent
