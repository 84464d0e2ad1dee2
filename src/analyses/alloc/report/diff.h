// Mode alloc in `dragnet diff` (report/diff.h): allocation sites, types and calling
// contexts, each by bytes, then count (objects and arrays).
#pragma once

#include <string>

#include "report/analysis.h"
#include "report/diff.h"

namespace dragnet::analyses::alloc {

bool diffSide(const profile::Profile& p, const report::ReportSettings& s, report::DiffSide& out,
              std::string& error);

}  // namespace dragnet::analyses::alloc
