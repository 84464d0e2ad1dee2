#include "profile/writer.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <span>

#include "profile/objects_codec.h"

namespace dragnet::profile {

namespace {

void putU32(uint8_t* p, uint32_t v) {
  for (int i = 0; i < 4; ++i) p[i] = static_cast<uint8_t>(v >> (8 * i));
}

void encodeMap(Encoder& e, const std::map<std::string, std::string>& kv) {
  e.u(kv.size());
  for (const auto& [k, v] : kv) {
    e.str(k);
    e.str(v);
  }
}

}  // namespace

Writer::~Writer() { close(); }

bool Writer::open(const std::string& path, std::string& error, bool* busy) {
  std::lock_guard lock(mu_);
  if (busy) *busy = false;
  // Truncated only once the lock is ours: a file another process is writing stays whole.
  // Close-on-exec: the program's child processes must not hold the lock.
  int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC, 0666);
  if (fd < 0) {
    error = "cannot create " + path + ": " + std::strerror(errno);
    return false;
  }
  struct stat st {};
  bool regular = ::fstat(fd, &st) == 0 && S_ISREG(st.st_mode);  // not /dev/null, a pipe
  // Only a lock held elsewhere stops us; a file system without locks does not.
  if (regular && ::flock(fd, LOCK_EX | LOCK_NB) != 0 && errno == EWOULDBLOCK) {
    if (busy) *busy = true;
    error = path + " is being written by another process";
    ::close(fd);
    return false;
  }
  if ((regular && ::ftruncate(fd, 0) != 0) || !(file_ = ::fdopen(fd, "wb"))) {
    error = "cannot write " + path + ": " + std::strerror(errno);
    ::close(fd);
    return false;
  }
  uint8_t header[kHeaderSize] = {};
  std::memcpy(header, kMagic, sizeof kMagic);
  putU32(header + 8, kVersion);
  if (std::fwrite(header, 1, sizeof header, file_) != sizeof header || std::fflush(file_) != 0) {
    error = "cannot write " + path + ": " + std::strerror(errno);
    std::fclose(file_);
    file_ = nullptr;
    return false;
  }
  written_ = sizeof header;
  opened_ = std::chrono::steady_clock::now();
  return true;
}

void Writer::close() {
  std::lock_guard lock(mu_);
  if (file_) std::fclose(file_);
  file_ = nullptr;
}

void Writer::chunk(ChunkType type, const Encoder& payload) {
  const std::vector<uint8_t>& p = payload.bytes();
  uint8_t head[kChunkHeaderSize];
  head[0] = static_cast<uint8_t>(type);
  putU32(head + 1, static_cast<uint32_t>(p.size()));
  putU32(head + 5, chunkCrc(kVersion, head, p.data(), p.size()));
  std::lock_guard lock(mu_);
  if (!file_ || failed_) return;
  // One chunk, then a flush to the OS: a crash loses at most the chunk being written.
  bool ok = std::fwrite(head, 1, sizeof head, file_) == sizeof head &&
            std::fwrite(p.data(), 1, p.size(), file_) == p.size() && std::fflush(file_) == 0;
  if (!ok) failed_ = true;  // disk full: keep the readable prefix, stop writing
  written_ += sizeof head + p.size();
}

void Writer::meta(const std::map<std::string, std::string>& kv) {
  Encoder e;
  encodeMap(e, kv);
  chunk(ChunkType::Meta, e);
}

void Writer::methods(const std::vector<MethodDef>& defs) {
  if (defs.empty()) return;
  Encoder e;
  e.u(defs.size());
  for (const MethodDef& m : defs) {
    e.u(m.id);
    e.str(m.cls);
    e.str(m.name);
    e.str(m.descriptor);
    e.str(m.source);
  }
  chunk(ChunkType::Methods, e);
}

void Writer::sites(const std::vector<SiteDef>& defs) {
  if (defs.empty()) return;
  Encoder e;
  e.u(defs.size());
  for (const SiteDef& s : defs) {
    e.u(s.key);
    e.u(s.method);
    e.u(s.bci);
    e.s(s.line);
    e.u(static_cast<uint8_t>(s.kind));
    e.str(s.type);
  }
  chunk(ChunkType::Sites, e);
}

void Writer::callSites(const std::vector<CallSite>& sites) {
  if (sites.empty()) return;
  Encoder e;
  e.u(sites.size());
  for (const CallSite& c : sites) {
    e.u(c.method);
    e.u(c.number);
    e.u(c.bci);
    e.s(c.line);
    e.u(c.op);
    e.str(c.owner);
    e.str(c.name);
    e.str(c.descriptor);
  }
  chunk(ChunkType::CallSites, e);
}

void Writer::thread(const ThreadChunk& t) {
  Encoder e;
  e.u(t.thread);
  e.str(t.name);
  e.u(t.ended ? 1 : 0);
  e.u(t.collapsed);
  e.u(t.dropped);
  e.u(t.firstNode);
  e.u(t.nodes.size());
  for (const NodeDef& n : t.nodes) {
    e.u(n.parent);
    e.u(n.slot == 0 ? n.key : (n.key & ~kCallSlotMask) | uint32_t{n.slot} << kCallSlotShift);
  }
  e.u(t.counters.size());
  uint32_t prev = 0;
  for (const auto& [node, c] : t.counters) {
    e.u(node - prev);  // ascending node numbers: small deltas
    prev = node;
    e.u(c.count);
    e.u(c.elements);
    e.u(c.bytes);
    e.u(c.insns);
  }
  chunk(ChunkType::Thread, e);
}

void Writer::rate(const RateChunk& r) {
  Encoder e;
  e.u(r.thread);
  e.u(r.time);
  e.u(r.keys.size());
  for (const auto& [key, c] : r.keys) {
    e.u(key);
    e.u(c.count);
    e.u(c.elements);
    e.u(c.bytes);
  }
  chunk(ChunkType::Rate, e);
}

