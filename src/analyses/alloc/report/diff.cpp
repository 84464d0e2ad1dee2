#include "analyses/alloc/report/diff.h"

#include <algorithm>

#include "analyses/alloc/report/sums.h"
#include "contexts/model.h"

namespace dragnet::analyses::alloc {

namespace {

using report::DiffTable;

DiffTable sumsTable(std::string id, std::string title, std::string keyName,
                    const report::Sums& sums) {
  DiffTable t{.id = std::move(id),
              .title = std::move(title),
              .keyName = std::move(keyName),
              .measures = {"bytes", "count"}};
  for (const auto& [key, s] : sums) {
    t.add(key, {static_cast<double>(s.bytes), static_cast<double>(s.count)});
  }
  return t;
}

}  // namespace

bool diffSide(const profile::Profile& p, const report::ReportSettings&, report::DiffSide& out,
              std::string&) {
  contexts::AllocModel m = contexts::buildModel(p);
  out.totals = {{"bytes", static_cast<double>(m.bytes)},
                {"objects", static_cast<double>(m.objects)},
                {"arrays", static_cast<double>(m.arrays)}};
  out.tables.push_back(sumsTable("sites", "Allocation sites", "site", report::sumBySite(m)));
  out.tables.push_back(sumsTable("types", "Types", "type", report::sumByType(m)));
  // The calling contexts as the collapsed stacks have them: root first, the type last.
  DiffTable contexts{.id = "contexts",
                     .title = "Calling contexts",
                     .keyName = "context",
                     .measures = {"bytes", "count"},
                     .contexts = true};
  for (const contexts::SiteRow& r : m.rows) {
    std::vector<std::string> frames = contexts::rowFrames(m, r);
    std::reverse(frames.begin(), frames.end());
    frames.push_back(report::typeOf(r));
    contexts.addContext(frames, {static_cast<double>(r.bytes), static_cast<double>(r.count)});
  }
  out.tables.push_back(std::move(contexts));
  return true;
}

}  // namespace dragnet::analyses::alloc
