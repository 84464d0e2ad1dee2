#include "profile/reader.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include <cerrno>
#include <cstring>
#include <span>

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

// The objects the Objects chunks hold, from their counts: one pass over the chunk headers
// before decoding, so that the records (the bulk of a lifetime profile) are allocated once
// instead of through repeated doubling. Stops where the chunks stop being well formed; the
// decoding pass says why.
size_t objectCount(std::span<const uint8_t> data) {
  size_t total = 0;
  for (size_t pos = kHeaderSize; data.size() - pos >= kChunkHeaderSize;) {
    uint32_t len = getU32(&data[pos + 1]);
    if (len > data.size() - pos - kChunkHeaderSize) break;
    if (static_cast<ChunkType>(data[pos]) == ChunkType::Objects) {
      Decoder d(data.data() + pos + kChunkHeaderSize, len);
      uint64_t n = d.count();  // at most the payload's length
      if (d.ok()) total += static_cast<size_t>(n);
    }
    pos += kChunkHeaderSize + len;
  }
  return total;
}

// The profile's bytes: a regular file is mapped (decoded pages are given back as the
// decoding passes them, so a report's peak memory is the records, not the records and the
// file), a pipe is read into memory.
class Input {
 public:
  ~Input() {
    if (map_) ::munmap(map_, size_);
    if (fd_ >= 0) ::close(fd_);
  }
  bool open(const std::string& path, std::string& error) {
    fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd_ < 0) {
      error = "cannot open " + path;
      return false;
    }
    struct stat st {};
    if (::fstat(fd_, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0) {
      size_ = static_cast<size_t>(st.st_size);
      void* m = ::mmap(nullptr, size_, PROT_READ, MAP_PRIVATE, fd_, 0);
      if (m != MAP_FAILED) {
        map_ = static_cast<uint8_t*>(m);
        ::madvise(map_, size_, MADV_SEQUENTIAL);
        return true;
      }
    }
    uint8_t buf[1 << 16];  // a pipe, or a file that cannot be mapped
    for (ssize_t n; (n = ::read(fd_, buf, sizeof buf)) != 0;) {
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) {
        error = "cannot read " + path + ": " + std::strerror(errno);
        return false;
      }
      copy_.insert(copy_.end(), buf, buf + n);
    }
    return true;
  }
  std::span<const uint8_t> bytes() const {
    return map_ ? std::span<const uint8_t>(map_, size_) : std::span<const uint8_t>(copy_);
  }
  // Everything before `pos` has been decoded: its pages may go.
  void consumed(size_t pos) {
    constexpr size_t kStep = size_t{64} << 20;
    if (!map_ || pos < released_ + kStep) return;
    size_t end = pos & ~(size_t{4096} - 1);
    ::madvise(map_ + released_, end - released_, MADV_DONTNEED);
    released_ = end;
  }

 private:
  int fd_ = -1;
  uint8_t* map_ = nullptr;
  size_t size_ = 0, released_ = 0;
  std::vector<uint8_t> copy_;
};

}  // namespace

bool readProfile(const std::string& path, Profile& out, std::string& error,
                 const Progress& progress) {
  Input input;
  if (!input.open(path, error)) return false;
  std::span<const uint8_t> data = input.bytes();
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
  out.objects.reserve(objectCount(data));
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
    input.consumed(pos);
  }
  if (progress) progress(data.size(), data.size());
  return true;
}

}  // namespace dragnet::profile
