#include "analyses/alloc/report/pprof_report.h"

#include <vector>

#include "analyses/alloc/report/sums.h"
#include "report/context_views.h"
#include "report/pprof_writer.h"

namespace dragnet::report {

using contexts::AllocModel;
using contexts::SiteRow;

namespace {

class PprofBuilder {
 public:
  PprofBuilder(const AllocModel& m, const nlohmann::ordered_json& filter)
      : m_(m), filter_(filter), w_(*m.profile), callerLocation_(m.nodes.size(), 0) {}

  std::string build() {
    declareSampleTypes();
    for (const SiteRow& r : m_.rows) allocationSample(r);
    if (m_.insns) {
      for (uint32_t i = 1; i < m_.nodes.size(); ++i) bytecodeSample(i);
    }
    const profile::Profile& p = *m_.profile;
    std::vector<std::string> comments{"dragnet allocation profile"};
    if (auto it = p.meta.find("pid"); it != p.meta.end())
      comments[0] += " (pid " + it->second + ")";
    for (std::string& note : pprofProfileNotes(p)) comments.push_back(std::move(note));
    if (!filter_.is_null()) comments.push_back("filter " + filterNote(filter_));
    // exact: every allocation is recorded (period 1)
    uint64_t period = p.meta.count("sample") ? m_.sampleInterval : 1;
    return w_.finish(comments, "space", period, "alloc_space");
  }

 private:
  // Sample types: what each sample's values mean, in this order.
  void declareSampleTypes() {
    w_.sampleType("alloc_objects", "count");  // objects and arrays
    w_.sampleType("alloc_space", "bytes");
    w_.sampleType("alloc_elements", "count");  // array elements
    if (m_.insns) w_.sampleType("bytecodes", "count");
  }

  // The method frames from `node` up to the root, innermost first; the innermost at
  // `line`, each caller at the line of its call (0: unknown, contexts::callerLine).
  // Stacks share their callers: a caller's location is cached per node it called.
  void appendStack(std::vector<uint64_t>& ids, uint32_t node, int32_t line) {
    if (node == 0) return;
    ids.push_back(w_.location(w_.methodFunction(m_.nodes[node].key), line > 0 ? line : 0));
    for (uint32_t n = node; m_.nodes[n].parent != 0; n = m_.nodes[n].parent) {
      uint64_t& loc = callerLocation_[n];
      if (loc == 0) {
        int32_t at = contexts::callerLine(m_, n);
        loc = w_.location(w_.methodFunction(m_.nodes[m_.nodes[n].parent].key), at > 0 ? at : 0);
      }
      ids.push_back(loc);
    }
  }

  // One sample per allocation row: the allocated type as the leaf frame (as
  // async-profiler does, so flame graphs show what is allocated on top of where) and as
  // the label "type" (and how it was allocated as "origin": new, clone, jni, ...); then the
  // allocating method at the site's line, then its callers.
  void allocationSample(const SiteRow& r) {
    std::string type = typeOf(r);
    std::vector<uint64_t> ids{w_.location(w_.function(type, type, ""), 0)};
    appendStack(ids, m_.nodes[r.node].parent, r.site ? r.site->line : 0);
    std::vector<uint64_t> values{r.count, r.bytes, r.elements};
    if (m_.insns) values.push_back(0);
    std::vector<std::pair<const char*, std::string>> labels{{"type", type}};
    if (r.site) labels.emplace_back("origin", contexts::originName(r.site->kind));
    w_.sample(ids, values, labels);
  }

  // With bytecodes=on: one sample per context that executed instructions itself.
  void bytecodeSample(uint32_t node) {
    const contexts::MergedNode& n = m_.nodes[node];
    if (profile::isAllocKey(n.key) || n.c.insns == 0) return;
    std::vector<uint64_t> ids;
    appendStack(ids, node, 0);
    w_.sample(ids, {0, 0, 0, n.c.insns}, {});
  }

  const AllocModel& m_;
  const nlohmann::ordered_json& filter_;
  PprofWriter w_;
  std::vector<uint64_t> callerLocation_;  // per merged node: its caller's; 0: not yet made
};

}  // namespace

std::string pprofProfile(const AllocModel& m, const nlohmann::ordered_json& filter) {
  return PprofBuilder(m, filter).build();
}

bool writePprof(std::ostream& out, const AllocModel& m, std::string& error,
                const nlohmann::ordered_json& filter) {
  return writeGzipped(out, pprofProfile(m, filter), error);
}

}  // namespace dragnet::report
