// The text and JSON reports of the known profile (known_profile.h): the totals, the tables
// and the JSON schema's fields, with exact numbers. Checks lines and fields, not the whole
// output, so that additions to the reports do not break it.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <sstream>

#include "analyses/alloc/report/alloc_report.h"
#include "contexts/model.h"
#include "known_profile.h"
#include "profile/reader.h"
#include "report/text_format.h"

namespace {

using dragnet::test::Variant;

class TextJsonReport : public ::testing::Test {
 protected:
  void SetUp() override {
    auto path = dragnet::test::writeKnownProfile(dragnet::test::testDir(), Variant::Exact);
    std::string error;
    ASSERT_TRUE(dragnet::profile::readProfile(path.string(), profile_, error)) << error;
    model_ = dragnet::contexts::buildModel(profile_);
  }

  dragnet::profile::Profile profile_;
  dragnet::contexts::AllocModel model_;
};

TEST_F(TextJsonReport, TextHasTotalsTablesAndTree) {
  std::ostringstream out;
  dragnet::report::writeText(out, model_, {20});
  std::string text = out.str();
  for (const char* line : {
           "dragnet allocation profile (pid 4711)\n",
           "  objects    21,051\n",
           "  arrays     150 (15,000 elements)\n",
           "  bytes      557,616\n",
           "  calls      19 in 11 contexts, 2 threads\n",
           "  bytecodes  1,800\n",
           "  agent      351,744 bytes of native memory at peak (max-memory 1,073,741,824), "
           "29,312 at exit; 8,192 bytes of Java heap; 12 context index lookups\n",
           "  classes    3 instrumented, 2 classes or methods not rewritten, 1 hidden classes "
           "not instrumented (below)\n",
           "  counted    exact: every allocation the program's bytecode performs, including "
           "those the JIT later eliminates by escape analysis or scalar replacement\n",
           // Top sites: the Point site summed over both threads' contexts, with its first
           // application frame.
           "  504,000           90.4% 21,000           -               "
           "app.Main.build(Main.java:10) app.Point  | app.Main.build(Main.java:10)\n",
           "  41,600             7.5% 100              10,000          "
           "app.Main.build(Main.java:11) int[]  | app.Main.build(Main.java:11)\n",
           // Top first application frames: both threads' build, Main.java without a line.
           "  545,600           97.8% 21,100           10,000          "
           "app.Main.build(Main.java)\n",
           // Top types.
           "  10,800             1.9% 50               5,000           char[]\n",
           // JP's element kinds.
           "  I  100 arrays, 10,000 elements\n",
           "  C  50 arrays, 5,000 elements\n",
           // The call tree (contexts with at least 1% of the bytes).
           "   95.7% app.Main.main(Main.java)  1 calls\n",
           "   93.5%   app.Main.build(Main.java)  10 calls\n",
           "   86.1%     [app.Point] 20,000 x, 480,000 bytes (line 10)\n",
           "    4.3% app.Main.build(Main.java)  2 calls\n",
           // Not rewritten, reasons as they are (text is not markup).
           "  app.Bad: Truncated class file\n",
           "         1  app.Main$$Lambda\n",
       }) {
    EXPECT_NE(text.find(line), std::string::npos) << "missing: " << line << "\nin:\n" << text;
  }
  EXPECT_NE(text.find(std::string("  app.Big.huge()V: ") + dragnet::test::kMarkupReason),
            std::string::npos);
  EXPECT_EQ(text.find("INCOMPLETE"), std::string::npos);
}

TEST_F(TextJsonReport, JsonFollowsTheSchema) {
  std::ostringstream out;
  dragnet::report::writeJson(out, model_);
  auto j = nlohmann::json::parse(out.str());
  EXPECT_EQ(j["format"], "dragnet-alloc");
  EXPECT_EQ(j["version"], 1);
  EXPECT_EQ(j["complete"], true);
  const auto& t = j["totals"];
  EXPECT_EQ(t["objects"], 21051);
  EXPECT_EQ(t["arrays"], 150);
  EXPECT_EQ(t["elements"], 15000);
  EXPECT_EQ(t["bytes"], 557616);
  EXPECT_EQ(t["calls"], 19);
  EXPECT_EQ(t["bytecodes"], 1800);
  EXPECT_EQ(t["contexts"], 11);
  EXPECT_EQ(t["threads"], 2);
  EXPECT_EQ(t["dropped"], 0);
  EXPECT_EQ(j["agent"]["nativePeak"], 351744);
  EXPECT_EQ(j["agent"]["nativeAtExit"], 29312);
  EXPECT_EQ(j["agent"]["nativeLimit"], 1073741824);
  EXPECT_EQ(j["agent"]["heap"], 8192);
  // One row per (context, site), largest bytes first; frames top first.
  ASSERT_EQ(j["sites"].size(), 6u);
  const auto& first = j["sites"][0];
  EXPECT_EQ(first["frames"],
            nlohmann::json::array({"app.Main.build(Main.java:10)", "app.Main.main(Main.java)"}));
  EXPECT_EQ(first["type"], "app.Point");
  EXPECT_EQ(first["kind"], "");
  EXPECT_EQ(first["count"], 20000);
  EXPECT_EQ(first["elements"], 0);
  EXPECT_EQ(first["bytes"], 480000);
  const auto& ints = j["sites"][1];
  EXPECT_EQ(ints["type"], "int[]");
  EXPECT_EQ(ints["kind"], "I");
  EXPECT_EQ(ints["count"], 100);
  EXPECT_EQ(ints["elements"], 10000);
  EXPECT_EQ(ints["bytes"], 41600);
  const auto& tiny = j["sites"][5];
  EXPECT_EQ(tiny["frames"],
            nlohmann::json::array({"app.Main.rare(Main.java:30)", "app.Main.build(Main.java)"}));
  EXPECT_EQ(tiny["bytes"], 16);
  ASSERT_EQ(j["notRewritten"].size(), 2u);
  EXPECT_EQ(j["notRewritten"][1]["class"], "app.Big");
  EXPECT_EQ(j["notRewritten"][1]["method"], "huge()V");
  EXPECT_EQ(j["notRewritten"][1]["reason"], dragnet::test::kMarkupReason);
  EXPECT_EQ(j["counting"], "exact");
  EXPECT_EQ(j["hiddenClasses"]["count"], 1);
  EXPECT_EQ(j["hiddenClasses"]["classes"],
            nlohmann::json::array({"app.Main$$Lambda/0x0000000800c03000"}));
}

TEST_F(TextJsonReport, CollapsedHasOneLinePerRow) {
  std::ostringstream out;
  dragnet::report::writeCollapsed(out, model_);
  std::string text = out.str();
  EXPECT_NE(text.find("app.Main.main(Main.java);app.Main.build(Main.java:10);app.Point 480000\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("app.Main.build(Main.java);app.Main.rare(Main.java:30);app.Tiny 16\n"),
            std::string::npos)
      << text;
  EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), 6);
}

}  // namespace

// Methods rewritten without some probes (too large with them) are listed apart from those
// left unchanged, their reason without the profile's marker.
TEST(NotRewritten, PartlyRewrittenMethodsAreListedApart) {
  dragnet::profile::Profile p;
  p.failures = {
      {"app/Gen", "big()V", std::string(dragnet::profile::kPartly) + "its 9 use probes left out"},
      {"app/Bad", "", "Truncated class file"}};
  std::ostringstream out;
  dragnet::report::writeNotRewritten(out, p, 10);
  EXPECT_EQ(out.str(),
            "\nNot rewritten (1; these run unchanged and are not profiled)\n"
            "  app.Bad: Truncated class file\n"
            "\nPartly rewritten (1; profiled without some probes)\n"
            "  app.Gen.big()V: its 9 use probes left out\n");
}
