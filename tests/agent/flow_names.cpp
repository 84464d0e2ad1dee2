#include "flow_names.h"

#include <algorithm>
#include <set>
#include <sstream>
#include <tuple>

namespace dragnet::test::flow {

namespace copy = dragnet::analyses::copy;
namespace profile = dragnet::profile;

namespace {

std::string binaryName(std::string internal) {
  std::replace(internal.begin(), internal.end(), '/', '.');
  return internal;
}

// `<what#N>`: a name no expected file uses. (Strings here are built by appending: GCC 12
// misreports -Wrestrict on "literal" + std::string.)
std::string placeholder(const char* what, uint32_t n) {
  std::string s("<");
  s.append(what).append("#").append(std::to_string(n)).append(">");
  return s;
}

// Sites the JVM or native code made have no instruction of their own.

bool isInstructionSite(const profile::SiteDef& s) {
  return s.method != 0 && s.kind != profile::SiteKind::Vm && s.kind != profile::SiteKind::Jni;
}

}  // namespace

SiteLabels::SiteLabels(const profile::Profile& p) {
  // The allocation instructions of each (method, line), by bytecode offset: a
  // multianewarray's levels and a dynamic site's runtime classes share theirs.
  std::map<std::pair<uint32_t, int32_t>, std::set<uint32_t>> offsets;
  for (const auto& [key, s] : p.sites) {
    if (isInstructionSite(s)) offsets[{s.method, s.line}].insert(s.bci);
  }
  for (const auto& [key, s] : p.sites) {
    uint32_t index = profile::siteIndexOf(key);
    if (!isInstructionSite(s)) {
      labels_[index] = placeholder(s.kind == profile::SiteKind::Vm ? "vm" : "jni", index);
      continue;
    }
    auto m = p.methods.find(s.method);
    std::string file = m == p.methods.end() || m->second.source.empty() ? "?" : m->second.source;
    std::string label = file;
    label.append(":").append(std::to_string(s.line));
    const std::set<uint32_t>& same = offsets[{s.method, s.line}];
    if (same.size() > 1) {
      label.append("#").append(std::to_string(std::distance(same.begin(), same.find(s.bci)) + 1));
    }
    labels_[index] = label;
  }
}

std::string SiteLabels::label(uint32_t site) const {
  if (site == 0) return "<unknown>";
  auto it = labels_.find(site);
  return it == labels_.end() ? placeholder("site", site) : it->second;
}

std::string methodName(const profile::Profile& p, uint32_t method) {
  auto it = p.methods.find(method);
  if (it == p.methods.end()) return placeholder("method", method);
  const profile::MethodDef& m = it->second;
  return binaryName(m.cls).append(".").append(m.name).append(m.descriptor);
}

NamedGraph::NamedGraph(const copy::Model& m, copy::Naming n, const SiteLabels& labels)
    : model(m), graph(m.view(n).graph), view(m.view(n)) {
  const size_t count = graph.nodes().size();
  names.resize(count);
  sites.resize(count);
  fields.resize(count);
  statics.resize(count);
  auto fieldDef = [&](uint32_t id) -> const profile::FieldDef* {
    auto it = m.profile->fields.find(id);
    return it == m.profile->fields.end() ? nullptr : &it->second;
  };
  for (uint32_t i = 0; i < count; ++i) {
    const copy::Node& node = graph.node(i);
    if (node.kind == copy::NodeKind::Consumer) {
      names[i].assign(1, 'C');
    } else if (node.kind == copy::NodeKind::Static) {
      const profile::FieldDef* f = fieldDef(node.field);
      statics[i] =
          f ? binaryName(f->cls).append(".").append(f->name) : placeholder("field", node.field);
      names[i] = std::string("static:").append(statics[i]);
    } else {
      sites[i] = labels.label(node.object.site);
      names[i] = sites[i];
      if (n == copy::Naming::Sensitive && node.object.site != 0 && node.object.context != 0) {
        names[i].append("@").append(labels.label(node.object.context));
      }
      if (node.kind == copy::NodeKind::Field) {
        const profile::FieldDef* f = fieldDef(node.field);
        fields[i] = node.field == profile::kElmField ? "ELM"
                    : f                              ? f->name
                                                     : placeholder("field", node.field);
        names[i].append(".").append(fields[i]);
      }
    }
    byName.emplace(names[i], i);
  }
}

std::vector<uint32_t> NamedGraph::nodes(const std::string& name) const {
  std::vector<uint32_t> v;
  auto [b, e] = byName.equal_range(name);
  for (auto it = b; it != e; ++it) v.push_back(it->second);
  return v;
}

std::string dump(const NamedGraph& g) {
  const bool ci = g.graph.naming() == copy::Naming::Insensitive;
  const std::string naming = ci ? "ci " : "cs ";
  std::ostringstream s;
  for (const copy::Edge& e : g.graph.edges()) {
    s << naming << g.names[e.src] << " -> " << g.names[e.dst] << "  " << e.freq << "  " << e.bytes
      << "\n";
  }
  for (const copy::NathRow& r : g.view.nath) {
    s << "nath " << naming << g.names[r.node] << "  " << r.births << "\n";
  }
  for (size_t i = 0; i < g.view.clones.top.size() && i < 20; ++i) {
    const copy::ClonePair& p = g.view.clones.top[i];
    s << "clone " << naming << g.names[p.from] << " " << g.names[p.to] << "  " << p.volume << "\n";
  }
  for (size_t i = 0; i < g.view.chains.top.size() && i < 20; ++i) {
    const copy::Chain& c = g.view.chains.top[i];
    s << "chain " << naming;
    for (size_t k = 0; k < c.nodes.size(); ++k) s << (k ? " -> " : "") << g.names[c.nodes[k]];
    s << "  " << c.freq << " " << c.bytes << " " << c.length() << " " << c.wf << "\n";
  }
  if (!ci) return s.str();
  const profile::Profile& p = *g.model.profile;
  for (const copy::MethodCopies& m : g.model.copies.methods) {
    s << "flat " << methodName(p, m.method) << "  " << m.self << "\ncumulative "
      << methodName(p, m.method) << "  " << m.total << "\n";
  }
  for (const auto& [method, count] : g.model.cuts) {
    s << "cut " << methodName(p, method) << "  " << count << "\n";
  }
  return s.str();
}

}  // namespace dragnet::test::flow
