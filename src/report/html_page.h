// What the self-contained HTML reports share (the alloc report, html_report.cpp, and the
// lifetime report, lifetime_html.cpp): the page frame and embedding data safely. The
// templates are src/report/templates/*, embedded at build time (templates.h): report.html is
// the frame (head, masthead, totals, data, script), report.css and report.js the style and
// script helpers both pages use; NAME.html, NAME.css and NAME.js are one report's own body,
// style and script.
#pragma once

#include <ostream>
#include <string>
#include <string_view>

namespace dragnet::report {

// `json` with every '<' written as \u003c: inside <script>, "</script" or "<!--" would end or
// confuse the element, so no profile string may contain one.
std::string scriptSafe(const std::string& json);

// Writes report.html filled in with `title`, the page `name`'s body, style and script (after
// the shared ones) and `data` (JSON the caller has already passed through scriptSafe).
void writePage(std::ostream& out, std::string_view name, std::string_view title,
               const std::string& data);

}  // namespace dragnet::report
