// The text and JSON reports of the lifetime profile in lifetime_profile.h, written to a file
// with the profile Writer and read back: exact lines and fields.
#include <gtest/gtest.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <sstream>

#include "analyses/lifetime/report/report.h"
#include "lifetime_profile.h"

namespace {

using dragnet::analyses::lifetime::buildModel;
using dragnet::analyses::lifetime::Model;

class LifetimeReport : public ::testing::Test {
 protected:
  void SetUp() override {
    expected_ = dragnet::test::lifetimeProfile();
    auto path = dragnet::test::testDir() / "lifetime.dragnet";
    dragnet::test::writeProfile(expected_, path);
    std::string error;
    ASSERT_TRUE(dragnet::profile::readProfile(path.string(), profile_, error)) << error;
    model_ = buildModel(profile_);
  }

  std::string text(size_t top = 20, size_t frames = 4) {
    std::ostringstream out;
    dragnet::report::writeLifetimeText(out, model_, {.top = top, .frames = frames});
    return out.str();
  }

  nlohmann::json json(size_t buckets = 4) {
    std::ostringstream out;
    dragnet::report::writeLifetimeJson(out, model_, {.heapBuckets = buckets});
    return nlohmann::json::parse(out.str());
  }

  dragnet::profile::Profile expected_, profile_;
  Model model_;
};

TEST_F(LifetimeReport, FileReadsBackAsWritten) {
  EXPECT_EQ(profile_.objects, expected_.objects);
  EXPECT_EQ(profile_.gcs, expected_.gcs);
  EXPECT_EQ(profile_.meta, expected_.meta);
  EXPECT_TRUE(profile_.complete);
}

nlohmann::json frames(std::initializer_list<const char*> names) {
  return nlohmann::json(std::vector<std::string>(names.begin(), names.end()));
}

// Every line in `lines` appears in `text`, whole.
void expectLines(const std::string& text, std::initializer_list<const char*> lines) {
  for (const char* line : lines) {
    EXPECT_NE(text.find(std::string("\n") + line + "\n"), std::string::npos) << "missing line:\n"
                                                                             << line << "\nin:\n"
                                                                             << text;
  }
}

// The text between the line `title` and the next empty line.
std::string section(const std::string& text, const std::string& title) {
  size_t at = text.find("\n" + title + "\n");
  if (at == std::string::npos) return "";
  at += title.size() + 2;
  std::string body = text.substr(at, text.find("\n\n", at) - at);
  if (body.ends_with('\n')) body.pop_back();  // the last section
  return body;
}

TEST_F(LifetimeReport, TextHeaderAndTotals) {
  std::string t = text();
  EXPECT_EQ(t.rfind("dragnet lifetime profile (pid 4711)\n", 0), 0u);
  EXPECT_EQ(t.find("INCOMPLETE"), std::string::npos);
  expectLines(t,
              {
                  "  time         2,000 bytes allocated (time is bytes allocated)",
                  "  gc interval  1,024 bytes; 5 GCs, 2 forced",
                  "  use epoch    100 bytes (a last use counts until the end of its epoch)",
                  "  stack        2 frames per nested allocation site",
                  "  precision    deaths known to within 500 bytes (largest gap), 367 on "
                  "average, over 6 freed objects; 1 objects alive at the end (they die at "
                  "the end time)",
                  // At most 3 objects alive at once: 1, 2 and 3 at 300; 4, 7 and 5 at 1200.
                  "  java heap    the agent keeps a phantom reference per tracked object, 32 "
                  "bytes: 3 objects tracked at the peak, 96 bytes",
                  "  objects      7 (224 bytes): 0 lagged (unused through a forced GC), 3 "
                  "dragged, 2 void",
                  "  total space  104,800; 52 bytes reachable on average",
                  "  lag                               8,560   8.17% of the total space is lag; 4 "
                  "bytes held on average",
                  "  in use                           32,240  30.76% of the total space is in "
                  "use; 16 bytes held on average",
                  "  drag                             46,400  44.27% of the total space is drag; "
                  "23 bytes held on average",
                  "  void                             17,600  16.79% of the total space is void; "
                  "9 bytes held on average",
              });
}

TEST_F(LifetimeReport, TextTablesByDragVoidAndLag) {
  std::string t = text();
  EXPECT_EQ(section(t, "Classes by drag space"),
            "  id                     drag space    avg held   % all    dragged    objects  class\n"
            "  1                          24,000    12 bytes  51.72%          2          4  "
            "app.Point\n"
            "  2                          22,400    11 bytes  48.28%          1          1  int[]");
  EXPECT_EQ(
      section(t, "Allocation sites by void space"),
      "  id                     void space    avg held   % all       void    objects  method\n"
      "  1                           9,600     5 bytes  54.55%          1          5  "
      "app.Main.build(Main.java)\n"
      "  2                           8,000     4 bytes  45.45%          1          2  "
      "app.Main.helper(Main.java)");
  // The last column: the first application frame (the allocating method, at its line).
  EXPECT_EQ(section(t, "Nested allocation sites by lag space"),
            "  id                      lag space    avg held   % all     lagged    objects  "
            "type at stack  | first application frame\n"
            "  1                           4,800     2 bytes  56.07%          0          4  "
            "app.Point at app.Main.build(Main.java:10) < app.Main.main(Main.java)  | "
            "app.Main.build(Main.java:10)\n"
            "  3                           3,200     2 bytes  37.38%          0          1  "
            "app.Node at app.Main.helper(Main.java:20) < app.Main.build(Main.java)  | "
            "app.Main.helper(Main.java:20)\n"
            "  2                             560     0 bytes   6.54%          0          1  "
            "int[] at app.Main.build(Main.java:11) < app.Util.run(Util.java)  | "
            "app.Main.build(Main.java:11)");
  // Grouped by first application frame (without a line): build's Point and int[]; helper's
  // Node and String.
  EXPECT_EQ(section(t, "First application frames (not JDK, not --app-exclude) by lag space"),
            "  id                      lag space    avg held   % all     lagged    objects  "
            "first application frame\n"
            "  1                           5,360     3 bytes  62.62%          0          5  "
            "app.Main.build(Main.java)\n"
            "  2                           3,200     2 bytes  37.38%          0          2  "
            "app.Main.helper(Main.java)");  // the Node, and the JNI String (void)
  // Sorted by their own phase: the JNI String (void only) is in the void tables only.
  EXPECT_NE(section(t, "Nested allocation sites by void space")
                .find("  4                           8,000     4 bytes  45.45%          1          "
                      "1  java.lang.String at app.Main.helper(Main.java) < "
                      "app.Main.build(Main.java)"),
            std::string::npos);
  EXPECT_EQ(section(t, "Classes by drag space").find("java.lang.String"), std::string::npos);
}

TEST_F(LifetimeReport, TextTopLimitsRows) {
  std::string t = text(1);
  EXPECT_EQ(section(t, "Classes by lag space"),
            "  id                      lag space    avg held   % all     lagged    objects  class\n"
            "  1                           4,800     2 bytes  56.07%          0          4  "
            "app.Point");
}

TEST_F(LifetimeReport, TextFrameLimit) {
  std::string t = text(1, 1);
  EXPECT_EQ(section(t, "Nested allocation sites by lag space"),
            "  id                      lag space    avg held   % all     lagged    objects  "
            "type at stack  | first application frame\n"
            "  1                           4,800     2 bytes  56.07%          0          4  "
            "app.Point at app.Main.build(Main.java:10) < ...  | app.Main.build(Main.java:10)");
  expectLines(t, {"      first get  app.Main.use(Main.java) < ...",
                  "      last get   app.Main.other(Main.java) < ..."});
  t = text(1, 0);  // all frames
  expectLines(t, {"      last get   app.Main.other(Main.java) < app.Main.use(Main.java)"});
}

TEST_F(LifetimeReport, TextPatternsOfTheTopNestedSites) {
  std::string t = text();
  EXPECT_EQ(section(t, "Lifetime patterns (first get, last get) of the top nested sites by drag"),
            "  nested 1: app.Point at app.Main.build(Main.java:10) < app.Main.main(Main.java)\n"
            "    pattern 1: 24,000 drag space (100.00% of the site's), 2 objects, 2 dragged, "
            "e.g. object 2\n"
            "      first get  app.Main.use(Main.java) < app.Main.main(Main.java)\n"
            "      last get   app.Main.other(Main.java) < app.Main.use(Main.java)\n"
            "  nested 2: int[] at app.Main.build(Main.java:11) < app.Util.run(Util.java)\n"
            "    pattern 1: 22,400 drag space (100.00% of the site's), 1 objects, 1 dragged, "
            "e.g. object 4\n"
            "      first get  app.Util.run(Util.java)\n"
            "      last get   app.Util.run(Util.java)");
  expectLines(t, {"    pattern 3: 3,600 lag space (75.00% of the site's), 1 objects, 0 lagged, "
                  "e.g. object 3",
                  "    pattern 1: 1,200 lag space (25.00% of the site's), 2 objects, 0 lagged, "
                  "e.g. object 2"});
  EXPECT_EQ(t.find("top nested sites by void"), std::string::npos);  // void objects: no gets
}

TEST_F(LifetimeReport, TextHeapOverTime) {
  std::string t = text();
  std::string heap = section(t, "Reachable heap over time (average bytes in each interval)");
  // The column titles and 20 rows of 100 bytes of time.
  EXPECT_EQ(std::count(heap.begin(), heap.end(), '\n') + 1, 21);
  expectLines(t, {"               400              500             12             12             "
                  "24             24",
                  "             1,200            1,300              0             32             "
                  "80              0"});
}

// gc-budget (meta gc.budget, End total gc.deferred): the collections it passed over.
TEST_F(LifetimeReport, GcBudget) {
  profile_.meta["gc.budget"] = "25";
  profile_.totals["gc.deferred"] = "7";
  model_ = buildModel(profile_);
  expectLines(text(), {"  gc interval  1,024 bytes; 5 GCs, 2 forced; budget 25% of the run: 7 "
                       "thresholds passed over"});
  nlohmann::json j = json();
  EXPECT_EQ(j["settings"]["gcBudget"], 25);
  EXPECT_EQ(j["settings"]["gcDeferred"], 7);
}

TEST_F(LifetimeReport, TextDefaultsAndIncomplete) {
  profile_.meta.erase("gc.interval");
  profile_.meta.erase("use.epoch");
  profile_.meta.erase("stack");
  profile_.meta["stack"] = "0";
  profile_.meta["stacks"] = "off";
  profile_.complete = false;
  profile_.truncation = "chunk 9: truncated";
  model_ = buildModel(profile_);
  std::string t = text();
  expectLines(t, {"  INCOMPLETE: the JVM did not finish writing it (killed?); chunk 9: truncated",
                  "  gc interval  not recorded; 5 GCs, 2 forced",
                  "  use epoch    65,536 bytes (a last use counts until the end of its epoch)",
                  "  stack        unlimited per nested allocation site; places of uses not "
                  "recorded (use-contexts=off): one pattern per site"});
}

TEST_F(LifetimeReport, Json) {
  nlohmann::json j = json();
  EXPECT_EQ(j["format"], "dragnet-lifetime");
  EXPECT_EQ(j["version"], 1);
  EXPECT_EQ(j["complete"], true);
  EXPECT_EQ(j["settings"],
            nlohmann::json::parse(R"({"useEpoch":100,"gcInterval":1024,"stack":2,"sample":0,
                                      "gcBudget":100,"gcDeferred":0})"));
  EXPECT_EQ(j["endTime"], 2000);
  EXPECT_EQ(j["precision"]["maxGap"], 500);
  EXPECT_DOUBLE_EQ(j["precision"]["meanGap"].get<double>(), 2200.0 / 6);
  EXPECT_EQ(j["javaHeap"]["bytesPerObject"], 32);
  EXPECT_EQ(j["javaHeap"]["peakObjects"], 3);
  EXPECT_EQ(j["javaHeap"]["peakBytes"], 96);
  EXPECT_EQ(j["precision"]["freed"], 6);
  EXPECT_EQ(j["precision"]["aliveAtEnd"], 1);
  EXPECT_EQ(j["precision"]["gcs"], 5);
  EXPECT_EQ(j["precision"]["forcedGcs"], 2);
  const auto& totals = j["totals"];
  EXPECT_EQ(totals["objects"], 7);
  EXPECT_EQ(totals["lagged"], 0);
  EXPECT_EQ(totals["dragged"], 3);
  EXPECT_EQ(totals["void"], 2);
  EXPECT_EQ(totals["bytes"], 224);
  EXPECT_EQ(totals["space"],
            nlohmann::json::parse(R"({"total":104800.0,"lag":8560.0,"use":32240.0,)"
                                  R"("drag":46400.0,"void":17600.0})"));
  EXPECT_DOUBLE_EQ(totals["percent"]["drag"].get<double>(), 100.0 * 46400 / 104800);
}

TEST_F(LifetimeReport, JsonGroups) {
  nlohmann::json j = json();
  ASSERT_EQ(j["classes"].size(), 4u);
  const auto& point = j["classes"][0];
  EXPECT_EQ(point["id"], 1);
  EXPECT_EQ(point["name"], "app.Point");
  EXPECT_EQ(point["objects"], 4);
  EXPECT_EQ(point["lagged"], 0);
  EXPECT_EQ(point["dragged"], 2);
  EXPECT_EQ(point["void"], 1);
  EXPECT_EQ(point["bytes"], 96);
  EXPECT_EQ(point["space"]["drag"], 24000.0);
  EXPECT_EQ(point["space"]["total"], 43200.0);
  EXPECT_EQ(point["nested"], nlohmann::json::parse("[1]"));
  ASSERT_EQ(j["methods"].size(), 2u);
  const auto& helper = j["methods"][1];
  EXPECT_EQ(helper["id"], 2);
  EXPECT_EQ(helper["name"], "app.Main.helper(Main.java)");
  EXPECT_EQ(helper["descriptor"], "()V");
  EXPECT_EQ(helper["space"]["lag"], 3200.0);
  EXPECT_EQ(helper["nested"], nlohmann::json::parse("[3, 4]"));
  ASSERT_EQ(j["nested"].size(), 4u);
  const auto& jni = j["nested"][3];
  EXPECT_EQ(jni["id"], 4);
  EXPECT_EQ(jni["type"], "java.lang.String");
  EXPECT_EQ(jni["class"], 4);
  EXPECT_EQ(jni["method"], 2);
  EXPECT_EQ(jni["frames"], frames({"app.Main.helper(Main.java)", "app.Main.build(Main.java)"}));
  EXPECT_EQ(jni["void"], 1);
  EXPECT_EQ(jni["space"]["void"], 8000.0);
  ASSERT_EQ(jni["patterns"].size(), 1u);
  EXPECT_EQ(jni["patterns"][0]["firstGet"], nlohmann::json::array());
  EXPECT_EQ(jni["patterns"][0]["representative"], 6);
}

TEST_F(LifetimeReport, JsonPatterns) {
  nlohmann::json j = json();
  const auto& patterns = j["nested"][0]["patterns"];
  ASSERT_EQ(patterns.size(), 3u);
  EXPECT_EQ(patterns[0]["id"], 1);
  EXPECT_EQ(patterns[0]["firstGet"],
            frames({"app.Main.use(Main.java)", "app.Main.main(Main.java)"}));
  EXPECT_EQ(patterns[0]["lastGet"],
            frames({"app.Main.other(Main.java)", "app.Main.use(Main.java)"}));
  EXPECT_EQ(patterns[0]["representative"], 2);
  EXPECT_EQ(patterns[0]["objects"], 2);
  EXPECT_EQ(patterns[0]["space"]["drag"], 24000.0);
  EXPECT_EQ(patterns[2]["representative"], 3);
  EXPECT_EQ(patterns[2]["space"]["lag"], 3600.0);
}

TEST_F(LifetimeReport, JsonHeapAndGcs) {
  nlohmann::json j = json(4);
  ASSERT_EQ(j["heap"].size(), 4u);
  EXPECT_EQ(j["heap"][1],
            nlohmann::json::parse(
                R"({"start":500,"end":1000,"lag":0.0,"use":0.0,"drag":24.0,"void":0.0})"));
  EXPECT_EQ(j["heap"][3], nlohmann::json::parse(R"({"start":1500,"end":2000,"lag":0.0,"use":32.0,)"
                                                R"("drag":0.0,"void":16.0})"));
  EXPECT_EQ(json(400)["heap"].size(), 400u);
  ASSERT_EQ(j["gcs"].size(), 5u);
  EXPECT_EQ(j["gcs"][0], nlohmann::json::parse(R"({"gc":1,"time":400,"forced":false,)"
                                               R"("lag":24,"use":0,"drag":24,"void":24})"));
  EXPECT_EQ(j["gcs"][3]["use"], 32);
  EXPECT_EQ(j["gcs"][3]["forced"], true);
}

}  // namespace

