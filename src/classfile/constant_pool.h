// The constant pool (JVMS 4.4): every tag, lookup, and duplicate-free addition.
#pragma once

#include <array>
#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "classfile/bytes.h"
#include "classfile/pooled_vector.h"

namespace dragnet::classfile {

// A constant-pool index. 0 means "none" where the format allows it (e.g. super_class of
// java/lang/Object, a catch-all handler's catch_type).
enum class CpIndex : uint16_t { None = 0 };
inline constexpr uint16_t raw(CpIndex i) { return static_cast<uint16_t>(i); }

enum class Tag : uint8_t {
  Unusable = 0,  // slot 0, and the slot after a Long or Double (the two-slot rule)
  Utf8 = 1,
  Integer = 3,
  Float = 4,
  Long = 5,
  Double = 6,
  Class = 7,
  String = 8,
  Fieldref = 9,
  Methodref = 10,
  InterfaceMethodref = 11,
  NameAndType = 12,
  MethodHandle = 15,
  MethodType = 16,
  Dynamic = 17,
  InvokeDynamic = 18,
  Module = 19,
  Package = 20,
};
const char* tagName(Tag t);

// A set of tags, for "this index must point to one of ..." checks.
class TagSet {
 public:
  constexpr TagSet() = default;
  constexpr TagSet(std::initializer_list<Tag> tags) {
    for (Tag t : tags) bits_ |= 1u << static_cast<unsigned>(t);
  }
  constexpr bool has(Tag t) const { return bits_ >> static_cast<unsigned>(t) & 1u; }
  // has(t), false for Unusable whatever the set (see ConstantPool::check).
  constexpr bool hasUsable(Tag t) const {
    static_assert(static_cast<unsigned>(Tag::Unusable) == 0);
    return (bits_ & ~1u) >> static_cast<unsigned>(t) & 1u;
  }
  constexpr bool empty() const { return bits_ == 0; }
  std::string describe() const;

 private:
  uint32_t bits_ = 0;
};

// Method-handle reference kinds (JVMS 5.4.3.5).
enum class RefKind : uint8_t {
  GetField = 1,
  GetStatic = 2,
  PutField = 3,
  PutStatic = 4,
  InvokeVirtual = 5,
  InvokeStatic = 6,
  InvokeSpecial = 7,
  NewInvokeSpecial = 8,
  InvokeInterface = 9,
};

// One pool slot. Field use by tag:
//   Utf8: utf8 (raw modified-UTF-8 bytes)      Integer/Float: value (raw 32 bits)
//   Long/Double: value (raw 64 bits)           Class/String/MethodType/Module/Package: a
//   Field/Method/InterfaceMethodref: a=class, b=name_and_type
//   NameAndType: a=name, b=descriptor          MethodHandle: refKind, a=reference
//   Dynamic/InvokeDynamic: a=bootstrap_method_attr_index, b=name_and_type
// Float and Double keep their raw bits so NaN payloads survive a round trip.
struct CpEntry {
  Tag tag = Tag::Unusable;
  uint8_t refKind = 0;
  uint16_t a = 0;
  uint16_t b = 0;
  uint64_t value = 0;
  std::string_view utf8;
};

class ConstantPool {
 public:
  ConstantPool();
  ConstantPool(ConstantPool&&) noexcept = default;
  ConstantPool& operator=(ConstantPool&&) noexcept = default;

  // Parses constant_pool_count and the entries, then checks cross references (second
  // pass). Utf8 views point into `r`'s buffer, which must outlive the pool.
  void parse(Reader& r, uint16_t majorVersion);
  void write(Writer& w) const;
  // The same bytes as write(), every entry encoded from the model: write() copies the
  // parsed entries as read, so the corpus tests call this to keep the encoder tested.
  void writeEncoded(Writer& w) const;

  // constant_pool_count: number of slots including slot 0.
  uint16_t count() const { return static_cast<uint16_t>(entries_.size()); }
  bool valid(CpIndex i) const {
    return raw(i) != 0 && raw(i) < entries_.size() && entries_[raw(i)].tag != Tag::Unusable;
  }
  // Unchecked access (indices in a parsed class have been checked).
  const CpEntry& operator[](CpIndex i) const { return entries_[raw(i)]; }
  Tag tag(CpIndex i) const { return valid(i) ? entries_[raw(i)].tag : Tag::Unusable; }

  // Throws ParseFailure (at `offset`) unless `i` is valid and its tag is in `allowed`.
  // Inline: the parser checks every pool reference; the failure path is out of line.
  // The same test as valid() and allowed.has(tag), in fewer steps: slot 0 (always present,
  // but for a moved-from pool) is Unusable like the slots after Longs and Doubles, so a
  // bounds check and a tag test with Unusable left out of `allowed` cover it.
  void check(CpIndex i, TagSet allowed, size_t offset) const {
    if (raw(i) >= entries_.size() || !allowed.hasUsable(entries_[raw(i)].tag)) [[unlikely]] {
      failCheck(i, allowed, offset);
    }
  }

