#include "report/html_page.h"

#include <initializer_list>

#include "report/templates.h"

namespace dragnet::report {

std::string scriptSafe(const std::string& json) {
  std::string safe;
  safe.reserve(json.size());
  for (char c : json) {
    if (c == '<') {
      safe += "\\u003c";
    } else {
      safe += c;
    }
  }
  return safe;
}

namespace {

// The shared style sheets or scripts followed by the page's own.
std::string joined(std::initializer_list<std::string_view> shared, std::string_view own) {
  std::string all;
  for (std::string_view file : shared) {
    all += embeddedText(reportTemplateFiles(), file);
    all += '\n';
  }
  all += own;
  return all;
}

}  // namespace

void writePage(std::ostream& out, std::span<const EmbeddedFile> page, std::string_view title,
               const std::string& data) {
  // In their order in report.html; a value is never searched for placeholders itself.
  const std::pair<std::string_view, std::string> parts[] = {
      {"@TITLE@", std::string(title)},
      {"/*@CSS@*/", joined({"report.css"}, embeddedText(page, "page.css"))},
      {"@TITLE@", std::string(title)},
      {"@BODY@", std::string(embeddedText(page, "page.html"))},
      {"@DATA@", data},
      {"/*@SCRIPT@*/", joined({"report.js", "stack_filter.js"}, embeddedText(page, "page.js"))}};
  std::string_view text = embeddedText(reportTemplateFiles(), "report.html");
  for (const auto& [placeholder, value] : parts) {
    size_t at = text.find(placeholder);
    if (at == std::string_view::npos) {
      out << "<!-- dragnet: placeholder " << placeholder << " missing from report.html -->";
      continue;
    }
    out << text.substr(0, at) << value;
    text = text.substr(at + placeholder.size());
  }
  out << text;
}

}  // namespace dragnet::report
