// Flame graphs of a lifetime profile (report.h): collapsed stacks and pprof of drag, void
// and lag space by the allocation's whole calling context (model/flame.h).
#include "analyses/lifetime/model/flame.h"

#include <algorithm>

#include "analyses/lifetime/report/json.h"
#include "analyses/lifetime/report/report.h"
#include "report/pprof_writer.h"

namespace dragnet::report {

using analyses::lifetime::FlameRow;
using analyses::lifetime::kFlamePhases;
using analyses::lifetime::Model;
using analyses::lifetime::Phase;
using analyses::lifetime::phaseName;

void writeLifetimeCollapsed(std::ostream& out, const Model& m, Phase measure) {
  std::vector<FlameRow> rows = analyses::lifetime::flameRows(m);
  std::stable_sort(rows.begin(), rows.end(),
                   [&](const FlameRow& a, const FlameRow& b) { return a[measure] > b[measure]; });
  for (const FlameRow& row : rows) {
    if (row[measure] == 0) break;
    std::string line;
    for (const std::string& frame : analyses::lifetime::flameFrames(m, row, true)) {
      line.append(frame).append(";");
    }
    line.back() = ' ';
    out << line << lifetime_json::exactDigits(row[measure]) << "\n";
  }
}

std::string lifetimePprofProfile(const Model& m, Phase measure) {
  const profile::Profile& p = *m.profile;
  PprofWriter w(p);
  for (Phase f : kFlamePhases) w.sampleType(phaseName(f), "bytes");
  for (const FlameRow& row : analyses::lifetime::flameRows(m)) {
    std::vector<uint64_t> values;
    for (Phase f : kFlamePhases) {
      values.push_back(
          static_cast<uint64_t>(std::llround(analyses::lifetime::averageBytes(row[f], m.endTime))));
    }
    if (std::all_of(values.begin(), values.end(), [](uint64_t v) { return v == 0; })) continue;
    // Leaf first: the type (as alloc's samples), the allocating method at the site's line,
    // then its callers (whose call-site lines are not recorded).
    auto site = p.sites.find(row.key);
    std::string type = analyses::lifetime::siteTypeName(m, row.key);
    std::vector<uint64_t> ids{w.location(w.function(type, type, ""), 0)};
    int64_t line = site == p.sites.end() || site->second.line < 0 ? 0 : site->second.line;
    for (uint32_t key : row.keys) {
      if (profile::isAllocKey(key)) continue;
      ids.push_back(w.location(w.methodFunction(key), line));
      line = 0;
    }
    w.sample(ids, values, {{"type", type}});
  }
  std::vector<std::string> comments{
      "dragnet lifetime profile" +
          (p.meta.count("pid") ? " (pid " + p.meta.at("pid") + ")" : std::string()),
      "values: the bytes each context's objects held on average in the phase over the run "
      "(space / run length of " +
          std::to_string(m.endTime) + " bytes allocated)"};
  for (std::string& note : pprofProfileNotes(p)) comments.push_back(std::move(note));
  return w.finish(comments, "space", 1, phaseName(measure));
}

bool writeLifetimePprof(std::ostream& out, const Model& m, Phase measure, std::string& error) {
  return writeGzipped(out, lifetimePprofProfile(m, measure), error);
}

}  // namespace dragnet::report
