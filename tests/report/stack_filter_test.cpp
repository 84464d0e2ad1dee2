// The stack filters and first application frames (report/stack_filter.h, context_views.h) on
// the known profile (known_profile.h), whose numbers are exact: include, exclude and focus
// as async-profiler and pprof define them, and the patterns' '*'.
#include "report/stack_filter.h"

#include <gtest/gtest.h>

#include <sstream>

#include "contexts/model.h"
#include "known_profile.h"
#include "profile/reader.h"
#include "report/context_views.h"

namespace {

using dragnet::report::globMatch;
using dragnet::report::ViewSettings;

TEST(StackFilter, GlobMatchesWholeNamesWithStars) {
  EXPECT_TRUE(globMatch("app.Main.build", "app.Main.build"));
  EXPECT_FALSE(globMatch("app.Main.build", "app.Main.builder"));
  EXPECT_FALSE(globMatch("Main.build", "app.Main.build"));  // the whole name
  EXPECT_TRUE(globMatch("app.*", "app.Main.build"));
  EXPECT_TRUE(globMatch("*.build", "app.Main.build"));
  EXPECT_TRUE(globMatch("*Main*", "app.Main.build"));
  EXPECT_TRUE(globMatch("app.*.b*d", "app.Main.build"));
  EXPECT_FALSE(globMatch("app.*.b*x", "app.Main.build"));
  EXPECT_TRUE(globMatch("*", ""));
  EXPECT_TRUE(globMatch("**", "x"));
  EXPECT_FALSE(globMatch("", "x"));
  EXPECT_TRUE(globMatch("java.util.ArrayList.<init>", "java.util.ArrayList.<init>"));
  EXPECT_TRUE(globMatch("a*a*a", "aaaa"));
  EXPECT_FALSE(globMatch("a*a*a", "aa"));
}

TEST(StackFilter, ApplicationFramesLeaveOutTheJdkAndPrefixes) {
  dragnet::report::AppFrames app{{"org.apache.commons.", "com.google"}};
  EXPECT_TRUE(app.isApplication("app.Main"));
  EXPECT_FALSE(app.isApplication("java.util.ArrayList"));
  EXPECT_FALSE(app.isApplication("java.lang.DragnetRt"));  // the agent's helper
  EXPECT_FALSE(app.isApplication("javax.xml.Foo"));
  EXPECT_FALSE(app.isApplication("jdk.internal.Foo"));
  EXPECT_FALSE(app.isApplication("sun.misc.Unsafe"));
  EXPECT_FALSE(app.isApplication("com.sun.tools.javac.Main"));
  EXPECT_FALSE(app.isApplication("org.apache.commons.lang3.StringUtils"));
  EXPECT_FALSE(app.isApplication("com.googlecode.Foo"));  // no '.': any continuation
  EXPECT_TRUE(app.isApplication("org.apache.Foo"));
  EXPECT_TRUE(app.isApplication("javaapp.Main"));
}

class ContextViews : public ::testing::Test {
 protected:
  void SetUp() override {
    auto path =
        dragnet::test::writeKnownProfile(dragnet::test::testDir(), dragnet::test::Variant::Exact);
    std::string error;
    ASSERT_TRUE(dragnet::profile::readProfile(path.string(), profile_, error)) << error;
  }

  dragnet::report::AllocView view(const ViewSettings& s) {
    return dragnet::report::makeView(dragnet::contexts::buildModel(profile_), s);
  }

