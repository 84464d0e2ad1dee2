#include "analyses/cost/report/diff.h"

#include <map>

#include "analyses/cost/model/load.h"
#include "analyses/cost/report/report.h"
#include "contexts/model.h"
#include "report/normal_names.h"

namespace dragnet::analyses::cost {

namespace {

using report::DiffTable;

double d(uint64_t v) { return static_cast<double>(v); }

struct SiteSums {
  double nRac = 0, nRab = 0, births = 0;
};

std::string typeOf(const report::CostNames& names, uint32_t site) {
  return contexts::siteTypeName(names.siteDef(site), site);
}

// The sites (summed where two names normalise alike, their rate from the sums), the
// classes, and the sites under their classes.
void siteTables(const CostModel& m, const report::CostNames& names, report::DiffSide& out) {
  std::map<std::string, SiteSums> sites;
  DiffTable classes{.id = "classes",
                    .title = "Classes",
                    .keyName = "class",
                    .measures = {"n-RAC", "n-RAB", "births"}};
  DiffTable byClass{.id = "structures",
                    .title = "Allocation sites by class",
                    .keyName = "site",
                    .measures = {"n-RAC", "births"},
                    .contexts = true};
  for (const SiteRow& r : m.sites()) {
    SiteSums& s = sites[report::normalName(names.site(r.site))];
    s.nRac += r.nRac, s.nRab += r.nRab, s.births += d(r.births);
    std::string type = typeOf(names, r.site);
    classes.add(type, {r.nRac, r.nRab, d(r.births)});
    byClass.addContext({type, names.site(r.site)}, {r.nRac, d(r.births)});
  }
  DiffTable ranked{.id = "sites",
                   .title = "Allocation sites",
                   .keyName = "site",
                   .measures = {"rate", "n-RAC", "n-RAB", "births"}};
  for (const auto& [key, s] : sites) {
    ranked.add(key, {(s.nRac + 1) / (s.nRab + 1), s.nRac, s.nRab, s.births});
  }
  out.tables.push_back(std::move(ranked));
  out.tables.push_back(std::move(classes));
  out.tables.push_back(std::move(byClass));
}

// Heap locations summed per field; array elements per array type ("int[].ELM").
DiffTable fieldTable(const CostModel& m, const report::CostNames& names) {
  DiffTable t{.id = "fields", .title = "Fields", .keyName = "field", .measures = {"RAC", "RAB"}};
  for (const LocationCost& l : m.locations()) {
    std::string field = names.field(l.loc.field);
    if (!l.loc.isStatic && field == "ELM") field = typeOf(names, l.loc.object.site) + ".ELM";
    t.add(field, {l.rac, l.rab});
  }
  return t;
}

}  // namespace

bool diffSide(const profile::Profile& p, const report::ReportSettings& s, report::DiffSide& out,
              std::string& error) {
  Options o;
  if (!report::costOptionsOf(s.options, o, error)) return false;
  CostModel m(loadGraph(p), o);
  report::CostReport r{&p, &m, recordingOf(p), totalsOf(p)};
  report::CostNames names(r);
  const Bloat& b = m.bloat();
  out.totals = {{"instructions", d(b.instructions)},
                {"dead (IPD %)", 100 * b.ipd},
                {"predicate-only (IPP %)", 100 * b.ipp},
                {"instances", d(m.size().instances)},
                {"object names", d(m.objects().size())}};
  siteTables(m, names, out);
  out.tables.push_back(fieldTable(m, names));
  return true;
}

}  // namespace dragnet::analyses::cost
