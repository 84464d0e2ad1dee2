// Mode copy: the copy graph's clients besides hot chains (Xu et al. 3.5.2, 3.5.3, 3.7).
#pragma once

#include <cstdint>
#include <map>
#include <vector>

#include "analyses/copy/model/graph.h"

namespace dragnet::analyses::copy {

// The clone detector. direct(O1, O2) = sum of freq x bytes over edges O1.f -> O2.g (fields
// or elements of both). "O' points to O" when a field node O'.h lies on a chain whose
// producer is O (a path from O's allocation node of at most `pointsToEdges` heap-to-heap
// edges). volume(O1, O2) = sum of direct(Oi, Oj) over the distinct pairs with Oi reachable
// from O1 and Oj from O2 along at most `depth` points-to links (O1, O2 themselves
// included). Objects are allocation nodes; the unknown object takes no part.
struct CloneOptions {
  uint32_t depth = 3;          // `clone-depth`
  uint32_t pointsToEdges = 5;  // `chain-max`
  size_t keep = 1000;          // pairs kept, by volume
  uint64_t limit = 1'000'000;  // (pair, flow) attributions: flows go largest first, each
                               // to all its pairs, while fewer than this were made
  size_t maxAncestors = 1024;  // objects an object is taken to be reachable from (the
                               // nearest): a hub of the insensitive graph has thousands
  size_t maxReach = 4096;      // heap nodes followed from one producer (the nearest)
};

struct ClonePair {
  uint32_t from = 0, to = 0;  // allocation nodes: data flowed from from's structure to to's
  uint64_t volume = 0;        // bytes
  uint64_t direct = 0;        // bytes from from's own fields to to's
  uint32_t depth = 0;         // the largest d1 + d2 of a contributing pair: how far the
                              // copied structures lie below the pair
  bool sameType = false;      // both sites allocate the same type (a clone proper)
};

struct Clones {
  // By descending volume; ties: deeper first (the owners of the copied structures, which
  // the paper reports), then pairs of one type, then less direct flow, then node order.
  std::vector<ClonePair> top;
  uint64_t pairs = 0;      // pairs with a volume
  uint64_t cut = 0;        // direct flows (object pairs) not attributed: `limit` was passed
  uint64_t truncated = 0;  // searches cut short: objects reachable from more than
                           // `maxAncestors` objects, producers reaching more than
                           // `maxReach` heap nodes
};

// `sites` gives the sites' types (sameType; none: false).
Clones detectClones(const Graph& g, const CloneOptions& o, const SiteIndex& sites = {});

// NATH (not assigned to heap): allocation nodes with births and no edge to a heap-location
// node, by descending births (ties: node order). `consumed`: the frequency of their edge to
// C (their references were computed with, or passed to a native).
struct NathRow {
  uint32_t node = 0;
  uint64_t births = 0;
  uint64_t consumed = 0;
};
std::vector<NathRow> notAssignedToHeap(const Graph& g);

// Fan-out: outgoing edges per node, over every node but C (Table IX: producers without
// edges count, which keeps the average small).
struct FanOut {
  uint64_t nodes = 0, edges = 0;
  double average = 0;
  uint32_t max = 0;
  uint32_t maxNode = kNoNode;  // the first node with `max` edges
};
FanOut fanOut(const Graph& g);

// The context conflict ratio with s slots (Table IX): per allocation site, nc[k] = its
// distinct contexts (receiver site indices, 0: none) with context mod s = k;
// CCR-s = 0 if max nc[k] <= 1, else max nc[k] / sum nc[k].
double contextConflictRatio(const std::vector<uint32_t>& contexts, uint32_t slots);
// Its average over the sites of `contexts` (site -> its distinct contexts); 0 if none.
double averageConflictRatio(const std::map<uint32_t, std::vector<uint32_t>>& contexts,
                            uint32_t slots);

}  // namespace dragnet::analyses::copy
