// Mode alloc's per-thread views and allocation-rate series (analyses/alloc/report/threads.h)
// on a profile written by hand: two named threads whose Rate chunks record known phases.
//
//   thread 1 "main":     app.Main.run, line 10: byte[] (1,016 bytes each), line 11: app.Point
//                        (24 bytes each); Rate: 0.9 s 10 byte[]; 1.95 s 5 Points; 4.15 s
//                        10 byte[] (nothing in 2-4 s)
//   thread 2 "worker-1": app.Main.run, line 10: 3 byte[] at 1.02 s (a flush's delay) and
//                        5 at 2.5 s (its end)
//
// Intervals of 1 s (meta flush=1): (0,1] 10+3 byte[] = 13,208 bytes; (1,2] 5 Points =
// 120; (2,3] 5 byte[] = 5,080; (3,4] nothing; (4,5] 10 byte[] = 10,160. Totals: 28,568 bytes,
// 33 objects/arrays; main 20,440 bytes in 25, worker-1 8,128 in 8.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "analyses/alloc/report/alloc_report.h"
#include "analyses/alloc/report/analysis.h"
#include "analyses/alloc/report/html_report.h"
#include "analyses/alloc/report/threads.h"
#include "chromium_dom.h"
#include "contexts/merge.h"
#include "contexts/model.h"
#include "known_profile.h"
#include "profile/reader.h"
#include "profile/writer.h"

namespace fs = std::filesystem;
using namespace dragnet;
using namespace dragnet::profile;

