// The flow modes' profiles: the classes' instance fields as the agent wrote them
// (ClassLayout, FlowDefs chunks). A field reference names a field through the class it was
// compiled against (`getfield Sub.x` for a field Base declares), and the agent gives each
// (owner, name, descriptor) of a reference its own id: nodes use the declaring class's id
// instead, so that one field is one node. Object.clone copies every instance field of the
// object's class and of its superclasses.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "profile/reader.h"

namespace dragnet::profile {

class Layouts {
 public:
  Layouts() = default;
  explicit Layouts(const Profile& p);

  // The id of the field that instance-field id `field` refers to: the field of that name
  // and descriptor of the first class on the superclass chain of the reference's owner
  // that declares one; `field` itself when the owner has no layout or no class of the
  // chain declares it.
  uint32_t canonical(uint32_t field) const {
    auto it = canonical_.find(field);
    return it == canonical_.end() ? field : it->second;
  }
  // The instance fields of an object of class `cls` (internal name): its superclasses'
  // (as far as the chain has layouts) and its own; null when `cls` has no layout.
  const std::vector<uint32_t>* instanceFields(std::string_view cls) const;

 private:
  std::unordered_map<uint32_t, uint32_t> canonical_;  // the ids that name another's field
  std::unordered_map<std::string, std::vector<uint32_t>> instance_;
};

}  // namespace dragnet::profile
