// The HTML report's files (src/report/templates), embedded at build time by
// cmake/embed_files.cmake: alloc.html with placeholders, alloc.css and alloc.js.
#pragma once

#include <span>
#include <string_view>

#include "tools/embedded.h"

namespace dragnet {

std::span<const EmbeddedFile> reportTemplateFiles();

namespace report {

// The text of an embedded template file, e.g. "alloc.js"; empty if there is none.
inline std::string_view templateText(std::string_view path) {
  for (const EmbeddedFile& f : reportTemplateFiles()) {
    if (f.path == path) {
      return {reinterpret_cast<const char*>(f.bytes.data()), f.bytes.size()};
    }
  }
  return {};
}

}  // namespace report
}  // namespace dragnet
