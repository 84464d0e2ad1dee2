// Mode cost in `dragnet diff` (report/diff.h): the allocation sites by cost-benefit rate
// ((n-RAC + 1) / (n-RAB + 1)), then n-RAC, n-RAB and births; the classes and the sites by
// class by n-RAC; the fields (heap locations summed per field) by RAC, then RAB. Object
// names by allocation site only: the slots are hashes of receiver chains, which another
// run numbers differently.
#pragma once

#include <string>

#include "report/analysis.h"
#include "report/diff.h"

namespace dragnet::analyses::cost {

bool diffSide(const profile::Profile& p, const report::ReportSettings& s, report::DiffSide& out,
              std::string& error);

}  // namespace dragnet::analyses::cost
