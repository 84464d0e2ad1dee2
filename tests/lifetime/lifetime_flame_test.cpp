// What makes the lifetime reports readable, on the hand-computed profile
// (lifetime_profile.h; run length 2,000 bytes allocated; forced GCs at 500 and 1,500):
//   - every space also as the bytes it held on average, space / 2,000;
//   - drag split: object 2 (last use 300, freed by GC 3 at 1,000) was seen reachable by the
//     forced GC at 500: 200 x 24 = 4,800 actionable, 500 x 24 = 12,000 below the death
//     precision; objects 4 (last use 1,100) and 7 (1,200), freed by GC 4 at 1,500, were last
//     seen at their allocation (the forced GC at 500 came before it): 400 x 56 = 22,400 and
//     300 x 24 = 7,200 below the precision; object 5, alive at the end, has no drag;
//   - lagged: no object's first get comes after a forced GC that followed its allocation;
//   - flame graphs by whole allocation context: drag int[] under run > build 22,400, Point
//     under main > build 16,800 (object 2), under run > main > build 7,200 (object 7).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <sstream>

#include "../report/pprof_decode.h"
#include "analyses/lifetime/report/report.h"
#include "lifetime_profile.h"

namespace {

namespace lt = dragnet::analyses::lifetime;
using lt::DragPart;
using lt::Phase;
using lt::Space;

class LifetimeReadable : public ::testing::Test {
 protected:
  void SetUp() override {
    auto path = dragnet::test::testDir() / "lifetime.dragnet";
    dragnet::test::writeProfile(dragnet::test::lifetimeProfile(), path);
    std::string error;
    ASSERT_TRUE(dragnet::profile::readProfile(path.string(), profile_, error)) << error;
    model_ = lt::buildModel(profile_);
  }

  std::string collapsed(Phase measure) {
    std::ostringstream out;
    dragnet::report::writeLifetimeCollapsed(out, model_, measure);
    return out.str();
  }

