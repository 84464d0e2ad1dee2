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
};
using Sums = std::vector<std::pair<std::string, Sum>>;

// "java.lang.String", "int[][]"; "?" when the site is not defined (truncated profile).
std::string typeOf(const contexts::SiteRow& r);
// The allocating method with the site's line: "app.Main.build(Main.java:10)"; allocations
// without a bytecode are marked " [jvm]" or " [jni]" (contexts::siteName).
std::string siteOf(const contexts::AllocModel& m, const contexts::SiteRow& r);

// Keyed "site type" (siteOf, typeOf) and by type; largest bytes first, then count.
Sums sumBySite(const contexts::AllocModel& m);
Sums sumByType(const contexts::AllocModel& m);
// Re-sorted by count (objects or arrays), largest first, then bytes.
Sums byCount(Sums sums);

}  // namespace dragnet::report
