// Mode copy in `dragnet diff` (report/diff.h): the copies per method (flat and cumulative)
// and per calling context, the copies into the objects of each allocation site and class,
// the hot copy chains by waste factor, the clone pairs by volume
// and the NATH sites by births; the graph's clients in the context-insensitive naming,
// whose object names (allocation sites) are the same in every run.
#pragma once

#include <string>

#include "report/analysis.h"
#include "report/diff.h"

namespace dragnet::analyses::copy {

bool diffSide(const profile::Profile& p, const report::ReportSettings& s, report::DiffSide& out,
              std::string& error);

}  // namespace dragnet::analyses::copy
