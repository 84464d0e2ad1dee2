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
