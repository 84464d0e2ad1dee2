// Big-endian byte reader and writer.
//
// The reader checks bounds before every read ("check once, then read" is done by callers
// that call need() for a whole structure before a loop). Reads past the end throw a
// ParseFailure naming the offset, so malformed input can never read out of bounds.
#pragma once

#include <cstdint>
#include <cstring>
#include <span>
#include <string_view>
#include <vector>

#include "classfile/error.h"

namespace dragnet::classfile {

class Reader {
 public:
  explicit Reader(std::span<const uint8_t> data, size_t base = 0) : data_(data), base_(base) {}

  // Absolute offset (in the class file) of the next byte.
  size_t offset() const { return base_ + pos_; }
  size_t remaining() const { return data_.size() - pos_; }
  bool atEnd() const { return pos_ == data_.size(); }

  void need(size_t n) const {
    if (n > remaining()) {
      fail(offset(), "truncated: need " + std::to_string(n) + " bytes, " +
                         std::to_string(remaining()) + " left");
    }
  }
  // need(count * elemSize) without overflow.
  void needArray(size_t count, size_t elemSize) const {
    if (elemSize != 0 && count > remaining() / elemSize) {
      fail(offset(), "count " + std::to_string(count) + " exceeds the " +
                         std::to_string(remaining()) + " bytes left");
    }
  }

  uint8_t u1() {
    need(1);
    return data_[pos_++];
  }
  uint16_t u2() {
    need(2);
    uint16_t v = static_cast<uint16_t>(data_[pos_] << 8 | data_[pos_ + 1]);
    pos_ += 2;
    return v;
  }
  uint32_t u4() {
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

 private:
  std::span<const uint8_t> data_;
  size_t base_;
  size_t pos_ = 0;
};

class Writer {
 public:
  explicit Writer(std::vector<uint8_t>& out) : out_(out) {}

  size_t size() const { return out_.size(); }
  void u1(uint8_t v) { out_.push_back(v); }
  void u2(uint16_t v) {
    out_.push_back(static_cast<uint8_t>(v >> 8));
    out_.push_back(static_cast<uint8_t>(v));
  }
  void u4(uint32_t v) {
    size_t at = out_.size();
    out_.resize(at + 4);
    patchU4(at, v);
  }
  void u8(uint64_t v) {
    u4(static_cast<uint32_t>(v >> 32));
    u4(static_cast<uint32_t>(v));
  }
  void bytes(std::span<const uint8_t> b) {
    if (b.empty()) return;
    size_t at = out_.size();
    out_.resize(at + b.size());
    std::memcpy(out_.data() + at, b.data(), b.size());
  }
  void bytes(std::string_view s) {
    bytes(std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(s.data()), s.size()));
  }

  // Reserve a u4 to be filled in later (attribute lengths).
  size_t reserveU4() {
    size_t at = out_.size();
    out_.resize(at + 4);
    return at;
  }
  void patchU4(size_t at, uint32_t v) {
    out_[at] = static_cast<uint8_t>(v >> 24);
    out_[at + 1] = static_cast<uint8_t>(v >> 16);
    out_[at + 2] = static_cast<uint8_t>(v >> 8);
    out_[at + 3] = static_cast<uint8_t>(v);
  }
  void patchU2(size_t at, uint16_t v) {
    out_[at] = static_cast<uint8_t>(v >> 8);
    out_[at + 1] = static_cast<uint8_t>(v);
  }

 private:
  std::vector<uint8_t>& out_;
};

}  // namespace dragnet::classfile
