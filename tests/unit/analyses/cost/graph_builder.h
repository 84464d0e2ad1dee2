// A hand-made G_cost for mode cost's model tests: program nodes, then their instances with
// frequencies, dependences, effects and points-to facts (all at slot 0 unless given).
#pragma once

#include <cstdint>

#include "analyses/cost/model/graph.h"

namespace dragnet::test::cost {

using namespace dragnet::analyses::cost;

struct GraphBuilder {
  GraphInput in;

  GraphBuilder() { in.defs.resize(1); }  // id 0 unused

  // A program node of method `method`; returns its id.
  uint32_t node(NodeKind kind, uint32_t field = 0, uint32_t site = 0, uint32_t method = 1) {
    NodeDef d;
    d.kind = kind;
    d.method = method;
    d.index = static_cast<uint32_t>(in.defs.size());
    d.line = static_cast<int32_t>(in.defs.size());
    d.field = field;
    d.site = site;
    in.defs.push_back(d);
    return static_cast<uint32_t>(in.defs.size() - 1);
  }
  // A node together with its instance at slot 0 that ran `freq` times.
  uint32_t ran(NodeKind kind, uint64_t freq, uint32_t field = 0, uint32_t site = 0) {
    uint32_t n = node(kind, field, site);
    in.freq.push_back({{n, 0}, freq});
    return n;
  }
  // dst depends on src (both at slot 0).
  void dep(uint32_t dst, uint32_t src) { in.edges.push_back({{dst, 0}, {src, 0}}); }
  void effect(uint32_t n, Object o) { in.effects.push_back({{n, 0}, o}); }
};

}  // namespace dragnet::test::cost
