// Pieces every analysis's text report uses.
#pragma once

#include <nlohmann/json.hpp>
#include <ostream>
#include <string>
#include <string_view>

#include "profile/reader.h"

namespace dragnet::report {

// Exact decimal digits, grouped: 1234567 -> "1,234,567" (128 bits: spaces in byte x
// byte, pass 2^64).
std::string grouped(unsigned __int128 v);

// "profile corrupt: N chunks (M bytes) skipped at offsets ..." (the first few offsets),
// and when the Meta chunk was among them, what the report assumes; "" if not corrupt.
std::string corruptionNote(const profile::Profile& p);

// "dragnet <what> profile (pid N)", the run's lines (its "run" object: run_info.h), the CORRUPT
// line of a profile the reader skipped parts of, and for a profile the JVM did not finish, the
// INCOMPLETE line with where reading stopped; from an analysis's JSON header (its keys pid, run,
// corrupt, complete, truncation, liveAtFlush), so that the text says what the JSON says.
void writeHeading(std::ostream& out, const nlohmann::ordered_json& header, std::string_view what);

// Digits of a decimal string grouped (a number the JSON header carries as a string because
// a double would round it); the string itself when it is not all digits.
std::string groupedDigits(const std::string& digits);

// The classes and methods the agent could not rewrite (they ran unchanged, unprofiled),
// then those it rewrote with fewer probes, with the reason, at most `top` of each, then the
// hidden classes it never saw, grouped by name (report/coverage.h); nothing when there are
// none.
void writeNotRewritten(std::ostream& out, const profile::Profile& p, size_t top);

// The samples a sampled profile's End chunk says it left out: {"agent": N, "jvm": M}, of the
// agent's own helper (samples.agent) and of objects the JVM allocated for itself
// (samples.jvm, left out by a sampler that records the program's objects only); each null
// when the End chunk has no such count. The JSON headers' "samplesLeftOut".
nlohmann::ordered_json leftOutSamplesJson(const profile::Profile& p);

// "; left out: ..." from leftOutSamplesJson's object when either count is above 0, else "".
std::string leftOutSamplesNote(const nlohmann::ordered_json& leftOut);

}  // namespace dragnet::report
