#include "analyses/cost/model/locations.h"

#include <algorithm>
#include <map>
#include <unordered_map>

namespace dragnet::analyses::cost {

namespace {

void sortUnique(std::vector<uint32_t>& xs) {
  std::sort(xs.begin(), xs.end());
  xs.erase(std::unique(xs.begin(), xs.end()), xs.end());
}

// The accesses of every location, writers and readers unsorted.
std::map<Location, LocationCost> accesses(const GraphInput& in, const InstanceGraph& g) {
  std::map<Location, LocationCost> locs;
  auto at = [&locs](const Location& l) -> LocationCost& {
    LocationCost& c = locs[l];
    c.loc = l;
    return c;
  };
  for (const auto& [i, o] : in.effects) {
    uint32_t v = g.find(i);
    if (v == kNone) continue;
    const NodeDef& d = g.def(v);
    if (d.kind == NodeKind::StoreField) at({false, o, d.field}).writers.push_back(v);
    if (d.kind == NodeKind::LoadField) at({false, o, d.field}).readers.push_back(v);
  }
  for (uint32_t v = 0; v < g.size(); ++v) {
    const NodeDef& d = g.def(v);
    if (d.kind == NodeKind::StoreStatic) at({true, {}, d.field}).writers.push_back(v);
    if (d.kind == NodeKind::LoadStatic) at({true, {}, d.field}).readers.push_back(v);
  }
  return locs;
}

}  // namespace

std::vector<LocationCost> locationsOf(const GraphInput& in, const InstanceGraph& g, Reach& r,
                                      uint64_t consumerRab) {
  // A store node may write several objects' fields: each instance is walked once.
  std::unordered_map<uint32_t, uint64_t> hrac;
  std::unordered_map<uint32_t, Benefit> hrab;
  std::vector<LocationCost> out;
  for (auto& [loc, c] : accesses(in, g)) {
    sortUnique(c.writers);
    sortUnique(c.readers);
    double sum = 0;
    for (uint32_t v : c.writers) {
      auto [it, fresh] = hrac.try_emplace(v, 0);
      if (fresh) it->second = r.relativeCost(v);
      sum += static_cast<double>(it->second);
    }
    if (!c.writers.empty()) c.rac = sum / static_cast<double>(c.writers.size());
    sum = 0;
    for (uint32_t v : c.readers) {
      auto [it, fresh] = hrab.try_emplace(v);
      if (fresh) it->second = r.relativeBenefit(v);
      sum += static_cast<double>(it->second.value);
      c.consumed = c.consumed || it->second.consumed;
    }
    if (!c.readers.empty()) c.rabMean = sum / static_cast<double>(c.readers.size());
    c.rab = c.rabMean;
    // The value decides control flow or reaches the JVM: it benefits the execution however
    // little the stack does with it (Xu et al. sec. 4.2.1, "a large RAB").
    if (c.consumed && consumerRab > 0) c.rab = std::max(c.rab, static_cast<double>(consumerRab));
    out.push_back(std::move(c));
  }
  return out;
}

std::vector<ReferenceEdge> referenceEdges(const GraphInput& in, const InstanceGraph& g) {
  std::multimap<Object, uint32_t> allocs;
  for (uint32_t v = 0; v < g.size(); ++v)
    if (g.def(v).kind == NodeKind::Alloc) allocs.emplace(allocated(g, v), v);
  std::vector<ReferenceEdge> out;
  for (const auto& [i, o] : in.effects) {
    uint32_t v = g.find(i);
    if (v == kNone || g.def(v).kind != NodeKind::StoreField) continue;
    auto [from, to] = allocs.equal_range(o);
    for (auto it = from; it != to; ++it) out.push_back({v, it->second});
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

}  // namespace dragnet::analyses::cost
