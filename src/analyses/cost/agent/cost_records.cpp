#include "analyses/cost/agent/cost_records.h"

#include <vector>

namespace dragnet::analyses::cost {
namespace {
// DragnetCost's record kinds (the top three bits of a) that the agent counts.
constexpr uint64_t kKindMask = uint64_t{7} << 61;
constexpr uint64_t kEdge = uint64_t{1} << 61;
constexpr uint64_t kCut = uint64_t{6} << 61;
}  // namespace

void CostRecords::flushState(JNIEnv* jni, jobject state, uint32_t thread, bool ended) {
  std::lock_guard lock(mu_);
  flushDefinitionsLocked();
  profile::CostThreadChunk chunk;
  chunk.thread = thread;
  chunk.ended = ended;
  table_.read(jni, state, thread, ended, [&](uint64_t a, uint64_t b, uint64_t count, uint64_t was) {
    if ((a & kKindMask) == kCut) cuts_ += count - was;
    if ((a & kKindMask) == kEdge && was == 0) ++edges_;
    chunk.records.push_back({a, b, count});
  });
  if (!chunk.records.empty() || ended) writer_.costThread(chunk);
}

void CostRecords::flushDefinitions() {
  std::lock_guard lock(mu_);
  flushDefinitionsLocked();
}

void CostRecords::flushDefinitionsLocked() {
  agent::writeFlowDefs(writer_, ids_, {});
  std::vector<NodeOut> nodes;
  std::vector<EdgeOut> edges;
  cost_.take(nodes, edges);
  if (nodes.empty() && edges.empty()) return;
  std::vector<profile::CostNode> outNodes;
  outNodes.reserve(nodes.size());
  for (const NodeOut& n : nodes) {
    outNodes.push_back({n.id, static_cast<uint8_t>(n.kind), n.method, n.index, n.line, n.field,
                        n.site, n.block, n.reference});
  }
  std::vector<profile::CostEdge> outEdges;
  outEdges.reserve(edges.size());
  for (const EdgeOut& e : edges) outEdges.push_back({e.dst, e.src, e.srcInFrame});
  nodes_ += outNodes.size();
  writer_.costDefs(outNodes, outEdges);
}

}  // namespace dragnet::analyses::cost
