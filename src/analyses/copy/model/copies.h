// Mode copy: the copy profiles (Xu et al. 3.1). A copy (a heap load and a heap store moving
// a value unmodified) belongs to the method that did the store; the agent counts them per
// context node of each thread's calling-context tree. The copies of an instance clone
// belong to the method that called Object.clone: the agent counts the clones per context
// node and copy site, each one copy per instance field of the copy's class. Here on the
// merged tree (contexts::AllocModel): per context its own copies and its subtree's
// (cumulative), per method its own (the flat profile) and its cumulative copies, and the
// copy concentration of Fig. 5(a).
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "analyses/copy/model/graph.h"
#include "contexts/model.h"
#include "profile/reader.h"

namespace dragnet::analyses::copy {

struct ContextCopies {
  uint64_t self = 0;   // copies done in this context
  uint64_t total = 0;  // in its subtree (itself and its callees)
};

struct MethodCopies {
  uint32_t method = 0;  // profile method id
  uint64_t self = 0;    // flat: copies the method did, in all its contexts
  uint64_t total = 0;   // cumulative: its contexts' subtrees, a recursive call's once
};

struct CopyProfile {
  std::vector<ContextCopies> contexts;  // parallel to the merged tree's nodes
  std::vector<MethodCopies> methods;    // methods with copies: by descending self, then
                                        // total, then id
  std::vector<uint64_t> concentration;  // [k]: copies of the top k + 1 methods (flat)
  uint64_t total = 0;
  uint64_t lost = 0;  // copies of nodes missing from their thread's tree
  // Instance clones whose class's fields are not known (no site or layout): their copies
  // are not counted.
  uint64_t unsizedClones = 0;
  // The share (0..1) of all copies the top k methods do (k >= 1; 0 without copies).
  double share(size_t k) const;
  // The contexts (merged tree nodes but the root) with copies in their subtree, by
  // descending cumulative copies (ties: node order), at most `top`.
  std::vector<uint32_t> hottestContexts(size_t top) const;
};

CopyProfile copyProfile(const profile::Profile& p, const contexts::AllocModel& tree,
                        const contexts::ThreadNodes& threadNodes, const SiteIndex& sites,
                        const Layouts& layouts);

// Flows cut at a callee's entry (its selector did not match), per callee method id, over
// all threads: by descending count, then id.
std::vector<std::pair<uint32_t, uint64_t>> cutsByCallee(const profile::Profile& p);

}  // namespace dragnet::analyses::copy