  dragnet::profile::Profile profile_;
};

TEST_F(ContextViews, NoFilterIsTheWholeModel) {
  auto v = view({});
  EXPECT_TRUE(v.filter.is_null());
  EXPECT_EQ(v.model.bytes, 557616u);
  EXPECT_EQ(v.model.nodes.size(), 12u);
}

// --include app.Main.parse: main's stack through parse: char[] and String, 12,000 bytes;
// main's calls (on the way) and parse's.
TEST_F(ContextViews, IncludeKeepsStacksWithAMatchingFrame) {
  ViewSettings s;
  s.filter.include = {"app.Main.parse"};
  auto v = view(s);
  EXPECT_EQ(v.model.bytes, 12000u);
  EXPECT_EQ(v.model.objects, 50u);
  EXPECT_EQ(v.model.arrays, 50u);
  EXPECT_EQ(v.model.elements, 5000u);
  EXPECT_EQ(v.model.calls, 6u);
  EXPECT_EQ(v.model.insns, 500u);  // parse's own; main's stack has no parse frame
  EXPECT_EQ(v.model.rows.size(), 2u);
  EXPECT_EQ(v.filter.at("kept").at("bytes"), 12000);
  EXPECT_EQ(v.filter.at("total").at("bytes"), 557616);
  EXPECT_EQ(v.filter.at("total").at("objects"), 21051 + 150);
  EXPECT_EQ(dragnet::report::filterNote(v.filter),
            "include app.Main.parse: kept 12,000 of 557,616 bytes (2.2%), 100 of 21,201 objects "
            "and arrays");
}

// --exclude app.Main.rare: everything but the worker's Tiny (16 bytes).
TEST_F(ContextViews, ExcludeDropsStacksWithAMatchingFrame) {
  ViewSettings s;
  s.filter.exclude = {"*.rare"};
  auto v = view(s);
  EXPECT_EQ(v.model.bytes, 557600u);
  EXPECT_EQ(v.model.objects, 21050u);
  EXPECT_EQ(v.model.arrays, 150u);
}

// --focus app.Main.build: main's build and the worker's root build merge into one context
// under the root; parse and main's own bytecodes are dropped.
TEST_F(ContextViews, FocusShowsStacksFromTheMatchingFrame) {
  ViewSettings s;
  s.filter.focus = {"app.Main.build"};
  auto v = view(s);
  const auto& m = v.model;
  EXPECT_EQ(m.bytes, 545616u);  // 480,000 + 41,600 + 24,000 + 16
  ASSERT_EQ(m.nodes[0].children.size(), 1u);
  uint32_t build = m.nodes[0].children[0];
  EXPECT_EQ(dragnet::contexts::frameName(profile_, m.nodes[build].key, -1),
            "app.Main.build(Main.java)");
  EXPECT_EQ(m.nodes[build].c.count, 12u);    // 10 calls in main, 2 in the worker
  EXPECT_EQ(m.nodes[build].c.insns, 1200u);  // 1,000 + 200
  EXPECT_EQ(m.nodes.size(), 6u);             // root, build, Point, int[], rare, Tiny
  ASSERT_FALSE(m.rows.empty());
  EXPECT_EQ(m.rows[0].count, 21000u);  // the two threads' Points, one context now
  EXPECT_EQ(m.insns, 1200u);
}

// The first application frame: with --app-exclude app.Main the whole known profile has none
// (every frame is app.Main's); without, each row's allocating method.
TEST_F(ContextViews, FirstApplicationFrameAndItsBucket) {
  auto v = view({});
  const auto& m = v.model;
  EXPECT_EQ(dragnet::report::firstAppFrame(m, m.rows[0], v.firstApp),
            "app.Main.build(Main.java:10)");
  EXPECT_EQ(dragnet::report::firstAppFrame(m, m.rows[0], v.firstApp, false),
            "app.Main.build(Main.java)");
  ViewSettings s;
  s.app.prefixes = {"app.Main"};
  auto none = view(s);
  for (const auto& row : none.model.rows) {
    EXPECT_EQ(dragnet::report::firstAppFrame(none.model, row, none.firstApp),
              dragnet::report::kNoAppFrame);
  }
  // rare's Tiny with only rare excluded: its caller build, without a line.
  s.app.prefixes = {"app.Main.rare"};  // a class-name prefix: app.Main.rare... matches none
  auto same = view(s);
  for (const auto& row : same.model.rows) {
    EXPECT_NE(dragnet::report::firstAppFrame(same.model, row, same.firstApp),
              dragnet::report::kNoAppFrame);
  }
}

}  // namespace
