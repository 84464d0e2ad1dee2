// The flow engine's ids, shared by every class load (which may run concurrently): field ids
// (nodes name fields by them) and call selectors (the call transfer matches a caller's
// call with its callee's entry by them). Interned under a mutex: asked once per field
// reference or call site at load time, never on a probe's path.
#pragma once

#include <cstdint>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

namespace dragnet::flow {

// Node encoding (docs/FLOW-DESIGN.md, "Node encoding").
inline constexpr uint64_t kObjectNode = uint64_t{1} << 62;
inline constexpr uint64_t kStaticNode = uint64_t{2} << 62;
inline constexpr uint64_t kConsumerNode = uint64_t{3} << 62;
inline constexpr uint32_t kElementField = 1;  // ELM: an array's elements
inline constexpr int kFieldShift = 32;

// The bits of a field node without its tag (kind and field id).
inline constexpr uint64_t fieldBits(uint32_t field) {
  return kObjectNode | uint64_t{field} << kFieldShift;
}
inline constexpr uint64_t staticNode(uint32_t field) {
  return kStaticNode | uint64_t{field} << kFieldShift;
}

struct FieldName {
  uint32_t id = 0;
  std::string cls, name, descriptor;
  bool isStatic = false;
};

// A class's instance fields as the profile gives them (profile::ClassLayout).
struct ClassFields {
  std::string name, super;
  std::vector<uint32_t> fields;
};

class FlowIds {
 public:
  // The id of field `cls.name:descriptor` as a field reference names it (ids from 2).
  uint32_t field(std::string_view cls, std::string_view name, std::string_view descriptor,
                 bool isStatic);
  // The selector of a method name and descriptor (ids from 1; 0 is "no call").
  int32_t selector(std::string_view name, std::string_view descriptor);
  // Notes class `cls` (superclass `super`, "" for none) and the instance fields it declares
  // (name, descriptor), interned with the class as their owner. Once per class name: a
  // class loaded again (by another loader, or retransformed) keeps its first layout.
  void classFields(std::string_view cls, std::string_view super,
                   const std::vector<std::pair<std::string, std::string>>& fields);
  // How many field ids were given (the largest id is at most this + 1).
  uint32_t fieldCount();
  // The fields interned since the last call, for the profile.
  std::vector<FieldName> takeNewFields();
  // The class layouts noted since the last call, for the profile.
  std::vector<ClassFields> takeNewClasses();

 private:
  uint32_t fieldLocked(std::string_view cls, std::string_view name, std::string_view descriptor,
                       bool isStatic);

  std::mutex mu_;
  std::map<std::tuple<std::string, std::string, std::string>, uint32_t> fields_;
  std::map<std::string, int32_t, std::less<>> selectors_;
  std::vector<FieldName> fresh_;
  std::set<std::string, std::less<>> classes_;
  std::vector<ClassFields> freshClasses_;
};

}  // namespace dragnet::flow
