#include "contexts/model.h"

#include <algorithm>
#include <cstdlib>
#include <map>

#include "contexts/call_sites.h"

namespace dragnet::contexts {

using profile::Counters;
using profile::kRootKey;

namespace {

void add(Counters& into, const Counters& c) {
  into.count += c.count;
  into.elements += c.elements;
  into.bytes += c.bytes;
  into.insns += c.insns;
}

// "524288" (what the agent writes), or "512k" (its option's syntax) -> 524288; 0 if it
// does not parse.
uint64_t parseSize(const std::string& s) {
  size_t end = 0;
  uint64_t v = 0;
  while (end < s.size() && s[end] >= '0' && s[end] <= '9') v = v * 10 + (s[end++] - '0');
  std::string unit = s.substr(end);
  if (unit == "k" || unit == "K") return v << 10;
  if (unit == "m" || unit == "M") return v << 20;
  if (unit == "g" || unit == "G") return v << 30;
  return unit.empty() ? v : 0;
}

}  // namespace

AllocModel buildModel(const profile::Profile& p, ThreadNodes* threadNodes,
                      ThreadSelection threads) {
  AllocModel m;
  m.profile = &p;
  if (auto s = p.meta.find("sample"); s != p.meta.end()) {
    m.sampleInterval = parseSize(s->second);
  }
  m.nodes.push_back(MergedNode{});
  // (merged parent, key with its slot) -> node
  std::map<std::pair<uint32_t, uint64_t>, uint32_t> index;
  for (const auto& [id, t] : p.threads) {
    if (threads.only && !threads.only->contains(id)) continue;
    m.collapsed += t.collapsed;
    m.dropped += t.dropped;
    std::vector<uint32_t> map(t.nodes.size(), 0);  // thread node -> merged node
    if (threads.byThread) {                        // the thread's root: a node of its own
      map[0] = static_cast<uint32_t>(m.nodes.size());
      MergedNode n;
      n.key = 0;
      n.thread = id;
      m.nodes.push_back(n);
      m.nodes[0].children.push_back(map[0]);
    }
    for (uint32_t i = 1; i < t.nodes.size(); ++i) {
      uint32_t parent = map[t.nodes[i].parent];
      uint32_t key = t.nodes[i].key;
      uint8_t slot = t.nodes[i].slot;
      auto [it, fresh] = index.try_emplace({parent, uint64_t{slot} << 32 | key},
                                           static_cast<uint32_t>(m.nodes.size()));
      if (fresh) {
        MergedNode n;
        n.parent = parent;
        n.key = key;
        n.slot = slot;
        m.nodes.push_back(n);
        m.nodes[parent].children.push_back(it->second);
      }
      map[i] = it->second;
      if (i < t.counters.size()) add(m.nodes[it->second].c, t.counters[i]);
    }
    if (threadNodes) (*threadNodes)[id] = std::move(map);
  }
  CallLines lines(p);
  for (uint32_t i = 1; i < m.nodes.size(); ++i) {
    MergedNode& n = m.nodes[i];
    if (n.thread) continue;
    uint32_t parent = m.nodes[n.parent].key;
    if (n.parent != 0 && !profile::isAllocKey(n.key) && parent != profile::kLostKey) {
      n.callerLine = lines.line(parent, n.key, n.slot);
    }
    if (!profile::isAllocKey(n.key) || (n.key & 15) != 0) continue;
    // An object's bytes: count x its class's measured size; a sampled profile's come
    // estimated from the sampled objects' sizes.
    auto s = p.sites.find(n.key);
    auto size = s != p.sites.end() ? p.classSizes.find(s->second.type) : p.classSizes.end();
    n.bytesKnown = size != p.classSizes.end() || n.c.bytes > 0;
    if (n.c.bytes == 0) n.c.bytes = n.bytesKnown ? n.c.count * size->second : 0;
  }
  finishRows(m);
  return m;
}

void finishRows(AllocModel& m) {
  const profile::Profile& p = *m.profile;
  for (uint32_t i = 1; i < m.nodes.size(); ++i) {
    const MergedNode& n = m.nodes[i];
    if (n.thread) continue;
    if (!profile::isAllocKey(n.key)) {
      m.calls += n.c.count;
      m.insns += n.c.insns;
      continue;
    }
    SiteRow row;
    row.node = i;
    auto s = p.sites.find(n.key);
    row.site = s == p.sites.end() ? nullptr : &s->second;
    row.count = n.c.count;
    row.elements = n.c.elements;
    row.bytes = n.c.bytes;
    row.bytesKnown = n.bytesKnown;
    if ((n.key & 15) != 0) {
      m.arrays += n.c.count;
      m.elements += n.c.elements;
    } else {
      m.objects += n.c.count;
      if (!n.bytesKnown) m.unsizedObjects += n.c.count;
    }
    m.bytes += row.bytes;
    m.rows.push_back(row);
  }
  std::stable_sort(m.rows.begin(), m.rows.end(), [](const SiteRow& a, const SiteRow& b) {
    return a.bytes != b.bytes ? a.bytes > b.bytes : a.count > b.count;
  });
}

int32_t callerLine(const AllocModel& m, uint32_t node) { return m.nodes[node].callerLine; }

std::string siteTypeName(const profile::SiteDef* def, uint32_t site) {
  return def ? javaTypeName(def->type) : "<site #" + std::to_string(site) + ">";
}

std::string javaTypeName(std::string_view t) {
  size_t dims = 0;
  while (dims < t.size() && t[dims] == '[') ++dims;
  std::string base;
  std::string_view rest = t.substr(dims);
  if (dims == 0) {
    base = std::string(rest);
  } else if (rest.starts_with("L") && rest.ends_with(";")) {
    base = std::string(rest.substr(1, rest.size() - 2));
  } else if (rest.size() == 1) {
    switch (rest[0]) {
      case 'Z':
        base = "boolean";
        break;
      case 'B':
        base = "byte";
        break;
      case 'C':
        base = "char";
        break;
      case 'S':
        base = "short";
        break;
      case 'I':
        base = "int";
        break;
      case 'F':
        base = "float";
        break;
      case 'J':
        base = "long";
        break;
      case 'D':
        base = "double";
        break;
      default:
        base = std::string(rest);
    }
  } else {
    base = std::string(rest);
  }
  std::replace(base.begin(), base.end(), '/', '.');
  for (size_t i = 0; i < dims; ++i) base += "[]";
  return base;
}

std::string frameName(const profile::Profile& p, uint32_t methodId, int32_t line) {
  if (methodId == profile::kLostKey) return "<lost in a corrupt chunk>";
  auto it = p.methods.find(methodId);
  if (it == p.methods.end()) return "<unknown method #" + std::to_string(methodId) + ">";
  const profile::MethodDef& m = it->second;
  std::string s = javaTypeName(m.cls);
  s.append(".").append(m.name).append("(");
  s.append(m.source.empty() ? "Unknown Source" : m.source);
  if (line >= 0 && !m.source.empty()) s.append(":").append(std::to_string(line));
  s.append(")");
  return s;
}

std::string siteIndexName(const profile::Profile& p, const profile::SiteDef* def, uint32_t site) {
  if (site == 0) return "<unknown object>";
  if (def == nullptr) return "<site #" + std::to_string(site) + ">";
  std::string name = javaTypeName(def->type);
  name.append(" ");
  if (def->method == 0) return name.append("[").append(originName(def->kind)).append("]");
  return name.append(frameName(p, def->method, def->line));
}

std::string flowFieldName(const profile::Profile& p, uint32_t field) {
  if (field == profile::kElmField) return "ELM";
  auto it = p.fields.find(field);
  if (it == p.fields.end()) return "<field #" + std::to_string(field) + ">";
  return javaTypeName(it->second.cls) + "." + it->second.name;
}

std::vector<std::string> rowFrames(const AllocModel& m, const SiteRow& row) {
  std::vector<std::string> frames;
  const profile::Profile& p = *m.profile;
  uint32_t ctx = m.nodes[row.node].parent;
  int32_t line = row.site ? row.site->line : -1;
  for (uint32_t n = ctx; n != 0; n = m.nodes[n].parent) {
    frames.push_back(frameName(p, m.nodes[n].key, line));
    line = callerLine(m, n);  // the caller's: where it called n
  }
  return frames;
}

std::string siteName(const AllocModel& m, const SiteRow& row) {
  if (!row.site) return "?";
  const profile::SiteDef& s = *row.site;
  if (s.kind != profile::SiteKind::Vm && s.kind != profile::SiteKind::Jni) {
    return frameName(*m.profile, s.method, s.line);
  }
  // A call whose native the JVM allocates in (Throwable's fillInStackTrace): its own site.
  if (s.method != 0) return frameName(*m.profile, s.method, s.line) + " [jvm]";
  uint32_t ctx = m.nodes[row.node].parent;
  std::string caller =
      ctx == 0 ? std::string("<thread root>") : frameName(*m.profile, m.nodes[ctx].key, -1);
  return caller + (s.kind == profile::SiteKind::Vm ? " [jvm]" : " [jni]");
}

const char* originName(profile::SiteKind k) {
  static const char* const kNames[] = {"new",   "newarray", "anewarray", "multianewarray",
                                       "clone", "reflect",  "jvm",       "jni"};
  auto i = static_cast<size_t>(k);
  return i < std::size(kNames) ? kNames[i] : "?";
}

const char* jpKind(profile::ElemKind k) {
  static const char* const kNames[] = {"", "R", "Z", "B", "C", "S", "I", "F", "J", "D"};
  auto i = static_cast<size_t>(k);
  return i < 10 ? kNames[i] : "?";
}

}  // namespace dragnet::contexts
