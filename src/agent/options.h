// The agent's options: -agentpath:libdragnet.so=mode=alloc,out=FILE,...
// Every option is documented in kOptionHelp (printed by `help`, and by `dragnet run
// --help`). An unknown or malformed option is an error naming it: the JVM does not start.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace dragnet::agent {

struct Options {
  std::string mode = "alloc";
  std::string out;            // %p: the pid (outPath); empty: dragnet-%p.dragnet in the
                              // working directory
  bool bytecodes = false;     // count executed bytecode instructions per context
  uint64_t sample = 0;        // > 0: sample about one allocation per `sample` bytes instead
                              // of rewriting classes (JVMTI SampledObjectAlloc)
  uint32_t depth = 1024;      // deepest context kept; deeper frames are collapsed (0: none)
  uint32_t flushSeconds = 5;  // background flush interval (0: only at thread end / exit)
  bool quiet = false;         // no start and end lines on stderr
  bool record = true;         // false: rewrite classes but record nothing (a diagnostic:
                              // what the rewriting alone costs)
  bool keepJit = false;       // jit=keep: leave C2's allocation-skipping transformations
                              // on (a diagnostic; jit_settings.h)
  uint64_t maxMemory = uint64_t{1} << 30;  // native memory the calling-context trees may
                                           // take, all threads together
  // Mode lifetime.
  uint64_t gcInterval = 8u << 20;  // bytes of allocation between forced collections
  bool gcIntervalGiven = false;    // gc-interval was set: by default, follow it exactly
  uint32_t gcBudget = 0;           // gc-budget: percent of the run forced collections may
                                   // take (1-100; 0: not given, see gcBudgetPercent)
  uint64_t useEpoch = 64u << 10;   // a power of two: bytes per use epoch
  bool stacks = false;             // record where first and last uses happen
  uint32_t stack = 8;              // method frames of a nested allocation site (0: all);
                                   // only written to the meta data for the analyzer
  bool help = false;
};

extern const char* const kOptionHelp;

// The gc-budget default: forced collections may take a quarter of the run's time, unless
// the user set gc-interval (then every interval is kept, as HUP did: 100).
inline constexpr uint32_t kDefaultGcBudget = 25;
inline uint32_t gcBudgetPercent(const Options& o) {
  return o.gcBudget ? o.gcBudget : o.gcIntervalGiven ? 100 : kDefaultGcBudget;
}

// Parses "k=v,k=v". False with `error` naming the offending option.
bool parseOptions(std::string_view text, Options& out, std::string& error);

// The profile's file name: out= (or its default) with %p replaced by `pid` and %% by %.
std::string outPath(const Options& o, long pid);

// Where a JVM writes when `path` is being written by another process: the pid before the
// extension (app.dragnet -> app.<pid>.dragnet), or after the name if it has none.
std::string busyOutPath(const std::string& path, long pid);

}  // namespace dragnet::agent
