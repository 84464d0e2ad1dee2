// Mode copy: hot copy chains (Xu et al. 3.5.1). A chain is a path of heap-location nodes
// (fields, array elements, statics) along copy-graph edges, 1 to `maxEdges` edges, no edge
// twice (a self edge, as O3.ELM -> O3.ELM in the insensitive graph, is a chain of one edge).
// Its frequency is its smallest edge frequency (a true chain's edges all have the same),
// its waste factor WF = length x frequency x bytes, length = its edges (heap-to-heap copies;
// the producer's store and the consumer's use are not copies). Def. 3.1's producer and
// consumer come with it: the allocation node whose edge into its first node is the most
// frequent, and the frequency of its last node's edge to C.
//
// Every such path is a chain, so their number can explode in a dense graph: enumeration
// stops at `limit` chains in all and `perStart` from one first node (starting from the
// first nodes of the hottest edges), and counts the extensions it did not follow.
#pragma once

#include <cstdint>
#include <vector>

#include "analyses/copy/model/graph.h"

namespace dragnet::analyses::copy {

struct ChainOptions {
  uint32_t maxEdges = 5;        // `chain-max`
  size_t keep = 1000;           // chains kept, by WF
  uint64_t limit = 2'000'000;   // chains enumerated in all
  uint64_t perStart = 200'000;  // chains enumerated from one first node
};

struct Chain {
  std::vector<uint32_t> nodes;  // heap-location nodes, first to last
  uint64_t freq = 0;            // the smallest edge frequency
  uint32_t bytes = 0;           // per copy (the largest of its edges')
  uint64_t wf = 0;              // length x freq x bytes (saturating)
  uint32_t producer = kNoNode;  // an allocation node with an edge into nodes[0]
  uint32_t producers = 0;       // how many allocation nodes have one
  uint64_t consumed = 0;        // frequency of the edge nodes.back() -> C; 0: none
  uint32_t length() const { return static_cast<uint32_t>(nodes.size() - 1); }
};

struct Chains {
  std::vector<Chain> top;  // by descending WF (ties: longer, more frequent, node order)
  uint64_t total = 0;      // chains enumerated
  uint64_t lengths = 0;    // the sum of their lengths (mean length = lengths / total)
  uint64_t cut = 0;        // extensions not followed because a limit was reached
};

Chains hotChains(const Graph& g, const ChainOptions& o);

// a x b, or the largest uint64_t when it does not fit.
uint64_t saturatingMul(uint64_t a, uint64_t b);

}  // namespace dragnet::analyses::copy
