#include "analyses/cost/model/model.h"

#include <algorithm>
#include <unordered_set>

namespace dragnet::analyses::cost {

namespace {

double rateOf(double rac, double rab) { return (rac + 1) / (rab + 1); }

// Rank order: rate descending, then cost descending; equal otherwise.
template <class Row>
int compareRank(const Row& a, const Row& b) {
  if (a.rate != b.rate) return a.rate > b.rate ? -1 : 1;
  if (a.nRac != b.nRac) return a.nRac > b.nRac ? -1 : 1;
  return 0;
}

void sortUnique(std::vector<uint32_t>& xs) {
  std::sort(xs.begin(), xs.end());
  xs.erase(std::unique(xs.begin(), xs.end()), xs.end());
}

}  // namespace

CostModel::CostModel(GraphInput in, Options o) : in_(std::move(in)), options_(o) {
  options_.height = std::clamp<uint32_t>(options_.height, 1, kMaxHeight);
  graph_ = std::make_unique<InstanceGraph>(in_);
  reach_ = std::make_unique<Reach>(*graph_);
  locations_ = locationsOf(in_, *graph_, *reach_, options_.consumerRab);
  references_ = cost::referenceEdges(in_, *graph_);
  for (uint32_t v = 0; v < graph_->size(); ++v)
    if (graph_->def(v).kind == NodeKind::Alloc) allocs_[allocated(*graph_, v)].push_back(v);
  nameObjects();
  rankObjects();
  rankSites();
  size_ = graphSize(*graph_);
  bloat_ = bloatOf(*graph_);
  conflictRatio_ = cost::conflictRatio(in_, *graph_);
}

void CostModel::nameObjects() {
  for (const auto& [o, n] : in_.births) names_.push_back(o);
  for (const auto& [o, v] : allocs_) names_.push_back(o);
  for (const LocationCost& l : locations_)
    if (!l.loc.isStatic) names_.push_back(l.loc.object);
  for (const auto& p : in_.pointsTo) {
    names_.push_back(p.base);
    names_.push_back(p.value);
  }
  std::sort(names_.begin(), names_.end());
  names_.erase(std::unique(names_.begin(), names_.end()), names_.end());
  auto index = [this](Object o) {
    return static_cast<uint32_t>(std::lower_bound(names_.begin(), names_.end(), o) -
                                 names_.begin());
  };
  refs_.assign(names_.size(), {});
  fields_.assign(names_.size(), {});
  births_.assign(names_.size(), 0);
  for (const auto& [o, n] : in_.births) births_[index(o)] += n;
  for (uint32_t i = 0; i < locations_.size(); ++i)
    if (!locations_[i].loc.isStatic) fields_[index(locations_[i].loc.object)].push_back(i);
  for (const auto& p : in_.pointsTo) refs_[index(p.base)].push_back(index(p.value));
  for (auto& r : refs_) sortUnique(r);
}

Structure CostModel::structure(Object o, uint32_t height) const {
  height = std::clamp<uint32_t>(height, 1, kMaxHeight);
  Structure s;
  s.object = o;
  auto it = std::lower_bound(names_.begin(), names_.end(), o);
  if (it != names_.end() && *it == o) {
    // Breadth-first by levels, each object once: a cycle or a second path to an object
    // does not count its fields again.
    std::vector<uint32_t> queue{static_cast<uint32_t>(it - names_.begin())};
    std::unordered_set<uint32_t> seen{queue[0]};
    size_t levelEnd = 1;
    for (size_t head = 0, depth = 0; head < queue.size(); ++head) {
      if (head == levelEnd) {
        ++depth;
        levelEnd = queue.size();
      }
      if (depth + 1 >= height) continue;  // its referents would be at distance `height`
      for (uint32_t w : refs_[queue[head]])
        if (seen.insert(w).second) queue.push_back(w);
    }
    for (uint32_t x : queue) {
      s.objects.push_back(names_[x]);
      s.locations.insert(s.locations.end(), fields_[x].begin(), fields_[x].end());
    }
    std::sort(s.locations.begin(), s.locations.end());
    for (uint32_t l : s.locations) {
      s.nRac += locations_[l].rac;
      s.nRab += locations_[l].rab;
      s.consumed = s.consumed || locations_[l].consumed;
    }
  }
  s.rate = rateOf(s.nRac, s.nRab);
  return s;
}

void CostModel::rankObjects() {
  objects_.reserve(names_.size());
  for (uint32_t i = 0; i < names_.size(); ++i) {
    ObjectRow row;
    static_cast<Structure&>(row) = structure(names_[i], options_.height);
    row.births = births_[i];
    objects_.push_back(std::move(row));
  }
  std::stable_sort(objects_.begin(), objects_.end(), [](const ObjectRow& a, const ObjectRow& b) {
    int c = compareRank(a, b);
    return c != 0 ? c < 0 : a.object < b.object;
  });
  for (uint32_t i = 0; i < objects_.size(); ++i) rowOf_[objects_[i].object] = i;
}

void CostModel::rankSites() {
  std::map<uint32_t, SiteRow> bySite;
  for (uint32_t i = 0; i < objects_.size(); ++i) {
    const ObjectRow& o = objects_[i];
    SiteRow& s = bySite[o.object.site];
    s.site = o.object.site;
    s.nRac += o.nRac;
    s.nRab += o.nRab;
    s.births += o.births;
    s.consumed = s.consumed || o.consumed;
    s.objects.push_back(i);
  }
  for (auto& [site, s] : bySite) {
    s.rate = rateOf(s.nRac, s.nRab);
    sites_.push_back(std::move(s));
  }
  std::stable_sort(sites_.begin(), sites_.end(), [](const SiteRow& a, const SiteRow& b) {
    int c = compareRank(a, b);
    return c != 0 ? c < 0 : a.site < b.site;
  });
}

uint32_t CostModel::findLocation(const Location& l) const {
  auto it = std::lower_bound(locations_.begin(), locations_.end(), l,
                             [](const LocationCost& c, const Location& x) { return c.loc < x; });
  if (it == locations_.end() || it->loc != l) return kNone;
  return static_cast<uint32_t>(it - locations_.begin());
}

uint64_t CostModel::absoluteCost(const LocationCost& l) const {
  uint64_t most = 0;
  for (uint32_t v : l.writers) most = std::max(most, absoluteCost(v));
  return most;
}

const ObjectRow* CostModel::object(Object o) const {
  auto it = rowOf_.find(o);
  return it == rowOf_.end() ? nullptr : &objects_[it->second];
}

std::span<const uint32_t> CostModel::allocations(Object o) const {
  auto it = allocs_.find(o);
  if (it == allocs_.end()) return {};
  return it->second;
}

}  // namespace dragnet::analyses::cost
