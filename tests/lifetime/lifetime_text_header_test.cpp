// The lifetime text report's header and totals (settings, precision, Java heap, spaces,
// corrupt/incomplete notes) are lifetime_json::header's object rendered: its numbers are
// the JSON report's, for exact, sampled and corrupt profiles (header_numbers.h).
#include <gtest/gtest.h>

#include <sstream>

#include "../report/header_numbers.h"
#include "analyses/lifetime/report/json.h"
#include "analyses/lifetime/report/report.h"
#include "analyses/lifetime/report/text.h"
#include "lifetime_profile.h"

namespace {

using dragnet::analyses::lifetime::buildModel;
using dragnet::test::HeaderJson;

using dragnet::test::Kind;

class LifetimeTextHeader : public ::testing::TestWithParam<Kind> {
 protected:
  void SetUp() override {
    Kind k = GetParam();
    std::map<std::string, std::string> meta{{"pid", "4242"}};
    if (k == Kind::Sampled) meta["sample"] = "64";
    auto path = dragnet::test::testDir() / "lifetime.dragnet";
    dragnet::test::writeProfile(dragnet::test::lifetimeProfile(meta), path);
    std::string error;
    ASSERT_TRUE(dragnet::profile::readProfile(path.string(), profile_, error)) << error;
    if (k == Kind::Sampled) {
      profile_.totals["samples.agent"] = "7";
      profile_.totals["samples.jvm"] = "3";
    }
    if (k == Kind::Corrupt) {
      profile_.skipped = {{1234, 56, "bad CRC"}};
      profile_.skippedBytes = 56;
      profile_.complete = false;
      profile_.truncation = "chunk 9: truncated at 4321";
      profile_.liveAtFlush = 3;
      profile_.liveTime = 1900;
      profile_.meta["gc.budget"] = "25";
      profile_.meta["stacks"] = "off";
    }
    model_ = buildModel(profile_);
    header_ = dragnet::report::lifetime_json::header(model_);
    std::ostringstream text;
    dragnet::report::writeLifetimeText(text, model_, {});
    text_ = text.str();
  }

  static std::string rendered(const HeaderJson& h) {
    std::ostringstream out;
    dragnet::report::lifetime_text::writeSummary(out, h);
    return out.str();
  }

  dragnet::profile::Profile profile_;
  dragnet::analyses::lifetime::Model model_;
  HeaderJson header_;
  std::string text_;
};

// The text report starts with the header and totals rendered from the JSON header, and
// nothing of its own before the tables.
TEST_P(LifetimeTextHeader, TextStartsWithTheRenderedJsonHeader) {
  std::string head = rendered(header_);
  ASSERT_TRUE(text_.starts_with(head + "\n")) << text_ << "\n---\n" << head;
  dragnet::test::expectNumbersFromHeader(head, header_);
}

TEST_P(LifetimeTextHeader, EachLineShowsItsJsonValues) {
  std::string head = rendered(header_);
  using dragnet::test::expectLineShows;
  int checked = 0;
  checked += expectLineShows(head, header_, "dragnet lifetime profile", {"/pid"});
  checked += expectLineShows(head, header_, "  time         ", {"/endTime"});
  if (header_["settings"]["sample"] != 0) {  // an exact profile has no sampled line
    checked += expectLineShows(
        head, header_, "  sampled      ",
        {"/settings/sample", "/trackedObjects", "/samplesLeftOut/agent", "/samplesLeftOut/jvm"});
  }
  std::vector<std::string> gc{"/settings/gcInterval", "/precision/gcs", "/precision/forcedGcs"};
  if (header_["settings"]["gcBudget"].get<uint64_t>() < 100) {
    gc.insert(gc.end(), {"/settings/gcBudget", "/settings/gcDeferred"});
  }
  checked += expectLineShows(head, header_, "  gc interval  ", gc);
  checked += expectLineShows(head, header_, "  use epoch    ", {"/settings/useEpoch"});
  checked += expectLineShows(head, header_, "  stack        ", {"/settings/stack"});
  checked += expectLineShows(head, header_, "  precision    ",
                             {"/precision/maxGap", "/precision/freed", "/precision/aliveAtEnd"});
  if (!header_["javaHeap"].is_null()) {
    checked += expectLineShows(
        head, header_, "  java heap    ",
        {"/javaHeap/bytesPerObject", "/javaHeap/peakObjects", "/javaHeap/peakBytes"});
  }
  checked += expectLineShows(
      head, header_, "  objects      ",
      {"/totals/objects", "/totals/bytes", "/totals/lagged", "/totals/dragged", "/totals/void"});
  checked += expectLineShows(head, header_, "  total space  ", {"/totals/spaceExact/total"});
  for (const char* p : {"lag", "use", "drag", "void"}) {
    std::string label = std::string("  ") + (std::string(p) == "use" ? "in use" : p) + " ";
    checked += expectLineShows(
        head, header_, label,
        {std::string("/totals/spaceExact/") + p, std::string("/totals/percent/") + p});
  }
  checked += expectLineShows(head, header_, "  CORRUPT: ", {"/corrupt"});
  checked += expectLineShows(head, header_, "  INCOMPLETE: ", {"/truncation"});
  EXPECT_GE(checked, 20);
  // use-contexts=off is said on the stack line.
  EXPECT_EQ(header_["useContexts"].get<bool>(),
            dragnet::test::lineOf(head, "  stack").find("use-contexts=off") == std::string::npos);
}

// A header with other numbers renders the other numbers: the text takes none from
// elsewhere. (gcBudget kept: below 100 it adds a part to the gc line.)
TEST_P(LifetimeTextHeader, TextFollowsAChangedJsonHeader) {
  HeaderJson changed = dragnet::test::perturbed(header_, {"gcBudget", "spaceExact"});
  std::string head = rendered(changed);
  EXPECT_NE(head, rendered(header_));
  dragnet::test::expectNumbersFromHeader(head, changed);
}

// The JSON report carries the same header.
TEST_P(LifetimeTextHeader, JsonReportCarriesTheHeader) {
  std::ostringstream out;
  dragnet::report::writeLifetimeJson(out, model_, {});
  auto j = HeaderJson::parse(out.str());
  for (const auto& [key, value] : header_.items()) EXPECT_EQ(j[key], value) << key;
}

INSTANTIATE_TEST_SUITE_P(Kinds, LifetimeTextHeader, dragnet::test::kKinds, dragnet::test::kindName);

}  // namespace
