// Allocation rows summed over all calling contexts, by site or by type: the tables that the
// text and HTML reports share.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "contexts/model.h"

namespace dragnet::report {

struct Sum {
  uint64_t count = 0, elements = 0, bytes = 0;
  bool bytesKnown = true;                  // false: some objects' class size was not measured
  const contexts::SiteRow* any = nullptr;  // one of the summed rows
  // sumBySite with first application frames: the one with the most of the site's bytes
  // (then objects; then the first by name), and how many others the site's contexts have.
  std::string firstApp;
  size_t firstAppOthers = 0;
};
using Sums = std::vector<std::pair<std::string, Sum>>;

// "java.lang.String", "int[][]"; "?" when the site is not defined (truncated profile).
std::string typeOf(const contexts::SiteRow& r);
// The allocating method with the site's line: "app.Main.build(Main.java:10)"; allocations
// without a bytecode are marked " [jvm]" or " [jni]" (contexts::siteName).
std::string siteOf(const contexts::AllocModel& m, const contexts::SiteRow& r);

// Keyed "site type" (siteOf, typeOf) and by type; largest bytes first, then count. With
// `firstApp` (context_views.h, firstAppNodes of `m`), each site's first application frames.
Sums sumBySite(const contexts::AllocModel& m, const std::vector<uint32_t>* firstApp = nullptr);
Sums sumByType(const contexts::AllocModel& m);
// Keyed by the first application frame, without a line (context_views.h, firstAppFrame;
// kNoAppFrame for the allocations without one).
Sums sumByFirstApp(const contexts::AllocModel& m, const std::vector<uint32_t>& firstApp);
// Re-sorted by count (objects or arrays), largest first, then bytes.
Sums byCount(Sums sums);

}  // namespace dragnet::report
