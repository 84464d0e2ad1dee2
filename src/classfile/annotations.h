// Annotations and type annotations (JVMS 4.7.16-4.7.22).
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "classfile/code.h"
#include "classfile/constant_pool.h"

namespace dragnet::classfile {

struct Annotation;

// element_value. tag: B C D F I J S Z s (a = const_value_index), e (a = type_name,
// b = const_name), c (a = class_info_index), @ (nested[0]), [ (values).
struct ElementValue {
  uint8_t tag = 0;
  CpIndex a{};
  CpIndex b{};
  std::vector<Annotation> nested;  // exactly one element when tag == '@'
  std::vector<ElementValue> values;
};

struct Annotation {
  CpIndex type{};
  std::vector<std::pair<CpIndex, ElementValue>> pairs;
};

// localvar_target table entry (in Code only).
struct LocalVarTarget {
  Label start = Label::None;
  Label end = Label::None;
  uint16_t index = 0;
};

// type_annotation. Target info by target_type:
//   0x00/0x01 type parameter: index (u1)       0x10 supertype: index (u2)
//   0x11/0x12 bound: index (u1), index2 (u1)   0x13-0x15: empty
//   0x16 formal parameter: index (u1)          0x17 throws: index (u2)
//   0x40/0x41 local variable: localVars        0x42 catch: index (exception table, u2)
//   0x43-0x46 offset: offset                   0x47-0x4B type argument: offset, index2 (u1)
struct TypeAnnotation {
  uint8_t targetType = 0;
  uint16_t index = 0;
  uint8_t index2 = 0;
  Label offset = Label::None;
  std::vector<LocalVarTarget> localVars;
  std::vector<std::pair<uint8_t, uint8_t>> path;  // (type_path_kind, type_argument_index)
  Annotation annotation;
};

}  // namespace dragnet::classfile
