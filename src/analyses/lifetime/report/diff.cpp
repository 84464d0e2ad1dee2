#include "analyses/lifetime/report/diff.h"

#include <algorithm>

#include "analyses/lifetime/model/aggregate.h"

namespace dragnet::analyses::lifetime {

namespace {

using report::DiffTable;

std::vector<double> measuresOf(const Stats& s) {
  return {toDouble(s[Phase::Lag] + s[Phase::Drag] + s[Phase::Void]),
          toDouble(s[Phase::Drag]),
          toDouble(s[Phase::Void]),
          toDouble(s[Phase::Lag]),
          toDouble(s[Phase::Use]),
          static_cast<double>(s.bytes),
          static_cast<double>(s.objects)};
}

DiffTable table(std::string id, std::string title, std::string keyName, bool contexts = false) {
  return {.id = std::move(id),
          .title = std::move(title),
          .keyName = std::move(keyName),
          .measures = {"unused", "drag", "void", "lag", "use", "bytes", "objects"},
          .contexts = contexts};
}

}  // namespace

bool diffSide(const profile::Profile& p, const report::ReportSettings&, report::DiffSide& out,
              std::string&) {
  Model m = buildModel(p);
  std::vector<double> totals = measuresOf(m.totals);
  const auto& names = table("", "", "").measures;
  for (size_t i = 0; i < names.size(); ++i) out.totals.emplace_back(names[i], totals[i]);
  DiffTable classes = table("classes", "Classes", "class");
  for (const ClassGroup& c : m.classes) classes.add(c.name, measuresOf(c.stats));
  DiffTable methods = table("methods", "Allocation sites (methods)", "method");
  for (const MethodGroup& g : m.methods) methods.add(g.name, measuresOf(g.stats));
  // A nested site as a context: its frames root first, then the allocated type.
  DiffTable nested = table("nested", "Nested allocation sites", "nested site", true);
  for (const NestedSite& s : m.nested) {
    std::vector<std::string> frames = nestedFrames(m, s);
    std::reverse(frames.begin(), frames.end());
    frames.push_back(typeOf(m, s));
    nested.addContext(frames, measuresOf(s.stats));
  }
  out.tables = {std::move(classes), std::move(methods), std::move(nested)};
  return true;
}

}  // namespace dragnet::analyses::lifetime
