// The HTML report of a cost profile on CostOracle's hand-made graph (cost_oracle.h, s = 1):
// the embedded data against the spec's values (section 2.2), then the page rendered by
// headless Chromium (tests/report/chromium_dom.h; skipped without one): no console message
// or error, the totals and settings, the structures ranked with a structure opened to its
// fields and the code that writes and reads them, the filter by class or site, and the
// locations by RAC and by RAB.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "../report/chromium_dom.h"
#include "cost_profile.h"

namespace fs = std::filesystem;

namespace dragnet {
namespace {

using namespace test::cost;
using Json = nlohmann::json;
using test::renderDom;
using test::rowsOf;
using test::slurp;
using test::tagOf;
using test::textOf;

const std::string kA = "CostOracle$A CostOracle.main(CostOracle.java:20)";
const std::string kList = "CostOracle$IntList CostOracle.main(CostOracle.java:19)";
const std::string kArray = "int[] CostOracle$IntList.<init>(CostOracle.java:14)";

class CostHtml : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("cost_html_" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  fs::path write() {
    fs::path html = dir_ / "cost.html";
    std::ofstream out(html, std::ios::binary);
    report::writeCostHtml(out, built_.report, {});
    return html;
  }
  Json data() { return Json::parse(report::costHtmlData(built_.report, {})); }

  // The DOM after the script ran; the page must write nothing to the console and reach its
  // end (body data-ready).
  std::string render(const std::string& hash = "") {
    std::string dom = renderDom(write(), dir_, renders_++, hash, "--enable-logging=stderr --v=0");
    std::string log = slurp(dir_ / "chromium.log");
    EXPECT_EQ(log.find(":CONSOLE"), std::string::npos) << log;
    EXPECT_NE(dom.find("data-ready=\"cost\""), std::string::npos) << hash;
    return dom;
  }

  fs::path dir_;
  int renders_ = 0;
  profile::Profile profile_ = oracleProfile();
  Built built_ = build(profile_, costOracle(1000, 1));
};

TEST_F(CostHtml, FileIsSelfContained) {
  std::string page = slurp(write());
  EXPECT_EQ(page.rfind("<!DOCTYPE html>", 0), 0u);
  for (const char* placeholder : {"@TITLE@", "/*@CSS@*/", "@BODY@", "@DATA@", "/*@SCRIPT@*/"}) {
    EXPECT_EQ(page.find(placeholder), std::string::npos) << placeholder;
  }
  for (const char* remote : {"<link", "src=", "@import", "fetch(", "XMLHttpRequest", "http"}) {
    EXPECT_EQ(page.find(remote), std::string::npos) << remote;
  }
}

TEST_F(CostHtml, DataHasTheStructuresFieldsAndCode) {
  Json j = data();
  EXPECT_EQ(j["format"], "dragnet-cost-html");
  EXPECT_EQ(j["structureCount"], 3);
  EXPECT_EQ(j["locationCount"], 5);
  const Json& top = j["structures"][0];
  EXPECT_EQ(top["object"]["name"], kA);
  EXPECT_DOUBLE_EQ(top["rate"].get<double>(), 3004.0 / 3);
  EXPECT_EQ(top["writers"][0]["line"], 10);
  // Each location once, by id; the rankings as ids.
  EXPECT_EQ(j["locations"].size(), 5u);
  EXPECT_EQ(j["byRac"].size(), 5u);
  EXPECT_EQ(j["locations"][std::to_string(j["byRac"][0].get<int>())]["rac"], 3003.0);
  EXPECT_EQ(j["locations"][std::to_string(j["byRab"][4].get<int>())]["field"], "ELM");
}

TEST_F(CostHtml, RendersTotalsSettingsAndTables) {
  REQUIRE_CHROMIUM();
  std::string dom = render();
  EXPECT_EQ(textOf(dom, "title"), "Cost-benefit profile of pid 4242");
  EXPECT_EQ(textOf(dom, "total-instances"), "19");
  EXPECT_EQ(textOf(dom, "total-ipd"), "50.15%");
  EXPECT_EQ(textOf(dom, "total-nld"), "84.21%");
  EXPECT_EQ(textOf(dom, "total-top-rate"), "1,001.33");
  std::vector<std::string> settings = rowsOf(dom, "settings");
  ASSERT_EQ(settings.size(), 4u);
  EXPECT_NE(settings[1].find("RAB \u2265 1,048,576 (consumer-rab); structures of height 4"),
            std::string::npos)
      << settings[1];
  std::vector<std::string> structures = rowsOf(dom, "structures");
  ASSERT_EQ(structures.size(), 3u);  // closed: no detail rows
  EXPECT_EQ(structures[0], "1 | 1,001.33 | 3,003.00 | 2.00 | 1 | no | " + kA);
  EXPECT_EQ(structures[1], "2 | 3.00 | 2.00 | 0.00 | 1 | no | " + kArray);
  EXPECT_EQ(structures[2], "3 | 1.75 | 6.00 | 3.00 | 1 | no | " + kList);
  EXPECT_EQ(tagOf(dom, "detail-1"), "");
  EXPECT_EQ(rowsOf(dom, "sites").size(), 3u);
  std::vector<std::string> byRac = rowsOf(dom, "by-rac"), byRab = rowsOf(dom, "by-rab");
  ASSERT_EQ(byRac.size(), 5u);
  EXPECT_EQ(byRac[0].rfind("3,003.00 | 2.00 | no | CostOracle$A.foo(CostOracle.java:10) | "
                           "CostOracle$A.getT(CostOracle.java:4) | <" +
                               kA + ">.CostOracle$A.t",
                           0),
            0u)
      << byRac[0];
  EXPECT_NE(byRab[4].find(">.ELM"), std::string::npos) << byRab[4];
  EXPECT_NE(byRab[3].find("java.lang.System.out"), std::string::npos) << byRab[3];
}

// A structure opened (#open=3, what a click on its row sets): IntList's fields, the array's
// elements among them, and the code that writes (lines 14, 16) and reads them.
TEST_F(CostHtml, AnOpenedStructureShowsItsFieldsAndCode) {
  REQUIRE_CHROMIUM();
  std::string dom = render("open=3");
  EXPECT_NE(tagOf(dom, "structure-3").find("aria-expanded=\"true\""), std::string::npos);
  EXPECT_NE(tagOf(dom, "structure-1").find("aria-expanded=\"false\""), std::string::npos);
  EXPECT_NE(tagOf(dom, "detail-3"), "");
  EXPECT_EQ(tagOf(dom, "detail-1"), "");
  std::vector<std::string> fields = rowsOf(dom, "fields-3");
  ASSERT_EQ(fields.size(), 3u);
  // In location order: the array (site 14) before IntList (site 19).
  EXPECT_EQ(fields[0], "<" + kArray + ">.ELM | 2.00 | 0.00 | no");
  EXPECT_EQ(fields[1], "<" + kList + ">.CostOracle$IntList.arr | 2.00 | 1.00 | no");
  EXPECT_EQ(fields[2], "<" + kList + ">.CostOracle$IntList.pos | 2.00 | 2.00 | no");
  std::vector<std::string> writers = rowsOf(dom, "writers-3");
  ASSERT_EQ(writers.size(), 3u);
  EXPECT_EQ(writers[0],
            "1 | 1 | CostOracle$IntList.<init>(CostOracle.java:14) | putfield "
            "CostOracle$IntList.arr (node 6)");
  EXPECT_EQ(writers[2],
            "1 | 1 | CostOracle$IntList.add(CostOracle.java:16) | xastore ELM (node 19)");
  EXPECT_EQ(rowsOf(dom, "readers-3").size(), 2u);
  // The objects of the structure: IntList and its array.
  EXPECT_NE(textOf(dom, "detail-3").find("Its objects within height 4: " + kList + ", " + kArray),
            std::string::npos);
}

// The filter keeps the structures, sites and locations whose names hold the text.
TEST_F(CostHtml, FilterByClassOrSite) {
  REQUIRE_CHROMIUM();
  std::string dom = render("filter=IntList");
  EXPECT_NE(tagOf(dom, "filter").find("IntList"), std::string::npos);
  std::vector<std::string> structures = rowsOf(dom, "structures");
  ASSERT_EQ(structures.size(), 2u);  // the array's site is in IntList.<init>
  EXPECT_EQ(structures[0].rfind("2 | ", 0), 0u);
  EXPECT_EQ(structures[1].rfind("3 | ", 0), 0u);
  EXPECT_EQ(rowsOf(dom, "sites").size(), 2u);
  EXPECT_EQ(rowsOf(dom, "by-rac").size(), 3u);  // arr, pos, the array's ELM
  std::string none = render("filter=NoSuchClass");
  EXPECT_EQ(rowsOf(none, "structures"), std::vector<std::string>{"none"});
}

}  // namespace
}  // namespace dragnet
