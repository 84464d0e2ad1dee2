#include "profile/layouts.h"

#include <algorithm>
#include <unordered_set>

namespace dragnet::profile {

namespace {

// The classes from `cls` up its superclass chain that have layouts, `cls` first. A chain
// that comes back to a class (only a malformed profile's can) stops there.
std::vector<const ClassLayout*> chainOf(const Profile& p, std::string_view cls) {
  std::vector<const ClassLayout*> out;
  std::unordered_set<const ClassLayout*> seen;
  for (auto it = p.classes.find(std::string(cls)); it != p.classes.end();
       it = p.classes.find(it->second.super)) {
    if (!seen.insert(&it->second).second) break;
    out.push_back(&it->second);
  }
  return out;
}

}  // namespace

Layouts::Layouts(const Profile& p) {
  for (const auto& [name, layout] : p.classes) {
    std::vector<const ClassLayout*> chain = chainOf(p, name);
    std::vector<uint32_t>& fields = instance_[name];
    for (auto c = chain.rbegin(); c != chain.rend(); ++c) {
      for (uint32_t f : (*c)->fields) {
        if (p.fields.count(f)) fields.push_back(f);
      }
    }
  }
  for (const auto& [id, ref] : p.fields) {
    if (ref.isStatic) continue;
    for (const ClassLayout* c : chainOf(p, ref.cls)) {
      auto declared = std::find_if(c->fields.begin(), c->fields.end(), [&](uint32_t f) {
        auto d = p.fields.find(f);
        return d != p.fields.end() && d->second.name == ref.name &&
               d->second.descriptor == ref.descriptor;
      });
      if (declared == c->fields.end()) continue;
      if (*declared != id) canonical_.emplace(id, *declared);
      break;
    }
  }
}

const std::vector<uint32_t>* Layouts::instanceFields(std::string_view cls) const {
  auto it = instance_.find(std::string(cls));
  return it == instance_.end() ? nullptr : &it->second;
}

}  // namespace dragnet::profile
