#include "analyses/copy/model/clients.h"

#include <algorithm>
#include <set>
#include <unordered_map>

#include "analyses/copy/model/chains.h"

namespace dragnet::analyses::copy {

namespace {

bool isObject(const Graph& g, uint32_t n) {
  const Node& x = g.node(n);
  return x.kind == NodeKind::Alloc && x.object.site != 0;
}

// The object (allocation node) a field node belongs to; kNoNode for the unknown object.
uint32_t ownerOf(const Graph& g, const Node& field) {
  return field.kind == NodeKind::Field && field.object.site != 0 ? g.allocOf(field.object)
                                                                 : kNoNode;
}

class CloneDetector {
 public:
  CloneDetector(const Graph& g, const CloneOptions& o, const SiteIndex& sites)
      : g_(g), o_(o), sites_(sites), stamp_(g.nodes().size(), 0), owners_(g.nodes().size()) {}

  Clones run() {
    std::unordered_map<uint64_t, uint64_t> direct;  // (from << 32 | to) -> bytes
    for (const Edge& e : g_.edges()) {
      uint32_t a = ownerOf(g_, g_.node(e.src)), b = ownerOf(g_, g_.node(e.dst));
      if (a != kNoNode && b != kNoNode)
        direct[uint64_t{a} << 32 | b] += saturatingMul(e.freq, e.bytes);
    }
    for (uint32_t n = 0; n < g_.nodes().size(); ++n) {
      if (isObject(g_, n)) findOwners(n);
    }
    // The largest flows first: where the limit stops the attribution, what is left out
    // are the smallest.
    std::vector<std::pair<uint64_t, uint64_t>> flows(direct.begin(), direct.end());
    std::sort(flows.begin(), flows.end(), [](const auto& a, const auto& b) {
      return a.second != b.second ? a.second > b.second : a.first < b.first;
    });
    pairs_.reserve(std::min<uint64_t>(o_.limit, uint64_t{1} << 22));
    for (const auto& [pair, volume] : flows) {
      if (updates_ >= o_.limit) {
        ++cut_;
        continue;
      }
      attribute(static_cast<uint32_t>(pair >> 32), static_cast<uint32_t>(pair), volume);
    }
    return result();
  }

 private:
  Clones result() {
    Clones out;
    out.cut = cut_;
    out.truncated = truncated_;
    out.pairs = pairs_.size();
    out.top.reserve(pairs_.size());
    for (auto& [key, p] : pairs_) out.top.push_back(p);
    auto before = [](const ClonePair& a, const ClonePair& b) {
      if (a.volume != b.volume) return a.volume > b.volume;
      if (a.depth != b.depth) return a.depth > b.depth;
      if (a.sameType != b.sameType) return a.sameType;
      if (a.direct != b.direct) return a.direct < b.direct;
      return a.from != b.from ? a.from < b.from : a.to < b.to;
    };
    // sameType takes part in the order: set it on every pair first.
    for (ClonePair& p : out.top) p.sameType = sameType(p.from, p.to);
    size_t keep = std::min(o_.keep, out.top.size());
    std::partial_sort(out.top.begin(), out.top.begin() + static_cast<ptrdiff_t>(keep),
                      out.top.end(), before);
    out.top.resize(keep);
    return out;
  }

  bool sameType(uint32_t a, uint32_t b) const {
    auto x = sites_.find(g_.node(a).object.site), y = sites_.find(g_.node(b).object.site);
    return x != sites_.end() && y != sites_.end() && x->second->type == y->second->type;
  }

  // A fresh set of marks (over the graph's nodes, reused: no allocation per search).
  void unmarkAll() {
    if (++epoch_ == 0) {
      std::fill(stamp_.begin(), stamp_.end(), 0);
      epoch_ = 1;
    }
  }
  bool mark(uint32_t n) {  // true if n was not marked yet
    if (stamp_[n] == epoch_) return false;
    stamp_[n] = epoch_;
    return true;
  }

  // The objects whose field nodes lie on a chain whose producer is `object`.
  void findOwners(uint32_t object) {
    unmarkAll();
    mark(object);
    std::vector<uint32_t> level, next;
    for (const Edge& e : g_.out(object)) {
      if (g_.node(e.dst).isHeap() && mark(e.dst)) level.push_back(e.dst);
    }
    std::vector<uint32_t> owners;
    size_t visits = level.size();
    for (uint32_t hops = 0; !level.empty(); ++hops) {
      next.clear();
      for (uint32_t n : level) {
        uint32_t owner = ownerOf(g_, g_.node(n));
        if (owner != kNoNode && owner != object) owners.push_back(owner);
        if (hops >= o_.pointsToEdges) continue;
        for (const Edge& e : g_.out(n)) {
          if (!g_.node(e.dst).isHeap() || !mark(e.dst)) continue;
          if (visits++ == o_.maxReach) {
            ++truncated_;
            hops = o_.pointsToEdges;  // owners of what was reached so far, then stop
            break;
          }
          next.push_back(e.dst);
        }
      }
      std::swap(level, next);
    }
    std::sort(owners.begin(), owners.end());
    owners.erase(std::unique(owners.begin(), owners.end()), owners.end());
    owners_[object] = std::move(owners);
  }

