#include "analyses/copy/model/graph.h"

#include <algorithm>
#include <charconv>
#include <map>
#include <optional>
#include <string>

namespace dragnet::analyses::copy {

using profile::FlowKind;

Settings settingsOf(const profile::Profile& p) {
  Settings s;
  if (auto v = profile::metaNumber(p, "flow.slots"); v && *v <= 32)
    s.slots = static_cast<uint32_t>(*v);
  if (auto v = profile::metaNumber(p, "flow.refBytes"); v && (*v == 4 || *v == 8))
    s.refBytes = static_cast<uint32_t>(*v);
  return s;
}

Graph::Graph(Naming naming) : naming_(naming) { intern({NodeKind::Consumer, {}, 0}); }

uint32_t Graph::intern(const Node& n) {
  // Objects are allocation nodes (clones, NATH): a field's object gets one, even when
  // nothing was recorded of its allocation.
  if (n.kind == NodeKind::Field) intern({NodeKind::Alloc, n.object, 0});
  auto [it, fresh] = index_.try_emplace(n, static_cast<uint32_t>(nodes_.size()));
  if (fresh) {
    nodes_.push_back(n);
    births_.push_back(0);
  }
  return it->second;
}

uint32_t Graph::find(const Node& n) const {
  auto it = index_.find(n);
  return it == index_.end() ? kNoNode : it->second;
}

void Graph::addEdge(uint32_t src, uint32_t dst, uint64_t freq, uint32_t bytes) {
  auto [it, fresh] = pending_.try_emplace(uint64_t{src} << 32 | dst, Edge{src, dst, 0, 0});
  it->second.freq += freq;
  it->second.bytes = std::max(it->second.bytes, bytes);
}

void Graph::addBirths(Object o, uint64_t count) {
  births_[intern({NodeKind::Alloc, o, 0})] += count;
}

void Graph::finish() {
  edges_.clear();
  edges_.reserve(pending_.size());
  for (const auto& [key, e] : pending_) edges_.push_back(e);
  std::sort(edges_.begin(), edges_.end(), [](const Edge& a, const Edge& b) {
    return a.src != b.src ? a.src < b.src : a.dst < b.dst;
  });
  pending_.clear();
  size_t n = nodes_.size();
  outBegin_.assign(n + 1, 0);
  inBegin_.assign(n + 1, 0);
  for (const Edge& e : edges_) {
    ++outBegin_[e.src + 1];
    ++inBegin_[e.dst + 1];
  }
  for (size_t i = 0; i < n; ++i) {
    outBegin_[i + 1] += outBegin_[i];
    inBegin_[i + 1] += inBegin_[i];
  }
  inEdges_.assign(edges_.size(), 0);
  std::vector<uint32_t> fill(inBegin_.begin(), inBegin_.end() - 1);
  for (uint32_t i = 0; i < edges_.size(); ++i) inEdges_[fill[edges_[i].dst]++] = i;
}

std::span<const Edge> Graph::out(uint32_t n) const {
  return std::span<const Edge>(edges_).subspan(outBegin_[n], outBegin_[n + 1] - outBegin_[n]);
}

std::span<const uint32_t> Graph::in(uint32_t n) const {
  return std::span<const uint32_t>(inEdges_).subspan(inBegin_[n], inBegin_[n + 1] - inBegin_[n]);
}

const Edge* Graph::edge(uint32_t src, uint32_t dst) const {
  std::span<const Edge> es = out(src);
  auto it = std::lower_bound(es.begin(), es.end(), dst,
                             [](const Edge& e, uint32_t d) { return e.dst < d; });
  return it != es.end() && it->dst == dst ? &*it : nullptr;
}

bool reaches(const Graph& g, uint32_t from, uint32_t to) {
  std::vector<bool> seen(g.nodes().size());
  std::vector<uint32_t> work{from};
  seen[from] = true;
  while (!work.empty()) {
    uint32_t n = work.back();
    work.pop_back();
    for (const Edge& e : g.out(n)) {
      if (e.dst == to) return true;
      if (!seen[e.dst]) {
        seen[e.dst] = true;
        work.push_back(e.dst);
      }
    }
  }
  return false;
}

SiteIndex sitesByIndex(const profile::Profile& p) {
  SiteIndex out;
  for (const auto& [key, def] : p.sites) out.emplace(profile::siteIndexOf(key), &def);
  return out;
}

uint32_t bytesOfDescriptor(std::string_view d, uint32_t refBytes) {
  if (d.empty()) return 0;
  switch (d[0]) {
    case 'Z':
    case 'B':
      return 1;
    case 'C':
    case 'S':
      return 2;
    case 'I':
    case 'F':
      return 4;
    case 'J':
    case 'D':
      return 8;
    case 'L':
    case '[':
      return refBytes;
    default:
      return 0;
  }
}

namespace {

// Turns the profile's nodes into both namings' nodes, and types them.
class Namer {
 public:
  Namer(const profile::Profile& p, const Settings& s, const SiteIndex& sites,
        const Layouts& layouts)
      : p_(p), s_(s), sites_(sites), layouts_(layouts) {}

