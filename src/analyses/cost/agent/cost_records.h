// Mode cost's records in the agent: each thread's record table (agent/flow_table.h) written
// as CostThread chunks of raw records (the analyzer decodes their kinds: DragnetCost), and
// the program nodes and static dependences the instrumenter made (CostIds) as CostDefs
// chunks, after the field ids and class layouts (FlowDefs) they name.
#pragma once

#include <jni.h>

#include <cstdint>
#include <mutex>
#include <string>

#include "agent/flow_table.h"
#include "analyses/cost/probes/cost_ids.h"
#include "flow/ids.h"
#include "profile/writer.h"

namespace dragnet::analyses::cost {

class CostRecords {
 public:
  CostRecords(profile::Writer& writer, flow::FlowIds& ids, CostIds& cost)
      : writer_(writer), ids_(ids), cost_(cost) {}

  bool init(JNIEnv* jni, std::string& error) { return table_.init(jni, error); }
  // A state the recorder flushes (Recorder::observeStates): its records since its last flush.
  void flushState(JNIEnv* jni, jobject state, uint32_t thread, bool ended);
  // The definitions made since the last call.
  void flushDefinitions();

  uint64_t nodes() const { return nodes_; }
  uint64_t edges() const { return edges_; }
  uint64_t cuts() const { return cuts_; }
  uint64_t dropped() const { return table_.dropped(); }
  uint64_t peakTableBytes() const { return table_.peakBytes(); }

 private:
  void flushDefinitionsLocked();

  profile::Writer& writer_;
  flow::FlowIds& ids_;
  CostIds& cost_;
  std::mutex mu_;
  agent::FlowTableReader table_;
  uint64_t nodes_ = 0, edges_ = 0, cuts_ = 0;
};

}  // namespace dragnet::analyses::cost
