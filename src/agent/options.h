// The agent's options: -agentpath:libdragnet.so=mode=alloc,out=FILE,...
// The common options are the core's table (options.cpp); an analysis's own options are its
// table, in its folder, listed by the registry (src/registry/options.cpp). Parser, help
// text (`help`, `dragnet run --help`), meta data and `dragnet run`'s flags all come from
// the tables (common/option_table.h). An unknown or malformed option, or one the mode does
// not accept, is an error naming it: the JVM does not start.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>

#include "common/option_table.h"

namespace dragnet::agent {

// The common options, typed; `values` holds every option of every table (an analysis
// reads its own through its table's accessors).
struct Options {
  std::string mode;
  std::string out;            // %p: the pid (outPath)
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
  std::string dump;  // dump=DIR: where rewritten classes are written (%p: the pid); empty: not
  bool help = false;
  options::Values values;
};

// The core's table: the options every mode takes.
const options::Table& commonOptions();
// The analyses' tables (src/registry/options.cpp).
options::Tables registeredOptionTables();
// The common table, then the analyses'.
options::Tables optionTables();

// The text `help` prints (and `dragnet run --help`).
std::string optionHelp();

// Parses "k=v,k=v". False with `error` naming the offending option.
bool parseOptions(std::string_view text, Options& out, std::string& error);

// The profile's meta data of the options (those with a meta key, of the tables the mode
// accepts).
std::map<std::string, std::string> optionMeta(const Options& o);

// The profile's file name: out= (or its default) with %p replaced by `pid` and %% by %.
std::string outPath(const Options& o, long pid);

// `pattern` with %p replaced by `pid` and %% by %.
std::string withPid(std::string_view pattern, long pid);

// Where a JVM writes when `path` is being written by another process: the pid before the
// extension (app.dragnet -> app.<pid>.dragnet), or after the name if it has none.
std::string busyOutPath(const std::string& path, long pid);

}  // namespace dragnet::agent
