// Big-endian byte reader and writer.
//
// The reader checks bounds before every read ("check once, then read" is done by callers
// that call need() for a whole structure before a loop). Reads past the end throw a
// ParseFailure naming the offset, so malformed input can never read out of bounds.
#pragma once

#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstring>
#include <span>
#include <string_view>
#include <vector>

#include "classfile/error.h"

namespace dragnet::classfile {

// Big-endian loads and stores at a raw pointer, for code that checked the bounds of a whole
// table once (the Reader and Writer below check each access). A store is one memcpy: byte
// stores through a uint8_t* may alias anything, and make the compiler reload around each.
inline uint16_t loadU2(const uint8_t* p) { return static_cast<uint16_t>(p[0] << 8 | p[1]); }
inline uint32_t loadU4(const uint8_t* p) {
  uint32_t v;
  std::memcpy(&v, p, 4);
  if constexpr (std::endian::native == std::endian::little) v = __builtin_bswap32(v);
  return v;
}
inline void storeU2(uint8_t* p, uint16_t v) {
  if constexpr (std::endian::native == std::endian::little) v = __builtin_bswap16(v);
  std::memcpy(p, &v, 2);
}
inline void storeU4(uint8_t* p, uint32_t v) {
  if constexpr (std::endian::native == std::endian::little) v = __builtin_bswap32(v);
  std::memcpy(p, &v, 4);
}

class Reader {
 public:
  explicit Reader(std::span<const uint8_t> data, size_t base = 0) : data_(data), base_(base) {}

  // Absolute offset (in the class file) of the next byte.
  size_t offset() const { return base_ + pos_; }
  size_t remaining() const { return data_.size() - pos_; }
  bool atEnd() const { return pos_ == data_.size(); }

  // The checks inline into every read; the failure paths (which build messages) do not.
  void need(size_t n) const {
    if (n > remaining()) [[unlikely]]
      failTruncated(n);
  }
  // need(count * elemSize) without overflow.
  void needArray(size_t count, size_t elemSize) const {
    if (elemSize != 0 && count > remaining() / elemSize) [[unlikely]]
      failCount(count);
  }

  // Always inline: GCC left u2 out of line in the attribute readers, where a call costs
  // more than the read.
  [[gnu::always_inline]] uint8_t u1() {
    need(1);
    return data_[pos_++];
  }
  [[gnu::always_inline]] uint16_t u2() {
    need(2);
    uint16_t v = static_cast<uint16_t>(data_[pos_] << 8 | data_[pos_ + 1]);
    pos_ += 2;
    return v;
  }
  [[gnu::always_inline]] uint32_t u4() {
    need(4);
    uint32_t v = uint32_t{data_[pos_]} << 24 | uint32_t{data_[pos_ + 1]} << 16 |
                 uint32_t{data_[pos_ + 2]} << 8 | uint32_t{data_[pos_ + 3]};
    pos_ += 4;
    return v;
  }
  uint64_t u8() {
    uint64_t hi = u4();
    return hi << 32 | u4();
  }
  int8_t s1() { return static_cast<int8_t>(u1()); }
  int16_t s2() { return static_cast<int16_t>(u2()); }
  int32_t s4() { return static_cast<int32_t>(u4()); }

  std::span<const uint8_t> bytes(size_t n) {
    need(n);
    auto s = data_.subspan(pos_, n);
    pos_ += n;
    return s;
  }
  // A sub-reader over the next n bytes, keeping absolute offsets.
  Reader sub(size_t n) {
    size_t at = offset();
    return Reader(bytes(n), at);
  }
  void skip(size_t n) {
    need(n);
    pos_ += n;
  }
  size_t pos() const { return pos_; }
  void seek(size_t pos) { pos_ = pos; }
  // The bytes read since pos() was `from`.
  std::span<const uint8_t> since(size_t from) const { return data_.subspan(from, pos_ - from); }

