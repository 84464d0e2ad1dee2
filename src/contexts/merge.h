// Mode alloc: the profiles of several JVMs (the JVMs one launcher started, or several runs
// of one program) as one profile, whose model is their sum. Methods and sites with the
// same definition become one, so that a calling context common to the JVMs is one context
// of the merged tree; each JVM's threads stay threads of their own.
#pragma once

#include <string>
#include <vector>

#include "profile/reader.h"

namespace dragnet::contexts {

// Merges `parts` (read from the files `names`, parallel) into `out`. False with `error`
// naming a file when they cannot be: a lifetime profile (each JVM's times run on its own
// allocation clock), or profiles recorded differently (sampled and exact, bytecodes on
// and off). Objects' bytes are computed with each JVM's own class sizes.
bool mergeProfiles(const std::vector<profile::Profile>& parts,
                   const std::vector<std::string>& names, profile::Profile& out,
                   std::string& error);

}  // namespace dragnet::contexts
