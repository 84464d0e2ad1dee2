// The flow oracles' names for the nodes of a copy model (tests/agent/flow/README.md,
// "Nodes"): an allocation site as `FILE:LINE` (`#K` when several allocation instructions of
// the method share the line, K in bytecode order from 1), `@FILE:LINE[#K]` after it for the
// context in the 1-object-sensitive naming (the receiver's site; slots=0), `.field` (simple
// name) or `.ELM`, `static:BINARYCLASS.FIELD`, `C`. Unknown objects and undefined sites get
// names no expected file uses (`<unknown>`, `<site#N>`).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "analyses/copy/model/model.h"

namespace dragnet::test::flow {

// Labels of the profile's allocation sites, by site index.
class SiteLabels {
 public:
  explicit SiteLabels(const dragnet::profile::Profile& p);
  // `FILE:LINE[#K]`; "<unknown>" for site 0, "<site#N>" without a definition.
  std::string label(uint32_t site) const;

 private:
  std::map<uint32_t, std::string> labels_;
};

// `pkg.Outer$Inner.name(DESC)RET`, or "<method#N>".
std::string methodName(const dragnet::profile::Profile& p, uint32_t method);

// One naming's graph with a name for each node.
struct NamedGraph {
  NamedGraph(const dragnet::analyses::copy::Model& m, dragnet::analyses::copy::Naming n,
             const SiteLabels& labels);
  const dragnet::analyses::copy::Model& model;
  const dragnet::analyses::copy::Graph& graph;
  const dragnet::analyses::copy::View& view;
  std::vector<std::string> names;    // per node
  std::vector<std::string> sites;    // per node: its object's site label (allocation, field)
  std::vector<std::string> fields;   // per node: the field's simple name, "ELM" (field nodes)
  std::vector<std::string> statics;  // per node: BINARYCLASS.FIELD (static nodes)
  std::multimap<std::string, uint32_t> byName;
  std::vector<uint32_t> nodes(const std::string& name) const;
};

// Every edge (`ci`/`cs SRC -> DST FREQ BYTES`, as an expected file writes it), the NATH
// sites, the top clone pairs and chains, the flat and cumulative copies and the cuts: for
// finding out why a run differs from its expected file.
std::string dump(const NamedGraph& g);

}  // namespace dragnet::test::flow
