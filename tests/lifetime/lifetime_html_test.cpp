// The HTML report of the lifetime profile in lifetime_profile.h, written to a file with the
// profile Writer and read back, then rendered by headless Chromium (chromium_dom.h): the
// test reads the DOM after the page's script ran and compares the hand-computed numbers
// (totals and their shares, the drag ranking, the chart's series and peak, a selected
// site's patterns). The browser tests are skipped when no Chromium is installed.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>

#include "../report/chromium_dom.h"
#include "analyses/lifetime/report/report.h"
#include "lifetime_profile.h"
#include "report/templates.h"

namespace {

namespace fs = std::filesystem;
using dragnet::test::innerHtml;
using dragnet::test::renderDom;
using dragnet::test::rowsOf;
using dragnet::test::slurp;
using dragnet::test::tagOf;
using dragnet::test::textOf;

class LifetimeHtml : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = dragnet::test::testDir();
    read(dragnet::test::lifetimeProfile());
  }

  // Writes `p` with the profile Writer and reads it back into the model.
  void read(const dragnet::profile::Profile& p) {
    fs::path path = dir_ / "lifetime.dragnet";
    dragnet::test::writeProfile(p, path);
    std::string error;
    profile_ = {};
    ASSERT_TRUE(dragnet::profile::readProfile(path.string(), profile_, error)) << error;
    model_ = dragnet::analyses::lifetime::buildModel(profile_);
  }

  fs::path write(const dragnet::report::LifetimeHtmlOptions& o = {}) {
    fs::path html = dir_ / "lifetime.html";
    std::ofstream out(html, std::ios::binary);
    dragnet::report::writeLifetimeHtml(out, model_, o);
    return html;
  }

  nlohmann::json data(const dragnet::report::LifetimeHtmlOptions& o = {}) {
    return nlohmann::json::parse(dragnet::report::lifetimeHtmlData(model_, o));
  }

  std::string render(const std::string& hash = "") {
    return renderDom(write(), dir_, renders_++, hash);
  }

  // The page with `script` run after its own, rendered (with chromium `flags`).
  std::string renderWithScript(const std::string& script, const std::string& flags = "") {
    fs::path scripted = dir_ / "scripted.html";
    std::string page = slurp(write());
    page.insert(page.rfind("</body>"), "<script>" + script + "</script>");
    std::ofstream(scripted, std::ios::binary) << page;
    return renderDom(scripted, dir_, renders_++, "", flags);
  }

  fs::path dir_;
  int renders_ = 0;
  dragnet::profile::Profile profile_;
  dragnet::analyses::lifetime::Model model_;
};

size_t occurrences(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = 0; (at = text.find(what, at)) != std::string::npos; at += what.size()) ++n;
  return n;
}

// Without a browser: one file, nothing loaded from elsewhere, the data embedded once.
TEST_F(LifetimeHtml, FileIsSelfContainedWithTheModelsNumbers) {
  std::string page = slurp(write());
  EXPECT_EQ(page.rfind("<!DOCTYPE html>", 0), 0u);
  for (const char* placeholder : {"@TITLE@", "/*@CSS@*/", "@BODY@", "@DATA@", "/*@SCRIPT@*/"}) {
    EXPECT_EQ(page.find(placeholder), std::string::npos) << placeholder;
  }
  for (const char* remote : {"<link", "src=", "url(", "@import", "fetch(", "XMLHttpRequest"}) {
    EXPECT_EQ(page.find(remote), std::string::npos) << remote;
  }
  // The only URL is the SVG namespace, a name that is never fetched.
  EXPECT_EQ(occurrences(page, "http"), occurrences(page, "http://www.w3.org/2000/svg"));
  for (const char* asset : {"page.css", "page.js"}) {
    std::string text(dragnet::report::embeddedText(dragnet::lifetimePageFiles(), asset));
    ASSERT_FALSE(text.empty()) << asset;
    EXPECT_EQ(text.find("</"), std::string::npos) << asset;  // cannot end its element
  }
  EXPECT_EQ(occurrences(page, "\"format\":\"dragnet-lifetime-html\""), 1u);
  nlohmann::json j = data();
  EXPECT_EQ(j["totals"]["space"]["total"], 104800.0);
  EXPECT_EQ(j["totals"]["space"]["drag"], 46400.0);
  EXPECT_EQ(j["precision"]["maxGap"], 500);
  EXPECT_EQ(j["heap"]["peak"], 112);
  EXPECT_EQ(j["heap"]["peakTime"], 1200);
  EXPECT_LE(j["heap"]["points"].size(), 3u * 1000 + 1);
  EXPECT_EQ(j["classes"].size(), 4u);
  EXPECT_EQ(j["nested"][0]["patterns"].size(), 3u);
}

