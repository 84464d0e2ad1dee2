#include "analyses/cost/probes/cost_ids.h"

#include <utility>

namespace dragnet::analyses::cost {

uint32_t CostIds::nodes(uint32_t count) {
  std::lock_guard lock(mu_);
  if (kMaxNode - nextNode_ < count) return 0;
  uint32_t first = nextNode_;
  nextNode_ += count;
  return first;
}

uint32_t CostIds::blocks(uint32_t count) {
  std::lock_guard lock(mu_);
  if (kMaxNode - nextBlock_ < count) return 0;
  uint32_t first = nextBlock_;
  nextBlock_ += count;
  return first;
}

void CostIds::add(std::vector<NodeOut> nodes, std::vector<EdgeOut> edges) {
  std::lock_guard lock(mu_);
  nodes_.insert(nodes_.end(), nodes.begin(), nodes.end());
  edges_.insert(edges_.end(), edges.begin(), edges.end());
}

void CostIds::take(std::vector<NodeOut>& nodes, std::vector<EdgeOut>& edges) {
  std::lock_guard lock(mu_);
  nodes = std::exchange(nodes_, {});
  edges = std::exchange(edges_, {});
}

void CostIds::noteNatives(const classfile::ClassFile& cls) {
  constexpr uint16_t kAccNative = 0x0100;
  std::lock_guard lock(mu_);
  for (const classfile::Member& m : cls.methods) {
    if ((m.access & kAccNative) == 0) continue;
    natives_.emplace(std::string(cls.name()), std::string(cls.memberName(m)),
                     std::string(cls.memberDescriptor(m)));
  }
}

bool CostIds::isNative(std::string_view owner, std::string_view name, std::string_view descriptor) {
  std::lock_guard lock(mu_);
  return natives_.count(
             std::make_tuple(std::string(owner), std::string(name), std::string(descriptor))) != 0;
}

}  // namespace dragnet::analyses::cost
