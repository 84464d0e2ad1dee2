// The report views (report/stack_filter.h) on a lifetime model: the stack filters as the
// objects the model takes (by their whole allocation context), and the nested sites' first
// application frames (within the site's frames, `site-frames`) with the grouping by them.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "analyses/lifetime/model/aggregate.h"
#include "report/stack_filter.h"

namespace dragnet::report::lifetime_views {

// The objects `matcher`'s filter keeps: those whose allocation context's stack it keeps
// (--focus keeps the stacks through its frame); empty when the filter is empty. `matcher`
// must outlive the result.
analyses::lifetime::ContextFilter contextFilter(const profile::Profile& p, FrameMatcher& matcher);

// A nested site's first application frame: "app.Main.build(Main.java:10)" (with `line`, at
// the site's line when it is the allocating method; the grouping's key has no line), or
// kNoAppFrame when none of its frames is the application's.
std::string firstAppFrame(const analyses::lifetime::Model& m,
                          const analyses::lifetime::NestedSite& s, const AppFrames& app,
                          bool line = true);

// The nested sites summed by first application frame (no line), in name order.
std::vector<std::pair<std::string, analyses::lifetime::Stats>> byFirstAppFrame(
    const analyses::lifetime::Model& m, const AppFrames& app);

// The JSON header's "filter": {"include", "exclude", "focus", "kept": {"objects", "bytes"},
// "total": {...}, "keptShare" (of the bytes)}, or null without a filter.
nlohmann::ordered_json filterJson(const analyses::lifetime::Model& m, const StackFilter& f);

}  // namespace dragnet::report::lifetime_views
