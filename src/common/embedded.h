// Files compiled into the binary at build time (cmake/embed_files.cmake): each set is a
// function returning its files, declared by the header that uses it.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

namespace dragnet {

struct EmbeddedFile {
  std::string_view path;  // relative, '/'-separated, e.g. "dragnet/tools/ICount.class"
  std::span<const unsigned char> bytes;
};

}  // namespace dragnet
