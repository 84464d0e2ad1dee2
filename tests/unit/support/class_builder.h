// Test helpers: hand-assembled class-file bytes (independent of the library's writer) and
// a small builder for ClassFile models made through the library's public API.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "classfile/class_file.h"

namespace dragnet::test {

namespace cf = dragnet::classfile;
using Bytes = std::vector<uint8_t>;

// Big-endian byte writer.
class ByteWriter {
 public:
  ByteWriter& u1(uint32_t v);
  ByteWriter& u2(uint32_t v);
  ByteWriter& u4(uint32_t v);
  ByteWriter& u8(uint64_t v);
  ByteWriter& bytes(const Bytes& b);
  ByteWriter& bytes(std::string_view s);
  size_t size() const { return out_.size(); }
  void patchU2(size_t at, uint32_t v);
  void patchU4(size_t at, uint32_t v);
  const Bytes& data() const { return out_; }
  Bytes take() { return std::move(out_); }

 private:
  Bytes out_;
};

// Shorthand for a byte list: B({0x12, 0x34}).
inline Bytes B(std::initializer_list<int> v) {
  Bytes b;
  for (int x : v) b.push_back(static_cast<uint8_t>(x));
  return b;
}
inline void append(Bytes& to, const Bytes& more) { to.insert(to.end(), more.begin(), more.end()); }
inline Bytes operator+(Bytes a, const Bytes& b) {
  append(a, b);
  return a;
}

// A raw constant pool. The named helpers reuse an identical entry made by the same helper
// (so indices are predictable); raw() always appends, so tests can build duplicates,
// dangling references and unknown tags. Nothing is validated.
class PoolBuilder {
 public:
  uint16_t raw(uint8_t tag, const Bytes& payload, int slots = 1);
  uint16_t utf8(std::string_view bytes);
  uint16_t integer(int32_t v);
  uint16_t floatBits(uint32_t bits);
  uint16_t longValue(int64_t v);
  uint16_t doubleBits(uint64_t bits);
  uint16_t cls(std::string_view name);
  uint16_t string(std::string_view s);
  uint16_t nameAndType(std::string_view name, std::string_view desc);
  uint16_t fieldref(std::string_view owner, std::string_view name, std::string_view desc);
  uint16_t methodref(std::string_view owner, std::string_view name, std::string_view desc);
  uint16_t interfaceMethodref(std::string_view owner, std::string_view name,
                              std::string_view desc);
  uint16_t methodHandle(uint8_t kind, uint16_t ref);
  uint16_t methodType(std::string_view desc);
  uint16_t dynamic(uint16_t bsm, std::string_view name, std::string_view desc);
  uint16_t invokeDynamic(uint16_t bsm, std::string_view name, std::string_view desc);
  uint16_t module(std::string_view name);
  uint16_t package(std::string_view name);

  // constant_pool_count: slots including slot 0.
  uint16_t count() const { return next_; }
  // Absolute offset (in a class built by ClassBuilder) of entry `index`'s tag byte.
  size_t entryOffset(uint16_t index) const;
  void write(ByteWriter& w) const;

 private:
  uint16_t memo(const std::string& key, uint8_t tag, const Bytes& payload, int slots = 1);
  struct Entry {
    uint16_t index;
    Bytes bytes;  // tag + payload
  };
  std::vector<Entry> entries_;
  std::map<std::string, uint16_t> memo_;
  uint16_t next_ = 1;
};

// One attribute: its name index, body bytes, then (if `nested` is set) a u2 count and the
// nested attributes. `length` overrides attribute_length. If `mark` is set, build() records
// the offset of the attribute's first byte in Layout::marks[mark] (and, for Code attributes
// made by codeAttr, the offset of code[0] in marks[mark + ".code"]).
struct AttrSpec {
  uint16_t name = 0;
  Bytes body;
  std::optional<std::vector<AttrSpec>> nested;
  Bytes tail;  // bytes after the nested attributes
  std::optional<uint32_t> length;
  std::string mark;
  size_t codeHeader = 0;  // Code only: bytes from body start to code[0]
};

struct MemberSpec {
  uint16_t access = 0;
  uint16_t name = 0;
  uint16_t descriptor = 0;
  std::vector<AttrSpec> attributes;
};

struct HandlerSpec {
  uint16_t start, end, handler, catchType;
};

// Offsets of the parts of a built class.
struct Layout {
  size_t thisClass = 0, superClass = 0, interfacesCount = 0, fieldsCount = 0, methodsCount = 0,
         attributesCount = 0, end = 0;
  std::vector<size_t> fields, methods;  // offset of each member's access_flags
  std::map<std::string, size_t> marks;
  size_t mark(const std::string& m) const;
  size_t attrBody(const std::string& m) const { return mark(m) + 6; }
  size_t code(const std::string& m) const { return mark(m + ".code"); }
};

class ClassBuilder {
 public:
  explicit ClassBuilder(std::string name = "Test", uint16_t major = 52, uint16_t minor = 0);