  // The objects `object` is reachable from within `depth` points-to links, with the
  // number of links (breadth first: the nearest first).
  const std::vector<std::pair<uint32_t, uint32_t>>& ancestors(uint32_t object) {
    auto [it, fresh] = ancestors_.try_emplace(object);
    if (!fresh) return it->second;
    std::vector<std::pair<uint32_t, uint32_t>>& out = it->second;
    unmarkAll();
    mark(object);
    out.emplace_back(object, 0);
    for (size_t i = 0; i < out.size(); ++i) {
      auto [n, d] = out[i];
      if (d == o_.depth) continue;
      for (uint32_t o : owners_[n]) {
        if (!mark(o)) continue;
        if (out.size() == o_.maxAncestors) {
          ++truncated_;
          return out;
        }
        out.emplace_back(o, d + 1);
      }
    }
    return out;
  }

  void attribute(uint32_t from, uint32_t to, uint64_t volume) {
    // (References into an unordered_map stay valid as it grows.)
    const auto& a = ancestors(from);
    const auto& b = ancestors(to);
    updates_ += a.size() * b.size();
    for (const auto& [x, dx] : a) {
      for (const auto& [y, dy] : b) {
        auto [it, fresh] =
            pairs_.try_emplace(uint64_t{x} << 32 | y, ClonePair{x, y, 0, 0, 0, false});
        ClonePair& p = it->second;
        p.volume += volume;
        p.depth = std::max(p.depth, dx + dy);
        if (dx == 0 && dy == 0) p.direct += volume;
      }
    }
  }

  const Graph& g_;
  const CloneOptions& o_;
  const SiteIndex& sites_;
  std::vector<uint32_t> stamp_;
  uint32_t epoch_ = 0;
  std::vector<std::vector<uint32_t>> owners_;  // per object node: the objects pointing to it
  std::unordered_map<uint32_t, std::vector<std::pair<uint32_t, uint32_t>>> ancestors_;
  std::unordered_map<uint64_t, ClonePair> pairs_;  // (from << 32 | to) -> its pair
  uint64_t updates_ = 0, cut_ = 0, truncated_ = 0;
};

}  // namespace

Clones detectClones(const Graph& g, const CloneOptions& o, const SiteIndex& sites) {
  return CloneDetector(g, o, sites).run();
}

std::vector<NathRow> notAssignedToHeap(const Graph& g) {
  std::vector<NathRow> rows;
  for (uint32_t n = 0; n < g.nodes().size(); ++n) {
    if (!isObject(g, n) || g.births(n) == 0) continue;
    std::span<const Edge> out = g.out(n);
    if (std::any_of(out.begin(), out.end(),
                    [&](const Edge& e) { return g.node(e.dst).isHeap(); })) {
      continue;
    }
    const Edge* c = g.edge(n, kConsumer);
    rows.push_back({n, g.births(n), c ? c->freq : 0});
  }
  std::stable_sort(rows.begin(), rows.end(),
                   [](const NathRow& a, const NathRow& b) { return a.births > b.births; });
  return rows;
}

FanOut fanOut(const Graph& g) {
  FanOut f;
  f.nodes = g.nodes().size() - 1;  // C has no outgoing edges and is not counted
  f.edges = g.edges().size();
  f.average = f.nodes == 0 ? 0 : static_cast<double>(f.edges) / static_cast<double>(f.nodes);
  for (uint32_t n = 1; n < g.nodes().size(); ++n) {
    auto k = static_cast<uint32_t>(g.out(n).size());
    if (k > f.max) {
      f.max = k;
      f.maxNode = n;
    }
  }
  return f;
}

double contextConflictRatio(const std::vector<uint32_t>& contexts, uint32_t slots) {
  if (slots == 0) return 0;  // exact contexts: none shares a slot
  std::set<uint32_t> distinct(contexts.begin(), contexts.end());
  std::map<uint32_t, uint32_t> nc;
  for (uint32_t c : distinct) ++nc[c % slots];
  uint32_t max = 0;
  for (const auto& [k, n] : nc) max = std::max(max, n);
  return max <= 1 ? 0 : static_cast<double>(max) / static_cast<double>(distinct.size());
}

double averageConflictRatio(const std::map<uint32_t, std::vector<uint32_t>>& contexts,
                            uint32_t slots) {
  if (contexts.empty()) return 0;
  double sum = 0;
  for (const auto& [site, cs] : contexts) sum += contextConflictRatio(cs, slots);
  return sum / static_cast<double>(contexts.size());
}

}  // namespace dragnet::analyses::copy
