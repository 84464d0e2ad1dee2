#include "profile/reader.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <climits>
#include <cstdint>
#include <cstring>
#include <iterator>
#include <span>
#include <unordered_map>

#include "profile/codec.h"
#include "profile/objects_codec.h"

namespace dragnet::profile {

namespace {

// Every decoder reads its chunk whole before it changes the profile: a malformed chunk
// leaves no part of itself behind.

std::string decodeMethods(Decoder& d, Profile& p) {
  std::vector<MethodDef> defs;
  for (uint64_t n = d.count(); n > 0 && d.ok(); --n) {
    MethodDef m;
    m.id = d.u32();
    m.cls = d.str();
    m.name = d.str();
    m.descriptor = d.str();
    m.source = d.str();
    defs.push_back(std::move(m));
  }
  if (!d.ok()) return d.error();
  for (MethodDef& m : defs) p.methods[m.id] = std::move(m);
  return {};
}

std::string decodeSites(Decoder& d, Profile& p) {
  std::vector<SiteDef> defs;
  for (uint64_t n = d.count(); n > 0 && d.ok(); --n) {
    SiteDef s;
    s.key = d.u32();
    s.method = d.u32();
    s.bci = d.u32();
    s.line = static_cast<int32_t>(d.s());
    s.kind = static_cast<SiteKind>(d.u32());
    s.type = d.str();
    defs.push_back(std::move(s));
  }
  if (!d.ok()) return d.error();
  for (SiteDef& s : defs) p.sites[s.key] = std::move(s);
  return {};
}

std::string decodeCallSites(Decoder& d, Profile& p) {
  std::vector<CallSite> sites;
  for (uint64_t n = d.count(); n > 0 && d.ok(); --n) {
    CallSite c;
    c.method = d.u32();
    c.number = d.u32();
    c.bci = d.u32();
    int64_t line = d.s();
    c.line = static_cast<int32_t>(line);
    uint32_t op = d.u32();
    c.op = static_cast<uint8_t>(op);
    c.owner = d.str();
    c.name = d.str();
    c.descriptor = d.str();
    if (!d.ok()) break;
    if (c.number == 0) return "call site number 0";
    if (op > 255) return "call site opcode out of range";
    if (line < INT32_MIN || line > INT32_MAX) return "call site line out of range";
    sites.push_back(std::move(c));
  }
  if (!d.ok()) return d.error();
  for (CallSite& c : sites) p.callSites[{c.method, c.number}] = std::move(c);
  return {};
}

// A method node's key in a profile with call slots: the slot goes to its own field.
void splitSlot(NodeDef& nd) {
  if (nd.key == kRootKey || nd.key == kLostKey || isAllocKey(nd.key)) return;
  nd.slot = static_cast<uint8_t>((nd.key & kCallSlotMask) >> kCallSlotShift);
  nd.key &= ~kCallSlotMask;
}

ThreadChunk readThreadChunk(Decoder& d) {
  ThreadChunk c;
  c.thread = d.u32();
  c.name = d.str();
  c.ended = d.u() != 0;
  c.collapsed = d.u();
  c.dropped = d.u();
  c.firstNode = d.u32();
  for (uint64_t n = d.count(); n > 0 && d.ok(); --n) {
    NodeDef nd;
    nd.parent = d.u32();
    nd.key = d.u32();
    c.nodes.push_back(nd);
  }
  uint32_t node = 0;
  for (uint64_t n = d.count(); n > 0 && d.ok(); --n) {
    node += d.u32();
    Counters v;
    v.count = d.u();
    v.elements = d.u();
    v.bytes = d.u();
    v.insns = d.u();
    c.counters.emplace_back(node, v);
  }
  return c;
}

// Returns an error message for a chunk that does not fit the thread's tree so far. Nodes
// of the thread's chunks that were skipped as corrupt (a gap before `firstNode`) are stood
// in for by lost nodes; each took at least two bytes of what was skipped, which bounds them.
std::string decodeThread(Decoder& d, Profile& p) {
  ThreadChunk c = readThreadChunk(d);
  if (!d.ok()) return d.error();
  if (p.meta.count(kCallSlotsMeta)) {
    for (NodeDef& nd : c.nodes) splitSlot(nd);
  }
  auto it = p.threads.find(c.thread);
  uint64_t have = it == p.threads.end() ? 1 : it->second.nodes.size();
  uint64_t gap = c.firstNode > have ? c.firstNode - have : 0;
  if (c.firstNode < have || gap > p.skippedBytes / 2) {
    return "thread " + std::to_string(c.thread) + ": nodes continue at " +
           std::to_string(c.firstNode) + ", expected " + std::to_string(have);
  }
  uint64_t size = c.firstNode;
  for (const NodeDef& nd : c.nodes) {
    if (nd.parent >= size++) return "node parent out of range";
  }
  for (const auto& [node, v] : c.counters) {
    if (node >= size) return "counter for an undefined node";
  }
  ThreadTree& t = p.threads[c.thread];
  t.id = c.thread;
  t.name = std::move(c.name);
  t.ended = c.ended;
  t.collapsed = c.collapsed;
  t.dropped = c.dropped;
  if (t.nodes.empty()) t.nodes.push_back({0, kRootKey});  // node 0: the root
  t.nodes.resize(c.firstNode, NodeDef{0, kLostKey});
  p.lostNodes += gap;
  t.nodes.insert(t.nodes.end(), c.nodes.begin(), c.nodes.end());
  t.counters.resize(t.nodes.size());
  for (const auto& [node, v] : c.counters) t.counters[node] = v;
  return {};
}

// The records of a Live chunk: superseded by later ones of the same object, and by its
// death (readProfile keeps the newest at the end).
std::string decodeLive(Decoder& d, Profile& p, std::vector<ObjectRecord>& live) {
  uint64_t time = d.u();
  if (!d.ok()) return d.error();
  size_t before = live.size();
  std::string why = decodeObjects(d, p.version, live);
  if (!why.empty()) return why;
  for (size_t i = before; i < live.size(); ++i) {
    live[i].death = std::max(time, live[i].alloc);
    live[i].deathGc = 0;
  }
  p.liveTime = std::max(p.liveTime, time);
  return {};
}

// GCs of skipped chunks are stood in for (at the previous GC's time), so that later
// deaths keep pointing at their GCs; bounded like lost nodes.
std::string decodeGcs(Decoder& d, Profile& p) {
  uint32_t first = d.u32();
  std::vector<GcEvent> gcs;
  for (uint64_t n = d.count(); n > 0 && d.ok(); --n) {
    GcEvent g;
    g.time = d.u();
    g.forced = d.u() != 0;
    gcs.push_back(g);
  }
  if (!d.ok()) return d.error();
  uint64_t next = p.gcs.size() + 1;
  if (first < next || first - next > p.skippedBytes / 2) {
    return "GCs continue at " + std::to_string(first) + ", expected " + std::to_string(next);
  }
  p.lostGcs += first - next;
  p.gcs.resize(first - 1, GcEvent{p.gcs.empty() ? 0 : p.gcs.back().time, false});
  p.gcs.insert(p.gcs.end(), gcs.begin(), gcs.end());
  return {};
}

std::string decodeClassSizes(Decoder& d, Profile& p) {
  std::vector<std::pair<std::string, uint64_t>> sizes;
  for (uint64_t n = d.count(); n > 0 && d.ok(); --n) {
    std::string cls = d.str();
    sizes.emplace_back(std::move(cls), d.u());
  }
  if (!d.ok()) return d.error();
  for (auto& [cls, size] : sizes) p.classSizes[cls] = size;
  return {};
}

std::string decodeFailures(Decoder& d, Profile& p) {
  std::vector<Failure> failures;
  for (uint64_t n = d.count(); n > 0 && d.ok(); --n) {
    Failure f;
    f.cls = d.str();
    f.method = d.str();
    f.reason = d.str();
    failures.push_back(std::move(f));
  }
  if (!d.ok()) return d.error();
  p.failures.insert(p.failures.end(), failures.begin(), failures.end());
  return {};
}

// Mode copy. Field id 1 (ELM) and tag 0 (an unknown object) are never defined.
std::string decodeFlowDefs(Decoder& d, Profile& p) {
  std::vector<FieldDef> fields;
  for (uint64_t n = d.count(); n > 0 && d.ok(); --n) {
    FieldDef f;
    f.id = d.u32();
    f.cls = d.str();
    f.name = d.str();
    f.descriptor = d.str();
    f.isStatic = d.u() != 0;
    if (d.ok() && (f.id <= kElmField || f.id > kFieldMask)) {
      return "field id " + std::to_string(f.id) + " out of range";
    }
    fields.push_back(std::move(f));
  }
  std::vector<ObjectName> names;
  for (uint64_t n = d.count(); n > 0 && d.ok(); --n) {
    ObjectName o;
    o.tag = d.u32();
    o.site = d.u32();
    o.context = d.u32();
    if (d.ok() && o.tag == 0) return "object name for tag 0";
    names.push_back(o);
  }
  std::vector<ClassLayout> classes;
  // Absent in profiles written before layouts were, and when empty.
  for (uint64_t n = d.ok() && !d.atEnd() ? d.count() : 0; n > 0 && d.ok(); --n) {
    ClassLayout c;
    c.name = d.str();
    c.super = d.str();
    for (uint64_t k = d.count(); k > 0 && d.ok(); --k) {
      uint32_t id = d.u32();
      if (d.ok() && (id <= kElmField || id > kFieldMask)) {
        return "field id " + std::to_string(id) + " of class " + c.name + " out of range";
      }
      c.fields.push_back(id);
    }
    classes.push_back(std::move(c));
  }
  if (!d.ok()) return d.error();
  for (FieldDef& f : fields) p.fields[f.id] = std::move(f);
  for (const ObjectName& o : names) p.objectNames[o.tag] = o;
  for (ClassLayout& c : classes) {
    std::string name = c.name;
    p.classes.insert_or_assign(std::move(name), std::move(c));
  }
  return {};
}

std::string decodeFlowThread(Decoder& d, Profile& p) {
  FlowThreadChunk c;
  c.thread = d.u32();
  c.ended = d.u() != 0;
  for (uint64_t n = d.count(); n > 0 && d.ok(); --n) {
    FlowEdge e;
    e.src = d.u();
    e.dst = d.u();
    e.count = d.u();
    c.edges.push_back(e);
  }
  for (uint64_t n = d.count(); n > 0 && d.ok(); --n) {
    FlowBirth b;
    b.site = d.u32();
    b.context = d.u32();
    b.count = d.u();
    c.births.push_back(b);
  }
  for (auto* list : {&c.copies, &c.cuts}) {
    for (uint64_t n = d.count(); n > 0 && d.ok(); --n) {
      uint32_t key = d.u32();
      list->emplace_back(key, d.u());
    }
  }
  // Absent in profiles written before clones were counted per context, and when empty.
  for (uint64_t n = d.ok() && !d.atEnd() ? d.count() : 0; n > 0 && d.ok(); --n) {
    FlowClones k;
    k.node = d.u32();
    k.site = d.u32();
    k.count = d.u();
    c.clones.push_back(k);
  }
  if (!d.ok()) return d.error();
  ThreadFlows& t = p.flows[c.thread];
  t.ended = t.ended || c.ended;
  for (const FlowEdge& e : c.edges) t.edges[{e.src, e.dst}] = e.count;
  for (const FlowBirth& b : c.births) t.births[{b.site, b.context}] = b.count;
  for (const auto& [node, n] : c.copies) t.copies[node] = n;
  for (const auto& [method, n] : c.cuts) t.cuts[method] = n;
  for (const FlowClones& k : c.clones) t.clones[{k.node, k.site}] = k.count;
  return {};
}

// Mode cost. Node id 0 is never defined (nor an edge's end); kinds are the analyzer's.
// Returns an error message for a node the format does not allow.
std::string readCostNode(Decoder& d, CostNode& c) {
  c.id = d.u32();
  uint32_t kind = d.u32();
  c.method = d.u32();
  c.index = d.u32();
  int64_t line = d.s();
  c.field = d.u32();
  c.site = d.u32();
  c.block = d.u32();
  c.reference = d.u() != 0;
  if (!d.ok()) return d.error();
  if (c.id == 0) return "cost node id 0";
  std::string node = "cost node " + std::to_string(c.id);
  if (kind > kMaxCostNodeKind) return node + ": kind " + std::to_string(kind) + " out of range";
  if (line < INT32_MIN || line > INT32_MAX) return node + ": line out of range";
  if (c.field > kFieldMask) return node + ": field id out of range";
  if (c.site > kTagSiteMask) return node + ": site index out of range";
  c.kind = static_cast<uint8_t>(kind);
  c.line = static_cast<int32_t>(line);
  return {};
}

std::string decodeCostDefs(Decoder& d, Profile& p) {
  std::vector<CostNode> nodes;
  for (uint64_t n = d.count(); n > 0 && d.ok(); --n) {
    CostNode c;
    std::string why = readCostNode(d, c);
    if (!why.empty()) return why;
    nodes.push_back(c);
  }
  std::vector<CostEdge> edges;
  for (uint64_t n = d.count(); n > 0 && d.ok(); --n) {
    CostEdge e;
    e.dst = d.u32();
    e.src = d.u32();
    e.srcInFrame = d.u() != 0;
    if (d.ok() && (e.dst == 0 || e.src == 0)) return "cost edge to or from node 0";
    edges.push_back(e);
  }
  if (!d.ok()) return d.error();
  for (const CostNode& c : nodes) p.costNodes[c.id] = c;
  p.costEdges.insert(p.costEdges.end(), edges.begin(), edges.end());
  return {};
}

std::string decodeCostThread(Decoder& d, Profile& p) {
  CostThreadChunk c;
  c.thread = d.u32();
  c.ended = d.u() != 0;
  for (uint64_t n = d.count(); n > 0 && d.ok(); --n) {
    CostRecord r;
    r.a = d.u();
    r.b = d.u();
    r.count = d.u();
    c.records.push_back(r);
  }
  if (!d.ok()) return d.error();
  ThreadCosts& t = p.costThreads[c.thread];
  t.ended = t.ended || c.ended;
  for (const CostRecord& r : c.records) t.records[{r.a, r.b}] = r.count;
  return {};
}

std::string decodeRate(Decoder& d, Profile& p) {
  RateChunk r;
  r.thread = d.u32();
  r.time = d.u();
  for (uint64_t n = d.count(); n > 0 && d.ok(); --n) {
    uint32_t key = d.u32();
    Counters c;
    c.count = d.u();
    c.elements = d.u();
    c.bytes = d.u();
    if (d.ok() && !isAllocKey(key)) return "rate record of key " + std::to_string(key);
    r.keys.emplace_back(key, c);
  }
  if (!d.ok()) return d.error();
  if (r.thread == 0) return "rate record of thread 0";
  p.rates.push_back(std::move(r));
  return {};
}

// Objects chunks' records go to `objects`, Live chunks' to `live`.
std::string decodeChunk(ChunkType type, Decoder& d, Profile& p, std::vector<ObjectRecord>& objects,
                        std::vector<ObjectRecord>& live, bool& metaRead) {
  switch (type) {
    case ChunkType::Meta: {
      std::string why = decodeMap(d, p.meta);
      metaRead = metaRead || why.empty();
      return why;
    }
    case ChunkType::Methods:
      return decodeMethods(d, p);
    case ChunkType::Sites:
      return decodeSites(d, p);
    case ChunkType::Thread:
      return decodeThread(d, p);
    case ChunkType::ClassSizes:
      return decodeClassSizes(d, p);
    case ChunkType::Failures:
      return decodeFailures(d, p);
    case ChunkType::Objects:
      return decodeObjects(d, p.version, objects);
    case ChunkType::Live:
      return decodeLive(d, p, live);
    case ChunkType::Gcs:
      return decodeGcs(d, p);
    case ChunkType::End: {
      std::string why = decodeMap(d, p.totals);
      if (why.empty()) p.complete = true;
      return why;
    }
    case ChunkType::FlowDefs:
      return decodeFlowDefs(d, p);
    case ChunkType::FlowThread:
      return decodeFlowThread(d, p);
    case ChunkType::CostDefs:
      return decodeCostDefs(d, p);
    case ChunkType::CostThread:
      return decodeCostThread(d, p);
    case ChunkType::Rate:
      return decodeRate(d, p);
    case ChunkType::CallSites:
      return decodeCallSites(d, p);
  }
  return "unknown chunk type " + std::to_string(static_cast<int>(type));
}

// The objects the Objects chunks hold, from their counts (formats 2-3, whose counts are not
// compressed; 0 for format 4): one pass over the chunk headers
// before decoding, so that the records (the bulk of a lifetime profile) are allocated once
// instead of through repeated doubling. Stops where the chunks stop being well formed; the
// decoding pass says why. `end`: an End chunk was met (the profile is complete, so its
// Live records need not be kept); otherwise the Live records count too (addLive appends
// the newest of each object that did not die).
size_t objectCount(std::span<const uint8_t> data, uint32_t version, bool& end) {
  size_t total = 0, live = 0;
  end = false;
  for (size_t pos = kHeaderSize; data.size() - pos >= kChunkHeaderSize;) {
    uint32_t len = loadU32(&data[pos + 1]);
    if (len > data.size() - pos - kChunkHeaderSize) break;
    end = end || static_cast<ChunkType>(data[pos]) == ChunkType::End;
    auto type = static_cast<ChunkType>(data[pos]);
    if (version < 4 && (type == ChunkType::Objects || type == ChunkType::Live)) {
      Decoder d(data.data() + pos + kChunkHeaderSize, len);
      if (type == ChunkType::Live) d.u();  // the time
      uint64_t n = d.count();              // at most the payload's length
      if (d.ok()) (type == ChunkType::Live ? live : total) += static_cast<size_t>(n);
    }
    pos += kChunkHeaderSize + len;
  }
  return end ? total : total + live;
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
  // Everything from `from` to `pos` has been decoded: its pages may go, once they are many
  // (returns the new `from`).
  size_t consumed(size_t from, size_t pos) const {
    constexpr size_t kStep = size_t{64} << 20;
    if (!map_ || pos < from + kStep) return from;
    size_t page = static_cast<size_t>(::sysconf(_SC_PAGESIZE));
    size_t begin = (from + page - 1) / page * page, end = pos / page * page;
    if (end > begin) ::madvise(map_ + begin, end - begin, MADV_DONTNEED);
    return pos;
  }

 private:
  int fd_ = -1;
  uint8_t* map_ = nullptr;
  size_t size_ = 0;
  std::vector<uint8_t> copy_;
};

enum class At { Chunk, Incomplete, Corrupt };

// Whether a chunk may have type `type`: a known one, or (versions 3 and up, whose CRC covers the
// type) any but 0, so that a newer writer's chunk types are skipped, not taken for damage.
bool plausibleType(uint8_t type, uint32_t version) {
  return type != 0 && (type <= kMaxChunkType || version >= 3);
}

// What starts at `pos`: a whole chunk whose CRC holds (its payload length in `len`), the
// end of the file cutting one short, or something else.
At chunkAt(std::span<const uint8_t> data, size_t pos, uint32_t version, uint32_t& len) {
  if (data.size() - pos < kChunkHeaderSize) return At::Incomplete;
  const uint8_t* head = data.data() + pos;
  len = loadU32(head + 1);
  if (len > data.size() - pos - kChunkHeaderSize) return At::Incomplete;
  if (!plausibleType(head[0], version)) return At::Corrupt;
  bool ok = chunkCrc(version, head, head + kChunkHeaderSize, len) == loadU32(head + 5);
  return ok ? At::Chunk : At::Corrupt;
}

// The offset of the next whole chunk after the bad one at `pos` (data.size() if none).
// First where the bad chunk's length says (a flipped payload or CRC bit), then byte by
// byte. The scan's CRC work is bounded (a few times what is left of the file), so that
// garbage whose lengths look plausible cannot make the reader quadratic; past the bound
// the rest of the file counts as corrupt.
size_t resync(std::span<const uint8_t> data, size_t pos, uint32_t version, At bad, uint32_t len) {
  uint32_t next = 0;
  if (bad == At::Corrupt) {
    size_t end = pos + kChunkHeaderSize + len;
    if (end == data.size() || chunkAt(data, end, version, next) == At::Chunk) return end;
  }
  uint64_t budget = 8 * uint64_t{data.size() - pos} + (uint64_t{1} << 20);
  for (size_t q = pos + 1; data.size() - q >= kChunkHeaderSize; ++q) {
    if (!plausibleType(data[q], version)) continue;
    uint32_t l = loadU32(&data[q + 1]);
    if (l > data.size() - q - kChunkHeaderSize) continue;
    if (budget < l) break;
    budget -= l;
    if (chunkAt(data, q, version, next) == At::Chunk) return q;
  }
  return data.size();
}

// A last chunk that looks cut short may instead be whole with a corrupt length: then its
// CRC holds for the length the file leaves it (versions 3 and up, whose CRC covers the length).
bool lengthFlipped(std::span<const uint8_t> data, size_t pos, uint32_t version) {
  size_t left = data.size() - pos;
  if (version < 3 || left < kChunkHeaderSize || left - kChunkHeaderSize > UINT32_MAX) return false;
  uint8_t head[5];
  std::memcpy(head, data.data() + pos, 5);
  auto len = static_cast<uint32_t>(left - kChunkHeaderSize);
  for (int i = 0; i < 4; ++i) head[1 + i] = static_cast<uint8_t>(len >> (8 * i));
  const uint8_t* payload = data.data() + pos + kChunkHeaderSize;
  return chunkCrc(version, head, payload, len) == loadU32(data.data() + pos + 5);
}

const char* chunkName(uint8_t type) {
  static constexpr const char* kNames[] = {
      "?",          "Meta",     "Methods",    "Sites", "Thread",   "ClassSizes",
      "Failures",   "End",      "Objects",    "Gcs",   "Live",     "FlowDefs",
      "FlowThread", "CostDefs", "CostThread", "Rate",  "CallSites"};
  static_assert(std::size(kNames) == kMaxChunkType + 1, "a name for every chunk type");
  return type <= kMaxChunkType ? kNames[type] : "unknown";
}

// The objects alive at the last flush: the newest Live record of each object that has no
// death record. Only an incomplete profile needs them (a complete one ends every object).
// (An index of the live ids only: there are far fewer than records of the dead.)
void addLive(Profile& p, std::vector<ObjectRecord>& live) {
  if (p.complete || live.empty()) return;
  std::unordered_map<uint64_t, size_t> newest;  // id -> index into live
  newest.reserve(live.size());
  for (size_t i = 0; i < live.size(); ++i) newest[live[i].id] = i;
  for (const ObjectRecord& r : p.objects) newest.erase(r.id);
  std::vector<size_t> keep;
  keep.reserve(newest.size());
  for (const auto& [id, i] : newest) keep.push_back(i);
  std::sort(keep.begin(), keep.end());  // in the order written
  for (size_t i : keep) p.objects.push_back(live[i]);
  p.liveAtFlush = keep.size();
}

// No Meta chunk (it was corrupt): the mode follows from the chunks that only a lifetime,
// a copy or a cost profile has. Cost first: a cost profile has FlowDefs chunks too (the
// fields its nodes name). The method nodes' call slots, from CallSites chunks.
void inferMeta(Profile& p) {
  p.metaLost = true;
  p.meta["mode"] = !p.costThreads.empty() || !p.costNodes.empty() ? "cost"
                   : !p.flows.empty() || !p.fields.empty()        ? "copy"
                   : objectCount(p) == 0 && p.gcs.empty()         ? "alloc"
                                                                  : "lifetime";
  // Call sites come only from an agent that numbers them in its method nodes' keys.
  if (p.callSites.empty()) return;
  p.meta[kCallSlotsMeta] = "on";
  for (auto& [id, t] : p.threads) {
    for (NodeDef& nd : t.nodes) splitSlot(nd);
  }
}

}  // namespace

// The Objects chunks that read well, where they are in the file (which stays mapped).
class ObjectChunks {
 public:
  ObjectChunks(std::shared_ptr<const Input> input, uint32_t version)
      : input_(std::move(input)), version_(version) {}
  void add(size_t payload, uint32_t len, size_t records) {
    chunks_.emplace_back(payload, len);
    count_ += records;
  }
  uint64_t count() const { return count_; }

