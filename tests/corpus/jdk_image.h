// Shared by the corpus tests: a JDK's modules image extracted once into the build tree.
#pragma once

#include <filesystem>

namespace dragnet::testing {

// Extracts `home`/lib/modules with that JDK's own `jimage extract` into
// DRAGNET_BINARY_DIR/corpus/<home's dir name> (once) and returns that directory, or an
// empty path when extraction fails. Safe when several test processes call it at once
// (ctest -j): each extracts into a private directory and publishes it with one rename, so
// a reader never sees a half-written or disappearing tree.
std::filesystem::path extractedJdkImage(const std::filesystem::path& home);

}  // namespace dragnet::testing
