// Varint encoding of profile chunk payloads (format.h). The decoder checks every read
// against the end of the payload and reports the first problem with its offset.
#pragma once

#include <cstdint>
#include <map>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "profile/text.h"

namespace dragnet::profile {

class Encoder {
 public:
  void u(uint64_t v) {
    while (v >= 0x80) {
      buf_.push_back(static_cast<uint8_t>(v | 0x80));
      v >>= 7;
    }
    buf_.push_back(static_cast<uint8_t>(v));
  }
  void s(int64_t v) { u((static_cast<uint64_t>(v) << 1) ^ static_cast<uint64_t>(v >> 63)); }
  void str(std::string_view v) {
    u(v.size());
    buf_.insert(buf_.end(), v.begin(), v.end());
  }
  void raw(std::span<const uint8_t> v) { buf_.insert(buf_.end(), v.begin(), v.end()); }
  const std::vector<uint8_t>& bytes() const { return buf_; }
  void clear() { buf_.clear(); }

 private:
  std::vector<uint8_t> buf_;
};

class Decoder {
 public:
  Decoder(const uint8_t* p, size_t n) : p_(p), n_(n) {}
  bool ok() const { return error_.empty(); }
  const std::string& error() const { return error_; }
  bool atEnd() const { return pos_ == n_; }
  size_t left() const { return n_ - pos_; }
  // The bytes left (a field that runs to the end of the payload), all consumed.
  std::span<const uint8_t> rest() {
    std::span<const uint8_t> r(p_ + pos_, n_ - pos_);
    pos_ = n_;
    return r;
  }
  // Marks the payload malformed (the first problem wins); returns 0 for the caller's value.
  uint64_t fail(const char* what) {
    if (error_.empty()) error_ = std::string(what) + " at payload offset " + std::to_string(pos_);
    pos_ = n_;
    return 0;
  }

  uint64_t u() {
    uint64_t v = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      if (pos_ >= n_) return fail("varint runs past the end");
      uint8_t b = p_[pos_++];
      v |= uint64_t{b & 0x7Fu} << shift;
      if (!(b & 0x80)) return v;
    }
    return fail("varint longer than 10 bytes");
  }
  int64_t s() {
    uint64_t v = u();
    return static_cast<int64_t>(v >> 1) ^ -static_cast<int64_t>(v & 1);
  }
  uint32_t u32() {
    uint64_t v = u();
    if (v > 0xFFFFFFFFu) return static_cast<uint32_t>(fail("value over 32 bits"));
    return static_cast<uint32_t>(v);
  }
  // A string field, as well-formed UTF-8 (text.h): every string of a profile passes here.
  std::string str() {
    uint64_t len = u();
    if (!ok()) return {};
    if (len > n_ - pos_) {
      fail("string runs past the end");
      return {};
    }
    std::string_view bytes(reinterpret_cast<const char*>(p_ + pos_), len);
    pos_ += len;
    return readableText(bytes);
  }
  // A count of items that each take at least one byte: bounded by what is left, so a
  // corrupt count cannot make the reader allocate without bound.
  uint64_t count() {
    uint64_t c = u();
    if (c > n_ - pos_) return fail("item count exceeds the payload");
    return c;
  }

 private:
  const uint8_t* p_;
  size_t n_;
  size_t pos_ = 0;
  std::string error_;
};

// A little-endian u32 of the file's header and chunk headers (format.h).
inline uint32_t loadU32(const uint8_t* p) {
  return uint32_t{p[0]} | uint32_t{p[1]} << 8 | uint32_t{p[2]} << 16 | uint32_t{p[3]} << 24;
}

// A Meta or End chunk's key-value map into `out` (a later chunk's value wins); the
// decoder's error, or empty. `out` is changed only when the whole map was read.
inline std::string decodeMap(Decoder& d, std::map<std::string, std::string>& out) {
  std::map<std::string, std::string> kv;
  for (uint64_t n = d.count(); n > 0 && d.ok(); --n) {
    std::string k = d.str();
    kv[k] = d.str();
  }
  if (!d.ok()) return d.error();
  for (auto& [k, v] : kv) out[k] = std::move(v);
  return {};
}

}  // namespace dragnet::profile
