#include "analyses/copy/model/copies.h"

#include <algorithm>
#include <map>

namespace dragnet::analyses::copy {

double CopyProfile::share(size_t k) const {
  if (total == 0 || k == 0 || concentration.empty()) return 0;
  uint64_t top = concentration[std::min(k, concentration.size()) - 1];
  return static_cast<double>(top) / static_cast<double>(total);
}

std::vector<uint32_t> CopyProfile::hottestContexts(size_t top) const {
  std::vector<uint32_t> order;
  for (uint32_t n = 1; n < contexts.size(); ++n) {
    if (contexts[n].total > 0) order.push_back(n);
  }
  std::stable_sort(order.begin(), order.end(),
                   [&](uint32_t a, uint32_t b) { return contexts[a].total > contexts[b].total; });
  if (order.size() > top) order.resize(top);
  return order;
}

namespace {

// Children come after their parents in the merged tree (buildModel appends a node when
// first met, below an existing one): one backward pass sums the subtrees.
void sumSubtrees(const contexts::AllocModel& tree, std::vector<ContextCopies>& c) {
  for (size_t i = c.size(); i-- > 1;) {
    c[i].total += c[i].self;
    c[tree.nodes[i].parent].total += c[i].total;
  }
  c[0].total += c[0].self;
}

// Per method: its own copies, and the subtrees of its outermost contexts (a context with
// an ancestor of the same method is inside one already).
std::vector<MethodCopies> byMethod(const contexts::AllocModel& tree,
                                   const std::vector<ContextCopies>& c) {
  std::map<uint32_t, MethodCopies> methods;
  std::map<uint32_t, uint32_t> open;  // method -> its contexts on the current path
  struct Frame {
    uint32_t node;
    size_t child;
  };
  std::vector<Frame> stack{{0, 0}};
  while (!stack.empty()) {
    Frame& f = stack.back();
    const contexts::MergedNode& n = tree.nodes[f.node];
    if (f.child == 0 && f.node != 0 && !profile::isAllocKey(n.key) && c[f.node].total > 0) {
      MethodCopies& m = methods[n.key];
      m.method = n.key;
      m.self += c[f.node].self;
      if (open[n.key] == 0) m.total += c[f.node].total;
    }
    if (f.child == 0 && f.node != 0) ++open[n.key];
    if (f.child < n.children.size()) {
      uint32_t next = n.children[f.child++];
      stack.push_back({next, 0});
      continue;
    }
    if (f.node != 0) --open[n.key];
    stack.pop_back();
  }
  std::vector<MethodCopies> out;
  for (const auto& [id, m] : methods) out.push_back(m);
  std::stable_sort(out.begin(), out.end(), [](const MethodCopies& a, const MethodCopies& b) {
    return a.self != b.self ? a.self > b.self : a.total > b.total;
  });
  return out;
}

}  // namespace

CopyProfile copyProfile(const profile::Profile& p, const contexts::AllocModel& tree,
                        const contexts::ThreadNodes& threadNodes, const SiteIndex& sites,
                        const Layouts& layouts) {
  CopyProfile out;
  out.contexts.resize(tree.nodes.size());
  for (const auto& [thread, flows] : p.flows) {
    auto nodes = threadNodes.find(thread);
    auto place = [&](uint32_t node, uint64_t count) {
      if (nodes == threadNodes.end() || node >= nodes->second.size()) {
        out.lost += count;
      } else {
        out.contexts[nodes->second[node]].self += count;
      }
    };
    for (const auto& [node, count] : flows.copies) place(node, count);
    for (const auto& [key, count] : flows.clones) {
      const std::vector<uint32_t>* fields = clonedFields(sites, layouts, key.second);
      if (fields) {
        place(key.first, count * fields->size());
      } else {
        out.unsizedClones += count;
      }
    }
  }
  sumSubtrees(tree, out.contexts);
  out.total = out.contexts[0].total;
  out.methods = byMethod(tree, out.contexts);
  uint64_t sum = 0;
  for (const MethodCopies& m : out.methods) {
    if (m.self == 0) break;
    out.concentration.push_back(sum += m.self);
  }
  return out;
}

std::vector<std::pair<uint32_t, uint64_t>> cutsByCallee(const profile::Profile& p) {
  std::map<uint32_t, uint64_t> sum;
  for (const auto& [thread, flows] : p.flows) {
    for (const auto& [method, count] : flows.cuts) sum[method] += count;
  }
  std::vector<std::pair<uint32_t, uint64_t>> out(sum.begin(), sum.end());
  std::stable_sort(out.begin(), out.end(),
                   [](const auto& a, const auto& b) { return a.second > b.second; });
  return out;
}

}  // namespace dragnet::analyses::copy
