// What every analysis's reports share about the frames of a calling context: the stack
// filters (`--include`, `--exclude`, `--focus`, async-profiler's and pprof's semantics) and
// the first application frame (the innermost frame that is neither the JDK's nor under a
// prefix the user configured, `--app-exclude`). Frames are matched by "pkg.Class.method"
// (Java spelling, no descriptor); the allocated type is no frame here (pprof's -tagfocus
// selects types). One matcher for every mode: alloc filters its merged tree
// (context_views.h), lifetime the contexts of its objects.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "profile/reader.h"

namespace dragnet::report {

// Whether `name` matches `pattern`, where '*' matches any run of characters (none too) and
// every other character itself: "java.util.*", "*.toString", "app.Main.build".
bool globMatch(std::string_view pattern, std::string_view name);

struct StackFilter {
  // Keep only stacks with a frame matching one of these (none: every stack).
  std::vector<std::string> include;
  // Drop stacks with any frame matching one of these.
  std::vector<std::string> exclude;
  // Keep only stacks through a frame matching one of these, shown from the outermost such
  // frame on (its callers cut off).
  std::vector<std::string> focus;
  bool empty() const { return include.empty() && exclude.empty() && focus.empty(); }
  // "include app.*, lib.*; exclude *.toString; focus app.Main.run" ("" when empty).
  std::string describe() const;
};

// The frames that are not the application's: the JDK's (java., javax., jdk., sun.,
// com.sun.), the agent's own helpers (java.lang.Dragnet*) and the classes under `prefixes`
// (the user's, "org.apache.commons."; a prefix without a trailing '.' matches any class
// name starting with it).
struct AppFrames {
  std::vector<std::string> prefixes;
  bool isApplication(std::string_view javaClassName) const;
};

// The views a report is asked for (`dragnet report`'s flags, every analysis): its filter and
// which frames are the application's.
struct ViewSettings {
  StackFilter filter;
  AppFrames app;
};

// The name a frame filter sees: "app.Main.build" for method id `key`; "" for a key that is
// not a known method.
std::string filterName(const profile::Profile& p, uint32_t key);

// The bucket of allocations without any application frame.
inline constexpr std::string_view kNoAppFrame = "(no application frame)";

// The filter and the application frames as one profile's methods match them, each method
// looked at once.
class FrameMatcher {
 public:
  FrameMatcher(const profile::Profile& p, const StackFilter& f, const AppFrames& app);

  struct Match {
    bool include = false, exclude = false, focus = false, app = false;
  };
  // What method key `key` matches (nothing for an allocation key or the root).
  const Match& of(uint32_t key);

  const StackFilter& filter() const { return filter_; }

  // A stack of method keys, innermost first: whether the filter keeps it, and where the
  // shown part ends (keys[0, shown) are shown; less than keys.size() under --focus).
  struct Verdict {
    bool kept = false;
    size_t shown = 0;
  };
  Verdict judge(const std::vector<uint32_t>& keys);
  // The index in `keys` (innermost first) of the first application frame, if any.
  std::optional<size_t> firstApp(const std::vector<uint32_t>& keys);

 private:
  const profile::Profile& p_;
  const StackFilter& filter_;
  const AppFrames& app_;
  std::unordered_map<uint32_t, Match> cache_;
};

// "include app.*; exclude java.*: kept 1,234 of 5,678 bytes (21.7%), 10 of 40 objects and
// arrays" from a report header's "filter" object ({"include", "exclude", "focus", "kept":
// {"bytes", "objects"}, "total": {...}, "keptShare"}); `counted` names what "objects" counts.
std::string filterNote(const nlohmann::ordered_json& filter,
                       std::string_view counted = "objects and arrays");

}  // namespace dragnet::report
