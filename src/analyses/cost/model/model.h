// Mode cost, analyzer side (Xu et al. sec. 4; docs/FLOW-DESIGN.md, "Cost-benefit analysis:
// the model"): the model of a recorded cost graph. Per instance the absolute and relative
// costs and benefits (on demand), per heap location its RAC and RAB, per object name and
// per allocation site its n-RAC and n-RAB ranked by cost-benefit rate, the reference
// edges, and the graph-wide measures (size, IPD, IPP, NLD, CR). The reports show this model.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <span>
#include <vector>

#include "analyses/cost/model/graph.h"
#include "analyses/cost/model/locations.h"
#include "analyses/cost/model/measures.h"
#include "analyses/cost/model/reach.h"

namespace dragnet::analyses::cost {

struct Options {
  uint64_t consumerRab = uint64_t{1} << 20;  // `consumer-rab` K: the RAB of a location whose
                                             // value reaches a Predicate or Native; 0: off
  uint32_t height = 4;                       // n of n-RAC/n-RAB (reference tree height),
                                             // clamped to [1, kMaxHeight]
};
inline constexpr uint32_t kMaxHeight = 8;

// An object name's data structure: the objects at reference distance <= n - 1 from it (each
// once, cycles cut; distance 0: itself) and the fields of those objects.
struct Structure {
  Object object;
  double nRac = 0, nRab = 0;    // Σ RAC (RAB) of the instance-field/ELM locations of those objects
  double rate = 0;              // cost-benefit rate (nRac + 1) / (nRab + 1)
  bool consumed = false;        // one of those locations is consumed
  std::vector<Object> objects;  // breadth-first from `object` (itself first)
  std::vector<uint32_t> locations;  // indices into CostModel::locations(), ascending
};

struct ObjectRow : Structure {
  uint64_t births = 0;  // objects allocated under this name
};

struct SiteRow {
  uint32_t site = 0;
  double nRac = 0, nRab = 0;  // sums over the site's objects (one per slot)
  double rate = 0;            // (nRac + 1) / (nRab + 1)
  uint64_t births = 0;
  bool consumed = false;
  std::vector<uint32_t> objects;  // indices into CostModel::objects(), in rank order
};

class CostModel {
 public:
  explicit CostModel(GraphInput in, Options o = {});

  const GraphInput& input() const { return in_; }
  const Options& options() const { return options_; }  // height clamped
  const InstanceGraph& graph() const { return *graph_; }

  // Per instance (an index of graph()), walked on demand. One walk at a time: the model's
  // const methods are not safe to call from two threads.
  uint64_t absoluteCost(uint32_t v) const { return reach_->absoluteCost(v); }       // AC
  uint64_t relativeCost(uint32_t v) const { return reach_->relativeCost(v); }       // HRAC
  Benefit relativeBenefit(uint32_t v) const { return reach_->relativeBenefit(v); }  // HRAB

  // Heap locations with a writer or a reader, ordered by Location.
  const std::vector<LocationCost>& locations() const { return locations_; }
  uint32_t findLocation(const Location& l) const;  // kNone when absent
  // AC of a location: the largest AC of its writers (0 without), walked on demand.
  uint64_t absoluteCost(const LocationCost& l) const;

  // Every object name (allocated, accessed or in points-to), ranked: rate descending, then
  // nRac descending, then by name.
  const std::vector<ObjectRow>& objects() const { return objects_; }
  const ObjectRow* object(Object o) const;  // null when not named
  // The structure of o at another height (clamped to [1, kMaxHeight]): the 1-, 2-, 4- columns.
  Structure structure(Object o, uint32_t height) const;
  // Allocation sites ranked like objects (ties: site index).
  const std::vector<SiteRow>& sites() const { return sites_; }

  const std::vector<ReferenceEdge>& referenceEdges() const { return references_; }
  // The Alloc instances that allocate o, ascending.
  std::span<const uint32_t> allocations(Object o) const;

  GraphSize size() const { return size_; }
  const Bloat& bloat() const { return bloat_; }
  double conflictRatio() const { return conflictRatio_; }  // CR (mean over nodes that ran)

 private:
  void nameObjects();
  void rankObjects();
  void rankSites();

  GraphInput in_;
  Options options_;
  std::unique_ptr<InstanceGraph> graph_;  // on the heap: reach_ points to it across moves
  std::unique_ptr<Reach> reach_;
  std::vector<LocationCost> locations_;
  std::vector<ReferenceEdge> references_;
  std::vector<Object> names_;                  // every object name, ascending
  std::vector<std::vector<uint32_t>> refs_;    // per name: the names its fields point to
  std::vector<std::vector<uint32_t>> fields_;  // per name: its instance-field locations
  std::vector<uint64_t> births_;               // per name
  std::map<Object, std::vector<uint32_t>> allocs_;
  std::vector<ObjectRow> objects_;
  std::map<Object, uint32_t> rowOf_;
  std::vector<SiteRow> sites_;
  GraphSize size_;
  Bloat bloat_;
  double conflictRatio_ = 0;
};

}  // namespace dragnet::analyses::cost
