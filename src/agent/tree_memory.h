// Native memory of the calling-context trees (runtime/agent: DragnetState's tables). The
// probes take it on growth paths only (DragnetState.grow0) and give it back (retire0);
// the total is bounded by the max-memory option. A table that grows is copied into a new
// block while the recorder may be reading the old one, so a block given back while a
// read is in progress (ReadScope) is freed only when the last such read ends.
#pragma once

#include <cstdint>

namespace dragnet::agent::trees {

// The bound (max-memory) and whether the one warning when it is first reached is printed.
void setLimit(uint64_t bytes, bool quiet);

struct Usage {
  uint64_t current = 0;  // bytes taken now (blocks waiting to be freed included)
  uint64_t peak = 0;
  uint64_t limit = 0;
  uint64_t refused = 0;  // growths refused (max-memory, or no memory)
};
Usage usage();

// The bytes asked for a block the probes took (DragnetState.grow0): a table's capacity,
// read from the block itself, so that it always matches the address read. The block must
// be alive: read it under a ReadScope.
uint64_t blockBytes(uintptr_t block);

// While one exists, blocks given back are kept (the recorder or a merge reads the tables
// of a thread that may grow them concurrently).
class ReadScope {
 public:
  ReadScope();
  ~ReadScope();
  ReadScope(const ReadScope&) = delete;
  ReadScope& operator=(const ReadScope&) = delete;
};

}  // namespace dragnet::agent::trees