  // Decodes the chunks again, one at a time, giving back the pages of those decoded.
  void forEach(const ObjectBatch& fn) const {
    std::span<const uint8_t> data = input_->bytes();
    std::vector<ObjectRecord> batch;
    size_t released = 0;
    for (const auto& [payload, len] : chunks_) {
      batch.clear();
      Decoder d(data.data() + payload, len);
      decodeObjects(d, version_, batch);  // read well before: cannot fail
      fn(batch);
      released = input_->consumed(released, payload + len);
    }
  }

 private:
  std::shared_ptr<const Input> input_;
  uint32_t version_;
  std::vector<std::pair<size_t, uint32_t>> chunks_;  // payload offset, length
  uint64_t count_ = 0;
};

void forEachObject(const Profile& p, const ObjectBatch& fn) {
  if (!p.objects.empty()) fn(p.objects);
  if (p.objectChunks) p.objectChunks->forEach(fn);
}

uint64_t objectCount(const Profile& p) {
  return p.objects.size() + (p.objectChunks ? p.objectChunks->count() : 0);
}

bool readProfile(const std::string& path, Profile& out, std::string& error,
                 const Progress& progress, ReadOptions options) {
  auto shared = std::make_shared<Input>();
  Input& input = *shared;
  if (!input.open(path, error)) return false;
  std::span<const uint8_t> data = input.bytes();
  if (data.size() < kHeaderSize || std::memcmp(data.data(), kMagic, sizeof kMagic) != 0) {
    error = path + " is not a dragnet profile (bad magic)";
    return false;
  }
  out = Profile{};
  out.version = loadU32(data.data() + 8);
  if (out.version > kVersion) {
    error = path + " was written in profile format version " + std::to_string(out.version) +
            ", but this dragnet reads versions up to " + std::to_string(kVersion) +
            ": use a newer dragnet";
    return false;
  }
  bool complete = false;
  size_t count = objectCount(data, out.version, complete);
  std::shared_ptr<ObjectChunks> streamed;
  if (options.streamObjects && complete) {
    streamed = std::make_shared<ObjectChunks>(shared, out.version);
  } else {
    out.objects.reserve(count);
  }
  // A complete profile's Live records change nothing (addLive): they are checked, not kept;
  // so are its Objects records when they stay in the file.
  std::vector<ObjectRecord> live, dropped;
  std::vector<ObjectRecord>& objects = streamed ? dropped : out.objects;
  bool metaRead = false;
  size_t pos = kHeaderSize, released = 0;
  while (pos < data.size()) {
    if (progress) progress(pos, data.size());
    uint32_t len = 0;
    At at = chunkAt(data, pos, out.version, len);
    if (at == At::Chunk && data[pos] > kMaxChunkType) {  // a newer writer's chunk
      ++out.unknownChunks;
      pos += kChunkHeaderSize + len;
      continue;
    }
    if (at == At::Chunk) {
      Decoder d(data.data() + pos + kChunkHeaderSize, len);
      auto type = static_cast<ChunkType>(data[pos]);
      std::string why = decodeChunk(type, d, out, objects, complete ? dropped : live, metaRead);
      if (why.empty() && streamed && type == ChunkType::Objects) {
        streamed->add(pos + kChunkHeaderSize, len, dropped.size());
      }
      dropped.clear();
      size_t size = kChunkHeaderSize + len;
      if (why.empty()) {
        ++out.chunks;
      } else {  // the CRC holds but the content does not fit: skip this chunk only
        out.skipped.push_back(
            {pos, size, std::string("malformed ") + chunkName(data[pos]) + " chunk: " + why});
        out.skippedBytes += size;
      }
      pos += size;
      released = input.consumed(released, pos);
      continue;
    }
    size_t next = resync(data, pos, out.version, at, len);
    if (next == data.size() && at == At::Incomplete && !lengthFlipped(data, pos, out.version)) {
      // the end: a JVM killed mid-write
      out.truncation = data.size() - pos < kChunkHeaderSize
                           ? "incomplete chunk header at offset " + std::to_string(pos)
                           : "chunk at offset " + std::to_string(pos) + " is cut short";
      break;
    }
    std::string reason = at == At::Incomplete ? "chunk length runs past the end of the file"
                         : !plausibleType(data[pos], out.version) ? "unknown chunk type"
                                                                  : "checksum mismatch";
    out.skipped.push_back({pos, next - pos, reason});
    out.skippedBytes += next - pos;
    pos = next;
  }
  addLive(out, live);
  if (streamed && streamed->count() > 0) out.objectChunks = std::move(streamed);
  if (!metaRead && out.corrupt()) inferMeta(out);
  if (progress) progress(data.size(), data.size());
  return true;
}

namespace {
std::optional<uint64_t> numberIn(const std::map<std::string, std::string>& m,
                                 std::string_view key) {
  auto it = m.find(std::string(key));
  if (it == m.end()) return std::nullopt;
  uint64_t v = 0;
  const std::string& s = it->second;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end != s.data() + s.size()) return std::nullopt;
  return v;
}
}  // namespace

std::optional<uint64_t> metaNumber(const Profile& p, std::string_view key) {
  return numberIn(p.meta, key);
}
std::optional<uint64_t> totalNumber(const Profile& p, std::string_view key) {
  return numberIn(p.totals, key);
}

}  // namespace dragnet::profile
