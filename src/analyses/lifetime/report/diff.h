// Mode lifetime in `dragnet diff` (report/diff.h): classes, allocation sites (methods) and
// nested allocation sites (calling contexts), by the space of their unused phases (lag +
// drag + void), then drag, void, lag and use space, bytes and objects.
#pragma once

#include <string>

#include "report/analysis.h"
#include "report/diff.h"

namespace dragnet::analyses::lifetime {

bool diffSide(const profile::Profile& p, const report::ReportSettings& s, report::DiffSide& out,
              std::string& error);

}  // namespace dragnet::analyses::lifetime
