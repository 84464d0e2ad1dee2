// The text and JSON reports of a cost profile (analyses/cost/report/report.h) on CostOracle's
// hand-made graph (cost_oracle.h: the spec's values, section 2.2) named by a profile as the
// loader's would be, and the report options (consumer-rab, height) on a graph with a
// consumed location: the rates, RACs and RABs, the order of the rankings, the code's lines.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <sstream>

#include "analyses/cost/report/analysis.h"
#include "cost_profile.h"
#include "report/analysis.h"

namespace dragnet {
namespace {

using namespace test::cost;
using Json = nlohmann::json;

const std::string kA = "CostOracle$A CostOracle.main(CostOracle.java:20)";
const std::string kList = "CostOracle$IntList CostOracle.main(CostOracle.java:19)";
const std::string kArray = "int[] CostOracle$IntList.<init>(CostOracle.java:14)";
const std::string kAt = "<" + kA + ">.CostOracle$A.t";

std::string text(const report::CostReport& r, size_t top = 20) {
  std::ostringstream out;
  report::writeCostText(out, r, {.top = top});
  return out.str();
}

Json json(const report::CostReport& r) {
  std::ostringstream out;
  report::writeCostJson(out, r, {});
  return Json::parse(out.str());
}

// The lines of `s` that start (after blanks) with `start`... or contain `what`.
std::string lineWith(const std::string& s, const std::string& what) {
  size_t at = s.find(what);
  if (at == std::string::npos) return "[no line with " + what + "]";
  size_t begin = s.rfind('\n', at);
  begin = begin == std::string::npos ? 0 : begin + 1;
  return s.substr(begin, s.find('\n', at) - begin);
}

class CostReportTest : public ::testing::Test {
 protected:
  profile::Profile profile_ = oracleProfile();
  Built built_ = build(profile_, costOracle(1000, 1), {},
                       {.cuts = 3,
                        .unknownTags = 4,
                        .tableBytes = 4096,
                        .shadowBytes = 512,
                        .shadowFallbacks = 2,
                        .shadowFields = 6});
  const report::CostReport& r() const { return built_.report; }
};

TEST_F(CostReportTest, TextHeadingSettingsAndMeasures) {
  std::string t = text(r());
  EXPECT_EQ(t.rfind("dragnet cost profile (pid 4242)\n", 0), 0u) << t;
  EXPECT_NE(t.find("  graph        1 context slots (s); array shadows per element; 19 instances "
                   "of 19 program nodes that ran, 17 dependence edges\n"),
            std::string::npos)
      << t;
  EXPECT_NE(t.find("consumer rule on: a location whose value reaches a predicate or native has "
                   "RAB >= 1,048,576 (consumer-rab); structures of height 4 (height)"),
            std::string::npos);
  // I = 4,016; IPD = 2,014 / 4,016; IPP = 1,001 / 4,016; NLD = 16 / 19.
  EXPECT_NE(t.find("I = 4,016 instructions; IPD 50.15% (dead values), IPP 24.93% "
                   "(predicate-only), NLD 84.21% (dead instances); CR 0.000"),
            std::string::npos)
      << t;
  EXPECT_NE(t.find("3 flows cut at a method's entry; 4 accesses to objects without a name; "
                   "record tables 4,096 B, shadows of static fields and array elements 512 B (2 "
                   "arrays past their budget kept one), 6 instance fields' shadows (4 B in each "
                   "object); 0 records dropped\n"),
            std::string::npos);
}

// Rates at height 4: A 3,004/3, int[] 3/1, IntList 7/4.
TEST_F(CostReportTest, TextRanksSitesAndStructures) {
  std::string t = text(r());
  size_t sites = t.find("Allocation sites by cost-benefit rate");
  ASSERT_NE(sites, std::string::npos);
  std::string a = lineWith(t.substr(sites), kA), arr = lineWith(t.substr(sites), kArray),
              list = lineWith(t.substr(sites), kList);
  EXPECT_EQ(a, "        1,001.33        3,003.00            2.00           1        no  " + kA);
  EXPECT_EQ(arr,
            "            3.00            2.00            0.00           1        no  " + kArray);
  EXPECT_EQ(list,
            "            1.75            6.00            3.00           1        no  " + kList);
  EXPECT_LT(t.find(a), t.find(arr));
  EXPECT_LT(t.find(arr), t.find(list));
  size_t structures = t.find("Data structures by cost-benefit rate");
  ASSERT_NE(structures, std::string::npos);
  std::string s = t.substr(structures);
  EXPECT_NE(s.find("       1    1,001.33        3,003.00            2.00           1        no  " +
                   kA + "\n"),
            std::string::npos)
      << s;
  // The top structure's field and the code that writes and reads it, with lines.
  EXPECT_NE(s.find("\n               3,003.00          2.00  no        " + kAt + "\n"),
            std::string::npos)
      << s;
  EXPECT_NE(s.find("writes           1  CostOracle$A.foo(CostOracle.java:10)  putfield "
                   "CostOracle$A.t  (node 13)"),
            std::string::npos)
      << s;
  EXPECT_NE(s.find("reads            1  CostOracle$A.getT(CostOracle.java:4)  getfield "
                   "CostOracle$A.t  (node 14)"),
            std::string::npos);
  // IntList's structure: its two fields and the array's elements, written at lines 14 and 16.
  size_t third = s.find("       3        1.75");
  ASSERT_NE(third, std::string::npos) << s;
  std::string list3 = s.substr(third);
  EXPECT_NE(list3.find("<" + kList + ">.CostOracle$IntList.arr"), std::string::npos);
  EXPECT_NE(list3.find("<" + kList + ">.CostOracle$IntList.pos"), std::string::npos);
  EXPECT_NE(list3.find("<" + kArray + ">.ELM"), std::string::npos);
  EXPECT_NE(list3.find("CostOracle$IntList.<init>(CostOracle.java:14)  putfield "
                       "CostOracle$IntList.arr"),
            std::string::npos);
  EXPECT_NE(list3.find("CostOracle$IntList.add(CostOracle.java:16)  xastore ELM"),
            std::string::npos);
}

TEST_F(CostReportTest, TextLocationsByRacAndByRab) {
  std::string t = text(r());
  std::string byRac = t.substr(t.find("Heap locations by RAC"));
  byRac = byRac.substr(0, byRac.find("\n\n"));
  std::string byRab = t.substr(t.find("Heap locations by RAB"));
  // By RAC: A.t 3,003; then RAC 2 by RAB: pos (2), arr (1), ELM (0); System.out (0, 1).
  std::vector<std::string> order = {kAt, "IntList.pos", "IntList.arr", ">.ELM",
                                    "java.lang.System.out"};
  for (size_t i = 1; i < order.size(); ++i) {
    EXPECT_LT(byRac.find(order[i - 1]), byRac.find(order[i])) << order[i];
  }
  EXPECT_EQ(lineWith(byRac, kAt),
            "        3,003.00            2.00        no         1         1  " + kAt);
  // By RAB: A.t and pos (2; A.t costs more), arr and System.out (1), ELM (0).
  order = {kAt, "IntList.pos", "IntList.arr", "java.lang.System.out", ">.ELM"};
  for (size_t i = 1; i < order.size(); ++i) {
    EXPECT_LT(byRab.find(order[i - 1]), byRab.find(order[i])) << order[i];
  }
}

TEST_F(CostReportTest, Json) {
  Json j = json(r());
  EXPECT_EQ(j["format"], "dragnet-cost");
  EXPECT_EQ(j["pid"], "4242");
  EXPECT_EQ(j["settings"], Json::parse(R"({"slots": 1, "arrayShadow": "element",
      "consumerRab": 1048576, "consumerRule": true, "height": 4})"));
  EXPECT_EQ(j["totals"]["cuts"], 3);
  EXPECT_EQ(j["totals"]["shadowBytes"], 512);
  EXPECT_EQ(j["totals"]["shadowFields"], 6);
  EXPECT_EQ(j["totals"]["shadowFallbacks"], 2);
  EXPECT_EQ(j["graph"], Json::parse(R"({"instances": 19, "edges": 17, "nodesRan": 19})"));
  EXPECT_EQ(j["bloat"]["instructions"], 4016);
  EXPECT_DOUBLE_EQ(j["bloat"]["ipd"].get<double>(), 2014.0 / 4016);
  EXPECT_DOUBLE_EQ(j["bloat"]["nld"].get<double>(), 16.0 / 19);
  ASSERT_EQ(j["sites"].size(), 3u);
  EXPECT_EQ(j["sites"][0]["name"], kA);
  EXPECT_DOUBLE_EQ(j["sites"][0]["rate"].get<double>(), 3004.0 / 3);
  EXPECT_EQ(j["sites"][2]["site"], kListSite);
  EXPECT_DOUBLE_EQ(j["sites"][2]["nRac"].get<double>(), 6);
  const Json& top = j["structures"][0];
  EXPECT_EQ(top["object"]["name"], kA);
  EXPECT_EQ(top["fields"][0]["name"], kAt);
  EXPECT_DOUBLE_EQ(top["fields"][0]["rac"].get<double>(), 3003);
  EXPECT_DOUBLE_EQ(top["fields"][0]["rab"].get<double>(), 2);
  EXPECT_EQ(top["writers"][0]["code"], "CostOracle$A.foo(CostOracle.java:10)");
  EXPECT_EQ(top["writers"][0]["line"], 10);
  EXPECT_EQ(top["writers"][0]["what"], "putfield CostOracle$A.t");
  EXPECT_EQ(top["readers"][0]["line"], 4);
  const Json& list = j["structures"][2];
  EXPECT_EQ(list["objects"].size(), 2u);  // IntList and its int[]
  EXPECT_EQ(list["fields"].size(), 3u);
  EXPECT_EQ(list["writers"].size(), 3u);  // putfield arr, putfield pos, iastore
  EXPECT_EQ(list["readers"].size(), 2u);  // getfield arr, getfield pos
  ASSERT_EQ(j["locations"].size(), 5u);
  EXPECT_EQ(j["locations"][0]["name"], kAt);
  EXPECT_EQ(j["locations"][4]["name"], "java.lang.System.out");
  EXPECT_EQ(j["locations"][4]["static"], true);
  EXPECT_EQ(j["locations"][4]["readers"][0]["what"], "getstatic java.lang.System.out");
}

// With 16 slots an object is named with its slot: the array in IntList's (19 mod 16).
TEST(CostReportSlots, ObjectsNamedWithTheirSlot) {
  profile::Profile p = oracleProfile();
  Built b = build(p, costOracle(1000, 16));
  std::string t = text(b.report);
  EXPECT_NE(t.find(kArray + " @ slot 3"), std::string::npos) << t;
  EXPECT_NE(t.find("<" + kA + " @ slot 0>.CostOracle$A.t"), std::string::npos);
  EXPECT_EQ(json(b.report)["structures"][1]["object"]["slot"], 3);
}

// The consumer rule: B.flag's value reaches a loop test; its RAB is K (default 2^20) or, with
// the rule off (K = 0), the mean HRAB 6 (getfield 3 + predicate 3).
TEST(CostReportOptions, ConsumerRuleChangesAConsumedLocationsRab) {
  profile::Profile p = consumedProfile();
  Built on = build(p, consumedGraph());
  Json j = json(on.report);
  const Json& flag = j["locations"][0];
  EXPECT_EQ(flag["name"], "<app.B app.B.run(CostOracle.java:7)>.app.B.flag");
  EXPECT_EQ(flag["consumed"], true);
  EXPECT_DOUBLE_EQ(flag["rac"].get<double>(), 6);
  EXPECT_DOUBLE_EQ(flag["rab"].get<double>(), 1048576);
  EXPECT_DOUBLE_EQ(flag["rabMean"].get<double>(), 6);
  EXPECT_DOUBLE_EQ(j["structures"][0]["rate"].get<double>(), 7.0 / 1048577);

  report::OptionValues off = {{"consumer-rab", "0"}};
  analyses::cost::Options o;
  std::string error;
  ASSERT_TRUE(report::costOptionsOf(off, o, error)) << error;
  EXPECT_EQ(o.consumerRab, 0u);
  Built b = build(p, consumedGraph(), o);
  j = json(b.report);
  EXPECT_DOUBLE_EQ(j["locations"][0]["rab"].get<double>(), 6);
  EXPECT_EQ(j["locations"][0]["consumed"], true);
  EXPECT_DOUBLE_EQ(j["structures"][0]["rate"].get<double>(), 1.0);
  EXPECT_EQ(j["settings"]["consumerRule"], false);
  EXPECT_NE(text(b.report).find("consumer rule off (consumer-rab)"), std::string::npos);
  std::string t = text(b.report);
  EXPECT_EQ(lineWith(t.substr(t.find("Heap locations by RAC")), "app.B.flag"),
            "            6.00            6.00       yes         1         1  "
            "<app.B app.B.run(CostOracle.java:7)>.app.B.flag");
}

// height=1: IntList's structure is its own fields (1-RAC 4, 1-RAB 3: rate 5/4).
TEST(CostReportOptions, HeightChangesTheStructures) {
  profile::Profile p = oracleProfile();
  analyses::cost::Options o;
  std::string error;
  ASSERT_TRUE(report::costOptionsOf({{"height", "1"}}, o, error)) << error;
  EXPECT_EQ(o.height, 1u);
  Built b = build(p, costOracle(1000, 1), o);
  Json j = json(b.report);
  EXPECT_EQ(j["settings"]["height"], 1);
  EXPECT_DOUBLE_EQ(j["structures"][2]["rate"].get<double>(), 5.0 / 4);
  EXPECT_EQ(j["structures"][2]["fields"].size(), 2u);
  EXPECT_EQ(j["structures"][2]["objects"].size(), 1u);
}

TEST(CostReportOptions, BadValuesAndNamesAreRefused) {
  analyses::cost::Options o;
  std::string error;
  for (const char* h : {"0", "5", "x", "", "-1", "2x"}) {
    EXPECT_FALSE(report::costOptionsOf({{"height", h}}, o, error)) << h;
    EXPECT_NE(error.find("expected 1, 2, 3 or 4"), std::string::npos) << error;
  }
  for (const char* k : {"-1", "abc", "1e6", "", "99999999999999999999"}) {
    EXPECT_FALSE(report::costOptionsOf({{"consumer-rab", k}}, o, error)) << k;
  }
  EXPECT_EQ(o.consumerRab, uint64_t{1} << 20);  // untouched by the refused values
  // Through the analysis, as the CLI checks --opt items.
  report::Analysis a = analyses::cost::reports();
  report::OptionValues out;
  EXPECT_TRUE(report::parseReportOptions(a, {"consumer-rab=0", "height=2"}, out, error));
  EXPECT_EQ(out, (report::OptionValues{{"consumer-rab", "0"}, {"height", "2"}}));
  EXPECT_FALSE(report::parseReportOptions(a, {"depth=2"}, out, error));
  EXPECT_EQ(error,
            "--opt depth=2: mode cost has no report option 'depth' (its options: "
            "consumer-rab, height)");
  EXPECT_FALSE(report::parseReportOptions(a, {"height"}, out, error));
  EXPECT_EQ(error, "--opt height: expected NAME=VALUE");
  EXPECT_FALSE(report::parseReportOptions(a, {"height=9"}, out, error));
  EXPECT_EQ(error, "--opt height=9: expected 1, 2, 3 or 4");
  // An analysis without options takes none.
  const report::Analysis* copy = report::analysisNamed("copy");
  ASSERT_NE(copy, nullptr);
  EXPECT_FALSE(report::parseReportOptions(*copy, {"height=2"}, out, error));
  EXPECT_NE(error.find("(its options: none)"), std::string::npos) << error;
}

TEST(CostReportOptions, RegisteredWithItsOptions) {
  const report::Analysis* a = nullptr;
  for (const report::Analysis& x : report::registeredAnalyses()) {
    if (x.name == "cost") a = &x;
  }
  ASSERT_NE(a, nullptr);
  profile::Profile p = oracleProfile();
  EXPECT_EQ(report::analysisOf(p), a);
  EXPECT_EQ(a->options.size(), 2u);
  EXPECT_NE(a->shell, nullptr);
  EXPECT_NE(a->exportSqlite, nullptr);
  EXPECT_TRUE(report::writes(*a, "html"));
}

}  // namespace
}  // namespace dragnet
