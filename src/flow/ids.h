// The flow engine's ids, shared by every class load (which may run concurrently): field ids
// (nodes name fields by them) and call selectors (the call transfer matches a caller's
// call with its callee's entry by them). Interned under a mutex: asked once per field
// reference or call site at load time, never on a probe's path.
#pragma once

#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <string_view>
#include <tuple>
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

class FlowIds {
 public:
  // The id of field `cls.name:descriptor` as a field reference names it (ids from 2).
  uint32_t field(std::string_view cls, std::string_view name, std::string_view descriptor,
                 bool isStatic);
  // The selector of a method name and descriptor (ids from 1; 0 is "no call").
  int32_t selector(std::string_view name, std::string_view descriptor);
  // The fields interned since the last call, for the profile.
  std::vector<FieldName> takeNewFields();

 private:
  std::mutex mu_;
  std::map<std::tuple<std::string, std::string, std::string>, uint32_t> fields_;
  std::map<std::string, int32_t, std::less<>> selectors_;
  std::vector<FieldName> fresh_;
};

}  // namespace dragnet::flow
