// The alloc text report's header (totals, counting kind, sampling, agent memory, jit,
// classes, corrupt/incomplete notes) is allocHeaderJson's object rendered: its numbers are
// the JSON report's, for exact, sampled and corrupt profiles (header_numbers.h).
#include <gtest/gtest.h>

#include <sstream>

#include "analyses/alloc/report/alloc_report.h"
#include "contexts/model.h"
#include "header_numbers.h"
#include "known_profile.h"
#include "profile/reader.h"

namespace {

using dragnet::test::HeaderJson;
using dragnet::test::Variant;

using dragnet::test::Kind;

class AllocTextHeader : public ::testing::TestWithParam<Kind> {
 protected:
  void SetUp() override {
    Kind k = GetParam();
    auto path = dragnet::test::writeKnownProfile(
        dragnet::test::testDir(), k == Kind::Sampled ? Variant::Sampled : Variant::Exact);
    std::string error;
    ASSERT_TRUE(dragnet::profile::readProfile(path.string(), profile_, error)) << error;
    // What the known profile lacks, so that every line of the header has numbers.
    profile_.meta["jit"] = "c2 on; escape analysis on";
    if (k == Kind::Sampled) {
      profile_.totals["samples"] = "321";
      profile_.totals["samples.agent"] = "7";
      profile_.totals["samples.jvm"] = "3";
    } else {
      profile_.totals["threads.virtual"] = "5";
    }
    if (k == Kind::Corrupt) {
      profile_.skipped = {{1234, 56, "bad CRC"}, {5678, 90, "bad CRC"}};
      profile_.skippedBytes = 146;
      profile_.complete = false;
      profile_.truncation = "chunk 9: truncated at 4321";
    }
    model_ = dragnet::contexts::buildModel(profile_);
    header_ = dragnet::report::allocHeaderJson(model_);
    std::ostringstream text;
    dragnet::report::writeText(text, model_, {20});
    text_ = text.str();
  }

  static std::string rendered(const HeaderJson& h) {
    std::ostringstream out;
    dragnet::report::writeTextHeader(out, h);
    return out.str();
  }

  dragnet::profile::Profile profile_;
  dragnet::contexts::AllocModel model_;
  HeaderJson header_;
  std::string text_;
};

// The text report starts with the header rendered from the JSON header, and nothing of its
// own before the tables.
TEST_P(AllocTextHeader, TextStartsWithTheRenderedJsonHeader) {
  std::string head = rendered(header_);
  ASSERT_TRUE(text_.starts_with(head + "\n")) << text_ << "\n---\n" << head;
  dragnet::test::expectNumbersFromHeader(head, header_);
}

TEST_P(AllocTextHeader, EachLineShowsItsJsonValues) {
  std::string head = rendered(header_);
  using dragnet::test::expectLineShows;
  int checked = 0;
  checked += expectLineShows(head, header_, "dragnet allocation profile", {"/pid"});
  checked += expectLineShows(head, header_, "  counted    ", {"/countingMeans"});
  checked += expectLineShows(head, header_, "  objects    ", {"/totals/objects"});
  checked +=
      expectLineShows(head, header_, "  arrays     ", {"/totals/arrays", "/totals/elements"});
  checked +=
      expectLineShows(head, header_, "  bytes      ", {"/totals/bytes", "/totals/unsizedObjects"});
  if (header_["sampled"].get<bool>()) {
    checked += expectLineShows(head, header_, "  calls      n/a ", {"/totals/contexts"});
    checked += expectLineShows(
        head, header_, "  sampled    ",
        {"/sampleInterval", "/samples", "/samplesLeftOut/agent", "/samplesLeftOut/jvm"});
  } else {
    checked += expectLineShows(
        head, header_, "  calls      ",
        {"/totals/calls", "/totals/contexts", "/totals/threads", "/totals/virtualThreads"});
  }
  checked += expectLineShows(head, header_, "  bytecodes  ", {"/totals/bytecodes"});
  checked += expectLineShows(head, header_, "  jit        ", {"/jit"});
  checked += expectLineShows(head, header_, "  agent      ",
                             {"/agent/nativePeak", "/agent/nativeLimit", "/agent/nativeAtExit",
                              "/agent/heap", "/agent/indexLookups"});
  checked += expectLineShows(head, header_, "  collapsed  ", {"/totals/collapsed"});
  checked += expectLineShows(head, header_, "  dropped    ", {"/totals/dropped"});
  if (!header_["classesInstrumented"].is_null()) {  // the End chunk's: no line without it
    checked += expectLineShows(head, header_, "  classes    ",
                               {"/classesInstrumented", "/classesNotRewritten",
                                "/methodsPartlyRewritten", "/hiddenClassCount"});
  }
  checked += expectLineShows(head, header_, "  CORRUPT: ", {"/corrupt"});
  checked += expectLineShows(head, header_, "  INCOMPLETE: ", {"/truncation"});
  EXPECT_GE(checked, 12);
}

// What sampling does not record (calls, bytecodes, classes not rewritten) is null in a
// sampled profile's JSON header and n/a in its text, not 0; its threads are recorded.
TEST_P(AllocTextHeader, SampledSaysNotApplicableForWhatItDoesNotRecord) {
  const bool sampled = header_["sampled"].get<bool>();
  for (const char* key : {"/totals/calls", "/totals/bytecodes", "/classesNotRewritten",
                          "/methodsPartlyRewritten", "/hiddenClassCount"}) {
    EXPECT_EQ(header_[HeaderJson::json_pointer(key)].is_null(), sampled) << key;
  }
  EXPECT_EQ(header_["totals"]["threads"], 2);
  std::string head = rendered(header_);
  EXPECT_EQ(
      head.find("  calls      n/a (sampling records allocations only) in ") != std::string::npos,
      sampled)
      << head;
}

// A header with other numbers renders the other numbers: the text takes none from
// elsewhere.
TEST_P(AllocTextHeader, TextFollowsAChangedJsonHeader) {
  HeaderJson changed = dragnet::test::perturbed(header_, {});
  std::string head = rendered(changed);
  EXPECT_NE(head, rendered(header_));
  dragnet::test::expectNumbersFromHeader(head, changed);
  EXPECT_NE(head.find(dragnet::test::groupedNumber(changed["totals"]["bytes"].get<uint64_t>())),
            std::string::npos)
      << head;
}

// The JSON report carries the same header.
TEST_P(AllocTextHeader, JsonReportCarriesTheHeader) {
  std::ostringstream out;
  dragnet::report::writeJson(out, model_);
  auto j = HeaderJson::parse(out.str());
  for (const auto& [key, value] : header_.items()) EXPECT_EQ(j[key], value) << key;
}

INSTANTIATE_TEST_SUITE_P(Kinds, AllocTextHeader, dragnet::test::kKinds, dragnet::test::kindName);

}  // namespace
