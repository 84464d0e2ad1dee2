// One dragnet agent per JVM. A second load (the same -agentpath twice, a copy of
// libdragnet.so under another path, -agentpath plus JAVA_TOOL_OPTIONS) would rewrite every
// class a second time and crash the JVM; it must do nothing instead, so that the program
// runs profiled once.
#pragma once

#include <optional>
#include <string>

namespace dragnet::agent {

// The agent already loaded into this process ("library=options"), if any; else marks the
// process as profiled by this library with `options` and returns nothing.
std::optional<std::string> claimProcess(const std::string& options);

// This library's path, as the JVM loaded it.
std::string ownLibrary();

}  // namespace dragnet::agent
