// The dragnet command's analyses: one line per analysis (report/analysis.h). A profile goes
// to the first that owns it: alloc, which reports any profile's allocations, comes last.
#include "analyses/alloc/report/analysis.h"
#include "analyses/copy/report/analysis.h"
#include "analyses/cost/report/analysis.h"
#include "analyses/lifetime/report/analysis.h"
#include "report/analysis.h"

namespace dragnet::report {

std::span<const Analysis> registeredAnalyses() {
  static const Analysis analyses[] = {
      analyses::lifetime::reports(),
      analyses::copy::reports(),
      analyses::cost::reports(),
      analyses::alloc::reports(),
  };
  return analyses;
}

}  // namespace dragnet::report
