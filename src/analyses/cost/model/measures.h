// Mode cost: the graph-wide measures of Xu et al. sec. 4.3.1 (Tables X and XI): the size of
// G_cost, the bloat measures IPD, IPP and NLD, and the context conflict ratio CR.
#pragma once

#include <cstdint>
#include <vector>

#include "analyses/cost/model/graph.h"

namespace dragnet::analyses::cost {

struct GraphSize {
  uint64_t instances = 0;  // #N: node instances a^h(c)
  uint64_t edges = 0;      // #E: distinct dependence edges
  uint64_t defsRan = 0;    // program nodes with an instance that ran (frequency > 0)
};
GraphSize graphSize(const InstanceGraph& g);
// The program nodes with an instance that ran, ascending.
std::vector<uint32_t> nodesRan(const InstanceGraph& g);

// Values that end dead or only in control decisions. "Reaches" follows successors (the
// instances that depend on a value) and includes the instance itself.
// - D* (dead): the non-consumer instances that reach no consumer (Predicate or Native). That
//   holds the non-consumer sinks and everything that leads only to them, and cycles with no
//   way out to a consumer (a loop counter nothing reads).
// - P* (predicate-only): the instances that reach a Predicate, reach no Native and reach no
//   D* instance (a non-consumer sink or a dead cycle); Predicate instances themselves.
// - I = Σ freq over all instances; IPD = Σ freq(D*) / I; IPP = Σ freq(P*) / I;
//   NLD = |D*| / |V| (V: all instances). 0 when I (|V|) is 0.
// Linear in the graph: flags per strongly connected component, found by an iterative Tarjan
// (graphs have millions of instances: recursion would overflow the stack).
struct Bloat {
  uint64_t instructions = 0;  // I
  uint64_t deadFreq = 0, predicateFreq = 0;
  uint64_t deadInstances = 0, predicateInstances = 0;
  double ipd = 0, ipp = 0, nld = 0;
  std::vector<uint8_t> membership;  // per instance: kDead, kPredicateOnly or 0
};
inline constexpr uint8_t kDead = 1, kPredicateOnly = 2;
Bloat bloatOf(const InstanceGraph& g);

// The strongly connected components of the graph's successor relation: comp[v] for every
// instance, numbered in reverse topological order (a component's successors have lower
// numbers). Iterative.
std::vector<uint32_t> components(const InstanceGraph& g, uint32_t* count = nullptr);

// CR-s of a method: dc[j] = distinct chains in slot j; 0 if max dc[j] <= 1, else
// max dc[j] / Σ dc[j]. CR: the mean over the program nodes that ran (frequency > 0) of
// their method's CR-s (a method without chains: 0). An (method, slot) listed twice keeps the
// larger count (the lists are of distinct chains: counts of two lists do not add up).
double conflictRatio(const GraphInput& in, const InstanceGraph& g);

}  // namespace dragnet::analyses::cost
