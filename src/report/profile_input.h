// Reading the profiles a command is given: progress on a terminal, the warnings of a
// corrupt or incomplete profile, merging several, and the exit status that says so.
#pragma once

#include <CLI/CLI.hpp>
#include <fstream>
#include <ostream>
#include <string>
#include <vector>

#include "profile/reader.h"

namespace dragnet::report {

// Exit status of `dragnet report`, `shell` and `export` for a corrupt profile (parts of it
// skipped; the output covers the rest), unless --lenient is given.
inline constexpr int kExitCorrupt = 3;

// Reads a profile (progress on a terminal); says on stderr why it cannot, or that the
// profile is corrupt (what was skipped) or incomplete.
bool readProfileFile(const std::string& path, profile::Profile& p,
                     profile::ReadOptions options = {});
// Reads one profile, or several profiles of the same mode merged into one
// (contexts/merge.h) if their analysis merges (analysis.h); says on stderr why it cannot.
bool readProfiles(const std::vector<std::string>& paths, profile::Profile& p,
                  profile::ReadOptions options = {});
// kExitCorrupt if the profile is corrupt and not `lenient`, else 0.
int corruptStatus(const profile::Profile& p, bool lenient);
// Where a command writes its output: `file` opened on `path`, or stdout for an empty path;
// null, said on stderr, when the file cannot be written.
std::ostream* openOutput(const std::string& path, std::ofstream& file);
// --lenient, for the commands that read a profile.
void addLenientFlag(CLI::App* cmd, bool& lenient);

}  // namespace dragnet::report
