#include "agent/flow_table.h"

#include <algorithm>

#include "agent/tree_memory.h"

namespace dragnet::agent {
namespace {
constexpr const char* kStateClass = "java/lang/DragnetState";
constexpr size_t kSlot = 3;  // longs per table slot
}  // namespace

bool FlowTableReader::init(JNIEnv* jni, std::string& error) {
  const binding::Member members[] = {
      {kStateClass, "fedges", "J", &table_},
      {kStateClass, "fdropped", "J", &dropped_at_},
  };
  return binding::bind(jni, members, error);
}

// DragnetFlowTable.hash: the home slot of a record, as the thread placed it.
size_t FlowTableReader::home(uint64_t a, uint64_t b, size_t cap) {
  uint64_t h = a * 0x9E3779B97F4A7C15ULL + b * 0xC2B2AE3D27D4EB4FULL;
  return static_cast<uint32_t>(h ^ (h >> 29)) & (cap - 1);
}

// The mirror of `table` (cap slots), its records' last counts taken from the old mirror.
void FlowTableReader::remap(Last& last, uintptr_t table, size_t cap) {
  const auto* slots = reinterpret_cast<const volatile uint64_t*>(table);
  const std::vector<Slot>& old = last.mirror;
  std::vector<Slot> mirror(cap);
  for (size_t i = 0; i < cap; ++i) {
    uint64_t a = slots[kSlot * i];
    if (a == 0) continue;
    uint64_t b = slots[kSlot * i + 1];
    mirror[i] = {a, b, 0};
    if (old.empty()) continue;
    for (size_t j = home(a, b, old.size()), n = 0; n < old.size() && old[j].a != 0;
         j = (j + 1) & (old.size() - 1), ++n) {
      if (old[j].a == a && old[j].b == b) {
        mirror[i].count = old[j].count;
        break;
      }
    }
  }
  last.table = table;
  last.mirror = std::move(mirror);
}

void FlowTableReader::read(JNIEnv* jni, jobject state, uint32_t thread, bool ended,
                           const Changed& changed, uint64_t extraBytes) {
  auto table = static_cast<uintptr_t>(jni->GetLongField(state, table_));
  auto dropped = static_cast<uint64_t>(jni->GetLongField(state, dropped_at_));
  readTable(thread, table, dropped, ended, changed, extraBytes);
}

void FlowTableReader::readTable(uint32_t thread, uintptr_t table, uint64_t dropped, bool ended,
                                const Changed& changed, uint64_t extraBytes) {
  Last& last = last_[thread];
  // The capacity is read from the block, not from the field the thread writes after the
  // address: a read between the two would pair a grown table with its old capacity. The
  // recorder reads under a trees::ReadScope, so a table given back meanwhile stays.
  size_t cap = table != 0 ? trees::blockBytes(table) / (kSlot * 8) : 0;
  if (cap > 0) {
    if (table != last.table || cap != last.mirror.size()) remap(last, table, cap);
    const auto* slots = reinterpret_cast<const volatile uint64_t*>(table);
    for (size_t i = 0; i < cap; ++i) {
      Slot& m = last.mirror[i];
      if (m.a == 0) {
        // A record added since: its key is written last, after its b and count.
        uint64_t a = slots[kSlot * i];
        if (a == 0) continue;
        m = {a, slots[kSlot * i + 1], 0};
      }
      uint64_t count = slots[kSlot * i + 2];
      if (count == m.count) continue;
      changed(m.a, m.b, count, m.count);
      m.count = count;
    }
  }
  dropped_ += dropped - last.dropped;
  last.dropped = dropped;
  // The mirror is the agent's memory for the same records: counted with the table.
  uint64_t bytes = 2 * cap * kSlot * 8 + extraBytes;
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