// A group limit keeps the top groups of every ranking, and says how many there are.
TEST_F(LifetimeHtml, LimitsKeepTheTopOfEachRanking) {
  nlohmann::json j = data({.groups = 1, .patterns = 1});
  // Classes: app.Point tops total, lag, drag and void; app.Node tops in-use space.
  ASSERT_EQ(j["classes"].size(), 2u);
  EXPECT_EQ(j["classes"][0]["name"], "app.Point");
  EXPECT_EQ(j["classes"][1]["name"], "app.Node");
  EXPECT_EQ(j["counts"]["classes"], 4);
  // Nested sites 1 (Point) and 3 (Node, in use); int[]'s site 2 is left out of its class.
  ASSERT_EQ(j["nested"].size(), 2u);
  EXPECT_EQ(j["nested"][1]["id"], 3);
  EXPECT_EQ(j["classes"][0]["nested"], nlohmann::json::array({1}));
  // Site 1's patterns: 1 tops total, in use and drag, 2 void, 3 lag: all kept.
  EXPECT_EQ(j["nested"][0]["patterns"].size(), 3u);
  EXPECT_EQ(j["nested"][0]["patternCount"], 3);
}

TEST_F(LifetimeHtml, ChromiumRendersTotalsPrecisionAndDragRanking) {
  REQUIRE_CHROMIUM();
  std::string dom = render();
  EXPECT_EQ(textOf(dom, "title"), "Lifetime profile of pid 4711");
  EXPECT_EQ(textOf(dom, "badges"), "complete");
  EXPECT_EQ(textOf(dom, "warnings"), "");
  EXPECT_EQ(textOf(dom, "total-space"), "104,800");
  EXPECT_EQ(textOf(dom, "total-drag"), "44.27%");
  EXPECT_EQ(textOf(dom, "total-lag"), "8.17%");
  EXPECT_EQ(textOf(dom, "total-void"), "16.79%");
  EXPECT_EQ(textOf(dom, "total-use"), "30.76%");
  EXPECT_EQ(textOf(dom, "total-objects"), "7");
  EXPECT_NE(textOf(dom, "totals").find("0 lagged (unused through a forced GC), 3 dragged, 2 void"),
            std::string::npos);
  EXPECT_NE(textOf(dom, "totals").find("7 objects, 224 bytes"), std::string::npos);
  EXPECT_EQ(textOf(dom, "summary"),
            "44.27% of the total space is drag (4.58% actionable, 39.69% below the death "
            "precision, 0.00% until exit), 8.17% is lag, 16.79% is void and 30.76% is in use.");
  auto settings = rowsOf(dom, "settings");
  ASSERT_EQ(settings.size(), 8u);
  EXPECT_EQ(settings[1], "gc interval | 1,024 bytes; 5 GCs, 2 forced");
  EXPECT_EQ(settings[4],
            "precision | deaths known to within 500 bytes (largest gap), 367 on average, over 6 "
            "freed objects; 1 object alive at the end (they die at the end time)");
  // At most 3 of the 7 objects alive at once (1, 2 and 3 at 300; 4, 7 and 5 at 1200).
  EXPECT_EQ(settings[5].rfind("drag split | actionable: reachable at a forced GC after its last "
                              "use; ",
                              0),
            0u)
      << settings[5];
  EXPECT_EQ(settings[6].rfind("lagged | objects that sat unused through a forced GC", 0), 0u);
  EXPECT_EQ(settings[7],
            "java heap | the agent keeps a phantom reference per tracked object, 32 bytes: 3 "
            "objects tracked at the peak, 96 bytes");
  EXPECT_EQ(tagOf(dom, "rank-drag").find("aria-pressed=\"true\"") != std::string::npos, true);
  // By drag: app.Point 24,000 (51.72% of all drag), int[] 22,400 (48.28%).
  auto classes = rowsOf(dom, "classes");
  ASSERT_EQ(classes.size(), 4u);
  EXPECT_EQ(classes[0],
            "1 | app.Point | 4 | 0 | 2 | 1 | 4,800 56.07% 2 bytes | 4,800 14.89% 2 bytes | "
            "24,000 51.72% 12 bytes | 9,600 54.55% 5 bytes | 43,200 41.22% 22 bytes");
  EXPECT_EQ(classes[1],
            "2 | int[] | 1 | 0 | 1 | 0 | 560 6.54% 0 bytes | 5,040 15.63% 3 bytes | 22,400 "
            "48.28% 11 bytes | 0 0.00% 0 bytes | 28,000 26.72% 14 bytes");
  auto methods = rowsOf(dom, "methods");
  ASSERT_EQ(methods.size(), 2u);
  EXPECT_EQ(methods[0],
            "1 | app.Main.build(Main.java) | 5 | 0 | 3 | 1 | 5,360 62.62% 3 bytes | 9,840 "
            "30.52% 5 bytes | 46,400 100.00% 23 bytes | 9,600 54.55% 5 bytes | 71,200 67.94% 36 "
            "bytes");
  // Grouped by first application frame: build's Point and int[], helper's Node and String.
  auto apps = rowsOf(dom, "by-first-app");
  ASSERT_EQ(apps.size(), 2u);
  EXPECT_EQ(apps[0].rfind("1 | app.Main.build(Main.java) | 5 | ", 0), 0u) << apps[0];
  EXPECT_EQ(apps[1].rfind("2 | app.Main.helper(Main.java) | 2 | ", 0), 0u) << apps[1];
  auto nested = rowsOf(dom, "nested");
  ASSERT_EQ(nested.size(), 4u);
  EXPECT_EQ(nested[0],
            "1 | app.Point at app.Main.build(Main.java:10) < app.Main.main(Main.java) | "
            "app.Main.build(Main.java:10) | 4 | 0 | "
            "2 | 1 | 4,800 56.07% 2 bytes | 4,800 14.89% 2 bytes | 24,000 51.72% 12 bytes | "
            "9,600 54.55% 5 bytes | 43,200 41.22% 22 bytes");
  EXPECT_EQ(
      nested[1].rfind("2 | int[] at app.Main.build(Main.java:11) < app.Util.run(Util.java) | ", 0),
      0u)
      << nested[1];
  EXPECT_TRUE(tagOf(dom, "detail").find("hidden") != std::string::npos);  // nothing selected
}

