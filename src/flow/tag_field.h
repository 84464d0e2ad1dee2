// Object tags in an added field (docs/FLOW-DESIGN.md, "Object names (tags)").
#pragma once

#include <string_view>

namespace dragnet::flow {

inline constexpr const char* kTagField = "dragnet$tag";

// Classes whose objects keep their tags in the side table (no added field).
bool isDeniedTagClass(std::string_view internalName);

}  // namespace dragnet::flow

namespace dragnet::classfile {
class ClassFile;
}

namespace dragnet::flow {

// Adds the tag field to `cls` if it is a root class (not an interface, not denied, its
// superclass java/lang/Object or denied). True if it did.
bool addTagField(classfile::ClassFile& cls);

}  // namespace dragnet::flow
