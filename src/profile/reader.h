// Reads a profile file (format.h) into memory: definitions, and per thread its tree with
// the latest counters. A truncated tail (a JVM killed mid-write) is not an error:
// everything before it is read and `truncation` says where it stopped. A corrupt chunk
// (its CRC fails, or it is malformed) is skipped: the reader resynchronises on the next
// chunk whose CRC holds, reads on, and lists what it skipped in `skipped`.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "profile/format.h"

namespace dragnet::profile {

struct ThreadTree {
  uint32_t id = 0;
  std::string name;
  std::vector<NodeDef> nodes;      // node 0 is the root
  std::vector<Counters> counters;  // parallel to nodes
  uint64_t collapsed = 0;
  uint64_t dropped = 0;
  bool ended = false;
};

// Mode copy: one thread's flow counters, the latest value of each key (FlowThreadChunk).
struct ThreadFlows {
  std::map<std::pair<uint64_t, uint64_t>, uint64_t> edges;   // (src, dst) -> count
  std::map<std::pair<uint32_t, uint32_t>, uint64_t> births;  // (site, context) -> objects
  std::map<uint32_t, uint64_t> copies;                       // context node -> copies
  std::map<uint32_t, uint64_t> cuts;                         // callee method id -> cuts
  std::map<std::pair<uint32_t, uint32_t>, uint64_t> clones;  // (node, copy's site) -> clones
  bool ended = false;
};

// Mode cost: one thread's dependence counters, the latest count of each (a, b) key
// (CostThreadChunk).
struct ThreadCosts {
  std::map<std::pair<uint64_t, uint64_t>, uint64_t> records;  // (a, b) -> count
  bool ended = false;
};

// Mode lifetime, read with ReadOptions::streamObjects: the file's Objects chunks (reader.cpp),
// decoded again on each pass over them instead of held in memory.
class ObjectChunks;

// A stretch of the file the reader skipped: a corrupt chunk, or bytes between chunks.
struct Skipped {
  uint64_t offset = 0, bytes = 0;
  std::string reason;
};

struct Profile {
  uint32_t version = 0;
  std::map<std::string, std::string> meta;
  std::unordered_map<uint32_t, MethodDef> methods;
  std::unordered_map<uint32_t, SiteDef> sites;  // by allocation key
  std::map<uint32_t, ThreadTree> threads;
  std::map<std::string, uint64_t> classSizes;
  std::vector<Failure> failures;
  // Mode lifetime, in the order written (by death); then, in an incomplete profile, the
  // objects alive at the last flush (Live records no death superseded; `liveAtFlush` of
  // them, deathGc 0, death = the time of the flush that wrote them last).
  // Read with ReadOptions::streamObjects, a complete profile's objects are not here but in
  // `objectChunks` (forEachObject reads both).
  std::vector<ObjectRecord> objects;
  std::shared_ptr<const ObjectChunks> objectChunks;
  uint64_t liveAtFlush = 0;
  uint64_t liveTime = 0;     // the clock at the latest flush whose Live chunks were read
  std::vector<GcEvent> gcs;  // mode lifetime; GC n is gcs[n - 1]
  // Mode copy: field definitions by id, object names by tag (slots=0), class layouts by
  // name, flows by thread id.
  std::unordered_map<uint32_t, FieldDef> fields;
  std::unordered_map<uint32_t, ObjectName> objectNames;
  std::unordered_map<std::string, ClassLayout> classes;
  std::map<uint32_t, ThreadFlows> flows;
  // Mode cost: program nodes by id, static edges in the order read, counters by thread id.
  std::map<uint32_t, CostNode> costNodes;
  std::vector<CostEdge> costEdges;
  std::map<uint32_t, ThreadCosts> costThreads;
  // Mode alloc: the allocation-rate records (Rate chunks), in the order read.
  std::vector<RateChunk> rates;
  // Call sites by (method, number) (CallSites chunks; the lines of caller frames).
  std::map<std::pair<uint32_t, uint32_t>, CallSite> callSites;
  std::map<std::string, std::string> totals;  // from the End chunk
  bool complete = false;                      // the End chunk was read
  std::string truncation;                     // why reading stopped early (empty: read to the end)
  uint64_t chunks = 0;
  // Chunks of a type this reader does not know (a newer writer's) whose CRC holds: skipped,
  // not corruption (versions 3 and up; in older versions the CRC does not cover the type).
  uint64_t unknownChunks = 0;
  // Corruption: what was skipped, in file order (empty: none). `metaLost`: no Meta chunk
  // was read, so mode and options are defaults (the mode inferred from the chunks).
  std::vector<Skipped> skipped;
  uint64_t skippedBytes = 0;
  bool metaLost = false;
  // Nodes and GCs of chunks that were skipped, stood in for so that later chunks of the
  // same thread (or later GCs) keep their numbers: nodes with key kLostKey, GCs at the
  // previous GC's time.
  uint64_t lostNodes = 0, lostGcs = 0;
  bool corrupt() const { return !skipped.empty(); }
};

// Progress callback: bytes read so far, total bytes.
using Progress = std::function<void(uint64_t, uint64_t)>;

struct ReadOptions {
  // Mode lifetime: a complete profile's objects are checked as they are read, then left in
  // the file (Profile::objectChunks), so that their memory is one chunk's, not the
  // profile's; each forEachObject decodes them again. A profile without its End chunk is
  // read whole (its Live records are matched against the deaths).
  bool streamObjects = false;
};

// Every object record of `p`, a batch at a time, in the order read: `objects`, then those
// of `objectChunks`. The records of a batch are valid during the call only.
using ObjectBatch = std::function<void(std::span<const ObjectRecord>)>;
void forEachObject(const Profile& p, const ObjectBatch& fn);
uint64_t objectCount(const Profile& p);

// False with `error` when the file cannot be used at all: unreadable, not a profile, or
// written by a newer dragnet (the message names both versions).
// A meta value or End total that is a decimal number (nullopt when missing or not one).
std::optional<uint64_t> metaNumber(const Profile& p, std::string_view key);
std::optional<uint64_t> totalNumber(const Profile& p, std::string_view key);

bool readProfile(const std::string& path, Profile& out, std::string& error,
                 const Progress& progress = {}, ReadOptions options = {});

}  // namespace dragnet::profile
