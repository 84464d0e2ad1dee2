// A minimal protobuf reader for the tests of the pprof report: gunzip with zlib, then the
// wire format, independent of the encoder in src/report.
#pragma once

#include <gtest/gtest.h>
#include <zlib.h>

#include <cstdint>
#include <map>
#include <string>

namespace dragnet::test::pprof {

inline std::string gunzip(const std::string& gz) {
  z_stream z{};
  EXPECT_EQ(inflateInit2(&z, 15 + 16), Z_OK);  // gzip only
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(gz.data()));
  z.avail_in = static_cast<uInt>(gz.size());
  std::string out;
  char buf[4096];
  int rc = Z_OK;
  while (rc == Z_OK) {
    z.next_out = reinterpret_cast<Bytef*>(buf);
    z.avail_out = sizeof buf;
    rc = inflate(&z, Z_NO_FLUSH);
    out.append(buf, sizeof buf - z.avail_out);
  }
  inflateEnd(&z);
  EXPECT_EQ(rc, Z_STREAM_END);
  return out;
}

// One decoded field: a varint, or the bytes of a length-delimited field.
struct Field {
  uint64_t v = 0;
  std::string bytes;
};
using Message = std::multimap<int, Field>;

inline uint64_t varint(const std::string& s, size_t& at) {
  uint64_t v = 0;
  for (int shift = 0; at < s.size(); shift += 7) {
    auto b = static_cast<uint8_t>(s[at++]);
    v |= static_cast<uint64_t>(b & 0x7f) << shift;
    if (!(b & 0x80)) return v;
  }
  ADD_FAILURE() << "truncated varint";
  return v;
}

inline Message decode(const std::string& s) {
  Message m;
  for (size_t at = 0; at < s.size();) {
    uint64_t key = varint(s, at);
    Field f;
    switch (key & 7) {
      case 0:
        f.v = varint(s, at);
        break;
      case 2: {
        uint64_t n = varint(s, at);
        f.bytes = s.substr(at, n);
        at += n;
        break;
      }
      default:
        ADD_FAILURE() << "unexpected wire type " << (key & 7);
        return m;
    }
    m.emplace(static_cast<int>(key >> 3), f);
  }
  return m;
}

}  // namespace dragnet::test::pprof