namespace {

// A sampled profile: the header says so and what its numbers are; JSON gives the interval.
TEST(LifetimeReportSampled, HeaderSaysTheNumbersAreEstimates) {
  dragnet::profile::Profile p = dragnet::test::lifetimeProfile({{"sample", "64"}});
  Model m = buildModel(p);
  std::ostringstream out;
  dragnet::report::writeLifetimeText(out, m, {});
  EXPECT_NE(out.str().find("  sampled      one object per ~64 bytes allocated, 7 tracked: counts "
                           "and spaces are estimates"),
            std::string::npos)
      << out.str();
  EXPECT_NE(out.str().find("(time is bytes allocated, estimated from the samples)"),
            std::string::npos);
  EXPECT_NE(out.str().find("359 on average, over 17 freed objects; 3 objects alive at the end"),
            std::string::npos)
      << out.str();
  std::ostringstream js;
  dragnet::report::writeLifetimeJson(js, m, {});
  auto j = nlohmann::json::parse(js.str());
  EXPECT_EQ(j["settings"]["sample"], 64);
  EXPECT_EQ(j["totals"]["objects"], m.totals.objects);
  // How many samples each estimate rests on: all 7 records in the totals, and a column of
  // the tables (7 records standing for 20 objects: weights 3, 3, 4, 2, 3, 2, 3).
  EXPECT_EQ(j["totals"]["records"], 7);
  EXPECT_EQ(m.totals.objects, 20u);
  EXPECT_NE(out.str().find("objects  samples  class\n"), std::string::npos) << out.str();
  EXPECT_EQ(j["precision"]["freed"], 17);
  EXPECT_EQ(j["precision"]["aliveAtEnd"], 3);
  // An exact profile: no such line.
  dragnet::profile::Profile e = dragnet::test::lifetimeProfile();
  Model em = buildModel(e);
  std::ostringstream eo;
  dragnet::report::writeLifetimeText(eo, em, {});
  EXPECT_EQ(eo.str().find("sampled"), std::string::npos);
}

}  // namespace
