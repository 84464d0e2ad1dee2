// A minimal protocol-buffers encoder (wire format only: varints and length-delimited
// fields), enough to write pprof's profile.proto without libprotobuf.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace dragnet::report {

class ProtoWriter {
 public:
  // proto3 scalars: a zero value is the default and is left out, as protoc does.
  void uint(int field, uint64_t v) {
    if (v == 0) return;
    key(field, kVarint);
    varint(v);
  }
  void sint(int field, int64_t v) { uint(field, static_cast<uint64_t>(v)); }  // int64, not sint64
  // Strings are always written: the string table's entry 0 must be "".
  void bytes(int field, std::string_view s) {
    key(field, kLength);
    varint(s.size());
    buf_.append(s);
  }
  void message(int field, const ProtoWriter& m) { bytes(field, m.buf_); }
  // A packed repeated varint field (the proto3 default encoding).
  void packed(int field, const std::vector<uint64_t>& values) {
    if (values.empty()) return;
    ProtoWriter body;
    for (uint64_t v : values) body.varint(v);
    bytes(field, body.buf_);
  }
  const std::string& data() const { return buf_; }
  void clear() { buf_.clear(); }

 private:
  static constexpr int kVarint = 0, kLength = 2;
  void key(int field, int wire) { varint(static_cast<uint64_t>(field) << 3 | wire); }
  void varint(uint64_t v) {
    while (v >= 0x80) {
      buf_.push_back(static_cast<char>(v | 0x80));
      v >>= 7;
    }
    buf_.push_back(static_cast<char>(v));
  }

  std::string buf_;
};

}  // namespace dragnet::report
