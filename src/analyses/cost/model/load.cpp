#include "analyses/cost/model/load.h"

#include <algorithm>
#include <map>
#include <set>
#include <unordered_map>
#include <unordered_set>

#include "profile/layouts.h"

namespace dragnet::analyses::cost {
namespace {

// The records of DragnetCost and the engine (DragnetFlowTable): the kind in a's top bits.
enum RecordKind : uint64_t { kEdge = 1, kFreq = 2, kEffect = 3, kChain = 5, kCut = 6, kBirth = 7 };
constexpr uint64_t kLow61 = (uint64_t{1} << 61) - 1;
constexpr uint32_t kSlotBits = 5, kSlotMask = 31;
constexpr uint32_t kTagSiteBits = 27, kTagSiteMask = (1u << kTagSiteBits) - 1;

Inst instOf(uint64_t v) {
  auto x = static_cast<uint32_t>(v);
  return {x >> kSlotBits, x & kSlotMask};
}
Object objectOf(uint64_t tag) {
  auto t = static_cast<uint32_t>(tag);
  return {t & kTagSiteMask, t >> kTagSiteBits};
}

// The threads' records summed.
struct Summed {
  std::map<std::pair<uint64_t, uint64_t>, uint64_t> records;
};
Summed sum(const profile::Profile& p) {
  Summed s;
  for (const auto& [thread, t] : p.costThreads) {
    for (const auto& [key, count] : t.records) s.records[key] += count;
  }
  return s;
}

// Reference stores: the objects the stored value may name, found backwards from the
// store through nodes that copy a value unchanged (assignments, loads, stores) to the
// allocations that made it.
class PointsToFinder {
 public:
  PointsToFinder(const GraphInput& g) : g_(g) {
    for (const auto& [dst, src] : g.edges) preds_[dst].push_back(src);
  }
  std::vector<Object> valuesOf(Inst store) {
    std::vector<Object> out;
    std::vector<Inst> work{store};
    std::set<Inst> seen{store};
    constexpr size_t kLimit = 4096;  // a walk through a widely shared value stops here
    while (!work.empty() && seen.size() < kLimit) {
      Inst n = work.back();
      work.pop_back();
      auto it = preds_.find(n);
      if (it == preds_.end()) continue;
      for (const Inst& p : it->second) {
        if (p.node >= g_.defs.size() || !seen.insert(p).second) continue;
        const NodeDef& d = g_.defs[p.node];
        if (d.kind == NodeKind::Alloc) {
          out.push_back({d.site, p.slot});
        } else if (d.kind == NodeKind::Assign || d.readsHeap() || d.writesHeap()) {
          work.push_back(p);
        }
      }
    }
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
  }