// The chart: four stacked series, the y axis up to the exact peak (112 bytes at 1,200:
// objects 4, 7 and 5), two forced GCs marked, the readout at the peak.
TEST_F(LifetimeHtml, ChromiumDrawsTheHeapOverTime) {
  REQUIRE_CHROMIUM();
  std::string dom = render();
  std::string chart = tagOf(dom, "chart");
  ASSERT_FALSE(chart.empty()) << dom;
  EXPECT_NE(chart.find("data-ymax=\"112\""), std::string::npos) << chart;
  EXPECT_NE(chart.find("data-xmax=\"2000\""), std::string::npos) << chart;
  EXPECT_NE(chart.find("data-series=\"4\""), std::string::npos) << chart;
  std::string svg = innerHtml(dom, "chart");
  EXPECT_EQ(occurrences(svg, "class=\"series "), 4u);
  for (const char* phase : {"use", "lag", "drag", "void"}) {
    EXPECT_NE(svg.find("data-phase=\"" + std::string(phase) + "\""), std::string::npos) << phase;
  }
  EXPECT_EQ(occurrences(innerHtml(dom, "chart-gcs"), "class=\"gc-mark\""), 2u);
  EXPECT_EQ(textOf(dom, "chart-peak"), "peak 112 bytes");
  EXPECT_EQ(textOf(dom, "chart-y-title"), "Heap (bytes)");
  EXPECT_EQ(textOf(dom, "chart-x-title"), "Allocation time (bytes)");
  EXPECT_EQ(textOf(dom, "chart-readout"),
            "Peak at 1,200 bytes allocated: 112 bytes reachable (in use 0, lag 32, drag 80, "
            "void 0)");
  // Hovering at 61% of the width (time 1,220, inside the peak's plateau) moves the readout.
  dom = renderWithScript(
      "const o = document.querySelector('#chart .overlay');"
      "const r = o.getBoundingClientRect();"
      "o.dispatchEvent(new MouseEvent('mousemove', {clientX: r.left + 0.61 * r.width,"
      " clientY: r.top + 10}));");
  // (The pointer's pixel rounds the time to a point near 1,220: one of 1,000 buckets.)
  std::string readout = textOf(dom, "chart-readout");
  EXPECT_EQ(readout.rfind("at 1,2", 0), 0u) << readout;
  EXPECT_NE(readout.find(" bytes allocated: 112 bytes reachable (in use 0, lag 32, drag 80, "
                         "void 0)"),
            std::string::npos)
      << readout;
  // Hidden forced GCs stay hidden on reload.
  dom = render("gcs=0");
  EXPECT_NE(tagOf(dom, "chart-gcs").find("display: none"), std::string::npos);
}