 private:
  [[noreturn]] [[gnu::noinline, gnu::cold]] void failTruncated(size_t n) const {
    fail(offset(), "truncated: need " + std::to_string(n) + " bytes, " +
                       std::to_string(remaining()) + " left");
  }
  [[noreturn]] [[gnu::noinline, gnu::cold]] void failCount(size_t count) const {
    fail(offset(), "count " + std::to_string(count) + " exceeds the " +
                       std::to_string(remaining()) + " bytes left");
  }

  std::span<const uint8_t> data_;
  size_t base_;
  size_t pos_ = 0;
};

// Appends to `out`. The vector is sized to its capacity up front and written through a
// raw cursor, so each primitive is a bounds check and a store (no per-byte push_back);
// the destructor trims the vector to what was written.
//
// Overwrite mode (a reused buffer): writes from the start of `out` and leaves its size
// alone, so that a buffer kept at its full size is never zero-filled again (growing a
// vector value-initializes the new bytes); the caller takes the first size() bytes.
class Writer {
 public:
  struct Overwrite {};
  explicit Writer(std::vector<uint8_t>& out) : out_(out), pos_(out.size()) {
    out_.resize(std::max(out_.capacity(), pos_ + 64));
    base_ = out_.data();
    size_ = out_.size();
  }
  Writer(std::vector<uint8_t>& out, Overwrite) : out_(out), pos_(0), trim_(false) {
    if (out_.size() < 64) out_.resize(std::max<size_t>(out_.capacity(), 64));
    base_ = out_.data();
    size_ = out_.size();
  }
  ~Writer() {
    if (trim_) out_.resize(pos_);
  }
  Writer(const Writer&) = delete;
  Writer& operator=(const Writer&) = delete;

  size_t size() const { return pos_; }
  void u1(uint8_t v) {
    ensure(1);
    base_[pos_++] = v;
  }
  void u2(uint16_t v) {
    ensure(2);
    patchU2(pos_, v);
    pos_ += 2;
  }
  void u4(uint32_t v) {
    ensure(4);
    patchU4(pos_, v);
    pos_ += 4;
  }
  void u8(uint64_t v) {
    u4(static_cast<uint32_t>(v >> 32));
    u4(static_cast<uint32_t>(v));
  }
  void bytes(std::span<const uint8_t> b) {
    if (b.empty()) return;
    ensure(b.size());
    std::memcpy(base_ + pos_, b.data(), b.size());
    pos_ += b.size();
  }
  void bytes(std::string_view s) {
    bytes(std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(s.data()), s.size()));
  }

  // Direct access for encoders: room(n) makes room for up to n bytes at the cursor and
  // returns it; advance(k) then moves past the k <= n bytes written there.
  uint8_t* room(size_t n) {
    ensure(n);
    return base_ + pos_;
  }
  void advance(size_t k) { pos_ += k; }

  // Reserve a u4 to be filled in later (attribute lengths).
  size_t reserveU4() {
    ensure(4);
    size_t at = pos_;
    pos_ += 4;
    return at;
  }
  void patchU4(size_t at, uint32_t v) { storeU4(base_ + at, v); }
  void patchU2(size_t at, uint16_t v) { storeU2(base_ + at, v); }

 private:
  // Against a copy of the buffer's size: every byte stored through base_ may alias the
  // vector's own fields, so reading its size here made each primitive reload them.
  void ensure(size_t n) {
    if (n > size_ - pos_) [[unlikely]]
      grow(n);
  }
  [[gnu::noinline]] void grow(size_t n) {
    out_.resize(std::max(out_.size() * 2, pos_ + n));
    base_ = out_.data();
    size_ = out_.size();
  }

  std::vector<uint8_t>& out_;
  size_t pos_;
  uint8_t* base_;
  size_t size_;  // out_.size()
  bool trim_ = true;
};

}  // namespace dragnet::classfile
