// Mode cost: heap locations with their relative costs and benefits (Xu et al. Defs. 4.3,
// 4.4), and the reference edges of G_cost.
#pragma once

#include <compare>
#include <cstdint>
#include <vector>

#include "analyses/cost/model/graph.h"
#include "analyses/cost/model/reach.h"

namespace dragnet::analyses::cost {

// A heap location: an instance field or the elements (kElmField) of an object, or a static
// field (object {}).
struct Location {
  bool isStatic = false;
  Object object;
  uint32_t field = 0;
  auto operator<=>(const Location&) const = default;
};

struct LocationCost {
  Location loc;
  // Instances (graph indices, ascending). Instance fields: the StoreField (LoadField)
  // instances with an effect on (object, field); statics: the StoreStatic (LoadStatic)
  // instances of the field.
  std::vector<uint32_t> writers, readers;
  double rac = 0;         // RAC: the mean HRAC over the writers (each once); 0 without
  double rabMean = 0;     // the mean HRAB over the readers; 0 without
  double rab = 0;         // RAB: rabMean, or max(rabMean, K) when consumed and K > 0
  bool consumed = false;  // a reader's HRAB set holds a Predicate or a Native
};

// Every location with a writer or a reader, ordered by Location. Effects of instances that
// are not LoadField/StoreField instances are ignored. K: the RAB of a consumed location
// (the paper's "large RAB"); 0: no such rule.
std::vector<LocationCost> locationsOf(const GraphInput& in, const InstanceGraph& g, Reach& r,
                                      uint64_t consumerRab);

// A reference edge (the paper's dashed arrows): a store instance with effect ('B', O) to
// an Alloc instance that allocates O (its def's site and its slot are O's).
struct ReferenceEdge {
  uint32_t store = 0, alloc = 0;  // instances
  auto operator<=>(const ReferenceEdge&) const = default;
};
// Ordered, each once.
std::vector<ReferenceEdge> referenceEdges(const GraphInput& in, const InstanceGraph& g);

// The object an Alloc instance allocates.
inline Object allocated(const InstanceGraph& g, uint32_t v) {
  return {g.def(v).site, g.inst(v).slot};
}

}  // namespace dragnet::analyses::cost
