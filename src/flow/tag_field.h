// Object tags in an added field (docs/FLOW-DESIGN.md, "Object names (tags)"): the int field
// `dragnet$tag` that the flow modes add to every root class as it is loaded, the classes
// that must not get it (their objects' tags live in the side table), and the rewrite of the
// JDK's reflection filter that hides the field from the program.
#pragma once

#include <string_view>

#include "classfile/class_file.h"

namespace dragnet::flow {

inline constexpr std::string_view kTagField = "dragnet$tag";
inline constexpr std::string_view kTagFieldDescriptor = "I";
// public transient synthetic: other classes' code reads it (getfield C.dragnet$tag), and
// serializers that look at fields skip it.
inline constexpr uint16_t kTagFieldAccess = 0x0001 | 0x0080 | 0x1000;
// Every field whose name starts with this is invisible to reflection (the tag, and the
// fields the agent core adds to java.lang.Thread).
inline constexpr std::string_view kHiddenFieldPrefix = "dragnet$";

// Whether instances of `internalName` (a class, "java/lang/String") keep their tags in the
// side table instead of a field: the JVM fixes, creates, sizes or checks the layout of
// those classes (tag_field.cpp lists them with the reason for each).
bool isDeniedTagClass(std::string_view internalName);

// A deny predicate, for addTagField's test-only variant (the deny-list spike).
using DenyPredicate = bool (*)(std::string_view internalName);

struct TagFieldOutcome {
  // A root class: not an interface, not denied, and its superclass is java/lang/Object or a
  // denied class. Its constructors must set the tag (no superclass constructor does).
  bool root = false;
  bool added = false;  // the field was added (false for a root that already has it)
};

// Adds `public transient synthetic int dragnet$tag` to `cls` if it is a root class, so that
// `getfield C.dragnet$tag` resolves, through inheritance, for every class C that is not
// denied. Module descriptors and java/lang/Object are never roots.
TagFieldOutcome addTagField(classfile::ClassFile& cls);
TagFieldOutcome addTagField(classfile::ClassFile& cls, DenyPredicate denied);

// The class whose field filter every Class.getDeclaredFields/getFields (and so
// ObjectStreamClass: serialization, default serialVersionUIDs) goes through, on JDK 17 to 25:
// Class.privateGetDeclaredFields calls Reflection.filterFields(this, getDeclaredFields0(..)).
inline constexpr std::string_view kReflectionClass = "jdk/internal/reflect/Reflection";

// Rewrites jdk/internal/reflect/Reflection so that filterFields first drops every field
// whose name starts with kHiddenFieldPrefix (a private static synthetic method
// `dragnet$hideFields` added to the class, called at filterFields' entry; it returns its
// argument itself when nothing is hidden). JNI GetFieldID, Unsafe.objectFieldOffset(Class,
// String), bytecode field references and method handles resolve fields in the VM and still
// find them. Returns false if `cls` is not that class, has no such filterFields or cannot
// be rewritten: then its methods are as they were (its pool may have grown) and the fields
// stay visible.
bool hideDragnetFields(classfile::ClassFile& cls);

}  // namespace dragnet::flow
