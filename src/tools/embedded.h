// Files compiled into the binary at build time (cmake/embed_files.cmake).
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

namespace dragnet {

struct EmbeddedFile {
  std::string_view path;  // relative, '/'-separated, e.g. "dragnet/tools/ICount.class"
  std::span<const unsigned char> bytes;
};

// The BIT tools' Java runtime classes (runtime/tools).
std::span<const EmbeddedFile> toolsRuntimeFiles();
// The agent's runtime helper classes (runtime/agent), defined into java.base.
std::span<const EmbeddedFile> agentRuntimeFiles();

}  // namespace dragnet
