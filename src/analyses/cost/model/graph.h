// Mode cost, analyzer side (docs/FLOW-DESIGN.md, "Cost-benefit analysis: the model"): the
// abstract cost graph G_cost of Xu et al. sec. 4.1 as recorded, and its instances as dense
// indices with predecessor and successor lists. GraphInput is what a recording gives (a
// loader from profile chunks fills it); InstanceGraph is what the analyses walk.
#pragma once

#include <compare>
#include <cstdint>
#include <limits>
#include <span>
#include <tuple>
#include <utility>
#include <vector>

namespace dragnet::analyses::cost {

// The kind of program node (one per instrumented instruction that makes a node).
enum class NodeKind : uint8_t {
  Alloc,        // new, newarray, anewarray, multianewarray, summarised allocations: effect 'U'
  LoadField,    // getfield, xaload: reads an instance field / array element ('C')
  StoreField,   // putfield, xastore: writes one ('B')
  LoadStatic,   // getstatic: reads a static field
  StoreStatic,  // putstatic: writes one
  Compute,      // arithmetic, conversions, compares, instanceof, iinc, arraylength
  Assign,       // a local store of a value straight from a local, a constant or a call result
  Predicate,    // if*, switches: consumer, no context
  Native,       // a call of a native or summarised method: consumer (and producer of its
                // result), no context
};

struct NodeDef {  // a program node, index = id (id 0 unused)
  NodeKind kind = NodeKind::Compute;
  uint32_t method = 0;  // method id (names come from elsewhere)
  uint32_t index = 0;   // bytecode offset of the instruction in the method
  int32_t line = -1;
  uint32_t field = 0;  // Load/Store*: field id (1 = ELM, array elements); statics: the static
                       // field's id
  uint32_t site = 0;   // Alloc: allocation site index
  bool contextless() const { return kind == NodeKind::Predicate || kind == NodeKind::Native; }
  bool readsHeap() const { return kind == NodeKind::LoadField || kind == NodeKind::LoadStatic; }
  bool writesHeap() const { return kind == NodeKind::StoreField || kind == NodeKind::StoreStatic; }
  bool consumer() const { return contextless(); }
};

inline constexpr uint32_t kElmField = 1;  // NodeDef::field of array element accesses

// An object name: (new X)^h(c), the allocation site and the slot of its allocation's context.
struct Object {
  uint32_t site = 0;
  uint32_t slot = 0;
  auto operator<=>(const Object&) const = default;
};

// A node instance a^h(c); contextless nodes have slot 0.
struct Inst {
  uint32_t node = 0;
  uint32_t slot = 0;
  auto operator<=>(const Inst&) const = default;
};

struct GraphInput {
  uint32_t slots = 16;                           // s
  std::vector<NodeDef> defs;                     // by id
  std::vector<std::pair<Inst, uint64_t>> freq;   // instance -> execution count (every
                                                 // instance that ran)
  std::vector<std::pair<Inst, Inst>> edges;      // dst depends on src (dst ▷ src),
                                                 // deduplicated or not
  std::vector<std::pair<Inst, Object>> effects;  // a LoadField/StoreField instance accessed a
                                                 // field of that object (the H relation; the
                                                 // field is the def's)
  struct PointsTo {
    Object base;
    uint32_t field;
    Object value;
  };
  std::vector<PointsTo> pointsTo;                   // a reference stored in base.field named value
  std::vector<std::pair<Object, uint64_t>> births;  // objects allocated per name
  // distinct raw contexts (chain values g) per (method, slot), for the conflict ratio
  std::vector<std::tuple<uint32_t /*method*/, uint32_t /*slot*/, uint32_t /*distinct chains*/>>
      chains;
};

inline constexpr uint32_t kNone = std::numeric_limits<uint32_t>::max();

// The instances of a GraphInput as dense indices 0..size()-1, in (node, slot) order, with
// their frequencies and the deduplicated dependence edges in both directions. Instances are
// those of `freq` and every end of an edge or effect (frequency 0 when it has none);
// frequencies of an instance listed twice add up. An instance of node 0 or of a node without
// a def is dropped with its edges and effects (counted in dropped()); a contextless node's
// slot is taken as 0. It reads the input's defs: their buffer must outlive it.
class InstanceGraph {
 public:
  explicit InstanceGraph(const GraphInput& in);

  uint32_t size() const { return static_cast<uint32_t>(insts_.size()); }
  Inst inst(uint32_t v) const { return insts_[v]; }
  const NodeDef& def(uint32_t v) const { return defs_[insts_[v].node]; }
  uint64_t freq(uint32_t v) const { return freq_[v]; }
  uint32_t find(Inst i) const;  // kNone when absent
  // Instances whose value v flows into (they depend on v), ascending.
  std::span<const uint32_t> succs(uint32_t v) const { return span(succ_, succBegin_, v); }
  // Instances v depends on, ascending.
  std::span<const uint32_t> preds(uint32_t v) const { return span(pred_, predBegin_, v); }
  uint64_t edges() const { return succ_.size(); }  // distinct (src, dst) pairs
  uint64_t dropped() const { return dropped_; }    // freq entries and edges naming no def

  // The canonical form of an instance of the input (contextless: slot 0); node 0 when the
  // node has no def.
  Inst canonical(Inst i) const;

 private:
  static std::span<const uint32_t> span(const std::vector<uint32_t>& xs,
                                        const std::vector<uint32_t>& begin, uint32_t v) {
    return {xs.data() + begin[v], xs.data() + begin[v + 1]};
  }

  std::span<const NodeDef> defs_;  // the input's (its buffer survives a move of the input)
  std::vector<Inst> insts_;
  std::vector<uint64_t> freq_;
  std::vector<uint32_t> succ_, succBegin_, pred_, predBegin_;
  uint64_t dropped_ = 0;
};

}  // namespace dragnet::analyses::cost
