#include "analyses/copy/model/chains.h"

#include <algorithm>
#include <limits>
#include <queue>

namespace dragnet::analyses::copy {

uint64_t saturatingMul(uint64_t a, uint64_t b) {
  uint64_t r = 0;
  return __builtin_mul_overflow(a, b, &r) ? std::numeric_limits<uint64_t>::max() : r;
}

namespace {

// The ranking: true when a comes before b.
bool hotter(const Chain& a, const Chain& b) {
  if (a.wf != b.wf) return a.wf > b.wf;
  if (a.nodes.size() != b.nodes.size()) return a.nodes.size() > b.nodes.size();
  if (a.freq != b.freq) return a.freq > b.freq;
  return a.nodes < b.nodes;
}

struct Colder {
  bool operator()(const Chain& a, const Chain& b) const { return hotter(a, b); }
};

class Enumerator {
 public:
  Enumerator(const Graph& g, const ChainOptions& o) : g_(g), o_(o) {}

  Chains run() {
    for (uint32_t start : starts()) {
      if (out_.total >= o_.limit) {
        out_.cut += heapEdges(start);
        continue;
      }
      fromStart_ = 0;
      nodes_.assign(1, start);
      extend(std::numeric_limits<uint64_t>::max(), 0);
    }
    while (!kept_.empty()) {
      out_.top.push_back(kept_.top());
      kept_.pop();
    }
    std::reverse(out_.top.begin(), out_.top.end());
    return std::move(out_);
  }

 private:
  uint64_t heapEdges(uint32_t n) const {
    uint64_t k = 0;
    for (const Edge& e : g_.out(n)) k += g_.node(e.dst).isHeap();
    return k;
  }

  // Heap nodes with an edge to a heap node, the hottest edge's first.
  std::vector<uint32_t> starts() const {
    std::vector<std::pair<uint64_t, uint32_t>> heat;
    for (uint32_t n = 0; n < g_.nodes().size(); ++n) {
      if (!g_.node(n).isHeap()) continue;
      uint64_t best = 0;
      bool any = false;
      for (const Edge& e : g_.out(n)) {
        if (!g_.node(e.dst).isHeap()) continue;
        any = true;
        best = std::max(best, saturatingMul(e.freq, std::max<uint32_t>(e.bytes, 1)));
      }
      if (any) heat.emplace_back(best, n);
    }
    std::sort(heat.begin(), heat.end(), [](const auto& a, const auto& b) {
      return a.first != b.first ? a.first > b.first : a.second < b.second;
    });
    std::vector<uint32_t> out;
    for (const auto& [h, n] : heat) out.push_back(n);
    return out;
  }

  bool used(const Edge* e) const {
    return std::find(edges_.begin(), edges_.end(), e) != edges_.end();
  }

  void extend(uint64_t freq, uint32_t bytes) {
    for (const Edge& e : g_.out(nodes_.back())) {
      if (!g_.node(e.dst).isHeap() || used(&e)) continue;
      if (out_.total >= o_.limit || fromStart_ >= o_.perStart) {
        ++out_.cut;
        continue;
      }
      edges_.push_back(&e);
      nodes_.push_back(e.dst);
      uint64_t f = std::min(freq, e.freq);
      uint32_t b = std::max(bytes, e.bytes);
      record(f, b);
      if (edges_.size() < o_.maxEdges) extend(f, b);
      nodes_.pop_back();
      edges_.pop_back();
    }
  }

  void record(uint64_t freq, uint32_t bytes) {
    ++out_.total;
    ++fromStart_;
    out_.lengths += edges_.size();
    uint64_t wf = saturatingMul(saturatingMul(edges_.size(), freq), bytes);
    if (o_.keep == 0 || (kept_.size() >= o_.keep && wf < kept_.top().wf)) return;
    Chain c;
    c.nodes = nodes_;
    c.freq = freq;
    c.bytes = bytes;
    c.wf = wf;
    if (kept_.size() >= o_.keep) {
      if (!hotter(c, kept_.top())) return;
      kept_.pop();
    }
    annotate(c);
    kept_.push(std::move(c));
  }

  void annotate(Chain& c) const {
    uint64_t best = 0;
    for (uint32_t i : g_.in(c.nodes.front())) {
      const Edge& e = g_.edges()[i];
      if (g_.node(e.src).kind != NodeKind::Alloc) continue;
      ++c.producers;
      if (e.freq > best || c.producer == kNoNode) {
        best = e.freq;
        c.producer = e.src;
      }
    }
    const Edge* consumer = g_.edge(c.nodes.back(), kConsumer);
    c.consumed = consumer ? consumer->freq : 0;
  }

  const Graph& g_;
  const ChainOptions& o_;
  Chains out_;
  std::priority_queue<Chain, std::vector<Chain>, Colder> kept_;  // top(): the coldest kept
  std::vector<uint32_t> nodes_;
  std::vector<const Edge*> edges_;
  uint64_t fromStart_ = 0;
};

}  // namespace

Chains hotChains(const Graph& g, const ChainOptions& o) { return Enumerator(g, o).run(); }

}  // namespace dragnet::analyses::copy
