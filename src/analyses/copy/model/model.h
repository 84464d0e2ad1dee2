// Mode copy, analyzer side (docs/FLOW-DESIGN.md): a copy profile's model. The copy graph in
// both namings with their clients (hot chains, clone detector, NATH, fan-out), the context
// conflict ratio, the flat and cumulative copy profiles on the merged context tree, and the
// flows the agent had to cut. The reports and shell show this model.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "analyses/copy/model/chains.h"
#include "analyses/copy/model/clients.h"
#include "analyses/copy/model/copies.h"
#include "analyses/copy/model/graph.h"
#include "contexts/model.h"

namespace dragnet::analyses::copy {

struct Options {
  uint32_t chainMax = 5;    // `chain-max`: edges of a chain, and of a points-to chain
  uint32_t cloneDepth = 3;  // `clone-depth`: points-to links below a clone pair
  size_t keep = 1000;       // chains and clone pairs kept, by rank
  uint64_t chainLimit = 2'000'000, chainPerStart = 200'000;  // ChainOptions
  uint64_t cloneLimit = 1'000'000;                           // CloneOptions
};

// One naming's copy graph and what its clients find in it.
struct View {
  explicit View(Naming n) : graph(n) {}
  Graph graph;
  Chains chains;
  Clones clones;
  std::vector<NathRow> nath;
  FanOut fanOut;
};

struct Totals {
  uint64_t births = 0;      // objects allocated while recording
  uint64_t heapCopies = 0;  // frequencies of the heap-to-heap edges (the copies the graph
                            // holds; equals copies.total when every copy was placed)
  uint64_t cuts = 0;        // flows cut at callee entries (sum of Model::cuts)
  // End totals of the agent (0 when missing, e.g. in a killed run).
  uint64_t flowCuts = 0;     // `flow.cuts`
  uint64_t unknownTags = 0;  // `flow.unknownTags`
};

struct Model {
  const profile::Profile* profile = nullptr;  // must outlive the model
  Settings settings;
  Options options;
  contexts::AllocModel tree;  // the merged calling-context tree (names, contexts)
  SiteIndex sites;            // allocation site definitions by site index
  View insensitive{Naming::Insensitive};
  View sensitive{Naming::Sensitive};  // with slots=1 the same graph as `insensitive`
  GraphStats graphStats;
  CopyProfile copies;
  std::vector<std::pair<uint32_t, uint64_t>> cuts;  // cutsByCallee
  // Per allocation site with births: its distinct contexts (receiver site indices, 0: none).
  std::map<uint32_t, std::vector<uint32_t>> contexts;
  // (s, average CCR-s) for s = 4, 8, 16 and the profile's own slots (>= 2), ascending.
  std::vector<std::pair<uint32_t, double>> conflictRatios;
  Totals totals;

  const View& view(Naming n) const { return n == Naming::Sensitive ? sensitive : insensitive; }
};

Model buildModel(const profile::Profile& p, const Options& o = {});
bool isCopyProfile(const profile::Profile& p);  // meta mode == copy

// Names, for reports. A site: "java.lang.Object[] List.<init>(ListClient.java:3)" (type,
// then where), "<unknown object>" for site 0, "<site #N>" without a definition.
std::string siteName(const Model& m, uint32_t site);
// An object: its site's name; in the sensitive naming then " @ " and the context: the
// receiver's site name, "static" (none) with slots=0; "slot K" with slots >= 1.
std::string objectName(const Model& m, Naming n, Object o);
// A field: "ELM", or "app.Main.count" (owner, name).
std::string fieldName(const Model& m, uint32_t field);
// A node: "C", an object's name (allocation node), "<object>.field" ("<object>.ELM"), or a
// static field's name.
std::string nodeName(const Model& m, const Graph& g, uint32_t node);

}  // namespace dragnet::analyses::copy
