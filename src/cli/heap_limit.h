// The Java heap limit of a `java` command line, and raising it for a mode that adds fields
// to the program's objects (copy's tag, cost's tag and shadows): `dragnet run --heap-factor`.
// A program that runs with some -Xmx must run profiled too; its objects grow under those
// modes, so its limit grows by the mode's factor (docs/PERFORMANCE.md has the measured
// live-set growth per workload).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace dragnet::cli {

// What the JVM's options ask for, in the order the JVM reads them: JAVA_TOOL_OPTIONS, then
// JDK_JAVA_OPTIONS and the command line (with @argfiles) as the launcher passes them, then
// _JAVA_OPTIONS; the last setting wins.
struct HeapRequest {
  std::optional<uint64_t> maxBytes;  // -Xmx / -XX:MaxHeapSize
  std::optional<double> ramPercent;  // -XX:MaxRAMPercentage (or MaxRAMFraction)
  bool inLateVariable = false;       // the winning setting is in _JAVA_OPTIONS
  size_t optionsEnd = 0;             // index in the command of its first non-JVM option
};

// The heap request of `command` (java and its arguments); `env` looks up a variable.
HeapRequest heapRequest(const std::vector<std::string>& command,
                        const char* (*env)(const char*) = nullptr);

// What raising the limit by `factor` changes: the option to add after the JVM's options
// (empty: nothing, see `why`), what was asked and what is given, for messages and meta data.
struct HeapRaise {
  std::string option;  // "-Xmx768m" or "-XX:MaxRAMPercentage=50"
  std::string asked;   // "-Xmx512m", "the JVM's default (MaxRAMPercentage=25)"
  std::string why;     // why nothing is added (factor 1, _JAVA_OPTIONS decides, ...)
};
HeapRaise raiseHeap(const HeapRequest& request, double factor);

// A size in the JVM's syntax (1g, 512m, 1024k, 12345), as bytes; nullopt if malformed.
std::optional<uint64_t> parseJavaSize(const std::string& text);

}  // namespace dragnet::cli
