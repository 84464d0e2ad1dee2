// The cost reports' test input: CostOracle's hand-made G_cost (cost_oracle.h, the model's
// tests' fixture) with a profile that names its ids (methods, allocation sites, fields, as the
// loader's profile would), and a small graph with a consumed location (a field read by a
// loop test) for the consumer rule.
#pragma once

#include <memory>

#include "analyses/cost/model/model.h"
#include "analyses/cost/report/report.h"
#include "cost_oracle.h"
#include "graph_builder.h"
#include "profile/reader.h"

namespace dragnet::test::cost {

inline void addMethod(profile::Profile& p, uint32_t id, const char* cls, const char* name) {
  p.methods[id] = {id, cls, name, "()V", "CostOracle.java"};
}

inline void addSite(profile::Profile& p, uint32_t index, uint32_t method, int32_t line,
                    const char* type, profile::SiteKind kind = profile::SiteKind::New) {
  uint32_t key = profile::kAllocBit | index << 4 | static_cast<uint32_t>(kind);
  profile::SiteDef s;
  s.key = key;
  s.method = method;
  s.line = line;
  s.kind = kind;
  s.type = type;
  p.sites[key] = s;
}

inline void addField(profile::Profile& p, uint32_t id, const char* cls, const char* name,
                     const char* descriptor, bool isStatic = false) {
  p.fields[id] = {id, cls, name, descriptor, isStatic};
}

// CostOracle's names: CostOracle.main, IntList.<init>, A.foo, A.getT, IntList.add; the sites
// IntList@19, A@20, int[]@14; the fields A.t, IntList.arr, IntList.pos, System.out.
inline profile::Profile oracleProfile() {
  profile::Profile p;
  p.meta = {{"mode", "cost"}, {"pid", "4242"}};
  p.complete = true;
  addMethod(p, kMain, "CostOracle", "main");
  addMethod(p, kListInit, "CostOracle$IntList", "<init>");
  addMethod(p, kFoo, "CostOracle$A", "foo");
  addMethod(p, kGetT, "CostOracle$A", "getT");
  addMethod(p, kAdd, "CostOracle$IntList", "add");
  addSite(p, kListSite, kMain, 19, "CostOracle$IntList");
  addSite(p, kASite, kMain, 20, "CostOracle$A");
  addSite(p, kArraySite, kListInit, 14, "[I", profile::SiteKind::NewArray);
  addField(p, kT, "CostOracle$A", "t", "I");
  addField(p, kArr, "CostOracle$IntList", "arr", "[I");
  addField(p, kPos, "CostOracle$IntList", "pos", "I");
  addField(p, kOut, "java/lang/System", "out", "Ljava/io/PrintStream;", true);
  return p;
}

// A field B.flag (id 21) of an object of site 30 (method 1), written once from a value
// computed 5 times and read 3 times by a loop test that runs 3 times: RAC 6 (putfield +
// compute), mean HRAB 6 (getfield + predicate), consumed. Nodes: 1 compute, 2 putfield,
// 3 getfield, 4 predicate, 5 new B.
constexpr uint32_t kFlag = 21, kBSite = 30;
inline GraphInput consumedGraph() {
  GraphBuilder b;
  b.in.slots = 1;
  uint32_t compute = b.ran(NodeKind::Compute, 5);
  uint32_t put = b.ran(NodeKind::StoreField, 1, kFlag);
  uint32_t get = b.ran(NodeKind::LoadField, 3, kFlag);
  uint32_t test = b.ran(NodeKind::Predicate, 3);
  b.ran(NodeKind::Alloc, 1, 0, kBSite);
  b.dep(put, compute);
  b.dep(get, put);
  b.dep(test, get);
  b.effect(put, {kBSite, 0});
  b.effect(get, {kBSite, 0});
  b.in.births = {{{kBSite, 0}, 1}};
  return b.in;
}

inline profile::Profile consumedProfile() {
  profile::Profile p;
  p.meta = {{"mode", "cost"}};
  p.complete = true;
  addMethod(p, 1, "app/B", "run");
  addSite(p, kBSite, 1, 7, "app/B");
  addField(p, kFlag, "app/B", "flag", "Z");
  return p;
}

// A model with its report (the profile outlives both).
struct Built {
  std::unique_ptr<CostModel> model;
  report::CostReport report;
};
inline Built build(const profile::Profile& p, GraphInput in, Options o = {},
                   analyses::cost::Totals t = {}) {
  Built b;
  b.model = std::make_unique<CostModel>(std::move(in), o);
  b.report = {&p, b.model.get(), {.slots = b.model->input().slots, .elementShadows = true}, t};
  return b;
}

}  // namespace dragnet::test::cost
