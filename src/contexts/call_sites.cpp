#include "contexts/call_sites.h"

#include <map>
#include <set>
#include <string>
#include <tuple>

#include "classfile/opcodes.h"

namespace dragnet::contexts {

namespace {

// The methods a site can enter: by name and descriptor, constructors by class too (they
// are not inherited; every other method may be declared in a supertype of the named class,
// or overridden in a subtype).
std::tuple<std::string_view, std::string_view, std::string_view> target(
    const profile::CallSite& s) {
  return {s.name, s.descriptor, s.name == "<init>" ? std::string_view(s.owner) : ""};
}

// Whether the call may run code without probes that calls instrumented methods: an
// interface method (lambda and method-reference proxies are hidden classes), a method
// handle's invoke (its lambda forms are hidden classes).
bool reachesUnprobed(const profile::CallSite& s) {
  if (s.op == static_cast<uint8_t>(classfile::Op::invokeinterface)) return true;
  return (s.owner == "java/lang/invoke/MethodHandle" || s.owner == "java/lang/invoke/VarHandle") &&
         s.op == static_cast<uint8_t>(classfile::Op::invokevirtual);
}

}  // namespace

bool canEnter(const profile::CallSite& s, const profile::MethodDef& callee) {
  if (s.name != callee.name || s.descriptor != callee.descriptor) return false;
  return s.name != "<init>" || s.owner == callee.cls;
}

std::vector<bool> needsSlot(const std::vector<profile::CallSite>& sites) {
  using Target = decltype(target(sites.front()));
  std::map<Target, std::set<int32_t>> lines;
  for (const profile::CallSite& s : sites) lines[target(s)].insert(s.line);
  std::vector<bool> out;
  out.reserve(sites.size());
  for (const profile::CallSite& s : sites) {
    out.push_back(lines[target(s)].size() > 1 || reachesUnprobed(s));
  }
  return out;
}

int32_t CallLines::line(uint32_t parentMethod, uint32_t childMethod, uint8_t slot) {
  if (slot != 0) {
    auto s = p_.callSites.find({parentMethod, slot});
    return s != p_.callSites.end() ? s->second.line : -1;
  }
  auto [it, fresh] = direct_.try_emplace({parentMethod, childMethod}, -1);
  if (fresh) it->second = directLine(parentMethod, childMethod);
  return it->second;
}

// No number: the one line of the parent whose calls can enter the child directly, if there
// is one. A site that passes its number is not one of them: a call from it would have
// carried the number; one that could not pass it (numbers stop at kMaxCallSlot) leaves the
// line unknown.
int32_t CallLines::directLine(uint32_t parentMethod, uint32_t childMethod) {
  auto callee = p_.methods.find(childMethod);
  if (callee == p_.methods.end()) return -1;
  std::vector<profile::CallSite> mine;
  for (auto it = p_.callSites.lower_bound({parentMethod, 0});
       it != p_.callSites.end() && it->first.first == parentMethod; ++it) {
    mine.push_back(it->second);
  }
  if (mine.empty() || mine.front().op == 0) return -1;  // none, or a sampled profile's
  std::vector<bool> numbered = needsSlot(mine);
  int32_t line = -1;
  bool found = false;
  for (size_t i = 0; i < mine.size(); ++i) {
    if (!canEnter(mine[i], callee->second)) continue;
    if (numbered[i]) {
      if (mine[i].number > profile::kMaxCallSlot) return -1;
      continue;
    }
    if (found && mine[i].line != line) return -1;
    line = mine[i].line;
    found = true;
  }
  return line;
}

int32_t callLine(const profile::Profile& p, uint32_t parentMethod, uint32_t childMethod,
                 uint8_t slot) {
  return CallLines(p).line(parentMethod, childMethod, slot);
}

}  // namespace dragnet::contexts
