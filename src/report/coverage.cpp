#include "report/coverage.h"

#include <algorithm>
#include <map>

#include "contexts/model.h"
#include "report/normal_names.h"

namespace dragnet::report {

std::string hiddenClassName(std::string_view internal) {
  size_t s = profile::hiddenSuffixAt(internal);
  if (s == std::string_view::npos) return contexts::javaTypeName(internal);
  return contexts::javaTypeName(internal.substr(0, s)) + "/" + std::string(internal.substr(s + 1));
}

std::vector<std::pair<std::string, uint64_t>> hiddenClassGroups(const profile::Profile& p) {
  std::map<std::string, uint64_t> counts;
  for (const profile::Failure& f : p.failures) {
    if (!profile::isHidden(f)) continue;
    ++counts[normalName(contexts::javaTypeName(f.cls))];
  }
  std::vector<std::pair<std::string, uint64_t>> groups(counts.begin(), counts.end());
  std::stable_sort(groups.begin(), groups.end(),
                   [](const auto& a, const auto& b) { return a.second > b.second; });
  return groups;
}

uint64_t hiddenClassCount(const profile::Profile& p) {
  return static_cast<uint64_t>(std::count_if(p.failures.begin(), p.failures.end(),
                                             [](const auto& f) { return profile::isHidden(f); }));
}

const char* const kHiddenClassesNote =
    "the JVM defines hidden classes (lambda proxies, LambdaForms, "
    "Lookup.defineHiddenClass) without the class-load hook, so their own bytecode runs "
    "unrewritten: the objects it allocates itself are not counted (what it calls, a lambda's "
    "body included, is) and its methods are not contexts";

nlohmann::ordered_json hiddenClassesJson(const profile::Profile& p) {
  nlohmann::ordered_json j;
  j["count"] = hiddenClassCount(p);
  j["note"] = kHiddenClassesNote;
  auto& groups = j["groups"] = nlohmann::ordered_json::array();
  for (const auto& [name, n] : hiddenClassGroups(p)) groups.push_back({name, n});
  auto& all = j["classes"] = nlohmann::ordered_json::array();
  for (const profile::Failure& f : p.failures) {
    if (profile::isHidden(f)) all.push_back(hiddenClassName(f.cls));
  }
  return j;
}

const char* countingKind(const profile::Profile& p) {
  return p.meta.contains("sample") ? "sampled" : "exact";
}

const char* countingNote(const profile::Profile& p) {
  if (p.meta.contains("sample")) {
    return "sampled heap traffic: what the JVM really allocates, estimated from samples "
           "(allocations the JIT eliminates by escape analysis are not there)";
  }
  return "exact: every allocation the program's bytecode performs, including those the JIT "
         "later eliminates by escape analysis or scalar replacement";
}

}  // namespace dragnet::report