  // Typed accessors; all assume a checked index of the right tag.
  std::string_view utf8(CpIndex i) const { return entries_[raw(i)].utf8; }
  std::string_view className(CpIndex classIndex) const;  // Class -> its name
  struct Member {
    std::string_view owner, name, descriptor;
  };
  Member memberRef(CpIndex ref) const;  // Field/Method/InterfaceMethodref
  std::pair<std::string_view, std::string_view> nameAndType(CpIndex nat) const;
  int32_t integer(CpIndex i) const { return static_cast<int32_t>(entries_[raw(i)].value); }
  int64_t longValue(CpIndex i) const { return static_cast<int64_t>(entries_[raw(i)].value); }
  float floatValue(CpIndex i) const;
  double doubleValue(CpIndex i) const;

  // Lookup of an existing equal entry (first occurrence), without adding.
  std::optional<CpIndex> find(const CpEntry& e) const;

  // Additions reuse an equal existing entry. They throw ParseFailure if the pool would
  // exceed 65535 slots. Strings are modified UTF-8 (identical to UTF-8 for ASCII; use
  // mutf8::fromUtf8 for other text).
  CpIndex add(const CpEntry& e);
  CpIndex addUtf8(std::string_view mutf8);
  CpIndex addClass(std::string_view internalName);
  CpIndex addString(std::string_view mutf8);
  CpIndex addInteger(int32_t v);
  CpIndex addFloat(float v);
  CpIndex addLong(int64_t v);
  CpIndex addDouble(double v);
  CpIndex addNameAndType(std::string_view name, std::string_view descriptor);
  CpIndex addFieldref(std::string_view owner, std::string_view name, std::string_view desc);
  CpIndex addMethodref(std::string_view owner, std::string_view name, std::string_view desc);
  CpIndex addInterfaceMethodref(std::string_view owner, std::string_view name,
                                std::string_view desc);
  CpIndex addMethodHandle(RefKind kind, CpIndex reference);
  CpIndex addMethodType(std::string_view descriptor);

 private:
  [[noreturn]] [[gnu::noinline, gnu::cold]] void failCheck(CpIndex i, TagSet allowed,
                                                           size_t offset) const;
  void parseEntries(Reader& r, uint16_t majorVersion);
  void writeEntries(Writer& w, size_t from) const;
  void checkReferences(uint16_t majorVersion) const;
  void checkHandleName(size_t i) const;
  size_t entryOffset(size_t i) const;
  [[noreturn]] [[gnu::noinline, gnu::cold]] void failReference(size_t i, uint16_t target,
                                                               TagSet allowed) const;
  void indexInsert(uint16_t i) const;
  void syncIndex() const;
  void indexTag(Tag t) const;
  bool isIndexed(Tag t) const { return indexedTags_ >> static_cast<unsigned>(t) & 1u; }
  std::optional<CpIndex> scan(const CpEntry& e) const;
  bool refersToNewest(const CpEntry& e) const;
  // Appends `e` without looking for an equal entry (the caller knows there is none).
  CpIndex append(const CpEntry& e);
  CpIndex addMemberRef(Tag tag, std::string_view owner, std::string_view name,
                       std::string_view desc);

  PooledVector<CpEntry> entries_;
  size_t entriesOffset_ = 0;              // file offset of entry 1 (see entryOffset)
  size_t parsedCount_ = 1;                // entries before this one were parsed, the rest added
  std::span<const uint8_t> parsedBytes_;  // the input's bytes of entries 1..parsedCount_-1
  // Storage for Utf8 bytes of added entries; a deque keeps views stable.
  std::unique_ptr<std::deque<std::string>> owned_;
  // Hash index of the entries of some tags (first occurrence wins), kept up to date by
  // add(): open addressing over entry indices, 0 = empty. A tag's entries are indexed once
  // some lookups of that tag were answered by scanning: a tool adds a handful of strings
  // per class but may add an Integer per method, and hashing every Utf8 of a class for the
  // sake of its Integers cost more than the lookups. Indexing another tag costs about one
  // scan (only its own entries are hashed), so those are indexed at the second lookup.
  mutable std::vector<uint16_t> slots_;
  mutable size_t indexedCount_ = 1;   // entries below this one are in the index if indexed
  mutable uint32_t indexedTags_ = 0;  // bit per Tag value
  static constexpr uint8_t kUtf8ScansBeforeIndex = 12, kScansBeforeIndex = 1;
  mutable std::array<uint8_t, 21> scans_{};  // per Tag value
  // The entry the last add() returned: a tool adds the same constant over and over (the
  // Integer of a method id before each of the method's probes). Entries never change once
  // in the pool, so an index stays right for as long as the pool lives.
  uint16_t lastAdded_ = 0;
};

}  // namespace dragnet::classfile
