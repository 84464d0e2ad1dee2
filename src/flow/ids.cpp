#include "flow/ids.h"

#include <utility>

namespace dragnet::flow {

uint32_t FlowIds::field(std::string_view cls, std::string_view name, std::string_view descriptor,
                        bool isStatic) {
  std::lock_guard lock(mu_);
  return fieldLocked(cls, name, descriptor, isStatic);
}

uint32_t FlowIds::fieldLocked(std::string_view cls, std::string_view name,
                              std::string_view descriptor, bool isStatic) {
  auto key = std::make_tuple(std::string(cls), std::string(name), std::string(descriptor));
  auto it = fields_.find(key);
  if (it != fields_.end()) return it->second;
  uint32_t id = static_cast<uint32_t>(fields_.size()) + 2;
  fields_.emplace(key, id);
  fresh_.push_back({id, std::string(cls), std::string(name), std::string(descriptor), isStatic});
  return id;
}

int32_t FlowIds::selector(std::string_view name, std::string_view descriptor) {
  std::string key;
  key.reserve(name.size() + descriptor.size());
  key.append(name).append(descriptor);
  std::lock_guard lock(mu_);
  auto it = selectors_.find(key);
  if (it != selectors_.end()) return it->second;
  auto id = static_cast<int32_t>(selectors_.size()) + 1;
  selectors_.emplace(std::move(key), id);
  return id;
}

void FlowIds::classFields(std::string_view cls, std::string_view super,
                          const std::vector<std::pair<std::string, std::string>>& fields) {
  std::lock_guard lock(mu_);
  if (!classes_.emplace(cls).second) return;
  ClassFields c{std::string(cls), std::string(super), {}};
  for (const auto& [name, descriptor] : fields) {
    c.fields.push_back(fieldLocked(cls, name, descriptor, false));
  }
  freshClasses_.push_back(std::move(c));
}

std::vector<ClassFields> FlowIds::takeNewClasses() {
  std::lock_guard lock(mu_);
  return std::exchange(freshClasses_, {});
}

std::vector<FieldName> FlowIds::takeNewFields() {
  std::lock_guard lock(mu_);
  return std::exchange(fresh_, {});
}

uint32_t FlowIds::fieldCount() {
  std::lock_guard lock(mu_);
  return static_cast<uint32_t>(fields_.size());
}

}  // namespace dragnet::flow