 private:
  const GraphInput& g_;
  std::map<Inst, std::vector<Inst>> preds_;
};

void addPointsTo(GraphInput& g, const std::vector<bool>& reference) {
  PointsToFinder finder(g);
  std::map<Inst, std::vector<Object>> bases;
  for (const auto& [inst, object] : g.effects) {
    if (inst.node < g.defs.size() && g.defs[inst.node].kind == NodeKind::StoreField &&
        inst.node < reference.size() && reference[inst.node]) {
      bases[inst].push_back(object);
    }
  }
  std::set<std::tuple<Object, uint32_t, Object>> seen;
  for (const auto& [store, objects] : bases) {
    std::vector<Object> values = finder.valuesOf(store);
    uint32_t field = g.defs[store.node].field;
    for (const Object& base : objects) {
      for (const Object& value : values) {
        if (seen.insert({base, field, value}).second) g.pointsTo.push_back({base, field, value});
      }
    }
  }
}

}  // namespace

Recording recordingOf(const profile::Profile& p) {
  Recording r;
  if (auto v = profile::metaNumber(p, "flow.slots"); v && *v >= 1 && *v <= 32) {
    r.slots = static_cast<uint32_t>(*v);
  }
  auto shadow = p.meta.find("cost.arrayShadow");
  r.elementShadows = shadow == p.meta.end() || shadow->second != "array";
  return r;
}

Totals totalsOf(const profile::Profile& p) {
  Totals t;
  t.cuts = profile::totalNumber(p, "cost.cuts").value_or(0);
  t.unknownTags = profile::totalNumber(p, "cost.unknownTags").value_or(0);
  t.tableBytes = profile::totalNumber(p, "cost.tableBytes").value_or(0);
  t.shadowBytes = profile::totalNumber(p, "cost.shadowBytes").value_or(0);
  t.shadowFields = profile::totalNumber(p, "cost.shadowFields").value_or(0);
  t.shadowFallbacks = profile::totalNumber(p, "cost.shadowFallbacks").value_or(0);
  t.dropped = profile::totalNumber(p, "cost.dropped").value_or(0);
  return t;
}

bool isCostProfile(const profile::Profile& p) {
  auto mode = p.meta.find("mode");
  if (mode != p.meta.end()) return mode->second == "cost";
  return !p.costNodes.empty() || !p.costThreads.empty();
}

GraphInput loadGraph(const profile::Profile& p) {
  GraphInput g;
  g.slots = recordingOf(p).slots;
  profile::Layouts layouts(p);
  uint32_t maxId = p.costNodes.empty() ? 0 : p.costNodes.rbegin()->first;
  g.defs.resize(size_t{maxId} + 1);
  std::vector<uint32_t> blockOf(g.defs.size(), 0);
  std::vector<bool> reference(g.defs.size(), false);
  for (const auto& [id, n] : p.costNodes) {
    NodeDef& d = g.defs[id];
    d.kind = static_cast<NodeKind>(n.kind);
    d.method = n.method;
    d.index = n.index;
    d.line = n.line;
    bool instanceField = d.kind == NodeKind::LoadField || d.kind == NodeKind::StoreField;
    d.field = instanceField && n.field != kElmField ? layouts.canonical(n.field) : n.field;
    d.site = n.site;
    blockOf[id] = n.block;
    reference[id] = n.reference;
  }
  // Blocks' executions per slot; then each node's instances.
  Summed s = sum(p);
  std::unordered_map<uint32_t, std::vector<std::pair<uint32_t, uint64_t>>> blocks;
  std::map<std::pair<uint32_t, uint32_t>, std::set<uint64_t>> chains;
  std::map<Inst, uint64_t> freq;
  std::map<Object, uint64_t> births;
  for (const auto& [key, count] : s.records) {
    auto [a, b] = key;
    uint64_t low = a & kLow61;
    switch (a >> 61) {
      case kEdge:
        g.edges.emplace_back(instOf(low), instOf(b));
        break;
      case kFreq: {
        Inst blockSlot = instOf(low);
        blocks[blockSlot.node].emplace_back(blockSlot.slot, count);
        break;
      }
      case kEffect:
        g.effects.emplace_back(instOf(low), objectOf(b));
        break;
      case kChain:
        chains[{static_cast<uint32_t>(low >> kSlotBits), static_cast<uint32_t>(low & kSlotMask)}]
            .insert(b);
        break;
      case kBirth:
        births[{static_cast<uint32_t>(low & kTagSiteMask),
                static_cast<uint32_t>(low >> kTagSiteBits & kTagSiteMask)}] += count;
        break;
      default:
        break;
    }
  }
  for (uint32_t id = 1; id < g.defs.size(); ++id) {
    auto it = blocks.find(blockOf[id]);
    if (blockOf[id] == 0 || it == blocks.end()) continue;
    for (auto [slot, count] : it->second) {
      freq[{id, g.defs[id].contextless() ? 0u : slot}] += count;
    }
  }
  for (const profile::CostEdge& e : p.costEdges) {
    if (e.dst >= g.defs.size() || e.src >= g.defs.size() || e.dst == 0 || e.src == 0) continue;
    auto it = blocks.find(blockOf[e.dst]);
    if (blockOf[e.dst] == 0 || it == blocks.end()) continue;
    for (auto [slot, count] : it->second) {
      Inst dst{e.dst, g.defs[e.dst].contextless() ? 0u : slot};
      Inst src{e.src, e.srcInFrame && !g.defs[e.src].contextless() ? slot : 0u};
      g.edges.emplace_back(dst, src);
    }
  }
  g.freq.assign(freq.begin(), freq.end());
  g.births.assign(births.begin(), births.end());
  for (const auto& [key, values] : chains) {
    g.chains.emplace_back(key.first, key.second, static_cast<uint32_t>(values.size()));
  }
  addPointsTo(g, reference);
  return g;
}

}  // namespace dragnet::analyses::cost