  dragnet::profile::Profile profile_;
  lt::Model model_;
};

TEST_F(LifetimeReadable, DragSplitAndLagged) {
  const lt::Stats& t = model_.totals;
  EXPECT_EQ(t[DragPart::Actionable], Space{4800});
  EXPECT_EQ(t[DragPart::BelowPrecision], Space{12000 + 22400 + 7200});
  EXPECT_EQ(t[DragPart::UntilExit], Space{0});
  EXPECT_EQ(t.lagged, 0u);
  EXPECT_EQ(t.dragged, 3u);
  // Object 5 is alive at the end; the forced GC at 1,500 saw it reachable (allocated at 1,200).
  auto five = lt::objectIndex(model_, 5);
  ASSERT_TRUE(five);
  lt::Life life = lt::lifeOf(model_, *five);
  EXPECT_TRUE(life.atEnd);
  EXPECT_EQ(life.lastSeen, 1500u);
}

TEST_F(LifetimeReadable, JsonAverageBytesAndDragSplit) {
  std::ostringstream out;
  dragnet::report::writeLifetimeJson(out, model_, {});
  nlohmann::json j = nlohmann::json::parse(out.str());
  const auto& t = j["totals"];
  EXPECT_EQ(t["averageBytes"]["total"], 104800.0 / 2000);
  EXPECT_EQ(t["averageBytes"]["drag"], 46400.0 / 2000);
  EXPECT_EQ(t["averageBytes"]["lag"], 8560.0 / 2000);
  EXPECT_EQ(t["dragSpace"]["actionable"], 4800.0);
  EXPECT_EQ(t["dragSpaceExact"]["belowPrecision"], "41600");
  EXPECT_EQ(t["dragAverageBytes"]["actionable"], 4800.0 / 2000);
  EXPECT_NEAR(t["dragPercent"]["actionable"].get<double>(), 100.0 * 4800 / 104800, 1e-9);
  EXPECT_EQ(t["lagged"], 0);
  // Every group has them too: nested site 2, int[] (object 4).
  EXPECT_EQ(j["nested"][1]["averageBytes"]["drag"], 22400.0 / 2000);
  EXPECT_EQ(j["nested"][1]["dragSpace"]["belowPrecision"], 22400.0);
}

TEST_F(LifetimeReadable, TextShowsAveragesAndTheDragSplit) {
  std::ostringstream out;
  dragnet::report::writeLifetimeText(out, model_, {});
  std::string text = out.str();
  for (const char* line :
       {"  total space  104,800; 52 bytes reachable on average\n",
        "  drag                             46,400  44.27% of the total space is drag; 23 bytes "
        "held on average\n",
        "    actionable                      4,800   4.58% of the total space is actionable drag "
        "(reachable at a forced GC after the last use); 2 bytes held on average\n",
        "    below precision                41,600  39.69% of the total space is drag below the "
        "death precision (not told from 0 by the GCs); 21 bytes held on average\n",
        "    until exit                          0   0.00% of the total space is drag until exit "
        "(alive at the end, after the last GC that saw it); 0 bytes held on average\n",
        "  objects      7 (224 bytes): 0 lagged (unused through a forced GC), 3 dragged, 2 void\n",
        "  id                     drag space    avg held   % all    dragged    objects  class\n",
        "  2                          22,400    11 bytes  48.28%          1          1  int[]\n"}) {
    EXPECT_NE(text.find(line), std::string::npos) << line << "\n" << text;
  }
}

TEST_F(LifetimeReadable, CollapsedStacksOfEachMeasure) {
  EXPECT_EQ(collapsed(Phase::Drag),
            "app.Util.run(Util.java);app.Main.build(Main.java:11);int[] 22400\n"
            "app.Main.main(Main.java);app.Main.build(Main.java:10);app.Point 16800\n"
            "app.Util.run(Util.java);app.Main.main(Main.java);app.Main.build(Main.java:10);"
            "app.Point 7200\n");
  EXPECT_EQ(collapsed(Phase::Void),
            "app.Main.main(Main.java);app.Main.build(Main.java:10);app.Point 9600\n"
            "app.Util.run(Util.java);app.Main.main(Main.java);app.Main.build(Main.java);"
            "app.Main.helper(Main.java);java.lang.String 8000\n");
  EXPECT_EQ(collapsed(Phase::Lag),
            "app.Util.run(Util.java);app.Main.main(Main.java);app.Main.build(Main.java:10);"
            "app.Point 4800\n"
            "app.Main.main(Main.java);app.Main.build(Main.java);app.Main.helper(Main.java:20);"
            "app.Node 3200\n"
            "app.Util.run(Util.java);app.Main.build(Main.java:11);int[] 560\n");
}

TEST_F(LifetimeReadable, PprofCarriesEveryMeasureAsAverageBytes) {
  namespace pp = dragnet::test::pprof;
  pp::Decoded d = pp::decodeProfile(dragnet::report::lifetimePprofProfile(model_, Phase::Void));
  EXPECT_EQ(d.sampleTypes, (std::vector<std::string>{"drag/bytes", "void/bytes", "lag/bytes"}));
  EXPECT_EQ(d.defaultType, "void");
  // Leaf first: the type, the allocating method at the site's line, its callers. Values:
  // drag, void, lag space / 2,000, rounded.
  EXPECT_EQ(d.samples["int[];app.Main.build:11;app.Util.run"],
            (std::vector<uint64_t>{11, 0, 0}));  // 22,400 and 560 / 2,000
  EXPECT_EQ(d.samples["app.Point;app.Main.build:10;app.Main.main"],
            (std::vector<uint64_t>{8, 5, 0}));  // 16,800 and 9,600 / 2,000
  EXPECT_EQ(d.typeLabels["app.Point;app.Main.build:10;app.Main.main"], "app.Point");
  ASSERT_FALSE(d.comments.empty());
  EXPECT_EQ(d.comments[0], "dragnet lifetime profile (pid 4711)");
}

}  // namespace
