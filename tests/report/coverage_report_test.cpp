// What a profile does not see and what its counts mean (report/coverage.h), in the text,
// JSON and HTML data of an alloc profile: hidden classes grouped by name in text (5,000
// LambdaForms must not flood it), every one in JSON; exact or sampled counting stated.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <sstream>

#include "analyses/alloc/report/alloc_report.h"
#include "analyses/alloc/report/html_report.h"
#include "contexts/model.h"
#include "profile/reader.h"
#include "report/coverage.h"
#include "report/text_format.h"

namespace {

using dragnet::profile::Failure;
using dragnet::profile::kHidden;

// A profile with one class not rewritten and `lambdaForms` + 3 hidden classes, as JDK 17
// and JDK 25 name them.
dragnet::profile::Profile withHidden(int lambdaForms) {
  dragnet::profile::Profile p;
  p.meta["pid"] = "7";
  p.totals["classes.instrumented"] = "40";
  p.failures.push_back({"app/Bad", "", "Truncated class file"});
  for (int i = 0; i < lambdaForms; ++i) {
    char name[80];
    std::snprintf(name, sizeof name, "java/lang/invoke/LambdaForm$MH.0x%016llx",
                  0x800c01000ull + static_cast<unsigned>(i) * 0x400);
    p.failures.push_back({name, "", std::string(kHidden)});
  }
  p.failures.push_back({"app/Main$$Lambda$14.0x0000000800c03000", "", std::string(kHidden)});
  p.failures.push_back({"app/Main$$Lambda$15.0x0000000800c03400", "", std::string(kHidden)});
  p.failures.push_back({"app/Gen+0x0000000800c04000", "", std::string(kHidden)});
  return p;
}

TEST(HiddenClasses, TextGroupsThemByName) {
  dragnet::profile::Profile p = withHidden(5000);
  std::ostringstream out;
  dragnet::report::writeNotRewritten(out, p, 2);
  EXPECT_EQ(out.str(),
            "\nNot rewritten (1; these run unchanged and are not profiled)\n"
            "  app.Bad: Truncated class file\n"
            "\nHidden classes not instrumented (5,003: " +
                std::string(dragnet::report::kHiddenClassesNote) +
                ")\n"
                "     5,000  java.lang.invoke.LambdaForm$MH\n"
                "         2  app.Main$$Lambda\n"
                "  (1 more name)\n");
}

TEST(HiddenClasses, TotalsLineAndJsonListEveryOne) {
  dragnet::profile::Profile p = withHidden(3);
  auto model = dragnet::contexts::buildModel(p);
  std::ostringstream text;
  dragnet::report::writeText(text, model, {20});
  EXPECT_NE(text.str().find("  classes    40 instrumented, 1 classes or methods not rewritten, "
                            "6 hidden classes not instrumented (below)\n"),
            std::string::npos)
      << text.str();
  std::ostringstream json;
  dragnet::report::writeJson(json, model);
  auto j = nlohmann::json::parse(json.str());
  ASSERT_EQ(j["notRewritten"].size(), 1u);
  const auto& h = j["hiddenClasses"];
  EXPECT_EQ(h["count"], 6);
  EXPECT_EQ(h["groups"][0], nlohmann::json::array({"java.lang.invoke.LambdaForm$MH", 3}));
  EXPECT_EQ(h["groups"][1], nlohmann::json::array({"app.Main$$Lambda", 2}));
  EXPECT_EQ(h["groups"][2], nlohmann::json::array({"app.Gen", 1}));
  ASSERT_EQ(h["classes"].size(), 6u);
  EXPECT_EQ(h["classes"][0], "java.lang.invoke.LambdaForm$MH/0x0000000800c01000");
  EXPECT_EQ(h["classes"][1], "java.lang.invoke.LambdaForm$MH/0x0000000800c01400");
  EXPECT_EQ(h["classes"][3], "app.Main$$Lambda$14/0x0000000800c03000");
  EXPECT_EQ(h["classes"][5], "app.Gen/0x0000000800c04000");
  auto data = nlohmann::json::parse(dragnet::report::htmlData(model, {}));
  EXPECT_EQ(data["hiddenClasses"], h);
  EXPECT_EQ(data["notRewritten"].size(), 1u);
}

// Every format says whether it shows the program's allocations exactly as its bytecode
// performs them or the sampled heap traffic.
TEST(Counting, EveryFormatSaysWhatItCounts) {
  for (bool sampled : {false, true}) {
    dragnet::profile::Profile p;
    if (sampled) p.meta["sample"] = "524288";
    auto model = dragnet::contexts::buildModel(p);
    std::string kind = sampled ? "sampled" : "exact";
    std::string means = sampled ? "sampled heap traffic: what the JVM really allocates"
                                : "exact: every allocation the program's bytecode performs, "
                                  "including those the JIT later eliminates";
    std::ostringstream text, json;
    dragnet::report::writeText(text, model, {20});
    EXPECT_NE(text.str().find("  counted    " + means), std::string::npos) << text.str();
    dragnet::report::writeJson(json, model);
    auto j = nlohmann::json::parse(json.str());
    EXPECT_EQ(j["counting"], kind);
    EXPECT_TRUE(j["countingMeans"].get<std::string>().starts_with(means));
    auto data = nlohmann::json::parse(dragnet::report::htmlData(model, {}));
    EXPECT_EQ(data["counting"], kind);
    EXPECT_EQ(data["countingMeans"], j["countingMeans"]);
  }
}

// The JSON report and the HTML page's data take the alloc totals from one function: the
// same header in both, and both say whether the profile is sampled, with its interval.
TEST(Counting, JsonAndHtmlShareTheTotalsAndSaySampled) {
  for (const char* sample : {"", "524288", "512k"}) {
    SCOPED_TRACE(sample);
    dragnet::profile::Profile p = withHidden(1);
    p.totals["runtime.native.peak"] = "4096";
    p.totals["runtime.heap.bytes"] = "8192";
    if (*sample) {
      p.meta["sample"] = sample;
      p.totals["samples"] = "77";
    }
    auto model = dragnet::contexts::buildModel(p);
    std::ostringstream json;
    dragnet::report::writeJson(json, model);
    auto j = nlohmann::json::parse(json.str());
    auto data = nlohmann::json::parse(dragnet::report::htmlData(model, {}));
    EXPECT_EQ(j["sampled"], *sample != '\0');
    if (*sample) {
      EXPECT_EQ(j["sampleInterval"], 524288);
      EXPECT_EQ(j["samples"], 77);
    } else {
      EXPECT_TRUE(j["sampleInterval"].is_null());
      EXPECT_TRUE(j["samples"].is_null());
    }
    EXPECT_EQ(j["totals"]["unsizedObjects"], 0);
    EXPECT_EQ(j["agent"]["nativePeak"], 4096);
    EXPECT_EQ(j["agent"]["heap"], 8192);
    EXPECT_EQ(j["classesInstrumented"], 40);
    for (const char* key :
         {"complete", "truncation", "corrupt", "counting", "countingMeans", "sampled",
          "sampleInterval", "samples", "totals", "agent", "jit", "classesInstrumented"}) {
      EXPECT_TRUE(j.contains(key)) << key;
      EXPECT_EQ(data[key], j[key]) << key;
    }
  }
}

}  // namespace

// Only the suffix HotSpot gives hidden classes marks one: '.' or '+', "0x", hex digits.
TEST(HiddenClasses, SuffixMarksOnlyHiddenNames) {
  using dragnet::profile::hiddenSuffixAt;
  EXPECT_EQ(hiddenSuffixAt("p/C$$Lambda$14.0x0000000800c03000"), 14u);
  EXPECT_EQ(hiddenSuffixAt("p/C$$Lambda+0x0000000800c03000"), 11u);
  for (const char* ordinary : {"p/C", "p/Hex0x12", "p/C$0x12", "p/C.0x", "p/C.0xZZ", ".0x12",
                               "p/C.0x12/D", "java/lang/invoke/LambdaForm$MH"}) {
    EXPECT_EQ(hiddenSuffixAt(ordinary), std::string_view::npos) << ordinary;
  }
}
