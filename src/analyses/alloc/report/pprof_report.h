// The pprof report: a gzipped protobuf in pprof's profile.proto format
// (github.com/google/pprof/proto/profile.proto), for `go tool pprof` and the viewers that
// read it. docs/REPORTS.md says how allocations map to samples.
#pragma once

#include <nlohmann/json.hpp>
#include <ostream>
#include <string>

#include "contexts/model.h"

namespace dragnet::report {

// The uncompressed Profile message; `filter` (context_views.h, AllocView::filter: the stack
// filter `m` is the result of) becomes a comment.
std::string pprofProfile(const contexts::AllocModel& m,
                         const nlohmann::ordered_json& filter = nullptr);
// pprofProfile, gzipped, as pprof expects on disk. False with `error` if zlib fails.
bool writePprof(std::ostream& out, const contexts::AllocModel& m, std::string& error,
                const nlohmann::ordered_json& filter = nullptr);

}  // namespace dragnet::report
