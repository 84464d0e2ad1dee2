// Mode copy, analyzer side: the copy graph (Xu et al. Def. 3.2) of a profile's merged flow
// edges, in one of two object namings. Nodes: the consumer C (node 0), allocation nodes
// (producers: no incoming edges), instance-field and array-element nodes of an object, and
// static-field nodes. An edge carries its frequency and the bytes of one copy.
//
// Naming: an object is its allocation site (index, as in profile::siteIndexOf) and, in the
// 1-object-sensitive naming, a context: the receiver's allocation site index (flow.slots=0,
// exact) or its slot (receiver site mod flow.slots). The insensitive naming drops the
// context. Site 0 is the unknown object (tag 0, or a tag without a name).
#pragma once

#include <compare>
#include <cstdint>
#include <functional>
#include <limits>
#include <span>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "profile/layouts.h"
#include "profile/reader.h"

namespace dragnet::analyses::copy {

using profile::Layouts;

// The recording's parameters (meta; defaults when missing or malformed).
struct Settings {
  uint32_t slots = 16;    // flow.slots: 0 exact contexts, 1 insensitive only, else s slots
  uint32_t refBytes = 4;  // flow.refBytes: bytes of a reference field or element
};
Settings settingsOf(const profile::Profile& p);

enum class Naming : uint8_t { Insensitive, Sensitive };

struct Object {
  uint32_t site = 0;     // 0: unknown
  uint32_t context = 0;  // sensitive naming: receiver's site (slots=0) or slot; else 0
  auto operator<=>(const Object&) const = default;
};

enum class NodeKind : uint8_t { Consumer, Alloc, Field, Static };

struct Node {
  NodeKind kind = NodeKind::Consumer;
  Object object;       // Alloc, Field
  uint32_t field = 0;  // Field: field id (profile::kElmField: ELM); Static: the field's id
  bool isHeap() const { return kind == NodeKind::Field || kind == NodeKind::Static; }
  auto operator<=>(const Node&) const = default;
};

struct NodeHash {
  size_t operator()(const Node& n) const {
    uint64_t a = uint64_t{n.object.site} << 32 | n.object.context;
    uint64_t b = uint64_t{n.field} << 8 | static_cast<uint8_t>(n.kind);
    return std::hash<uint64_t>()(a * 0x9E3779B97F4A7C15ull ^ b);
  }
};

struct Edge {
  uint32_t src = 0, dst = 0;  // node indices
  uint64_t freq = 0;
  uint32_t bytes = 0;  // per copy: 1, 2, 4 or 8; 0 when the type is not known
  uint64_t volume() const { return freq * bytes; }
};

inline constexpr uint32_t kConsumer = 0;  // C is node 0 of every graph
inline constexpr uint32_t kNoNode = std::numeric_limits<uint32_t>::max();

class Graph {
 public:
  explicit Graph(Naming naming);

  Naming naming() const { return naming_; }
  const std::vector<Node>& nodes() const { return nodes_; }
  const Node& node(uint32_t n) const { return nodes_[n]; }
  const std::vector<Edge>& edges() const { return edges_; }  // by (src, dst)
  std::span<const Edge> out(uint32_t n) const;               // edges leaving n, by dst
  std::span<const uint32_t> in(uint32_t n) const;            // indices into edges()
  uint32_t find(const Node& n) const;                        // kNoNode when absent
  uint32_t allocOf(Object o) const { return find({NodeKind::Alloc, o, 0}); }
  // Objects allocated at an allocation node while recording (0 for other nodes).
  uint64_t births(uint32_t n) const { return births_[n]; }
  // The edge src -> dst, or null.
  const Edge* edge(uint32_t src, uint32_t dst) const;

  // Building: nodes are interned (a field node's object's allocation node with it); an
  // edge's frequencies add up, its bytes are the largest given. finish() orders the edges and
  // indexes them; nothing may be added after it.
  uint32_t intern(const Node& n);
  void addEdge(uint32_t src, uint32_t dst, uint64_t freq, uint32_t bytes);
  void addBirths(Object o, uint64_t count);
  void finish();

 private:
  Naming naming_;
  std::vector<Node> nodes_;
  std::vector<uint64_t> births_;
  std::unordered_map<Node, uint32_t, NodeHash> index_;
  std::unordered_map<uint64_t, Edge> pending_;  // (src << 32 | dst) -> its edge
  std::vector<Edge> edges_;
  std::vector<uint32_t> outBegin_;  // edges of node n: [outBegin_[n], outBegin_[n + 1])
  std::vector<uint32_t> inEdges_, inBegin_;
};

// Whether `to` can be reached from `from` along edges.
bool reaches(const Graph& g, uint32_t from, uint32_t to);

// Allocation site definitions by site index.
using SiteIndex = std::unordered_map<uint32_t, const profile::SiteDef*>;
SiteIndex sitesByIndex(const profile::Profile& p);

// What building the graphs met that does not fit them.
struct GraphStats {
  uint64_t edges = 0;         // distinct (src, dst) pairs over all threads
  uint64_t dropped = 0;       // edges that cannot be: from bottom or C, to bottom or an
                              // allocation node, or of a field id not defined; clone
                              // records of a class without a layout
  uint64_t unknownEdges = 0;  // edges with an end in an unknown object (tag 0, unnamed)
};

struct Graphs {
  Graph insensitive{Naming::Insensitive};
  Graph sensitive{Naming::Sensitive};
  GraphStats stats;
};

// Both namings of the profile's flows, merged over its threads; births from its birth
// counts. Bytes per copy come from the destination's static type (a field's descriptor, an
// array's element type), from the source's when the destination is C, and are a reference's
// when the source is an allocation. Field nodes are the declaring class's fields
// (Layouts::canonical). An instance clone record (profile::kClonedField) is one copy
// (original, f) -> (copy, f) per instance field f of the copy's class (its site's type; the
// original's when the copy's site is not known), as often as the record's count.
Graphs buildGraphs(const profile::Profile& p, const Settings& s, const SiteIndex& sites,
                   const Layouts& layouts);

// The instance fields an Object.clone copies into an object of site `site` (its type's);
// null when the site or its class's layout is not known.
const std::vector<uint32_t>* clonedFields(const SiteIndex& sites, const Layouts& layouts,
                                          uint32_t site);

// Bytes of a value of type descriptor `d` ("I", "[J", "Ljava/lang/String;"); 0: unknown.
uint32_t bytesOfDescriptor(std::string_view d, uint32_t refBytes);

}  // namespace dragnet::analyses::copy
