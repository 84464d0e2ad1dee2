// The class-file model (JVMS chapter 4) and its entry points: parse and write.
//
// Lossless: for any class file that parses, writeClass(parseClass(b)) == b, byte for byte.
// The writer serializes from the model; the one exception is the parsed part of the
// constant pool, which cannot change and is copied as read (ConstantPool::write).
#pragma once

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "classfile/attributes.h"
#include "classfile/constant_pool.h"
#include "classfile/error.h"

namespace dragnet::classfile {

inline constexpr uint16_t kMinMajor = 45;  // Java 1.0
inline constexpr uint16_t kMaxMajor = 69;  // Java 25

inline constexpr uint16_t kAccStatic = 0x0008;  // Member::access: a static field or method

// A field or a method.
struct Member {
  uint16_t access = 0;
  CpIndex name{};
  CpIndex descriptor{};
  PooledVector<Attribute> attributes;

  CodeAttr* code() { return findAttr<CodeAttr>(attributes); }
  const CodeAttr* code() const { return findAttr<CodeAttr>(attributes); }
};

struct ClassFile {
  uint16_t minor = 0;
  uint16_t major = 0;
  ConstantPool pool;
  uint16_t access = 0;
  CpIndex thisClass{};
  CpIndex superClass{};  // 0 only for java/lang/Object and module-info
  std::vector<CpIndex> interfaces;
  std::vector<Member> fields;
  std::vector<Member> methods;
  std::vector<Attribute> attributes;
  size_t sizeHint = 0;  // size of the parsed input: the writer reserves about this much

  std::string_view name() const { return pool.className(thisClass); }
  std::string_view memberName(const Member& m) const { return pool.utf8(m.name); }
  std::string_view memberDescriptor(const Member& m) const { return pool.utf8(m.descriptor); }
};

struct ParseOptions {
  // Used in error messages until this_class has been read (e.g. a jar entry name).
  std::string_view nameHint;
};

// Parses and validates a class file. The model refers into `bytes` (Utf8 constants, raw
// attributes), so `bytes` must outlive the result.
Result<ClassFile> parseClass(std::span<const uint8_t> bytes, const ParseOptions& options = {});

// Serializes the model. Fails (never emits an invalid class) when a limit is exceeded:
// code longer than 65535 bytes, a branch offset beyond 16 bits, more than 65535 entries.
Result<std::vector<uint8_t>> writeClass(const ClassFile& cls);

}  // namespace dragnet::classfile
