// Mode copy's records in the agent: each thread's flow tables (agent/flow_table.h)
// read through their DragnetState and written as FlowThread chunks; the field names,
// (slots=0) object names and class layouts as FlowDefs chunks.
#pragma once

#include <jni.h>

#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <utility>

#include "agent/binding.h"
#include "agent/flow_table.h"
#include "flow/ids.h"
#include "profile/writer.h"

namespace dragnet::analyses::copy {

class FlowRecords {
 public:
  FlowRecords(profile::Writer& writer, flow::FlowIds& ids) : writer_(writer), ids_(ids) {}

  // Binds DragnetState's flow fields (VM init). False with `error`.
  bool init(JNIEnv* jni, std::string& error);
  // A state the recorder flushes (Recorder::observeStates): its records since its last
  // flush.
  void flushState(JNIEnv* jni, jobject state, uint32_t thread, bool ended);
  // Field names and class layouts noted since the last call, and the object names of
  // slots=0.
  void flushDefinitions(JNIEnv* jni);

  uint64_t edges() const { return edgesSeen_; }
  uint64_t copies() const { return copies_; }
  uint64_t cuts() const { return cuts_; }
  uint64_t dropped() const { return table_.dropped(); }
  // The largest the threads' flow tables (edges, copies per context) took together, in
  // bytes, at a flush: the agent's copy graph in memory.
  uint64_t peakTableBytes() const { return table_.peakBytes(); }

 private:
  void flushDefinitionsLocked(JNIEnv* jni);

  profile::Writer& writer_;
  flow::FlowIds& ids_;
  std::mutex mu_;
  agent::FlowTableReader table_;
  agent::binding::Field copiesAt_, copyCap_;
  agent::binding::StaticField names_, namesUsed_;
  jint namesWritten_ = 1;
  // Copies per context node written last per thread (chunks carry absolute values; only
  // changed ones are written again).
  std::map<uint32_t, std::map<uint32_t, uint64_t>> lastCopies_;
  uint64_t edgesSeen_ = 0, copies_ = 0, cuts_ = 0;
};

}  // namespace dragnet::analyses::copy
