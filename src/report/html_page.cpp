#include "report/html_page.h"

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

// The shared style sheet or script followed by the page's own.
std::string joined(std::string_view shared, const std::string& own) {
  std::string all(templateText(shared));
  all += '\n';
  all += templateText(own);
  return all;
}

}  // namespace

void writePage(std::ostream& out, std::string_view name, std::string_view title,
               const std::string& data) {
  std::string page(name);
  // In their order in report.html; a value is never searched for placeholders itself.
  const std::pair<std::string_view, std::string> parts[] = {
      {"@TITLE@", std::string(title)},
      {"/*@CSS@*/", joined("report.css", page + ".css")},
      {"@TITLE@", std::string(title)},
      {"@BODY@", std::string(templateText(page + ".html"))},
      {"@DATA@", data},
      {"/*@SCRIPT@*/", joined("report.js", page + ".js")}};
  std::string_view text = templateText("report.html");
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
