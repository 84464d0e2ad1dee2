// Mode cost's program nodes as the agent numbers them while it instruments classes (which
// may run concurrently): node and frequency-block ids, each node's definition and the
// dependences known at instrumentation time, kept until the agent writes them to the
// profile; and the native methods of the classes loaded so far (a call of one is a native
// node). Under a mutex: asked once per method at load time, never on a probe's path.
#pragma once

#include <cstdint>
#include <mutex>
#include <set>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "analyses/cost/model/graph.h"
#include "classfile/class_file.h"

namespace dragnet::analyses::cost {

// A node instance is node << kSlotBits | slot in the probes (DragnetCost).
inline constexpr uint32_t kSlotBits = 5;
inline constexpr uint32_t kMaxNode = (1u << (31 - kSlotBits)) - 1;

struct NodeOut {
  uint32_t id = 0;
  NodeKind kind = NodeKind::Compute;
  uint32_t method = 0, index = 0;
  int32_t line = -1;
  uint32_t field = 0, site = 0, block = 0;
  bool reference = false;
};

struct EdgeOut {
  uint32_t dst = 0, src = 0;
  bool srcInFrame = true;
};

class CostIds {
 public:
  // `count` consecutive ids from the first returned; 0 when the id space is used up.
  uint32_t nodes(uint32_t count);
  uint32_t blocks(uint32_t count);
  // A method's nodes and static edges, for the profile.
  void add(std::vector<NodeOut> nodes, std::vector<EdgeOut> edges);
  void take(std::vector<NodeOut>& nodes, std::vector<EdgeOut>& edges);
  // The native methods `cls` declares.
  void noteNatives(const classfile::ClassFile& cls);
  bool isNative(std::string_view owner, std::string_view name, std::string_view descriptor);

 private:
  std::mutex mu_;
  uint32_t nextNode_ = 1, nextBlock_ = 1;
  std::vector<NodeOut> nodes_;
  std::vector<EdgeOut> edges_;
  std::set<std::tuple<std::string, std::string, std::string>, std::less<>> natives_;
};

}  // namespace dragnet::analyses::cost