  // An object of tag `tag`, sensitive naming (nullopt: unknown).
  std::optional<Object> object(uint32_t tag) const {
    if (tag == 0) return std::nullopt;
    if (s_.slots == 0) {
      auto it = p_.objectNames.find(tag);
      if (it == p_.objectNames.end()) return std::nullopt;
      return Object{it->second.site, it->second.context};
    }
    return Object{tag & profile::kTagSiteMask, tag >> profile::kTagSiteBits};
  }

  // The sensitive node of profile node `n` (nullopt: no node of a copy graph); `unknown`
  // is set when it is an object's that has no name.
  std::optional<Node> node(uint64_t n, bool& unknown) const {
    uint32_t field = profile::flowField(n);
    switch (profile::flowKind(n)) {
      case FlowKind::Bottom:
        return std::nullopt;
      case FlowKind::Consumer:
        return Node{NodeKind::Consumer, {}, 0};
      case FlowKind::Static:
        if (!p_.fields.count(field)) return std::nullopt;
        return Node{NodeKind::Static, {}, field};
      case FlowKind::Object:
        break;
    }
    if (field > profile::kElmField && !p_.fields.count(field)) return std::nullopt;
    std::optional<Object> o = object(profile::flowTag(n));
    unknown = unknown || !o;
    if (field > profile::kElmField) field = layouts_.canonical(field);
    return Node{field == 0 ? NodeKind::Alloc : NodeKind::Field, o.value_or(Object{}), field};
  }

  // The instance fields an Object.clone copied from object `orig` into object `made`: the
  // copy's class's, else the original's (null: neither is known).
  const std::vector<uint32_t>* fieldsCloned(std::optional<Object> orig,
                                            std::optional<Object> made) const {
    const std::vector<uint32_t>* f = nullptr;
    if (made) f = clonedFields(sites_, layouts_, made->site);
    if (!f && orig) f = clonedFields(sites_, layouts_, orig->site);
    return f;
  }

  // The descriptor of the values a heap node holds ("" if not known).
  std::string_view type(const Node& n) const {
    if (n.kind == NodeKind::Static ||
        (n.kind == NodeKind::Field && n.field != profile::kElmField)) {
      auto it = p_.fields.find(n.field);
      return it == p_.fields.end() ? std::string_view() : std::string_view(it->second.descriptor);
    }
    if (n.kind != NodeKind::Field) return {};
    auto it = sites_.find(n.object.site);
    if (it == sites_.end() || !it->second->type.starts_with('[')) return {};
    return std::string_view(it->second->type).substr(1);
  }

  uint32_t bytes(const Node& src, const Node& dst) const {
    if (src.kind == NodeKind::Alloc) return s_.refBytes;
    return bytesOfDescriptor(type(dst.kind == NodeKind::Consumer ? src : dst), s_.refBytes);
  }