namespace {

constexpr uint32_t kBytes = kAllocBit | 1u << 4 | static_cast<uint32_t>(ElemKind::Byte);
constexpr uint32_t kPoint = kAllocBit | 2u << 4;

fs::path writeProfile(const fs::path& dir) {
  fs::path path = dir / "threads.dragnet";
  Writer w;
  std::string error;
  if (!w.open(path.string(), error)) throw std::runtime_error(error);
  w.meta({{"mode", "alloc"}, {"flush", "1"}, {"duration.ms", "5000"}});
  w.methods({{7, "app/Main", "run", "()V", "Main.java"}});
  w.sites({{kBytes, 7, 3, 10, SiteKind::NewArray, "[B"},
           {kPoint, 7, 9, 11, SiteKind::New, "app/Point"}});
  w.classSizes({{"app/Point", 24}});
  ThreadChunk t;
  t.thread = 1;
  t.name = "main";
  t.firstNode = 1;
  t.nodes = {{0, 7}, {1, kBytes}, {1, kPoint}};
  t.counters = {{1, {1, 0, 0, 0}}, {2, {20, 20'000, 20'320, 0}}, {3, {5, 0, 0, 0}}};
  w.thread(t);
  ThreadChunk u;
  u.thread = 2;
  u.name = "worker-1";
  u.firstNode = 1;
  u.nodes = {{0, 7}, {1, kBytes}};
  u.counters = {{1, {1, 0, 0, 0}}, {2, {8, 8'000, 8'128, 0}}};
  u.ended = true;
  w.thread(u);
  w.rate({1, 900, {{kBytes, {10, 10'000, 10'160, 0}}}});
  w.rate({2, 1'020, {{kBytes, {3, 3'000, 3'048, 0}}}});
  w.rate({1, 1'950, {{kPoint, {5, 0, 0, 0}}}});
  w.rate({2, 2'500, {{kBytes, {5, 5'000, 5'080, 0}}}});
  w.rate({1, 4'150, {{kBytes, {10, 10'000, 10'160, 0}}}});
  w.end({{"threads", "2"}});
  return path;
}

class ThreadsRate : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = test::testDir();
    std::string error;
    ASSERT_TRUE(readProfile(writeProfile(dir_).string(), p_, error)) << error;
  }
  // `dragnet report` as the registry runs it, with `--opt` values.
  std::string report(const std::string& format, report::OptionValues options = {}) {
    std::ostringstream out;
    std::string error;
    EXPECT_TRUE(analyses::alloc::reports().write(
        p_, format, {.top = 20, .options = std::move(options)}, out, error))
        << error;
    return out.str();
  }
  fs::path dir_;
  Profile p_;
};

TEST_F(ThreadsRate, SeriesHasThePhasesAndSumsToTheTotals) {
  report::RateSeries s = report::rateSeries(p_, nullptr);
  EXPECT_EQ(s.width, 1000u);
  ASSERT_EQ(s.intervals.size(), 5u);
  const uint64_t bytes[] = {13'208, 120, 5'080, 0, 10'160};
  const uint64_t objects[] = {13, 5, 5, 0, 10};
  for (size_t i = 0; i < 5; ++i) {
    EXPECT_EQ(s.intervals[i].bytes, bytes[i]) << i;
    EXPECT_EQ(s.intervals[i].objects, objects[i]) << i;
  }
  contexts::AllocModel m = contexts::buildModel(p_);
  EXPECT_EQ(s.bytes, m.bytes);
  EXPECT_EQ(s.objects, m.objects + m.arrays);
  EXPECT_EQ(s.threads.at(1), (std::pair<uint64_t, uint64_t>{20'440, 25}));
  EXPECT_EQ(s.threads.at(2), (std::pair<uint64_t, uint64_t>{8'128, 8}));
  // Per thread: the worker's 3 arrays at 1.02 s belong to (0, 1] (a flush's delay).
  EXPECT_EQ(s.intervals[0].threads.at(2).first, 3'048u);
}

TEST_F(ThreadsRate, ThreadRowsMatchTheTrees) {
  std::vector<report::ThreadRow> rows = report::threadRows(p_, nullptr);
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0].name, "main");
  EXPECT_EQ(rows[0].bytes, 20'440u);
  EXPECT_EQ(rows[0].objects, 25u);
  EXPECT_EQ(rows[0].topSite, "app.Main.run(Main.java:10) byte[]");
  EXPECT_EQ(rows[0].topSiteBytes, 20'320u);
  EXPECT_EQ(rows[1].name, "worker-1");
  EXPECT_EQ(rows[1].bytes, 8'128u);
  EXPECT_TRUE(rows[1].ended);
  EXPECT_EQ(report::threadsMatching(p_, "worker-*"), (std::set<uint32_t>{2}));
  EXPECT_EQ(report::threadsMatching(p_, "1"), (std::set<uint32_t>{1}));
  EXPECT_TRUE(report::threadsMatching(p_, "nobody").empty());
}

TEST_F(ThreadsRate, TextShowsThreadsAndRate) {
  std::string text = report(std::string("text"));
  EXPECT_NE(text.find("Threads by bytes\n"), std::string::npos) << text;
  EXPECT_NE(text.find("  20,440            71.5% 25               main (#1), "
                      "app.Main.run(Main.java:10) byte[]  99.4%\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("  average    5.7 KB/s (28,568 bytes, 33 objects/arrays in 5.0 s)\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("  peak       13.2 KB/s in 0.0 s - 1.0 s\n"), std::string::npos) << text;
  EXPECT_NE(text.find("  4.0 s      0                0\n"), std::string::npos) << text;
}

TEST_F(ThreadsRate, JsonSeriesAndThreadFilter) {
  auto j = nlohmann::json::parse(report("json"));
  EXPECT_EQ(j["rate"]["intervalMs"], 1000);
  EXPECT_EQ(j["rate"]["series"]["bytes"], (nlohmann::json{13'208, 120, 5'080, 0, 10'160}));
  EXPECT_EQ(j["rate"]["bytes"], j["totals"]["bytes"]);
  ASSERT_EQ(j["rate"]["threads"].size(), 2u);
  EXPECT_EQ(j["rate"]["threads"][1]["series"]["bytes"], (nlohmann::json{3'048, 0, 5'080, 0, 0}));
  EXPECT_EQ(j["threads"][0]["name"], "main");
  EXPECT_EQ(j["threads"][0]["topSite"], "app.Main.run(Main.java:10) byte[]");
  EXPECT_EQ(j["threadFilter"], nullptr);

  auto w = nlohmann::json::parse(report("json", {{"thread", "worker-*"}}));
  EXPECT_EQ(w["threadFilter"], "worker-*");
  EXPECT_EQ(w["totals"]["bytes"], 8'128);
  EXPECT_EQ(w["threads"].size(), 1u);
  EXPECT_EQ(w["threads"][0]["share"].get<double>(), 8'128.0 / 28'568);
  EXPECT_EQ(w["rate"]["series"]["bytes"], (nlohmann::json{3'048, 0, 5'080}));

  std::ostringstream out;
  std::string error;
  EXPECT_FALSE(
      analyses::alloc::reports().write(p_, "text", {.options = {{"thread", "x*"}}}, out, error));
  EXPECT_EQ(error, "--opt thread=x*: no thread's name or id matches");
}

// Two JVMs' profiles merged (`dragnet report A B`): their threads stay threads of their own,
// their series add up, Point bytes sized by each JVM.
TEST_F(ThreadsRate, MergedProfilesAddTheirSeries) {
  Profile merged;
  std::string error;
  ASSERT_TRUE(contexts::mergeProfiles({p_, p_}, {"a", "b"}, merged, error)) << error;
  report::RateSeries s = report::rateSeries(merged, nullptr);
  ASSERT_EQ(s.intervals.size(), 5u);
  EXPECT_EQ(s.intervals[1].bytes, 240u);
  EXPECT_EQ(s.bytes, 2 * 28'568u);
  EXPECT_EQ(s.bytes, contexts::buildModel(merged).bytes);
  EXPECT_EQ(s.threads.size(), 4u);
  EXPECT_EQ(s.threads.at(4), (std::pair<uint64_t, uint64_t>{8'128, 8}));
}

// A profile of an older agent has no Rate chunks: "not recorded", null in JSON.
TEST_F(ThreadsRate, OlderProfileSaysNotRecorded) {
  p_.rates.clear();
  EXPECT_NE(report("text").find("Allocation rate (per 1.0 s)\n  not recorded"), std::string::npos);
  EXPECT_EQ(nlohmann::json::parse(report("json"))["rate"], nullptr);
}

// In headless Chromium: the chart's bars, the threads table, the by-thread view; no console
// message.
TEST_F(ThreadsRate, ChromiumRendersChartAndThreads) {
  REQUIRE_CHROMIUM();
  fs::path html = dir_ / "threads.html";
  {
    std::ofstream out(html, std::ios::binary);
    out << report("html");
  }
  const std::string logFlags = "--enable-logging=stderr --v=0";
  std::string dom = test::renderDom(html, dir_, 0, "", logFlags);
  std::string log = test::slurp(dir_ / "chromium.log");
  EXPECT_EQ(log.find(":CONSOLE"), std::string::npos) << log;
  // Bars: (0,1] main and worker-1, (1,2] main, (2,3] worker-1, (4,5] main.
  size_t bars = 0;
  for (size_t at = 0; (at = dom.find("class=\"rate-bar\"", at)) != std::string::npos; ++at) ++bars;
  EXPECT_EQ(bars, 5u);
  EXPECT_NE(test::textOf(dom, "rate-summary").find("peak 13.2 KB/s in 0.0\u20131.0 s"),
            std::string::npos)
      << test::textOf(dom, "rate-summary");
  std::vector<std::string> rows = test::rowsOf(dom, "threads");
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0],
            "20,440 | 71.5% | 25 | main (#1) \u2022 alive | app.Main.run(Main.java:10) byte[]");
  EXPECT_EQ(rows[1], "8,128 | 28.5% | 8 | worker-1 (#2) | app.Main.run(Main.java:10) byte[]");
  EXPECT_TRUE(test::pressed(dom, "view-merged"));
  // By thread, zoomed into worker-1: its node is the zoom path's last crumb.
  dom = test::renderDom(html, dir_, 1, "view=threads&thread=2", logFlags);
  log = test::slurp(dir_ / "chromium.log");
  EXPECT_EQ(log.find(":CONSOLE"), std::string::npos) << log;
  EXPECT_TRUE(test::pressed(dom, "view-threads"));
  EXPECT_NE(test::textOf(dom, "crumbs").find("worker-1"), std::string::npos)
      << test::textOf(dom, "crumbs");
}

}  // namespace
