// CostOracle of the spec (../shared/notes/bloat-analysis-spec.md section 2.2) as a
// hand-made G_cost: its G_cost built by hand from the bytecode of `javac --release 11` by the
// Fig. 12 rules and the spec's node mapping (tests/unit/analyses/cost/cost_oracle_test.cpp
// checks every value the spec lists; the cost reports' tests show it).
#pragma once

#include <cstdint>

#include "analyses/cost/model/graph.h"

namespace dragnet::test::cost {

using namespace dragnet::analyses::cost;

// Methods.
constexpr uint32_t kMain = 1, kListInit = 2, kFoo = 3, kGetT = 4, kAdd = 5;
// Allocation sites (named after their lines): IntList@19, A@20, int[]@14.
constexpr uint32_t kListSite = 19, kASite = 20, kArraySite = 14;
// Fields: A.t, IntList.arr, IntList.pos, System.out (static).
constexpr uint32_t kT = 10, kArr = 11, kPos = 12, kOut = 13;

// Program nodes (ids), with the bytecode each stands for.
enum : uint32_t {
  kNewList = 1,  // main@0   line 19  new IntList
  kNewA,         // main@8   line 20  new A
  kAssignV,      // main@27  line 22  istore_3 (v = a.getT(): a call result)
  kGetOut,       // main@33  line 24  getstatic System.out
  kNewArray,     // <init>@7 line 14  newarray int (its length, bipush 10, is a constant)
  kPutArr,       // <init>@9 line 14  putfield arr
  kAssignS,      // foo@1    line 6   istore_2 (s = 0)
  kAssignI,      // foo@3    line 7   istore_3 (i = 0)
  kIfCmp,        // foo@6    line 7   if_icmpge (i < n; n is the constant 1000: no node)
  kMul,          // foo@12   line 8   imul (i * 3)
  kAdd1,         // foo@13   line 8   iadd (s + ...); its istore_2 is not a node
  kInc,          // foo@15   line 7   iinc 3, 1
  kPutT,         // foo@23   line 10  putfield t
  kGetTField,    // getT@1   line 4   getfield t (returned: the return shadow passes it on)
  kGetArr,       // add@1    line 16  getfield arr (a base pointer: no successor)
  kGetPos,       // add@6    line 16  getfield pos (pos's default value: no producer)
  kAddPos,       // add@11   line 16  iadd (pos + 1; the old pos is an index: no successor)
  kPutPos,       // add@12   line 16  putfield pos
  kStoreElm,     // add@16   line 16  iastore (its value: v)
  kNodes
};

inline NodeDef def(NodeKind k, uint32_t method, uint32_t index, int32_t line, uint32_t field = 0,
                   uint32_t site = 0) {
  NodeDef d;
  d.kind = k;
  d.method = method;
  d.index = index;
  d.line = line;
  d.field = field;
  d.site = site;
  return d;
}

struct Oracle {
  uint32_t slots;
  // Contexts: main is static (chain g = 0); IntList's methods run on IntList@19 (g = 3·0 +
  // 19), A's on A@20 (g = 20); h = g mod s.
  uint32_t mainSlot() const { return 0; }
  uint32_t listSlot() const { return kListSite % slots; }
  uint32_t aSlot() const { return kASite % slots; }
  Object list() const { return {kListSite, mainSlot()}; }
  Object a() const { return {kASite, mainSlot()}; }
  Object array() const { return {kArraySite, listSlot()}; }
  Inst at(uint32_t node) const {
    switch (node) {
      case kNewList:
      case kNewA:
      case kAssignV:
      case kGetOut:
      case kIfCmp:  // a predicate: no context
        return {node, 0};
      case kNewArray:
      case kPutArr:
      case kGetArr:
      case kGetPos:
      case kAddPos:
      case kPutPos:
      case kStoreElm:
        return {node, listSlot()};
      default:
        return {node, aSlot()};
    }
  }
};

// The graph of a run with a.foo(n), n >= 1.
inline GraphInput costOracle(uint32_t n, uint32_t slots) {
  Oracle o{slots};
  GraphInput in;
  in.slots = slots;
  in.defs.resize(kNodes);
  in.defs[kNewList] = def(NodeKind::Alloc, kMain, 0, 19, 0, kListSite);
  in.defs[kNewA] = def(NodeKind::Alloc, kMain, 8, 20, 0, kASite);
  in.defs[kAssignV] = def(NodeKind::Assign, kMain, 27, 22);
  in.defs[kGetOut] = def(NodeKind::LoadStatic, kMain, 33, 24, kOut);
  in.defs[kNewArray] = def(NodeKind::Alloc, kListInit, 7, 14, 0, kArraySite);
  in.defs[kPutArr] = def(NodeKind::StoreField, kListInit, 9, 14, kArr);
  in.defs[kAssignS] = def(NodeKind::Assign, kFoo, 1, 6);
  in.defs[kAssignI] = def(NodeKind::Assign, kFoo, 3, 7);
  in.defs[kIfCmp] = def(NodeKind::Predicate, kFoo, 6, 7);
  in.defs[kMul] = def(NodeKind::Compute, kFoo, 12, 8);
  in.defs[kAdd1] = def(NodeKind::Compute, kFoo, 13, 8);
  in.defs[kInc] = def(NodeKind::Compute, kFoo, 15, 7);
  in.defs[kPutT] = def(NodeKind::StoreField, kFoo, 23, 10, kT);
  in.defs[kGetTField] = def(NodeKind::LoadField, kGetT, 1, 4, kT);
  in.defs[kGetArr] = def(NodeKind::LoadField, kAdd, 1, 16, kArr);
  in.defs[kGetPos] = def(NodeKind::LoadField, kAdd, 6, 16, kPos);
  in.defs[kAddPos] = def(NodeKind::Compute, kAdd, 11, 16);
  in.defs[kPutPos] = def(NodeKind::StoreField, kAdd, 12, 16, kPos);
  in.defs[kStoreElm] = def(NodeKind::StoreField, kAdd, 16, 16, kElmField);

  for (uint32_t node = 1; node < kNodes; ++node) {
    uint64_t f = 1;
    if (node == kIfCmp) f = n + 1;
    if (node == kMul || node == kAdd1 || node == kInc) f = n;
    in.freq.push_back({o.at(node), f});
  }
  auto dep = [&](uint32_t dst, uint32_t src) { in.edges.push_back({o.at(dst), o.at(src)}); };
  dep(kPutArr, kNewArray);
  dep(kIfCmp, kAssignI);  // the first test reads i = 0, the others i after iinc
  dep(kIfCmp, kInc);
  dep(kMul, kAssignI);
  dep(kInc, kAssignI);
  dep(kAdd1, kAssignS);
  dep(kAdd1, kMul);
  if (n >= 2) {  // later iterations read the previous iteration's i and s
    dep(kMul, kInc);
    dep(kInc, kInc);
    dep(kAdd1, kAdd1);
  }
  dep(kPutT, kAdd1);
  dep(kGetTField, kPutT);
  dep(kAssignV, kGetTField);
  dep(kStoreElm, kAssignV);
  dep(kGetArr, kPutArr);  // LOAD FIELD: the node depends on the location's last writer
  dep(kAddPos, kGetPos);
  dep(kPutPos, kAddPos);
  dep(kMul, kAssignI);  // listed twice: edges need not be deduplicated

  in.effects = {{o.at(kPutArr), o.list()},   {o.at(kPutT), o.a()},      {o.at(kGetTField), o.a()},
                {o.at(kGetArr), o.list()},   {o.at(kGetPos), o.list()}, {o.at(kPutPos), o.list()},
                {o.at(kStoreElm), o.array()}};
  in.pointsTo = {{o.list(), kArr, o.array()}};
  in.births = {{o.list(), 1}, {o.a(), 1}, {o.array(), 1}};
  in.chains = {{kMain, o.mainSlot(), 1},
               {kListInit, o.listSlot(), 1},
               {kFoo, o.aSlot(), 1},
               {kGetT, o.aSlot(), 1},
               {kAdd, o.listSlot(), 1}};
  return in;
}

}  // namespace dragnet::test::cost
