// The flow modes' per-thread record tables (DragnetFlowTable: open addressing in native
// memory, (a, b, count) slots) read through their DragnetState when the recorder flushes a
// thread (Recorder::observeStates): the records whose count changed since the thread's last
// read, and the tables' sizes. An analysis gives the records their meaning.
#pragma once

#include <jni.h>

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <utility>
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

  // Records lost for want of memory, over all threads.
  uint64_t dropped() const { return dropped_; }
  // The largest the threads' tables took together at a read, in bytes.
  uint64_t peakBytes() const { return peak_; }

 private:
  binding::Field table_, cap_, dropped_at_;
  struct Last {
    std::map<std::pair<uint64_t, uint64_t>, uint64_t> counts;
    uint64_t dropped = 0;
  };
  std::map<uint32_t, Last> last_;
  std::map<uint32_t, uint64_t> bytes_;  // per live thread at its last read
  uint64_t dropped_ = 0, total_ = 0, peak_ = 0;
};

// A FlowDefs chunk of the class layouts and field ids interned since the last call, and
// `names` (object names of slots=0).
void writeFlowDefs(profile::Writer& writer, flow::FlowIds& ids,
                   const std::vector<profile::ObjectName>& names);

}  // namespace dragnet::agent
