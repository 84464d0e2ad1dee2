#include "report/stack_filter.h"

#include <algorithm>
#include <cstdio>

#include "contexts/model.h"
#include "report/text_format.h"

namespace dragnet::report {

bool globMatch(std::string_view pattern, std::string_view name) {
  // Greedy with one backtrack point: the last '*' seen and where its run ends in `name`.
  size_t p = 0, n = 0, star = std::string_view::npos, resume = 0;
  while (n < name.size()) {
    if (p < pattern.size() && pattern[p] == '*') {
      star = p++;
      resume = n;
    } else if (p < pattern.size() && pattern[p] == name[n]) {
      ++p;
      ++n;
    } else if (star != std::string_view::npos) {
      p = star + 1;
      n = ++resume;
    } else {
      return false;
    }
  }
  while (p < pattern.size() && pattern[p] == '*') ++p;
  return p == pattern.size();
}

namespace {

void describeList(std::string& out, const char* what, const std::vector<std::string>& patterns) {
  if (patterns.empty()) return;
  if (!out.empty()) out += "; ";
  out += what;
  for (size_t i = 0; i < patterns.size(); ++i) out += (i ? ", " : " ") + patterns[i];
}

bool anyMatch(const std::vector<std::string>& patterns, std::string_view name) {
  return std::any_of(patterns.begin(), patterns.end(),
                     [&](const std::string& pattern) { return globMatch(pattern, name); });
}

}  // namespace

std::string StackFilter::describe() const {
  std::string out;
  describeList(out, "include", include);
  describeList(out, "exclude", exclude);
  describeList(out, "focus", focus);
  return out;
}

bool AppFrames::isApplication(std::string_view cls) const {
  static constexpr std::string_view kJdk[] = {"java.", "javax.", "jdk.", "sun.", "com.sun."};
  for (std::string_view prefix : kJdk) {
    if (cls.starts_with(prefix)) return false;
  }
  return std::none_of(prefixes.begin(), prefixes.end(),
                      [&](const std::string& prefix) { return cls.starts_with(prefix); });
}

std::string filterName(const profile::Profile& p, uint32_t key) {
  auto it = p.methods.find(key);
  if (it == p.methods.end()) return "";
  return contexts::javaTypeName(it->second.cls) + "." + it->second.name;
}

FrameMatcher::FrameMatcher(const profile::Profile& p, const StackFilter& f, const AppFrames& app)
    : p_(p), filter_(f), app_(app) {}

const FrameMatcher::Match& FrameMatcher::of(uint32_t key) {
  auto [it, fresh] = cache_.try_emplace(key);
  if (!fresh || key == profile::kRootKey || profile::isAllocKey(key)) return it->second;
  auto method = p_.methods.find(key);
  if (method == p_.methods.end()) return it->second;  // unknown: matches nothing
  std::string cls = contexts::javaTypeName(method->second.cls);
  std::string name = cls + "." + method->second.name;
  Match& m = it->second;
  m.include = anyMatch(filter_.include, name);
  m.exclude = anyMatch(filter_.exclude, name);
  m.focus = anyMatch(filter_.focus, name);
  m.app = app_.isApplication(cls);
  return m;
}

FrameMatcher::Verdict FrameMatcher::judge(const std::vector<uint32_t>& keys) {
  bool included = filter_.include.empty();
  std::optional<size_t> outermostFocus;
  for (size_t i = 0; i < keys.size(); ++i) {
    const Match& m = of(keys[i]);
    if (m.exclude) return {};
    included = included || m.include;
    if (m.focus) outermostFocus = i;
  }
  if (!included || (!filter_.focus.empty() && !outermostFocus)) return {};
  return {true, outermostFocus ? *outermostFocus + 1 : keys.size()};
}

std::optional<size_t> FrameMatcher::firstApp(const std::vector<uint32_t>& keys) {
  for (size_t i = 0; i < keys.size(); ++i) {
    if (of(keys[i]).app) return i;
  }
  return std::nullopt;
}

std::string filterNote(const nlohmann::ordered_json& f, std::string_view counted) {
  StackFilter filter{f.at("include").get<std::vector<std::string>>(),
                     f.at("exclude").get<std::vector<std::string>>(),
                     f.at("focus").get<std::vector<std::string>>()};
  const auto &kept = f.at("kept"), &total = f.at("total");
  char share[32];
  std::snprintf(share, sizeof share, "%.1f%%", 100.0 * f.at("keptShare").get<double>());
  return filter.describe() + ": kept " + grouped(kept.at("bytes").get<uint64_t>()) + " of " +
         grouped(total.at("bytes").get<uint64_t>()) + " bytes (" + share + "), " +
         grouped(kept.at("objects").get<uint64_t>()) + " of " +
         grouped(total.at("objects").get<uint64_t>()) + " " + std::string(counted);
}

}  // namespace dragnet::report
