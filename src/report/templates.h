// The HTML pages' shared frame, style and script (src/report/templates: report.html,
// report.css, report.js), embedded at build time by cmake/embed_files.cmake; each analysis
// embeds its own page (page.html, page.css, page.js) the same way, and so does the diff page.
#pragma once

#include <span>
#include <string_view>

#include "common/embedded.h"

namespace dragnet {

std::span<const EmbeddedFile> reportTemplateFiles();
// `dragnet diff`'s page (src/report/diff_templates: page.html, page.css, page.js).
std::span<const EmbeddedFile> diffPageFiles();

namespace report {

// The text of file `path` of `files`; empty if there is none.
inline std::string_view embeddedText(std::span<const EmbeddedFile> files, std::string_view path) {
  for (const EmbeddedFile& f : files) {
    if (f.path == path) {
      return {reinterpret_cast<const char*>(f.bytes.data()), f.bytes.size()};
    }
  }
  return {};
}

}  // namespace report
}  // namespace dragnet
