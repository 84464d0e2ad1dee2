// The profile file: what the agent records and the analyzer reads (docs/PROFILE_FORMAT.md
// has an annotated sample). Append-only and crash-safe: a header, then self-contained
// chunks, each with its length and a CRC-32, so a JVM killed mid-write leaves a readable
// prefix (the reader stops at the first incomplete chunk and says so), and a corrupt chunk
// is found and skipped (the reader resynchronises on the next chunk whose CRC holds).
//
//   file    := magic "DRAGNETP" u32le(version) u32le(0) chunk*
//   chunk   := u8(type) u32le(payload length) u32le(crc) payload
//   crc     := versions 3-4: crc32(type, length, payload); versions 1-2: crc32(payload)
//   payload := fields encoded as LEB128 varints (signed: zigzag) and strings (varint length
//              + bytes, modified UTF-8 as in class files)
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace dragnet::profile {

inline constexpr char kMagic[8] = {'D', 'R', 'A', 'G', 'N', 'E', 'T', 'P'};
// Version 1: alloc mode (calling-context trees with allocation leaves).
// Version 2: adds mode lifetime (Objects and Gcs chunks); version 1 files read unchanged.
// Version 3: the CRC covers the chunk's type and length too (a flipped type or length bit
// is found, not read as another chunk); adds Live chunks, and later FlowDefs and FlowThread,
// CostDefs and CostThread (a reader skips a chunk of a type it does not know whose CRC
// holds: the type is covered).
// Version 4: Objects and Live chunks hold their records column by column, as differences,
// compressed with zstd (objects_codec.h); the other chunks are as in version 3.
inline constexpr uint32_t kVersion = 4;
inline constexpr size_t kHeaderSize = 16;
inline constexpr size_t kChunkHeaderSize = 9;

enum class ChunkType : uint8_t {
  Meta = 1,         // key/value pairs: JVM, options, array layout, start time
  Methods = 2,      // method definitions (ids used as context keys)
  Sites = 3,        // allocation-site definitions
  Thread = 4,       // one thread's tree: new nodes since its last chunk, changed counters
  ClassSizes = 5,   // instance size in bytes per class, measured in the running JVM
  Failures = 6,     // classes or methods that could not be rewritten, with the reason
  End = 7,          // written last at VM death: the profile is complete
  Objects = 8,      // mode lifetime: objects whose life ended (freed, or alive at the end)
  Gcs = 9,          // mode lifetime: garbage collections (the times deaths are found at)
  Live = 10,        // mode lifetime: objects alive at a flush (what was known of them then)
  FlowDefs = 11,    // mode copy: field definitions, (slots=0) object names, class layouts
  FlowThread = 12,  // mode copy: one thread's flow counters (edges, births, copies, cuts)
  CostDefs = 13,    // mode cost: program nodes and static edges of the cost graph
  CostThread = 14,  // mode cost: one thread's dependence counters
  Rate = 15,        // mode alloc: what one thread allocated since its previous Rate chunk
  CallSites = 16,   // the call sites of methods: the lines caller frames are at
};
inline constexpr uint8_t kMaxChunkType = 16;

// The CRC of a chunk in a file of format `version` (format above): `head` is the chunk's
// first 5 bytes (type and length).
uint32_t chunkCrc(uint32_t version, const uint8_t* head, const uint8_t* payload, size_t len);

// Context keys: a method id (bit 31 clear), or an allocation key (bit 31 set): site index
// in bits 4-30, element kind in bits 0-3 (ElemKind). Matches runtime/agent/java/lang.
inline constexpr uint32_t kAllocBit = 0x80000000u;
inline constexpr uint32_t kRootKey = 0xFFFFFFFFu;  // node 0 of every thread
// A node the reader stands in for one defined in a corrupt chunk it skipped (never written).
inline constexpr uint32_t kLostKey = 0x7FFFFFFFu;
inline bool isAllocKey(uint32_t key) { return key != kRootKey && (key & kAllocBit) != 0; }

enum class ElemKind : uint8_t {
  Object = 0,  // not an array
  Ref = 1,
  Boolean = 2,
  Byte = 3,
  Char = 4,
  Short = 5,
  Int = 6,
  Float = 7,
  Long = 8,
  Double = 9,
};
inline constexpr int kElemKinds = 10;

enum class SiteKind : uint8_t {
  New = 0,             // new
  NewArray = 1,        // newarray (primitive elements)
  ANewArray = 2,       // anewarray
  MultiANewArray = 3,  // one allocated dimension of a multianewarray
  Clone = 4,           // the copy made by Object.clone (arrays, super.clone(); objects are
                       // typed by their runtime class, like the kinds below)
  // Allocations whose type is known only at run time; the agent writes one site per
  // (call site, runtime class) pair it saw.
  Reflect = 5,  // Array.newInstance, Unsafe.allocateInstance (reflection, method handles,
                // lambda instances)
  Vm = 6,       // allocated inside the JVM (JVMTI VMObjectAlloc), not by any bytecode
  Jni = 7,      // allocated by native code through a JNI function (NewObject, New*Array, ...)
};
inline bool isDynamicSite(SiteKind k) { return k >= SiteKind::Reflect; }

struct MethodDef {
  uint32_t id = 0;
  std::string cls;  // internal name, e.g. "java/util/HashMap"
  std::string name;
  std::string descriptor;
  std::string source;  // SourceFile attribute, empty if absent
};

struct SiteDef {
  uint32_t key = 0;  // allocation key (kAllocBit | index << 4 | kind)
  uint32_t method = 0;
  uint32_t bci = 0;
  int32_t line = -1;  // -1: no line number
  SiteKind kind = SiteKind::New;
  std::string type;  // allocated class: internal name ("java/lang/String") or array
                     // descriptor ("[I", "[[Ljava/lang/Object;")
};

struct NodeDef {
  uint32_t parent = 0;
  uint32_t key = 0;
  // The call site of the parent's method this context was called from (CallSite::number),
  // 0: not recorded. In a Thread chunk it is bits 22-29 of a method node's key, in profiles
  // whose meta has kCallSlotsMeta (their method ids are below 2^22).
  uint8_t slot = 0;
};
inline constexpr const char* kCallSlotsMeta = "call.slots";
inline constexpr uint32_t kCallSlotShift = 22;
inline constexpr uint32_t kCallSlotMask = 0xFFu << kCallSlotShift;
inline constexpr uint32_t kMaxCallSlot = 255;

// One invoke instruction of a method, or (op 0) a call a sampled stack showed at `bci`.
// Numbered from 1 in its method; the number is the slot of the contexts it calls.
struct CallSite {
  uint32_t method = 0;
  uint32_t number = 0;
  uint32_t bci = 0;
  int32_t line = -1;  // -1: no line number
  uint8_t op = 0;     // invokevirtual..invokedynamic (182-186); 0: the instruction is not known
  std::string owner;  // the method reference's class, name and descriptor (empty with op 0)
  std::string name;
  std::string descriptor;
  bool operator==(const CallSite&) const = default;
};

struct Counters {
  uint64_t count = 0;     // invocations (method nodes) or objects/arrays (allocation nodes)
  uint64_t elements = 0;  // array elements
  uint64_t bytes = 0;     // array bytes (objects: count x class size, in the analyzer)
  uint64_t insns = 0;     // executed bytecode instructions (bytecodes=on)
  bool operator==(const Counters&) const = default;
};

// One Thread chunk. Nodes are numbered per thread; `firstNode` is the number of the first
// node in `nodes` (all earlier ones came in earlier chunks). Counters are absolute values
// (the latest chunk wins), given for the nodes that changed since the thread's last chunk.
// The agent writes one flush of a large tree as several chunks, a block of nodes each.
struct ThreadChunk {
  uint32_t thread = 0;  // agent-assigned, 1-based
  std::string name;
  uint32_t firstNode = 0;
  std::vector<NodeDef> nodes;
  std::vector<std::pair<uint32_t, Counters>> counters;
  uint64_t collapsed = 0;  // frames beyond the depth limit (absolute)
  uint64_t dropped = 0;    // events recorded at the root: the tree could not grow (absolute)
  bool ended = false;      // the thread has terminated: this is its last chunk
};

// One Rate chunk: what thread `thread` allocated after its previous Rate chunk (or the
// start) up to `time`, per allocation key: the growth of its Thread chunks' allocation
// counters, written with them (so the chunks of a thread add up to its tree's allocation
// counters; objects are sized by the analyzer, as in the tree). The allocation-rate series.
struct RateChunk {
  uint32_t thread = 0;                              // the id of the thread's Thread chunks
  uint64_t time = 0;                                // milliseconds since the profile was opened
  std::vector<std::pair<uint32_t, Counters>> keys;  // allocation key -> added (insns 0)
  bool operator==(const RateChunk&) const = default;
};

struct Failure {
  std::string cls;     // internal class name
  std::string method;  // "name(descriptor)"; empty when the whole class passed through
  std::string reason;  // kPartly first: the method runs rewritten, without some probes
};

// The reason of a method rewritten with fewer probes than its analysis wanted (it would
// not fit in the JVM's 64 KB otherwise) starts with this.
inline constexpr std::string_view kPartly = "partly rewritten: ";
inline bool isPartial(const Failure& f) { return f.reason.starts_with(kPartly); }
// The reason of a hidden class (lambda proxies, LambdaForms, Lookup.defineHiddenClass): the
// JVM defines it without the class-load hook, so its own bytecode runs unrewritten.
inline constexpr std::string_view kHidden = "hidden class: never seen by the class-load hook";
inline bool isHidden(const Failure& f) { return f.reason == kHidden; }
// Where the suffix HotSpot gives a hidden class's name starts ('.' or '+', then "0x" and
// the address in hex: "p/C$$Lambda.0x0000000800c03000"; neither character can end an
// ordinary class's name there); npos if the name has none.
inline size_t hiddenSuffixAt(std::string_view name) {
  size_t x = name.rfind("0x");
  if (x == std::string_view::npos || x < 2 || x + 2 == name.size()) return std::string_view::npos;
  if (name[x - 1] != '.' && name[x - 1] != '+') return std::string_view::npos;
  if (name.find_first_not_of("0123456789abcdef", x + 2) != std::string_view::npos) {
    return std::string_view::npos;
  }
  return x - 1;
}

// Mode lifetime (HUP). Times are bytes allocated by all threads since recording began.
inline constexpr uint64_t kNoTime = ~uint64_t{0};

// Where an event happened: a context in a thread's tree (thread 0: not recorded).
struct EventAt {
  uint32_t thread = 0;
  uint32_t node = 0;
  bool operator==(const EventAt&) const = default;
};

// One object's life. Uses follow HUP's put/get approach (get: getfield, xaload,
// arraylength, a call on it as receiver, checkcast, instanceof, monitors, athrow, natives
// that read it; put: putfield, xastore, natives that write it). `lastGet`/`lastPut` are
// the times of the last use the agent *recorded*: within one use epoch (meta
// `use.epoch` bytes) every further use of the object by the same thread hits a cache and
// is not recorded, so the true last use lies in [lastGet, end of its epoch].
// (Fields ordered without padding: `dragnet shell` holds every record in memory.)
struct ObjectRecord {
  uint64_t id = 0;     // 1-based, unique in the profile
  uint64_t size = 0;   // bytes, as the running JVM lays the object out
  uint64_t alloc = 0;  // allocation time
  uint64_t death = 0;  // when found unreachable (the freeing GC's time), or the end time
  uint64_t firstGet = kNoTime, lastGet = kNoTime, firstPut = kNoTime, lastPut = kNoTime;
  uint32_t thread = 0;   // allocating thread
  uint32_t node = 0;     // context of the allocating frame in that thread's tree
  uint32_t key = 0;      // allocation key (its site gives method, bci, type)
  uint32_t deathGc = 0;  // 1-based index into the Gcs of the GC that freed it; 0: alive
                         // at the end of the run
  // With stacks=on, where each of the four uses happened (lifetime patterns).
  EventAt firstGetAt, lastGetAt, firstPutAt, lastPutAt;
  bool operator==(const ObjectRecord&) const = default;
};

// A garbage collection: forced by the agent (every gc-interval bytes) or the JVM's own.
struct GcEvent {
  uint64_t time = 0;
  bool forced = false;
  bool operator==(const GcEvent&) const = default;
};

// Mode copy (docs/FLOW-DESIGN.md). A node of the abstract data-dependence graph is 64 bits:
// bits 62-63 its kind, bits 32-61 a field id, bits 0-31 an object's tag.
enum class FlowKind : uint8_t {
  Bottom = 0,    // a computed value: no node
  Object = 1,    // field 0: the allocation node of the object `tag`; else its field (or ELM)
  Static = 2,    // the static field `field`
  Consumer = 3,  // C: a computation, predicate or native consumed the value
};
inline constexpr uint32_t kElmField = 1;  // the array element pseudo-field (never defined)
inline constexpr uint32_t kFieldMask = 0x3FFFFFFFu;
inline constexpr uint64_t flowNode(FlowKind kind, uint32_t field, uint32_t tag) {
  return uint64_t{static_cast<uint8_t>(kind)} << 62 | uint64_t{field & kFieldMask} << 32 | tag;
}
inline constexpr FlowKind flowKind(uint64_t node) { return static_cast<FlowKind>(node >> 62); }
inline constexpr uint32_t flowField(uint64_t node) {
  return static_cast<uint32_t>(node >> 32) & kFieldMask;
}
inline constexpr uint32_t flowTag(uint64_t node) { return static_cast<uint32_t>(node); }

// Tags with slots >= 1: slot << 27 | site index; slot = receiver's site index mod slots.
inline constexpr uint32_t kTagSiteBits = 27;
inline constexpr uint32_t kTagSiteMask = (1u << kTagSiteBits) - 1;
// An allocation key's site index (SiteDef::key).
inline constexpr uint32_t siteIndexOf(uint32_t key) { return key >> 4 & kTagSiteMask; }

// A field the agent gave an id (>= 2; 1 is ELM), per (owner, name, descriptor) of a field
// reference.
struct FieldDef {
  uint32_t id = 0;
  std::string cls;  // internal name of the owner named by the reference
  std::string name;
  std::string descriptor;
  bool isStatic = false;
  bool operator==(const FieldDef&) const = default;
};

// A class's instance fields (mode copy): its superclass and the fields it declares, as
// FieldDef ids whose owner is the class itself. What Object.clone copies (the fields of the
// class and its superclasses), and the declaring class of a field a reference names through
// a subclass.
struct ClassLayout {
  std::string name;              // internal name
  std::string super;             // internal name of the superclass; empty: none (java/lang/Object)
  std::vector<uint32_t> fields;  // declared instance fields, without the agent's own
  bool operator==(const ClassLayout&) const = default;
};

// The name of tag `tag` in a profile recorded with slots=0 (exact contexts): an allocation
// site index and the site index of the allocating method's receiver (0: none).
struct ObjectName {
  uint32_t tag = 0;
  uint32_t site = 0;
  uint32_t context = 0;
  bool operator==(const ObjectName&) const = default;
};

// The field id of a clone record's dst: an edge (the original's allocation node ->
// flowNode(Consumer, kClonedField, the copy's tag)) counts instance clones (Object.clone of
// an object, not an array) from one object to another; the analyzer expands it into one copy
// per instance field of the object's class (ClassLayout).
inline constexpr uint32_t kClonedField = 2;

struct FlowEdge {
  uint64_t src = 0, dst = 0;  // nodes (flowNode)
  uint64_t count = 0;
  bool operator==(const FlowEdge&) const = default;
};

// Objects allocated at site `site` by a method whose receiver was made at site `context`.
struct FlowBirth {
  uint32_t site = 0, context = 0;
  uint64_t count = 0;
  bool operator==(const FlowBirth&) const = default;
};

// Instance clones made in context node `node` of the thread's tree whose copies have
// allocation site `site` (the copy's runtime class's site): their field copies belong to
// that context.
struct FlowClones {
  uint32_t node = 0, site = 0;
  uint64_t count = 0;
  bool operator==(const FlowClones&) const = default;
};

// One FlowThread chunk. Values are absolute: a later chunk of the same thread replaces the
// value of each key it gives (like ThreadChunk counters); keys it does not give keep theirs.
struct FlowThreadChunk {
  uint32_t thread = 0;  // the id of the thread's Thread chunks
  std::vector<FlowEdge> edges;
  std::vector<FlowBirth> births;
  std::vector<std::pair<uint32_t, uint64_t>> copies;  // context node -> heap-to-heap copies
  std::vector<std::pair<uint32_t, uint64_t>> cuts;    // callee method id -> flows cut at entry
  std::vector<FlowClones> clones;
  bool ended = false;
};

// Mode cost (docs/FLOW-DESIGN.md, "Cost-benefit analysis"). A program node of the cost
// graph: one per instrumented instruction that makes a node.
inline constexpr uint8_t kMaxCostNodeKind = 8;  // the analyzer's NodeKind values are 0..8
struct CostNode {
  uint32_t id = 0;         // >= 1, unique in the profile
  uint8_t kind = 0;        // the analyzer's NodeKind value (0..kMaxCostNodeKind), a number here
  uint32_t method = 0;     // method id (MethodDef)
  uint32_t index = 0;      // bytecode offset of the instruction in the method's original code
  int32_t line = -1;       // source line, -1 unknown
  uint32_t field = 0;      // loads/stores: a FieldDef id (kElmField: array elements)
  uint32_t site = 0;       // allocations: allocation site index
  uint32_t block = 0;      // the frequency block its executions are counted in
  bool reference = false;  // a load/store of a reference value
  bool operator==(const CostNode&) const = default;
};

// A dependence known when the method was instrumented: every execution of node `dst` in a
// frame depends on node `src` of the same frame (srcInFrame: src has dst's frame's slot) or
// on the contextless node src (srcInFrame false: slot 0).
struct CostEdge {
  uint32_t dst = 0, src = 0;
  bool srcInFrame = true;
  bool operator==(const CostEdge&) const = default;
};

// One CostThread record: the raw (a, b) key of the agent's per-thread table and its count
// (the analyzer decodes what a and b are, not the reader).
struct CostRecord {
  uint64_t a = 0, b = 0, count = 0;
  bool operator==(const CostRecord&) const = default;
};

// One CostThread chunk. Values are absolute: a later chunk of the same thread replaces the
// count of each (a, b) it gives; keys it does not give keep theirs.
struct CostThreadChunk {
  uint32_t thread = 0;  // the id of the thread's Thread chunks
  std::vector<CostRecord> records;
  bool ended = false;
};

}  // namespace dragnet::profile
