#include "profile/reader.h"

#include <zlib.h>

#include <cstring>
#include <fstream>
#include <iterator>

#include "profile/codec.h"

namespace dragnet::profile {

namespace {

uint32_t getU32(const uint8_t* p) {
  return uint32_t{p[0]} | uint32_t{p[1]} << 8 | uint32_t{p[2]} << 16 | uint32_t{p[3]} << 24;
}

void decodeMap(Decoder& d, std::map<std::string, std::string>& out) {
  for (uint64_t n = d.count(); n > 0 && d.ok(); --n) {
    std::string k = d.str();
    out[k] = d.str();
  }
}

void decodeMethods(Decoder& d, Profile& p) {
  for (uint64_t n = d.count(); n > 0 && d.ok(); --n) {
    MethodDef m;
    m.id = d.u32();
    m.cls = d.str();
    m.name = d.str();
    m.descriptor = d.str();
    m.source = d.str();
    if (d.ok()) p.methods[m.id] = std::move(m);
  }
}

void decodeSites(Decoder& d, Profile& p) {
  for (uint64_t n = d.count(); n > 0 && d.ok(); --n) {
    SiteDef s;
    s.key = d.u32();
    s.method = d.u32();
    s.bci = d.u32();
    s.line = static_cast<int32_t>(d.s());
    s.kind = static_cast<SiteKind>(d.u32());
    s.type = d.str();
    if (d.ok()) p.sites[s.key] = std::move(s);
  }
}

// Returns an error message for a chunk that does not fit the thread's tree so far.
std::string decodeThread(Decoder& d, Profile& p) {
  uint32_t id = d.u32();
  ThreadTree& t = p.threads[id];
  t.id = id;
  t.name = d.str();
  t.ended = d.u() != 0;
  t.collapsed = d.u();
  t.dropped = d.u();
  uint32_t first = d.u32();
  uint64_t n = d.count();
  if (!d.ok()) return d.error();
  if (t.nodes.empty()) t.nodes.push_back({0, kRootKey});  // node 0: the root
  if (first != t.nodes.size()) {
    return "thread " + std::to_string(id) + ": nodes continue at " + std::to_string(first) +
           ", expected " + std::to_string(t.nodes.size());
  }
  for (; n > 0 && d.ok(); --n) {
    NodeDef nd;
    nd.parent = d.u32();
    nd.key = d.u32();
    if (nd.parent >= t.nodes.size()) return "node parent out of range";
    t.nodes.push_back(nd);
  }
  t.counters.resize(t.nodes.size());
  uint32_t node = 0;
  for (uint64_t c = d.count(); c > 0 && d.ok(); --c) {
    node += d.u32();
    Counters v;
    v.count = d.u();
    v.elements = d.u();
    v.bytes = d.u();
    v.insns = d.u();
    if (node >= t.counters.size()) return "counter for an undefined node";
    t.counters[node] = v;
  }
  return d.ok() ? std::string() : d.error();
}

// See Writer::objects: later times are offsets from the allocation, 0 meaning none.
uint64_t timeAfter(Decoder& d, uint64_t alloc) {
  uint64_t v = d.u();
  return v == 0 ? kNoTime : alloc + v - 1;
}

EventAt eventAt(Decoder& d) {
  EventAt at;
  at.thread = d.u32();
  if (at.thread != 0) at.node = d.u32();
  return at;
}

std::string decodeObjects(Decoder& d, Profile& p) {
  for (uint64_t n = d.count(); n > 0 && d.ok(); --n) {
    ObjectRecord r;
    r.id = d.u();
    r.thread = d.u32();
    r.node = d.u32();
    r.key = d.u32();
    r.size = d.u();
    r.alloc = d.u();
    r.death = r.alloc + d.u();
    r.deathGc = d.u32();
    for (uint64_t* t : {&r.firstGet, &r.lastGet, &r.firstPut, &r.lastPut})
      *t = timeAfter(d, r.alloc);
    for (EventAt* at : {&r.firstGetAt, &r.lastGetAt, &r.firstPutAt, &r.lastPutAt}) *at = eventAt(d);
    if (d.ok()) p.objects.push_back(r);
  }
  return d.ok() ? std::string() : d.error();
}

std::string decodeGcs(Decoder& d, Profile& p) {
  uint32_t first = d.u32();
  if (d.ok() && first != p.gcs.size() + 1) {
    return "GCs continue at " + std::to_string(first) + ", expected " +
           std::to_string(p.gcs.size() + 1);
  }
  for (uint64_t n = d.count(); n > 0 && d.ok(); --n) {
    GcEvent g;
    g.time = d.u();
    g.forced = d.u() != 0;
    if (d.ok()) p.gcs.push_back(g);
  }
  return d.ok() ? std::string() : d.error();
}

std::string decodeChunk(ChunkType type, Decoder& d, Profile& p) {
  switch (type) {
    case ChunkType::Meta:
      decodeMap(d, p.meta);
      break;
    case ChunkType::Methods:
      decodeMethods(d, p);
      break;
    case ChunkType::Sites:
      decodeSites(d, p);
      break;
    case ChunkType::Thread:
      return decodeThread(d, p);
    case ChunkType::ClassSizes:
      for (uint64_t n = d.count(); n > 0 && d.ok(); --n) {
        std::string cls = d.str();
        p.classSizes[cls] = d.u();
      }
      break;
    case ChunkType::Failures:
      for (uint64_t n = d.count(); n > 0 && d.ok(); --n) {
        Failure f;
        f.cls = d.str();
        f.method = d.str();
        f.reason = d.str();
        if (d.ok()) p.failures.push_back(std::move(f));
      }
      break;
    case ChunkType::Objects:
      return decodeObjects(d, p);
    case ChunkType::Gcs:
      return decodeGcs(d, p);
    case ChunkType::End:
      decodeMap(d, p.totals);
      if (d.ok()) p.complete = true;
      break;
    default:
      return "unknown chunk type " + std::to_string(static_cast<int>(type));
  }
  return d.ok() ? std::string() : d.error();
}

}  // namespace

bool readProfile(const std::string& path, Profile& out, std::string& error,
                 const Progress& progress) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    error = "cannot open " + path;
    return false;
  }
  std::vector<uint8_t> data{std::istreambuf_iterator<char>(in), {}};
  if (data.size() < kHeaderSize || std::memcmp(data.data(), kMagic, sizeof kMagic) != 0) {
    error = path + " is not a dragnet profile (bad magic)";
    return false;
  }
  out = Profile{};
  out.version = getU32(data.data() + 8);
  if (out.version > kVersion) {
    error = path + " was written in profile format version " + std::to_string(out.version) +
            ", but this dragnet reads versions up to " + std::to_string(kVersion) +
            ": use a newer dragnet";
    return false;
  }
  size_t pos = kHeaderSize;
  while (pos < data.size()) {
    if (progress) progress(pos, data.size());
    if (data.size() - pos < kChunkHeaderSize) {
      out.truncation = "incomplete chunk header at offset " + std::to_string(pos);
      break;
    }
    auto type = static_cast<ChunkType>(data[pos]);
    uint32_t len = getU32(&data[pos + 1]), crc = getU32(&data[pos + 5]);
    const uint8_t* payload = data.data() + pos + kChunkHeaderSize;
    if (len > data.size() - pos - kChunkHeaderSize) {
      out.truncation = "chunk at offset " + std::to_string(pos) + " is cut short";
      break;
    }
    if (crc32(0L, payload, len) != crc) {
      out.truncation = "checksum mismatch in the chunk at offset " + std::to_string(pos);
      break;
    }
    Decoder d(payload, len);
    std::string why = decodeChunk(type, d, out);
    if (!why.empty()) {
      out.truncation = "bad chunk at offset " + std::to_string(pos) + ": " + why;
      break;
    }
    ++out.chunks;
    pos += kChunkHeaderSize + len;
  }
  if (progress) progress(data.size(), data.size());
  return true;
}

}  // namespace dragnet::profile
