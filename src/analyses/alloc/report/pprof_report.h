// The pprof report: a gzipped protobuf in pprof's profile.proto format
// (github.com/google/pprof/proto/profile.proto), for `go tool pprof` and the viewers that
// read it. docs/REPORTS.md says how allocations map to samples.
#pragma once

#include <ostream>
#include <string>

#include "contexts/model.h"

namespace dragnet::report {

// The uncompressed Profile message.
std::string pprofProfile(const contexts::AllocModel& m);
// pprofProfile, gzipped, as pprof expects on disk. False with `error` if zlib fails.
bool writePprof(std::ostream& out, const contexts::AllocModel& m, std::string& error);

}  // namespace dragnet::report