// Selecting a nested site shows its allocation stack and its lifetime patterns with the
// stacks of their first and last gets and their representative's puts.
TEST_F(LifetimeHtml, ChromiumShowsTheSelectedSitesPatterns) {
  REQUIRE_CHROMIUM();
  std::string dom = render("sel=nested:1");
  EXPECT_EQ(textOf(dom, "detail-title"), "Nested allocation site 1: app.Point");
  EXPECT_EQ(textOf(dom, "detail-frames"), "app.Main.build(Main.java:10)app.Main.main(Main.java)");
  auto patterns = rowsOf(dom, "detail-pattern-table");
  ASSERT_EQ(patterns.size(), 3u);
  // Pattern 1 (objects 2 and 7) has all of the site's drag; percentages of the site's.
  EXPECT_EQ(patterns[0],
            "1 | app.Main.use(Main.java) < app.Main.main(Main.java)  \u2192  "
            "app.Main.other(Main.java) < app.Main.use(Main.java) | 2 | 0 | 2 | 0 | "
            "1,200 25.00% 1 bytes | 3,600 75.00% 2 bytes | 24,000 100.00% 12 bytes | 0 0.00% 0 "
            "bytes | 28,800 66.67% 14 bytes");
  std::string first = textOf(dom, "pattern-1");
  EXPECT_NE(first.find("First getapp.Main.use(Main.java)app.Main.main(Main.java)"),
            std::string::npos)
      << first;
  EXPECT_NE(first.find("Last getapp.Main.other(Main.java)app.Main.use(Main.java)"),
            std::string::npos)
      << first;
  EXPECT_NE(first.find("For example object 2 (24 bytes): allocated at 200, first get 200, "
                       "last get 250, first put \u2013, last put \u2013, dead at 1,000 (GC 3)"),
            std::string::npos)
      << first;
  // Pattern 2 is object 1: never got (void), but put at 150 in app.Main.use.
  std::string second = textOf(dom, "pattern-2");
  EXPECT_NE(second.find("First getnot recorded"), std::string::npos) << second;
  EXPECT_NE(second.find("Its first putapp.Main.use(Main.java)app.Main.main(Main.java)"),
            std::string::npos)
      << second;
  EXPECT_TRUE(tagOf(dom, "detail-nested").find("hidden") != std::string::npos);
}

