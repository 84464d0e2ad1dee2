// The attributes of JVMS 4.7, modelled; anything else is kept verbatim.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "classfile/annotations.h"
#include "classfile/code.h"
#include "classfile/constant_pool.h"

namespace dragnet::classfile {

struct Attribute;

// An attribute kept as its bytes: unknown attributes, attributes in a place or class-file
// version where the JVM ignores them, and annotation-family attributes whose contents are
// malformed (the JVM only rejects those lazily, through reflection), with the reason.
struct RawAttr {
  std::span<const uint8_t> bytes;
  std::string malformed;  // empty unless a known attribute failed to parse
};

struct ConstantValueAttr {
  CpIndex value{};
};
struct SignatureAttr {
  CpIndex signature{};
};
struct SourceFileAttr {
  CpIndex file{};
};
struct NestHostAttr {
  CpIndex host{};
};
struct ModuleMainClassAttr {
  CpIndex mainClass{};
};
struct SyntheticAttr {};
struct DeprecatedAttr {};
struct SourceDebugExtensionAttr {
  std::span<const uint8_t> bytes;
};

// Lists of class (or package) indices: Exceptions, NestMembers, PermittedSubclasses,
// ModulePackages.
struct ClassListAttr {
  std::vector<CpIndex> entries;
};
struct ExceptionsAttr : ClassListAttr {};
struct NestMembersAttr : ClassListAttr {};
struct PermittedSubclassesAttr : ClassListAttr {};
struct ModulePackagesAttr : ClassListAttr {};

struct InnerClassesAttr {
  struct Entry {
    CpIndex inner{}, outer{}, name{};
    uint16_t flags = 0;
  };
  std::vector<Entry> classes;
};

struct EnclosingMethodAttr {
  CpIndex cls{};
  CpIndex method{};  // NameAndType or 0
};

struct LineNumberTableAttr {
  struct Entry {
    Label start = Label::None;
    uint16_t line = 0;
  };
  PooledVector<Entry> lines;
};

// LocalVariableTable (descriptor) and LocalVariableTypeTable (signature).
struct LocalVariableTableAttr {
  struct Entry {
    Label start = Label::None;
    Label end = Label::None;
    CpIndex name{}, descriptor{};
    uint16_t slot = 0;
  };
  PooledVector<Entry> vars;
};
struct LocalVariableTypeTableAttr : LocalVariableTableAttr {};

// Verification types of StackMapTable. kind: 0 Top, 1 Integer, 2 Float, 3 Double, 4 Long,
// 5 Null, 6 UninitializedThis, 7 Object (cls), 8 Uninitialized (newInsn: label of `new`).
struct VType {
  uint8_t kind = 0;
  CpIndex cls{};
  Label newInsn = Label::None;
};

// A stack-map frame. `type` is the frame_type byte as read: 0-63 same, 64-127
// same_locals_1_stack_item, 247 its extended form, 248-250 chop (251-type locals), 251
// same_frame_extended, 252-254 append (locals holds the appended ones), 255 full. The
// writer keeps it when the offset delta still fits, else picks the extended form.
struct Frame {
  uint8_t type = 0;
  Label at = Label::None;
  PooledVector<VType> locals;
  PooledVector<VType> stack;
};
struct StackMapTableAttr {
  PooledVector<Frame> frames;
};

struct AnnotationsAttr {
  std::vector<Annotation> annotations;
};
struct RuntimeVisibleAnnotationsAttr : AnnotationsAttr {};
struct RuntimeInvisibleAnnotationsAttr : AnnotationsAttr {};
struct ParameterAnnotationsAttr {
  std::vector<std::vector<Annotation>> parameters;
};
struct RuntimeVisibleParameterAnnotationsAttr : ParameterAnnotationsAttr {};
struct RuntimeInvisibleParameterAnnotationsAttr : ParameterAnnotationsAttr {};
struct TypeAnnotationsAttr {
  std::vector<TypeAnnotation> annotations;
};
struct RuntimeVisibleTypeAnnotationsAttr : TypeAnnotationsAttr {};
struct RuntimeInvisibleTypeAnnotationsAttr : TypeAnnotationsAttr {};
struct AnnotationDefaultAttr {
  ElementValue value;
};

struct BootstrapMethodsAttr {
  struct Method {
    CpIndex handle{};
    std::vector<CpIndex> args;
  };
  std::vector<Method> methods;
};

struct MethodParametersAttr {
  struct Entry {
    CpIndex name{};  // may be 0
    uint16_t flags = 0;
  };
  std::vector<Entry> parameters;
};

struct ModuleAttr {
  struct Requires {
    CpIndex module{};
    uint16_t flags = 0;
    CpIndex version{};
  };
  struct Exports {  // also Opens
    CpIndex package{};
    uint16_t flags = 0;
    std::vector<CpIndex> to;
  };
  struct Provides {
    CpIndex service{};
    std::vector<CpIndex> with;
  };
  CpIndex name{};
  uint16_t flags = 0;
  CpIndex version{};
  std::vector<Requires> requires_;
  std::vector<Exports> exports;
  std::vector<Exports> opens;
  std::vector<CpIndex> uses;
  std::vector<Provides> provides;
};

struct RecordAttr {
  struct Component {
    CpIndex name{}, descriptor{};
    std::vector<Attribute> attributes;
  };
  std::vector<Component> components;
};

struct ExceptionHandler {
  Label start = Label::None, end = Label::None, handler = Label::None;
  CpIndex catchType{};  // 0: any (finally)
};

struct CodeAttr {
  uint16_t maxStack = 0;
  uint16_t maxLocals = 0;
  Code code;
  std::vector<ExceptionHandler> handlers;
  PooledVector<Attribute> attributes;
};

using AttrBody = std::variant<
    RawAttr, ConstantValueAttr, CodeAttr, StackMapTableAttr, ExceptionsAttr, InnerClassesAttr,
    EnclosingMethodAttr, SyntheticAttr, SignatureAttr, SourceFileAttr, SourceDebugExtensionAttr,
    LineNumberTableAttr, LocalVariableTableAttr, LocalVariableTypeTableAttr, DeprecatedAttr,
    RuntimeVisibleAnnotationsAttr, RuntimeInvisibleAnnotationsAttr,
    RuntimeVisibleParameterAnnotationsAttr, RuntimeInvisibleParameterAnnotationsAttr,
    RuntimeVisibleTypeAnnotationsAttr, RuntimeInvisibleTypeAnnotationsAttr, AnnotationDefaultAttr,
    BootstrapMethodsAttr, MethodParametersAttr, ModuleAttr, ModulePackagesAttr, ModuleMainClassAttr,
    NestHostAttr, NestMembersAttr, RecordAttr, PermittedSubclassesAttr>;

struct Attribute {
  CpIndex name{};  // the Utf8 entry naming it (kept: a pool may hold duplicate names)
  AttrBody body;
};

// First attribute of type T in `attrs`, or nullptr.
template <class T>
T* findAttr(std::vector<Attribute>& attrs) {
  for (auto& a : attrs) {
    if (auto* p = std::get_if<T>(&a.body)) return p;
  }
  return nullptr;
}
template <class T>
const T* findAttr(const std::vector<Attribute>& attrs) {
  for (auto& a : attrs) {
    if (auto* p = std::get_if<T>(&a.body)) return p;
  }
  return nullptr;
}

}  // namespace dragnet::classfile
