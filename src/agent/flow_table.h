// The flow modes' per-thread record tables (DragnetFlowTable: open addressing in native
// memory, (a, b, count) slots) read through their DragnetState when the recorder flushes a
// thread (Recorder::observeStates): the records whose count changed since the thread's last
// read, and the tables' sizes. An analysis gives the records their meaning.
//
// The reader keeps a mirror of each thread's table as it was at the last read, slot for
// slot, so that a read is one pass over both in step. A slot's key never changes within a
// table (records are only added); when the thread has grown its table since, each record
// of the new one finds its last count in the old mirror by the table's own hash and
// probing (a snapshot of an open-addressing table without deletions finds every record it
// holds).
#pragma once

#include <jni.h>

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "agent/binding.h"
#include "flow/ids.h"
#include "profile/writer.h"

namespace dragnet::agent {

class FlowTableReader {
 public:
  // A record (a, b) whose count is now `count` (`was` at the thread's last read).
  using Changed = std::function<void(uint64_t a, uint64_t b, uint64_t count, uint64_t was)>;

  // Binds DragnetState's table fields (VM init). False with `error`.
  bool init(JNIEnv* jni, std::string& error);
  // Reads the table of `state`; `extraBytes`: the analysis's other tables of the thread,
  // counted in the peak. An ended thread's memory of its counts is dropped afterwards.
  void read(JNIEnv* jni, jobject state, uint32_t thread, bool ended, const Changed& changed,
            uint64_t extraBytes = 0);
  // The body of read: `table` (0: none), a block of DragnetState.grow0, and the thread's
  // dropped count as read from its state.
  void readTable(uint32_t thread, uintptr_t table, uint64_t dropped, bool ended,
                 const Changed& changed, uint64_t extraBytes = 0);

  // Records lost for want of memory, over all threads.
  uint64_t dropped() const { return dropped_; }
  // The largest the threads' tables took together at a read, in bytes.
  uint64_t peakBytes() const { return peak_; }

 private:
  struct Slot {
    uint64_t a = 0, b = 0, count = 0;
  };
  struct Last {
    uintptr_t table = 0;
    std::vector<Slot> mirror;  // the table's slots at the last read
    uint64_t dropped = 0;
  };
  static size_t home(uint64_t a, uint64_t b, size_t cap);
  static void remap(Last& last, uintptr_t table, size_t cap);

  binding::Field table_, dropped_at_;
  std::map<uint32_t, Last> last_;
  std::map<uint32_t, uint64_t> bytes_;  // per live thread at its last read
  uint64_t dropped_ = 0, total_ = 0, peak_ = 0;
};

// A FlowDefs chunk of the class layouts and field ids interned since the last call, and
// `names` (object names of slots=0).
void writeFlowDefs(profile::Writer& writer, flow::FlowIds& ids,
                   const std::vector<profile::ObjectName>& names);

}  // namespace dragnet::agent
