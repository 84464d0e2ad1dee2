// A minimal protobuf reader for the tests of the pprof report: gunzip with zlib, then the
// wire format, independent of the encoder in src/report.
#pragma once

#include <gtest/gtest.h>
#include <zlib.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

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

inline uint64_t get(const Message& m, int field) {
  auto it = m.find(field);
  return it == m.end() ? 0 : it->second.v;
}

// A repeated varint field, packed or not.
inline std::vector<uint64_t> repeated(const Message& m, int field) {
  std::vector<uint64_t> v;
  auto [b, e] = m.equal_range(field);
  for (auto it = b; it != e; ++it) {
    if (it->second.bytes.empty()) {
      v.push_back(it->second.v);
      continue;
    }
    for (size_t at = 0; at < it->second.bytes.size();) v.push_back(varint(it->second.bytes, at));
  }
  return v;
}

struct Decoded {
  std::vector<std::string> strings, sampleTypes, comments;
  std::string defaultType;
  uint64_t period = 0;
  // "leaf;caller:line;..." -> values, and the "type" label of each stack.
  std::map<std::string, std::vector<uint64_t>> samples;
  std::map<std::string, std::string> typeLabels, originLabels;
  std::map<std::string, std::pair<std::string, std::string>> functions;  // name -> system, file
};

// A Profile message (not gzipped) as its strings, sample types, comments and samples.
// `uniqueStacks`: no two samples may have one stack (else their values are summed).
inline Decoded decodeProfile(const std::string& raw, bool uniqueStacks = true) {
  Message p = decode(raw);
  Decoded d;
  auto [sb, se] = p.equal_range(6);
  for (auto it = sb; it != se; ++it) d.strings.push_back(it->second.bytes);
  auto str = [&](uint64_t i) { return i < d.strings.size() ? d.strings[i] : "<bad index>"; };
  auto [tb, te] = p.equal_range(1);
  for (auto it = tb; it != te; ++it) {
    Message t = decode(it->second.bytes);
    d.sampleTypes.push_back(str(get(t, 1)) + "/" + str(get(t, 2)));
  }
  d.defaultType = str(get(p, 14));
  d.period = get(p, 12);
  for (uint64_t c : repeated(p, 13)) d.comments.push_back(str(c));
  std::map<uint64_t, std::string> functionNames;
  auto [fb, fe] = p.equal_range(5);
  for (auto it = fb; it != fe; ++it) {
    Message f = decode(it->second.bytes);
    functionNames[get(f, 1)] = str(get(f, 2));
    d.functions[str(get(f, 2))] = {str(get(f, 3)), str(get(f, 4))};
  }
  std::map<uint64_t, std::string> locations;  // id -> "function:line" (":line" if > 0)
  auto [lb, le] = p.equal_range(4);
  for (auto it = lb; it != le; ++it) {
    Message l = decode(it->second.bytes);
    EXPECT_EQ(get(l, 2), 1u) << "mapping id";
    Message line = decode(l.find(4)->second.bytes);
    uint64_t n = get(line, 2);
    locations[get(l, 1)] = functionNames[get(line, 1)] + (n ? ":" + std::to_string(n) : "");
  }
  auto [pb, pe] = p.equal_range(2);
  for (auto it = pb; it != pe; ++it) {
    Message s = decode(it->second.bytes);
    std::string stack;
    for (uint64_t id : repeated(s, 1)) stack += (stack.empty() ? "" : ";") + locations[id];
    std::vector<uint64_t> values = repeated(s, 2);
    if (uniqueStacks) {
      EXPECT_EQ(d.samples.count(stack), 0u) << "duplicate stack " << stack;
      d.samples[stack] = values;
    } else {
      std::vector<uint64_t>& sum = d.samples[stack];
      sum.resize(std::max(sum.size(), values.size()));
      for (size_t i = 0; i < values.size(); ++i) sum[i] += values[i];
    }
    auto [ab, ae] = s.equal_range(3);
    for (auto a = ab; a != ae; ++a) {
      Message label = decode(a->second.bytes);
      if (str(get(label, 1)) == "type") d.typeLabels[stack] = str(get(label, 2));
      if (str(get(label, 1)) == "origin") d.originLabels[stack] = str(get(label, 2));
    }
  }
  return d;
}

}  // namespace dragnet::test::pprof
