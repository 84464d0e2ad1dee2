// Field and method descriptors (JVMS 4.3): parsing and slot arithmetic.
#pragma once

#include <optional>
#include <string_view>
#include <vector>

namespace dragnet::instrument {

// Length of the field descriptor starting at desc[pos] ("I", "[[J", "Ljava/lang/Object;"),
// or 0 if there is none. `allowVoid` also accepts "V" (return types).
size_t fieldDescriptorLength(std::string_view desc, size_t pos, bool allowVoid = false);

inline bool isFieldDescriptor(std::string_view d) {
  return !d.empty() && fieldDescriptorLength(d, 0) == d.size();
}

// Local-variable / operand-stack slots a value of this field type takes: 2 for J and D,
// 0 for V, 1 otherwise.
inline int slotSize(std::string_view fieldDesc) {
  char c = fieldDesc.empty() ? 'V' : fieldDesc[0];
  return c == 'J' || c == 'D' ? 2 : c == 'V' ? 0 : 1;
}

struct MethodDescriptor {
  std::vector<std::string_view> params;  // each a field descriptor
  std::string_view ret;                  // a field descriptor or "V"

  // Slots the arguments take (not counting a receiver).
  int argumentSlots() const;
};

// Argument slots and return slots of a method descriptor without building a
// MethodDescriptor (hot paths); {-1, -1} if malformed.
struct SlotCounts {
  int args = -1;
  int ret = -1;
};
SlotCounts methodSlots(std::string_view desc);

// nullopt if `desc` is not a well-formed method descriptor.
std::optional<MethodDescriptor> parseMethodDescriptor(std::string_view desc);

// For an object type "Ljava/lang/String;" the internal name "java/lang/String"; for an
// array type the descriptor itself ("[I"), which is how the constant pool names arrays.
std::string_view classNameOf(std::string_view fieldDesc);

}  // namespace dragnet::instrument
