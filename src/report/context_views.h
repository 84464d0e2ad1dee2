// The stack filters and the first application frame (stack_filter.h) on the merged
// calling-context tree (contexts/model.h): the alloc reports' view of a profile, in every
// format, totals included. `dragnet report --include/--exclude/--focus/--app-exclude`.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "contexts/model.h"
#include "report/stack_filter.h"

namespace dragnet::report {

// The model with only the stacks `matcher`'s filter keeps, each shown from its focus frame on
// (callers cut off, so that contexts through the focus frame merge). An allocation's stack is
// its context's method frames; a method context's own calls and bytecodes are kept with its
// stack, and a caller that only leads to kept stacks shows its calls. Totals are the kept ones.
contexts::AllocModel filterModel(const contexts::AllocModel& m, FrameMatcher& matcher);

// Per node of `m`: the innermost application method node on its path from the root (the
// node itself for a method of the application), 0 when there is none.
std::vector<uint32_t> firstAppNodes(const contexts::AllocModel& m, FrameMatcher& matcher);
// The same for the frames of `view` (null: the JDK's alone are not the application's).
std::vector<uint32_t> firstAppNodes(const contexts::AllocModel& m, const struct AllocView* view);

// The first application frame of an allocation row: "app.Main.build(Main.java:10)", with
// `line` at the site's line when it is the allocating method (callers' lines are not
// recorded), else without one ("app.Main.build(Main.java)", the key of the grouping by first
// application frame); kNoAppFrame when there is none.
std::string firstAppFrame(const contexts::AllocModel& m, const contexts::SiteRow& row,
                          const std::vector<uint32_t>& firstApp, bool line = true);

// A report's views of one alloc model: the filtered model, its rows' first application
// frames, and what the header says of them.
struct AllocView {
  contexts::AllocModel model;      // filtered (the whole model when there is no filter)
  std::vector<uint32_t> firstApp;  // firstAppNodes of `model`
  // {"include": [...], "exclude": [...], "focus": [...], "kept": {"bytes", "objects"},
  // "total": {"bytes", "objects"}, "keptShare"}, or null without a filter (objects: objects
  // and arrays).
  nlohmann::ordered_json filter;
  std::vector<std::string> appExclude;  // the user's prefixes (AppFrames::prefixes)
};
AllocView makeView(contexts::AllocModel whole, const ViewSettings& s);

// Adds "filter" (AllocView::filter) and "appExclude" to a JSON header (of `view`; without
// one: no filter, no prefixes).
void addViewHeader(nlohmann::ordered_json& header, const AllocView* view);

}  // namespace dragnet::report