  std::string name;
  std::string superName = "java/lang/Object";
  uint16_t major, minor;
  uint16_t access = 0x0021;  // public super
  uint32_t magic = 0xCAFEBABE;
  PoolBuilder pool;
  std::optional<uint16_t> thisClass, superClass;  // default: classes named above
  std::vector<uint16_t> interfaces;
  std::vector<MemberSpec> fields, methods;
  std::vector<AttrSpec> attributes;
  // Count overrides (the listed elements are still written).
  std::optional<uint16_t> interfacesCount, fieldsCount, methodsCount, attributesCount;
  std::optional<uint16_t> poolCount;
  Bytes trailing;

  AttrSpec attr(std::string_view attrName, Bytes body, std::string mark = "");
  // True if this version uses the 45.0-45.2 Code layout (u1 max_stack, u1 max_locals,
  // u2 code_length).
  bool oldCodeLayout() const { return major == 45 && minor < 3; }
  AttrSpec codeAttr(const Bytes& code, uint16_t maxStack = 4, uint16_t maxLocals = 4,
                    const std::vector<HandlerSpec>& handlers = {},
                    std::vector<AttrSpec> attrs = {}, std::string mark = "",
                    std::optional<uint32_t> codeLength = std::nullopt);
  MemberSpec& addMethod(uint16_t access, std::string_view methodName, std::string_view desc,
                        std::vector<AttrSpec> attrs = {});
  // A static method with a Code attribute marked "<methodName>" (code[0]: layout.code(name)).
  MemberSpec& addCodeMethod(std::string_view methodName, const Bytes& code,
                            std::string_view desc = "()V", uint16_t maxStack = 4,
                            uint16_t maxLocals = 4, const std::vector<HandlerSpec>& handlers = {},
                            std::vector<AttrSpec> codeAttrs = {});
  MemberSpec& addField(uint16_t access, std::string_view fieldName, std::string_view desc,
                       std::vector<AttrSpec> attrs = {});

  Bytes build(Layout* layout = nullptr);

 private:
  void writeAttr(ByteWriter& w, const AttrSpec& a, Layout& layout);
  void writeAttrs(ByteWriter& w, const std::vector<AttrSpec>& attrs, Layout& layout,
                  std::optional<uint16_t> count = std::nullopt);
};

// ---- results and round trips ----------------------------------------------------------

std::string hex(const Bytes& b, size_t from = 0, size_t n = 64);
// Equal bytes, or a message naming the first difference.
::testing::AssertionResult SameBytes(const Bytes& expected, const Bytes& actual);
// parseClass(bytes) then writeClass: succeeds and is byte-identical.
::testing::AssertionResult RoundTrips(const Bytes& bytes);
// Parses and asserts success (the class refers into `bytes`).
cf::ClassFile parseOk(const Bytes& bytes);
Bytes writeOk(const cf::ClassFile& cls);
// Parses and expects failure; returns the error.
cf::Error parseError(const Bytes& bytes);

// ---- ClassFile models made through the API ---------------------------------------------

inline cf::Insn insn(cf::Op op, int32_t a = 0, int32_t b = 0, bool wide = false) {
  return cf::Insn{op, wide, a, b};
}
inline cf::Insn branch(cf::Op op, cf::Label target) {
  return cf::Insn{op, false, static_cast<int32_t>(target), 0};
}

class ModelBuilder {
 public:
  explicit ModelBuilder(std::string_view name = "Model", uint16_t major = 52);
  cf::ClassFile cls;
  cf::Member& addMethod(uint16_t access, std::string_view methodName, std::string_view desc);
  // Adds a Code attribute to `m` and returns it (valid until m.attributes changes).
  cf::CodeAttr& addCode(cf::Member& m, uint16_t maxStack = 4, uint16_t maxLocals = 4);
  cf::Result<Bytes> write() const { return cf::writeClass(cls); }
};

// Concatenates its arguments with operator<< (avoids GCC 12's -Wrestrict false positive on
// "literal" + std::string at -O3).
template <class... T>
std::string str(const T&... parts) {
  std::ostringstream out;
  (out << ... << parts);
  return out.str();
}

// Reads a file; empty if missing.
Bytes readFile(const std::string& path);

}  // namespace dragnet::test
