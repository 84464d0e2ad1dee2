// The HTML report of a cost profile: src/analyses/cost/templates/page.{html,css,js} (after the
// shared report.css and report.js) with the data below embedded once as JSON
// (docs/REPORTS.md, "cost html"). The numbers are the model's, as in the text and JSON
// reports (the lists come from CostJsonWriter); the page's script only formats, filters and
// expands them.
#include "analyses/cost/report/json.h"
#include "analyses/cost/report/report.h"
#include "report/html_page.h"
#include "report/json_text.h"

namespace dragnet::report {

using Json = nlohmann::ordered_json;

std::string costHtmlData(const CostReport& r, const CostHtmlOptions& o) {
  const profile::Profile& p = *r.profile;
  Json j = costHeader(r);
  j["format"] = "dragnet-cost-html";
  if (!p.corrupt()) j["corrupt"] = nullptr;  // the page's writeHeading reads it
  j["meta"] = p.meta;
  CostJsonWriter w(r);
  j["sites"] = w.sites(o.rows);
  j["siteCount"] = r.model->sites().size();
  j["structures"] = w.structures(o.rows);
  j["structureCount"] = r.model->objects().size();
  // Each location once, by id; the two rankings as lists of ids.
  Json locations = Json::object(), byRac = Json::array(), byRab = Json::array();
  for (bool rab : {false, true}) {
    Json& order = rab ? byRab : byRac;
    for (uint32_t l : locationsBy(*r.model, rab)) {
      if (order.size() == o.rows) break;
      order.push_back(l);
      std::string key = std::to_string(l);
      if (!locations.contains(key)) locations[key] = w.location(l, o.rows);
    }
  }
  j["locations"] = std::move(locations);
  j["byRac"] = std::move(byRac);
  j["byRab"] = std::move(byRab);
  j["locationCount"] = r.model->locations().size();
  j["top"] = o.top;
  return scriptSafe(jsonText(j, -1));
}

void writeCostHtml(std::ostream& out, const CostReport& r, const CostHtmlOptions& o) {
  writePage(out, costPageFiles(), "dragnet cost profile", costHtmlData(r, o));
}

}  // namespace dragnet::report