  // The sensitive object of a birth: its context is the receiver's site, or its slot.
  Object birth(uint32_t site, uint32_t receiver) const {
    return {site, s_.slots == 0 ? receiver : receiver % s_.slots};
  }

 private:
  const profile::Profile& p_;
  const Settings& s_;
  const SiteIndex& sites_;
  const Layouts& layouts_;
};

Node insensitive(Node n) {
  n.object.context = 0;
  return n;
}

void addToBoth(Graphs& out, const Node& src, const Node& dst, uint64_t count, uint32_t bytes) {
  for (Graph* g : {&out.sensitive, &out.insensitive}) {
    Node a = g == &out.sensitive ? src : insensitive(src);
    Node b = g == &out.sensitive ? dst : insensitive(dst);
    uint32_t from = g->intern(a);
    g->addEdge(from, g->intern(b), count, bytes);
  }
}

bool isCloneRecord(uint64_t dst) {
  return profile::flowKind(dst) == FlowKind::Consumer &&
         profile::flowField(dst) == profile::kClonedField;
}

// An instance clone record: one copy per field of the class, the original's field to the
// copy's. Only an original's allocation node can be its source.
void expandClone(Graphs& out, const Namer& namer, uint64_t src, uint64_t dst, uint64_t count) {
  if (profile::flowKind(src) != FlowKind::Object || profile::flowField(src) != 0) {
    ++out.stats.dropped;
    return;
  }
  std::optional<Object> orig = namer.object(profile::flowTag(src));
  std::optional<Object> made = namer.object(profile::flowTag(dst));
  const std::vector<uint32_t>* fields = namer.fieldsCloned(orig, made);
  if (!fields) {
    ++out.stats.dropped;
    return;
  }
  if (!orig || !made) ++out.stats.unknownEdges;
  for (uint32_t f : *fields) {
    Node a{NodeKind::Field, orig.value_or(Object{}), f};
    Node b{NodeKind::Field, made.value_or(Object{}), f};
    addToBoth(out, a, b, count, namer.bytes(a, b));
  }
}

}  // namespace

const std::vector<uint32_t>* clonedFields(const SiteIndex& sites, const Layouts& layouts,
                                          uint32_t site) {
  auto it = sites.find(site);
  return it == sites.end() ? nullptr : layouts.instanceFields(it->second->type);
}

Graphs buildGraphs(const profile::Profile& p, const Settings& s, const SiteIndex& sites,
                   const Layouts& layouts) {
  Graphs out;
  std::map<std::pair<uint64_t, uint64_t>, uint64_t> merged;
  for (const auto& [thread, flows] : p.flows) {
    for (const auto& [key, count] : flows.edges) merged[key] += count;
  }
  out.stats.edges = merged.size();
  Namer namer(p, s, sites, layouts);
  for (const auto& [key, count] : merged) {
    if (isCloneRecord(key.second)) {
      expandClone(out, namer, key.first, key.second, count);
      continue;
    }
    bool unknown = false;
    std::optional<Node> src = namer.node(key.first, unknown);
    std::optional<Node> dst = namer.node(key.second, unknown);
    if (!src || !dst || src->kind == NodeKind::Consumer || dst->kind == NodeKind::Alloc) {
      ++out.stats.dropped;
      continue;
    }
    if (unknown) ++out.stats.unknownEdges;
    addToBoth(out, *src, *dst, count, namer.bytes(*src, *dst));
  }
  for (const auto& [thread, flows] : p.flows) {
    for (const auto& [key, count] : flows.births) {
      Object o = namer.birth(key.first, key.second);
      out.sensitive.addBirths(o, count);
      out.insensitive.addBirths({o.site, 0}, count);
    }
  }
  out.sensitive.finish();
  out.insensitive.finish();
  return out;
}

}  // namespace dragnet::analyses::copy
