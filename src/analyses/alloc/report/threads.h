// Mode alloc's per-thread views: which threads a `thread=` option selects, the threads table
// (bytes, objects, share and top site of each thread's tree) and the allocation-rate series
// of the Rate chunks (per interval, total and per thread), shared by the text, JSON and
// HTML reports.
#pragma once

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <ostream>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "contexts/model.h"

namespace dragnet::report {

// The ids of the threads whose name or id matches the shell-style glob `pattern` (fnmatch:
// "worker-*", "main", "3").
std::set<uint32_t> threadsMatching(const profile::Profile& p, std::string_view pattern);

// The bytes of allocation counters `c` of key `key`, as the model counts them: arrays' own
// bytes; objects' count times their class's measured size (bytes given in `c` as they are:
// sampled estimates, merged profiles); nullopt for objects of an unmeasured class.
std::optional<uint64_t> allocBytes(const profile::Profile& p, uint32_t key,
                                   const profile::Counters& c);

struct ThreadRow {
  uint32_t id = 0;
  std::string name;
  uint64_t bytes = 0, objects = 0;  // objects: objects and arrays
  std::string topSite;              // "site type" with the most bytes ("" if none)
  uint64_t topSiteBytes = 0;
  bool ended = false;
};

// One row per thread of `only` (null: every thread), largest bytes first.
std::vector<ThreadRow> threadRows(const profile::Profile& p, const std::set<uint32_t>* only);

// The allocation-rate series: the Rate chunks of the selected threads in intervals of
// `width` ms, interval k holding what was recorded in (k width, (k + 1) width] (a record
// written up to width/10 after an interval's end is its: the flushes' own delay).
struct RateSeries {
  uint64_t width = 0;  // ms
  struct Interval {
    uint64_t bytes = 0, objects = 0;
    std::map<uint32_t, std::pair<uint64_t, uint64_t>> threads;  // id -> (bytes, objects)
  };
  std::vector<Interval> intervals;
  uint64_t bytes = 0, objects = 0;                            // sums over the intervals
  std::map<uint32_t, std::pair<uint64_t, uint64_t>> threads;  // sums per thread
};
// `width` 0: the flush interval (meta "flush", 1 s when it is 0 or unknown).
RateSeries rateSeries(const profile::Profile& p, const std::set<uint32_t>* only,
                      uint64_t width = 0);

// JSON: "threads" rows and the "rate" object (docs/REPORTS.md); the text sections.
nlohmann::ordered_json threadsJson(const std::vector<ThreadRow>& rows, uint64_t allBytes);
nlohmann::ordered_json rateJson(const profile::Profile& p, const RateSeries& s, size_t topThreads);
void writeThreadsText(std::ostream& out, const std::vector<ThreadRow>& rows, uint64_t allBytes,
                      size_t top);
void writeRateText(std::ostream& out, const profile::Profile& p, const RateSeries& s);

}  // namespace dragnet::report
