#include "report/context_views.h"

#include <algorithm>
#include <cstdio>
#include <map>

#include "report/text_format.h"

namespace dragnet::report {

using contexts::AllocModel;
using contexts::MergedNode;
using contexts::SiteRow;

namespace {

constexpr uint32_t kNone = UINT32_MAX;

// Per node, what its path from the root matched (parents precede their children, so one
// ascending pass): an include pattern, an exclude pattern, and the outermost focus frame.
struct PathState {
  std::vector<uint8_t> included, excluded;
  std::vector<uint32_t> focusAt;  // kNone: no focus frame on the path
};

PathState pathStates(const AllocModel& m, FrameMatcher& matcher) {
  size_t n = m.nodes.size();
  PathState s{std::vector<uint8_t>(n, 0), std::vector<uint8_t>(n, 0),
              std::vector<uint32_t>(n, kNone)};
  for (uint32_t i = 1; i < n; ++i) {
    uint32_t parent = m.nodes[i].parent;
    const FrameMatcher::Match& match = matcher.of(m.nodes[i].key);
    s.included[i] = s.included[parent] || match.include;
    s.excluded[i] = s.excluded[parent] || match.exclude;
    s.focusAt[i] = s.focusAt[parent] != kNone ? s.focusAt[parent] : (match.focus ? i : kNone);
  }
  return s;
}

nlohmann::ordered_json amounts(uint64_t bytes, uint64_t objects) {
  return {{"bytes", bytes}, {"objects", objects}};
}

}  // namespace

AllocModel filterModel(const AllocModel& m, FrameMatcher& matcher) {
  const StackFilter& filter = matcher.filter();
  PathState s = pathStates(m, matcher);
  size_t n = m.nodes.size();
  std::vector<uint8_t> kept(n, 0), needed(n, 0);
  // A focus frame becomes a child of the root: the view's parent of each node.
  auto viewParent = [&](uint32_t i) { return s.focusAt[i] == i ? 0 : m.nodes[i].parent; };
  for (uint32_t i = 1; i < n; ++i) {
    kept[i] = (filter.include.empty() || s.included[i]) && !s.excluded[i] &&
              (filter.focus.empty() || s.focusAt[i] != kNone);
  }
  for (uint32_t i = static_cast<uint32_t>(n); i-- > 1;) {
    needed[i] = needed[i] || kept[i];
    if (needed[i]) needed[viewParent(i)] = 1;
  }
  AllocModel f;
  f.profile = m.profile;
  f.sampleInterval = m.sampleInterval;
  f.collapsed = m.collapsed;
  f.dropped = m.dropped;
  f.nodes.push_back(MergedNode{});
  std::vector<uint32_t> newId(n, 0);
  std::map<std::pair<uint32_t, uint32_t>, uint32_t> index;  // (new parent, key) -> new node
  for (uint32_t i = 1; i < n; ++i) {
    if (!needed[i]) continue;
    const MergedNode& old = m.nodes[i];
    uint32_t parent = newId[viewParent(i)];
    auto [it, fresh] = index.try_emplace({parent, old.key}, static_cast<uint32_t>(f.nodes.size()));
    if (fresh) {
      MergedNode node;
      node.parent = parent;
      node.key = old.key;
      f.nodes.push_back(node);
      f.nodes[parent].children.push_back(it->second);
    }
    newId[i] = it->second;
    MergedNode& into = f.nodes[it->second];
    if (kept[i]) {
      into.c.count += old.c.count;
      into.c.elements += old.c.elements;
      into.c.bytes += old.c.bytes;
      into.c.insns += old.c.insns;
      into.bytesKnown = into.bytesKnown && old.bytesKnown;
    } else if (!profile::isAllocKey(old.key)) {
      into.c.count += old.c.count;  // a caller on the way to kept stacks: its calls
    }
  }
  contexts::finishRows(f);
  return f;
}

std::vector<uint32_t> firstAppNodes(const AllocModel& m, FrameMatcher& matcher) {
  std::vector<uint32_t> first(m.nodes.size(), 0);
  for (uint32_t i = 1; i < m.nodes.size(); ++i) {
    const MergedNode& n = m.nodes[i];
    bool app = !profile::isAllocKey(n.key) && matcher.of(n.key).app;
    first[i] = app ? i : first[n.parent];
  }
  return first;
}

std::vector<uint32_t> firstAppNodes(const AllocModel& m, const AllocView* view) {
  if (view) return view->firstApp;
  StackFilter none;
  AppFrames jdk;
  FrameMatcher matcher(*m.profile, none, jdk);
  return firstAppNodes(m, matcher);
}

std::string firstAppFrame(const AllocModel& m, const SiteRow& row,
                          const std::vector<uint32_t>& firstApp, bool line) {
  uint32_t context = m.nodes[row.node].parent;
  uint32_t app = firstApp[context];
  if (app == 0) return std::string(kNoAppFrame);
  int32_t at = line && app == context && row.site ? row.site->line : -1;
  return contexts::frameName(*m.profile, m.nodes[app].key, at);
}

AllocView makeView(AllocModel whole, const ViewSettings& s) {
  AllocView v;
  FrameMatcher matcher(*whole.profile, s.filter, s.app);
  v.appExclude = s.app.prefixes;
  if (s.filter.empty()) {
    v.model = std::move(whole);
    v.filter = nullptr;
  } else {
    v.model = filterModel(whole, matcher);
    v.filter = {{"include", s.filter.include},
                {"exclude", s.filter.exclude},
                {"focus", s.filter.focus},
                {"kept", amounts(v.model.bytes, v.model.objects + v.model.arrays)},
                {"total", amounts(whole.bytes, whole.objects + whole.arrays)},
                {"keptShare",
                 whole.bytes ? static_cast<double>(v.model.bytes) / static_cast<double>(whole.bytes)
                             : 0.0}};
  }
  v.firstApp = firstAppNodes(v.model, matcher);
  return v;
}

void addViewHeader(nlohmann::ordered_json& h, const AllocView* view) {
  h["filter"] = view ? view->filter : nlohmann::ordered_json(nullptr);
  h["appExclude"] = view ? view->appExclude : std::vector<std::string>{};
}

}  // namespace dragnet::report
