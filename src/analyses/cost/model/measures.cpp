#include "analyses/cost/model/measures.h"

#include <algorithm>
#include <map>

namespace dragnet::analyses::cost {

std::vector<uint32_t> nodesRan(const InstanceGraph& g) {
  std::vector<uint32_t> ran;
  for (uint32_t v = 0; v < g.size(); ++v)  // instances are in node order
    if (g.freq(v) > 0 && (ran.empty() || ran.back() != g.inst(v).node))
      ran.push_back(g.inst(v).node);
  return ran;
}

GraphSize graphSize(const InstanceGraph& g) {
  GraphSize s;
  s.instances = g.size();
  s.edges = g.edges();
  s.defsRan = nodesRan(g).size();
  return s;
}

std::vector<uint32_t> components(const InstanceGraph& g, uint32_t* count) {
  constexpr uint32_t kUnseen = kNone;
  const uint32_t n = g.size();
  std::vector<uint32_t> index(n, kUnseen), low(n, 0), comp(n, kNone);
  std::vector<uint32_t> stack;                        // Tarjan's stack of open instances
  std::vector<std::pair<uint32_t, uint32_t>> frames;  // (instance, next successor position)
  uint32_t next = 0, comps = 0;
  auto open = [&](uint32_t v) {
    index[v] = low[v] = next++;
    stack.push_back(v);
    frames.emplace_back(v, 0);
  };
  for (uint32_t root = 0; root < n; ++root) {
    if (index[root] != kUnseen) continue;
    open(root);
    while (!frames.empty()) {
      const uint32_t v = frames.back().first;
      auto succs = g.succs(v);
      if (frames.back().second < succs.size()) {
        uint32_t w = succs[frames.back().second++];
        if (index[w] == kUnseen) {
          open(w);
        } else if (comp[w] == kNone) {  // on the stack: in v's component or an ancestor's
          low[v] = std::min(low[v], index[w]);
        }
        continue;
      }
      frames.pop_back();
      if (!frames.empty()) low[frames.back().first] = std::min(low[frames.back().first], low[v]);
      if (low[v] != index[v]) continue;
      uint32_t w;
      do {
        w = stack.back();
        stack.pop_back();
        comp[w] = comps;
      } while (w != v);
      ++comps;
    }
  }
  if (count) *count = comps;
  return comp;
}

namespace {

enum : uint8_t {
  kReachesConsumer = 1,
  kReachesPredicate = 2,
  kReachesNative = 4,
  kReachesDead = 8,
};

uint8_t ownFlags(const NodeDef& d) {
  if (d.kind == NodeKind::Predicate) return kReachesConsumer | kReachesPredicate;
  if (d.kind == NodeKind::Native) return kReachesConsumer | kReachesNative;
  return 0;
}

// Per component, what its instances reach (themselves included).
std::vector<uint8_t> componentFlags(const InstanceGraph& g, const std::vector<uint32_t>& comp,
                                    uint32_t comps) {
  // Members of each component, by counting sort.
  std::vector<uint32_t> begin(comps + 1, 0), members(g.size());
  for (uint32_t c : comp) ++begin[c + 1];
  for (uint32_t c = 0; c < comps; ++c) begin[c + 1] += begin[c];
  std::vector<uint32_t> fill(begin.begin(), begin.end() - 1);
  for (uint32_t v = 0; v < g.size(); ++v) members[fill[comp[v]]++] = v;

  std::vector<uint8_t> flags(comps, 0);
  // Successor components have lower numbers: each is final when its predecessors need it.
  for (uint32_t c = 0; c < comps; ++c) {
    uint8_t f = 0;
    for (uint32_t i = begin[c]; i < begin[c + 1]; ++i) {
      uint32_t v = members[i];
      f |= ownFlags(g.def(v));
      for (uint32_t w : g.succs(v))
        if (comp[w] != c) f |= flags[comp[w]];
    }
    if (!(f & kReachesConsumer)) f |= kReachesDead;
    flags[c] = f;
  }
  return flags;
}

double ratio(uint64_t part, uint64_t whole) {
  return whole == 0 ? 0.0 : static_cast<double>(part) / static_cast<double>(whole);
}

}  // namespace

Bloat bloatOf(const InstanceGraph& g) {
  uint32_t comps = 0;
  std::vector<uint32_t> comp = components(g, &comps);
  std::vector<uint8_t> flags = componentFlags(g, comp, comps);
  Bloat b;
  b.membership.assign(g.size(), 0);
  for (uint32_t v = 0; v < g.size(); ++v) {
    const uint8_t f = flags[comp[v]];
    b.instructions += g.freq(v);
    if (!(f & kReachesConsumer)) {
      b.membership[v] = kDead;
      b.deadFreq += g.freq(v);
      ++b.deadInstances;
    } else if (g.def(v).kind == NodeKind::Predicate ||
               ((f & kReachesPredicate) && !(f & (kReachesNative | kReachesDead)))) {
      b.membership[v] = kPredicateOnly;
      b.predicateFreq += g.freq(v);
      ++b.predicateInstances;
    }
  }
  b.ipd = ratio(b.deadFreq, b.instructions);
  b.ipp = ratio(b.predicateFreq, b.instructions);
  b.nld = ratio(b.deadInstances, g.size());
  return b;
}

double conflictRatio(const GraphInput& in, const InstanceGraph& g) {
  std::map<uint32_t, std::map<uint32_t, uint32_t>> dc;  // method -> slot -> distinct chains
  for (const auto& [method, slot, chains] : in.chains) {
    uint32_t& c = dc[method][slot];
    c = std::max(c, chains);
  }
  std::map<uint32_t, double> cr;  // method -> CR-s
  for (const auto& [method, slots] : dc) {
    uint64_t sum = 0;
    uint32_t most = 0;
    for (const auto& [slot, c] : slots) {
      sum += c;
      most = std::max(most, c);
    }
    cr[method] = most <= 1 ? 0.0 : ratio(most, sum);
  }
  std::vector<uint32_t> ran = nodesRan(g);
  if (ran.empty()) return 0;
  double total = 0;
  for (uint32_t node : ran) {
    auto it = cr.find(in.defs[node].method);
    if (it != cr.end()) total += it->second;
  }
  return total / static_cast<double>(ran.size());
}

}  // namespace dragnet::analyses::cost