// The flame graphs by allocation context (rows: lifetime_flame_test.cpp): drawn for drag
// (10 frames: all; run > build:11 > int[]; run > main > build:10 > Point; main > build:10 >
// Point), switched to void by its button (9 frames; the choice goes into the URL hash) and
// chosen by the hash; no console message or uncaught error on the way; the averages and
// the drag split next to the totals.
TEST_F(LifetimeHtml, ChromiumDrawsFlameGraphsAndSwitchesMeasure) {
  REQUIRE_CHROMIUM();
  const std::string logging = "--enable-logging=stderr --v=0";
  std::string dom = renderDom(write(), dir_, renders_++, "", logging);
  EXPECT_EQ(slurp(dir_ / "chromium.log").find(":CONSOLE"), std::string::npos)
      << slurp(dir_ / "chromium.log");
  std::string canvas = tagOf(dom, "flame");
  EXPECT_NE(canvas.find("data-measure=\"drag\""), std::string::npos) << canvas;
  EXPECT_NE(canvas.find("data-drawn=\"10\""), std::string::npos) << canvas;
  // 5 rows of 17 px: all > run > main > build > app.Point.
  EXPECT_NE(canvas.find("height: 85px"), std::string::npos) << canvas;
  EXPECT_EQ(textOf(dom, "flame-details"),
            "all \u2014 23 bytes of drag held on average (100.00% of all drag)");
  EXPECT_NE(tagOf(dom, "flame-drag").find("aria-pressed=\"true\""), std::string::npos);
  EXPECT_EQ(textOf(dom, "avg-drag"), "23 bytes");
  EXPECT_EQ(textOf(dom, "avg-total"), "; 52 bytes reachable on average");
  EXPECT_EQ(textOf(dom, "summary"),
            "44.27% of the total space is drag (4.58% actionable, 39.69% below the death "
            "precision, 0.00% until exit), 8.17% is lag, 16.79% is void and 30.76% is in use.");

  dom = renderWithScript(
      "document.getElementById('flame-void').click();"
      "document.body.dataset.hash = location.hash;",
      logging);
  EXPECT_EQ(slurp(dir_ / "chromium.log").find(":CONSOLE"), std::string::npos)
      << slurp(dir_ / "chromium.log");
  canvas = tagOf(dom, "flame");
  EXPECT_NE(canvas.find("data-measure=\"void\""), std::string::npos) << canvas;
  EXPECT_NE(canvas.find("data-drawn=\"9\""), std::string::npos) << canvas;
  EXPECT_EQ(textOf(dom, "flame-details"),
            "all \u2014 9 bytes of void held on average (100.00% of all void)");
  EXPECT_NE(dom.find("data-hash=\"#flame=void\""), std::string::npos);
  EXPECT_NE(tagOf(dom, "flame-void").find("aria-pressed=\"true\""), std::string::npos);

  canvas = tagOf(render("flame=lag"), "flame");
  EXPECT_NE(canvas.find("data-measure=\"lag\""), std::string::npos) << canvas;
}

// Another ranking, and a class's nested sites.
TEST_F(LifetimeHtml, ChromiumRanksByVoidAndShowsAClassesSites) {
  REQUIRE_CHROMIUM();
  std::string dom = render("rank=void&sel=class:1");
  EXPECT_NE(tagOf(dom, "rank-void").find("aria-pressed=\"true\""), std::string::npos);
  auto classes = rowsOf(dom, "classes");
  ASSERT_EQ(classes.size(), 4u);
  EXPECT_EQ(classes[0].substr(0, 12), "1 | app.Poin");
  EXPECT_EQ(classes[1].substr(0, 23), "4 | java.lang.String | ");
  EXPECT_EQ(textOf(dom, "detail-title"), "Class 1: app.Point");
  auto sites = rowsOf(dom, "detail-nested");
  ASSERT_EQ(sites.size(), 1u);
  EXPECT_EQ(sites[0].substr(0, 15), "1 | app.Point a");
  EXPECT_NE(tagOf(dom, "classes").find("class=\"data\""), std::string::npos);
}

