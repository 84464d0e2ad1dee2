// What every analysis's self-contained HTML page shares: the page frame and embedding data
// safely. The frame is src/report/templates/*, embedded at build time (templates.h):
// report.html (head, masthead, totals, data, script), report.css and report.js, the style
// and script helpers every page uses. An analysis embeds its own page.html, page.css and
// page.js (its templates/ folder): its body, style and script.
#pragma once

#include <ostream>
#include <span>
#include <string>
#include <string_view>

#include "common/embedded.h"

namespace dragnet::report {

// `json` with every '<' written as \u003c: inside <script>, "</script" or "<!--" would end or
// confuse the element, so no profile string may contain one.
std::string scriptSafe(const std::string& json);

// Writes report.html filled in with `title`, the body, style and script of `page` (after the
// shared ones) and `data` (JSON the caller has already passed through scriptSafe).
void writePage(std::ostream& out, std::span<const EmbeddedFile> page, std::string_view title,
               const std::string& data);

}  // namespace dragnet::report
