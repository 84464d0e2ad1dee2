// A profile's Meta chunk (the agent writes it first: mode, pid, the JVM's command), read
// without the rest of the file: to name profiles in a listing.
#pragma once

#include <map>
#include <string>

namespace dragnet::profile {

// False if `path` does not start with a readable Meta chunk.
bool readMeta(const std::string& path, std::map<std::string, std::string>& meta);

}  // namespace dragnet::profile