// A profile without its End chunk, recorded without use stacks: both are said.
TEST_F(LifetimeHtml, ChromiumWarnsOfIncompleteProfilesAndStacksOff) {
  REQUIRE_CHROMIUM();
  dragnet::profile::Profile p = dragnet::test::lifetimeProfile({{"stacks", "off"}});
  p.complete = false;
  read(p);
  std::string dom = render();
  EXPECT_EQ(textOf(dom, "badges"), "incomplete");
  std::string warnings = textOf(dom, "warnings");
  EXPECT_NE(warnings.find("Incomplete profile: the JVM did not finish writing it"),
            std::string::npos)
      << warnings;
  EXPECT_NE(warnings.find("Recorded with use-contexts=off"), std::string::npos) << warnings;
  EXPECT_EQ(textOf(dom, "total-space"), "104,800");
  // A site's lifetime patterns would show only "not recorded" stacks: one line instead.
  dom = render("sel=nested:1");
  EXPECT_EQ(textOf(dom, "patterns-not-recorded"),
            "Not recorded in this profile: dragnet run --mode lifetime --use-contexts records "
            "where first and last gets happen (exact variant only).");
  EXPECT_EQ(innerHtml(dom, "detail-patterns").find("pattern-1"), std::string::npos);
}

// A sampled profile (sample=64, weights 3, 3, 4, 2, 3, 2, 3: aggregate_test.cpp) says so
// next to the totals: a badge, a warning and the text report's "sampled" line, weighted
// counts and precision, and the representative object's weight; an exact profile says none
// of it.
TEST_F(LifetimeHtml, SampledProfileSaysItsNumbersAreEstimates) {
  const std::string note =
      "one object per ~64 bytes allocated, 7 tracked: counts and spaces are estimates (each "
      "object stands for the objects of its size the sampler skipped)";
  EXPECT_TRUE(data()["sampled"].is_null());  // the exact profile of SetUp
  read(dragnet::test::lifetimeProfile({{"sample", "64"}}));
  nlohmann::json j = data();
  EXPECT_EQ(j["sampled"], note);
  EXPECT_EQ(j["settings"]["sample"], 64);
  EXPECT_EQ(j["totals"]["objects"], 20);
  EXPECT_EQ(j["precision"]["freed"], 17);  // all but object 5 (3 x 4 + 3 + 2 + 3 + 2)
  EXPECT_EQ(j["precision"]["aliveAtEnd"], 3);
  EXPECT_EQ(j["nested"][0]["patterns"][0]["representative"]["weight"], 3);  // object 2
  REQUIRE_CHROMIUM();
  std::string dom = render("sel=nested:1");
  EXPECT_EQ(textOf(dom, "badges"), "completesampled: estimates");
  EXPECT_EQ(textOf(dom, "sampled-warning"), "Sampled profile (sample=64): " + note + ".");
  EXPECT_EQ(textOf(dom, "total-objects"), "20");
  EXPECT_NE(textOf(dom, "totals").find("0 lagged (unused through a forced GC), 8 dragged, 5 void"),
            std::string::npos);
  auto settings = rowsOf(dom, "settings");
  ASSERT_EQ(settings.size(), 8u);
  EXPECT_EQ(settings[0],
            "time | 2,000 bytes allocated (time is bytes allocated, estimated from the samples)");
  EXPECT_EQ(settings[1], "sampled | " + note);
  // Gaps 400, 200, 500, 500, 400, 200 weighted 3, 4, 3, 2, 3, 2: 6,100 / 17 = 358.8.
  EXPECT_EQ(settings[5],
            "precision | deaths known to within 500 bytes (largest gap), 359 on average, over 17 "
            "freed objects; 3 objects alive at the end (they die at the end time)");
  std::string first = textOf(dom, "pattern-1");
  EXPECT_NE(first.find("For example object 2 (24 bytes; a tracked record that stands for 3 "
                       "objects): allocated at 200,"),
            std::string::npos)
      << first;

  read(dragnet::test::lifetimeProfile());
  dom = render("sel=nested:1");
  EXPECT_EQ(textOf(dom, "badges"), "complete");
  EXPECT_EQ(tagOf(dom, "sampled-warning"), "");
  EXPECT_EQ(textOf(dom, "warnings"), "");
  settings = rowsOf(dom, "settings");
  ASSERT_EQ(settings.size(), 8u);  // the exact profile has the java heap row
  EXPECT_EQ(settings[0], "time | 2,000 bytes allocated (time is bytes allocated)");
  EXPECT_EQ(settings[1].rfind("gc interval | ", 0), 0u) << settings[1];
  EXPECT_NE(textOf(dom, "pattern-1").find("For example object 2 (24 bytes): allocated at 200"),
            std::string::npos);
}

}  // namespace
