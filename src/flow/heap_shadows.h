// Heap shadows of instance fields (docs/FLOW-DESIGN.md, "Cost-benefit analysis:
// recording"): for every instance field a class declares, an int field beside it that
// holds the node instance that wrote the field last. Added to the declaring class as it is
// loaded, so that `getfield C.<shadow>` resolves, through inheritance, wherever `getfield
// C.<field>` does; hidden from reflection like every `dragnet$` field (flow/tag_field.h).
#pragma once

#include <string>
#include <string_view>

#include "classfile/class_file.h"

namespace dragnet::flow {

// public transient synthetic, like the tag.
inline constexpr uint16_t kShadowFieldAccess = 0x0001 | 0x0080 | 0x1000;

// The shadow's name of field `name:descriptor`: dragnet$<name>$<descriptor with '/', ';',
// '[' and '.' as '_'> (a class may declare two fields of one name with different types).
std::string shadowFieldName(std::string_view name, std::string_view descriptor);

// Adds the shadows of the instance fields `cls` declares, unless it is an interface or a
// denied class (flow::isDeniedTagClass: the VM fixes their layouts). Returns how many.
size_t addShadowFields(classfile::ClassFile& cls);

// Whether a field reference through `owner` reaches a shadow: not when the owner is an
// array, a denied class, or names a field java/lang/ref/Reference declares through a
// subclass (the VM fixes Reference's layout).
bool hasShadowField(std::string_view owner, std::string_view name);

}  // namespace dragnet::flow
