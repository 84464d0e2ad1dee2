// Writes a profile file (format.h). Thread-safe: class-load hooks, thread ends and the
// flush thread append chunks concurrently; each chunk is written whole under a mutex and
// flushed to the OS, so a killed JVM leaves every completed chunk readable.
#pragma once

#include <chrono>
#include <cstdio>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "profile/codec.h"
#include "profile/format.h"

namespace dragnet::profile {

class Writer {
 public:
  Writer() = default;
  ~Writer();
  Writer(const Writer&) = delete;
  Writer& operator=(const Writer&) = delete;

  // Creates (truncates) `path` and writes the header. False with `error` set on failure;
  // then `busy` (if given) tells whether another process is writing `path`: each writer
  // holds an exclusive lock (flock) on its file while it is open, so that two JVMs never
  // write into one file.
  bool open(const std::string& path, std::string& error, bool* busy = nullptr);
  bool isOpen() const { return file_ != nullptr; }
  void close();

  void meta(const std::map<std::string, std::string>& kv);
  void methods(const std::vector<MethodDef>& defs);
  void sites(const std::vector<SiteDef>& defs);
  void callSites(const std::vector<CallSite>& sites);
  void thread(const ThreadChunk& chunk);
  void rate(const RateChunk& chunk);
  // Milliseconds since open() (RateChunk::time).
  uint64_t millis() const;
  void classSizes(const std::map<std::string, uint64_t>& sizes);
  void failures(const std::vector<Failure>& failures);
  void end(const std::map<std::string, std::string>& totals);
  // Mode lifetime: a batch of object records; GCs numbered from `firstGc` (1-based, each
  // batch continues where the previous one stopped).
  void objects(const std::vector<ObjectRecord>& records);
  void gcs(uint32_t firstGc, const std::vector<GcEvent>& gcs);
  // Mode lifetime, at a flush: records of objects alive at clock `time` (their death and
  // deathGc are not written). A later Live or Objects record of the same id supersedes it.
  // Returns the bytes of the chunk.
  uint64_t live(uint64_t time, const std::vector<ObjectRecord>& records);

  // Mode copy: field definitions, (slots=0) object names and class layouts, as they become
  // known (a chunk of each batch); one thread's flow counters (absolute values, format.h).
  // A chunk's last list is left out when empty, as the format allows.
  void flowDefs(const std::vector<FieldDef>& fields, const std::vector<ObjectName>& names,
                const std::vector<ClassLayout>& classes = {});
  void flowThread(const FlowThreadChunk& chunk);

  // Mode cost: program nodes and static edges as classes are instrumented (each CostDefs
  // chunk adds to the earlier ones); one thread's counters (absolute values, format.h).
  void costDefs(const std::vector<CostNode>& nodes, const std::vector<CostEdge>& edges);
  void costThread(const CostThreadChunk& chunk);

  uint64_t bytesWritten() const { return written_; }

 private:
  void chunk(ChunkType type, const Encoder& payload);

  std::mutex mu_;
  std::FILE* file_ = nullptr;
  uint64_t written_ = 0;
  std::chrono::steady_clock::time_point opened_ = std::chrono::steady_clock::now();
  bool failed_ = false;
};

}  // namespace dragnet::profile
