// Pieces every analysis's text report uses.
#pragma once

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

// "dragnet <what> profile (pid N)", the CORRUPT line of a profile the reader skipped parts
// of, and for a profile the JVM did not finish, the INCOMPLETE line with where reading
// stopped.
void writeHeading(std::ostream& out, const profile::Profile& p, std::string_view what);

// The classes and methods the agent could not rewrite (they ran unchanged, unprofiled),
// then those it rewrote with fewer probes, with the reason, at most `top` of each, then the
// hidden classes it never saw, grouped by name (report/coverage.h); nothing when there are
// none.
void writeNotRewritten(std::ostream& out, const profile::Profile& p, size_t top);

// "; left out: ..." when a sampled profile's End chunk counts samples of the agent's own
// helper (samples.agent) or of objects the JVM allocated for itself (samples.jvm, left
// out by a sampler that records the program's objects only), else "".
std::string leftOutSamplesNote(const profile::Profile& p);

}  // namespace dragnet::report