uint64_t Writer::millis() const {
  auto d = std::chrono::steady_clock::now() - opened_;
  return static_cast<uint64_t>(std::chrono::duration_cast<std::chrono::milliseconds>(d).count());
}

void Writer::classSizes(const std::map<std::string, uint64_t>& sizes) {
  if (sizes.empty()) return;
  Encoder e;
  e.u(sizes.size());
  for (const auto& [cls, size] : sizes) {
    e.str(cls);
    e.u(size);
  }
  chunk(ChunkType::ClassSizes, e);
}

void Writer::failures(const std::vector<Failure>& failures) {
  if (failures.empty()) return;
  Encoder e;
  e.u(failures.size());
  for (const Failure& f : failures) {
    e.str(f.cls);
    e.str(f.method);
    e.str(f.reason);
  }
  chunk(ChunkType::Failures, e);
}

void Writer::end(const std::map<std::string, std::string>& totals) {
  Encoder e;
  encodeMap(e, totals);
  chunk(ChunkType::End, e);
}

namespace {
// A large batch is written as several chunks: each chunk's columns are decompressed whole by
// a reader, so their size bounds its buffers.
template <class Fn>
void inChunks(const std::vector<ObjectRecord>& records, Fn fn) {
  std::span<const ObjectRecord> all(records);
  for (size_t at = 0; at < all.size(); at += kObjectsPerChunk) {
    fn(all.subspan(at, std::min(kObjectsPerChunk, all.size() - at)));
  }
}
}  // namespace

void Writer::objects(const std::vector<ObjectRecord>& records) {
  inChunks(records, [&](std::span<const ObjectRecord> part) {
    Encoder e;
    encodeObjects(e, part);
    chunk(ChunkType::Objects, e);
  });
}

uint64_t Writer::live(uint64_t time, const std::vector<ObjectRecord>& records) {
  uint64_t bytes = 0;
  inChunks(records, [&](std::span<const ObjectRecord> part) {
    Encoder e;
    e.u(time);
    encodeObjects(e, part);
    chunk(ChunkType::Live, e);
    bytes += kChunkHeaderSize + e.bytes().size();
  });
  return bytes;
}

void Writer::gcs(uint32_t firstGc, const std::vector<GcEvent>& gcs) {
  if (gcs.empty()) return;
  Encoder e;
  e.u(firstGc);
  e.u(gcs.size());
  for (const GcEvent& g : gcs) {
    e.u(g.time);
    e.u(g.forced ? 1 : 0);
  }
  chunk(ChunkType::Gcs, e);
}

void Writer::flowDefs(const std::vector<FieldDef>& fields, const std::vector<ObjectName>& names,
                      const std::vector<ClassLayout>& classes) {
  if (fields.empty() && names.empty() && classes.empty()) return;
  Encoder e;
  e.u(fields.size());
  for (const FieldDef& f : fields) {
    e.u(f.id);
    e.str(f.cls);
    e.str(f.name);
    e.str(f.descriptor);
    e.u(f.isStatic ? 1 : 0);
  }
  e.u(names.size());
  for (const ObjectName& o : names) {
    e.u(o.tag);
    e.u(o.site);
    e.u(o.context);
  }
  if (!classes.empty()) {
    e.u(classes.size());
    for (const ClassLayout& c : classes) {
      e.str(c.name);
      e.str(c.super);
      e.u(c.fields.size());
      for (uint32_t f : c.fields) e.u(f);
    }
  }
  chunk(ChunkType::FlowDefs, e);
}

void Writer::flowThread(const FlowThreadChunk& t) {
  Encoder e;
  e.u(t.thread);
  e.u(t.ended ? 1 : 0);
  e.u(t.edges.size());
  for (const FlowEdge& x : t.edges) {
    e.u(x.src);
    e.u(x.dst);
    e.u(x.count);
  }
  e.u(t.births.size());
  for (const FlowBirth& b : t.births) {
    e.u(b.site);
    e.u(b.context);
    e.u(b.count);
  }
  for (const auto* list : {&t.copies, &t.cuts}) {
    e.u(list->size());
    for (const auto& [key, n] : *list) {
      e.u(key);
      e.u(n);
    }
  }
  if (!t.clones.empty()) {
    e.u(t.clones.size());
    for (const FlowClones& c : t.clones) {
      e.u(c.node);
      e.u(c.site);
      e.u(c.count);
    }
  }
  chunk(ChunkType::FlowThread, e);
}

void Writer::costDefs(const std::vector<CostNode>& nodes, const std::vector<CostEdge>& edges) {
  if (nodes.empty() && edges.empty()) return;
  Encoder e;
  e.u(nodes.size());
  for (const CostNode& c : nodes) {
    e.u(c.id);
    e.u(c.kind);
    e.u(c.method);
    e.u(c.index);
    e.s(c.line);
    e.u(c.field);
    e.u(c.site);
    e.u(c.block);
    e.u(c.reference ? 1 : 0);
  }
  e.u(edges.size());
  for (const CostEdge& x : edges) {
    e.u(x.dst);
    e.u(x.src);
    e.u(x.srcInFrame ? 1 : 0);
  }
  chunk(ChunkType::CostDefs, e);
}

void Writer::costThread(const CostThreadChunk& t) {
  Encoder e;
  e.u(t.thread);
  e.u(t.ended ? 1 : 0);
  e.u(t.records.size());
  for (const CostRecord& r : t.records) {
    e.u(r.a);
    e.u(r.b);
    e.u(r.count);
  }
  chunk(ChunkType::CostThread, e);
}

}  // namespace dragnet::profile
