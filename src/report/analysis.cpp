#include "report/analysis.h"

#include <algorithm>

namespace dragnet::report {

const Analysis* analysisOf(const profile::Profile& p) {
  for (const Analysis& a : registeredAnalyses()) {
    if (a.owns(p)) return &a;
  }
  return nullptr;
}

const Analysis* analysisNamed(std::string_view name) {
  for (const Analysis& a : registeredAnalyses()) {
    if (a.name == name) return &a;
  }
  return nullptr;
}

bool writes(const Analysis& a, std::string_view format) {
  return std::find(a.formats.begin(), a.formats.end(), format) != a.formats.end();
}

std::vector<std::string> allFormats() {
  std::vector<std::string> out;
  for (const Analysis& a : registeredAnalyses()) {
    for (std::string_view f : a.formats) {
      if (std::find(out.begin(), out.end(), f) == out.end()) out.emplace_back(f);
    }
  }
  return out;
}

std::string formatList(const Analysis& a) {
  std::string out;
  for (size_t i = 0; i < a.formats.size(); ++i) {
    if (i > 0) out += i + 1 == a.formats.size() ? " or " : ", ";
    out += a.formats[i];
  }
  return out;
}

std::string shellAnalysisList() {
  std::vector<std::string_view> names;
  for (const Analysis& a : registeredAnalyses()) {
    if (a.shell) names.push_back(a.name);
  }
  std::string out;
  for (size_t i = 0; i < names.size(); ++i) {
    if (i > 0) out += i + 1 == names.size() ? " or " : ", ";
    out += names[i];
  }
  return out;
}

}  // namespace dragnet::report

namespace dragnet::report {

void addReportOptionFlag(CLI::App* cmd, std::vector<std::string>& items) {
  std::string names;
  for (const Analysis& a : registeredAnalyses()) {
    if (a.options.empty()) continue;
    names += (names.empty() ? "" : "; ") + std::string(a.name) + ": " + optionList(a);
  }
  cmd->add_option("--opt", items,
                  "A report option of the profile's analysis, NAME=VALUE (repeatable; " +
                      (names.empty() ? std::string("none yet") : names) + "; docs/REPORTS.md)")
      ->type_name("NAME=VALUE")
      ->allow_extra_args(false);
}

void addViewFlags(CLI::App* cmd, ViewSettings& views) {
  const char* glob = " ('*' matches any characters; a frame is pkg.Class.method; repeatable)";
  cmd->add_option("--include", views.filter.include,
                  std::string("Keep only stacks with a frame matching PATTERN") + glob)
      ->type_name("PATTERN")
      ->allow_extra_args(false);
  cmd->add_option("--exclude", views.filter.exclude,
                  std::string("Drop stacks with any frame matching PATTERN") + glob)
      ->type_name("PATTERN")
      ->allow_extra_args(false);
  cmd->add_option("--focus", views.filter.focus,
                  std::string("Keep only stacks through a frame matching PATTERN, shown from "
                              "that frame on") +
                      glob)
      ->type_name("PATTERN")
      ->allow_extra_args(false);
  cmd->add_option("--app-exclude", views.app.prefixes,
                  "Class-name prefixes that are not the application's, besides the JDK's "
                  "(org.apache.commons.,com.google.; repeatable): the first application frame")
      ->type_name("PREFIX,...")
      ->delimiter(',')
      ->allow_extra_args(false);
}

std::string optionList(const Analysis& a) {
  std::string out;
  for (const ReportOption& o : a.options) out += (out.empty() ? "" : ", ") + std::string(o.name);
  return out.empty() ? "none" : out;
}

bool parseReportOptions(const Analysis& a, const std::vector<std::string>& items, OptionValues& out,
                        std::string& error) {
  out.clear();
  for (const std::string& item : items) {
    size_t eq = item.find('=');
    if (eq == std::string::npos || eq == 0) {
      error = "--opt " + item + ": expected NAME=VALUE";
      return false;
    }
    std::string name = item.substr(0, eq);
    auto known = std::find_if(a.options.begin(), a.options.end(),
                              [&](const ReportOption& o) { return o.name == name; });
    if (known == a.options.end()) {
      error = "--opt " + item + ": mode " + std::string(a.name) + " has no report option '" + name +
              "' (its options: " + optionList(a) + ")";
      return false;
    }
    out.emplace_back(std::move(name), item.substr(eq + 1));
  }
  return !a.checkOptions || a.checkOptions(out, error);
}

}  // namespace dragnet::report
