// The HTML report of the known profile (known_profile.h), rendered by headless Chromium
// (chromium_dom.h): the test reads back the DOM after the page's script ran (totals, frames
// drawn, search results, zoom path, table rows) and compares exact numbers. Skipped when no
// Chromium is installed.
#include "analyses/alloc/report/html_report.h"

#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>

#include "chromium_dom.h"
#include "contexts/model.h"
#include "known_profile.h"
#include "profile/reader.h"
#include "report/templates.h"

namespace fs = std::filesystem;
using dragnet::test::Variant;

namespace {

using namespace dragnet::test;

class HtmlReport : public ::testing::Test {
 protected:
  void SetUp() override { dir_ = dragnet::test::testDir(); }

  // Writes the report of `v` and returns its path.
  fs::path write(Variant v) {
    fs::path path = dragnet::test::writeKnownProfile(dir_, v);
    std::string error;
    EXPECT_TRUE(dragnet::profile::readProfile(path.string(), profile_, error)) << error;
    model_ = dragnet::contexts::buildModel(profile_);
    fs::path html = dir_ / (path.stem().string() + ".html");
    std::ofstream out(html, std::ios::binary);
    dragnet::report::writeHtml(out, model_, {});
    return html;
  }

  // The DOM after the page's script ran, at 1200x900 (every frame of the known profile is
  // wider than the 0.5 px below which the page skips frames).
  std::string render(const fs::path& html, const std::string& hash = "") {
    return dragnet::test::renderDom(html, dir_, renders_++, hash);
  }

  fs::path dir_;
  int renders_ = 0;
  dragnet::profile::Profile profile_;
  dragnet::contexts::AllocModel model_;
};

// Without a browser: the file is self-contained and its data is safe inside <script>.
TEST_F(HtmlReport, FileIsSelfContainedWithSafeData) {
  std::string page = slurp(write(Variant::Exact));
  EXPECT_EQ(page.rfind("<!DOCTYPE html>", 0), 0u);
  for (const char* placeholder : {"@TITLE@", "/*@CSS@*/", "@BODY@", "@DATA@", "/*@SCRIPT@*/"}) {
    EXPECT_EQ(page.find(placeholder), std::string::npos) << placeholder;
  }
  for (const char* remote : {"http://", "https://", "<link", "src=\""}) {
    EXPECT_EQ(page.find(remote), std::string::npos) << remote;
  }
  // The embedded assets cannot end their own element early.
  for (auto [files, asset] : {std::pair{dragnet::reportTemplateFiles(), "report.css"},
                              std::pair{dragnet::reportTemplateFiles(), "report.js"},
                              std::pair{dragnet::allocPageFiles(), "page.css"},
                              std::pair{dragnet::allocPageFiles(), "page.js"}}) {
    std::string text(dragnet::report::embeddedText(files, asset));
    ASSERT_FALSE(text.empty()) << asset;
    EXPECT_EQ(text.find("</"), std::string::npos) << asset;
  }
  std::string open = "<script type=\"application/json\" id=\"profile-data\">";
  size_t start = page.find(open) + open.size();
  std::string data = page.substr(start, page.find("</script>", start) - start);
  EXPECT_EQ(data.find('<'), std::string::npos);  // no "</script>" from a profile string
  auto j = nlohmann::json::parse(data);
  EXPECT_EQ(j["totals"]["bytes"], 557616);
  EXPECT_EQ(j["notRewritten"][1][2], dragnet::test::kMarkupReason);
  // Pruned: app.Main.rare and its app.Tiny (16 bytes, 1 object, no bytecodes) are below
  // 0.01% of every metric; their values go to the worker's app.Main.build.
  EXPECT_EQ(j["tree"]["contexts"], 11);
  EXPECT_EQ(j["tree"]["shown"], 9);
  EXPECT_EQ(j["tree"]["bytes"][8], 16);  // preorder: ..., 8 = worker's build, 9 = its Point
}

TEST_F(HtmlReport, ChromiumRendersTotalsFramesAndTables) {
  REQUIRE_CHROMIUM();
  std::string dom = render(write(Variant::Exact));
  EXPECT_EQ(textOf(dom, "title"), "Allocation profile of pid 4711");
  EXPECT_EQ(textOf(dom, "total-bytes"), "557,616");
  EXPECT_EQ(textOf(dom, "total-objects"), "21,051");
  EXPECT_EQ(textOf(dom, "total-arrays"), "150");
  EXPECT_EQ(textOf(dom, "total-calls"), "19");
  EXPECT_EQ(textOf(dom, "total-bytecodes"), "1,800");
  EXPECT_EQ(textOf(dom, "total-threads"), "2");
  EXPECT_EQ(textOf(dom, "total-classes"), "3");
  EXPECT_EQ(textOf(dom, "total-agent"), "351,744");
  EXPECT_NE(textOf(dom, "totals").find("29,312 at exit, max-memory 1,073,741,824"),
            std::string::npos);
  EXPECT_NE(textOf(dom, "totals").find("15,000 elements"), std::string::npos);
  EXPECT_NE(textOf(dom, "totals").find("2 classes or methods not rewritten"), std::string::npos);
  EXPECT_EQ(textOf(dom, "counting"),
            "Counted: exact: every allocation the program's bytecode performs, including those "
            "the JIT later eliminates by escape analysis or scalar replacement.");
  std::string hidden = textOf(dom, "hidden-classes");
  EXPECT_TRUE(hidden.starts_with("1 hidden class not instrumented: the JVM defines hidden"))
      << hidden;
  EXPECT_TRUE(hidden.ends_with(". app.Main$$Lambda \u00d71.")) << hidden;
  EXPECT_EQ(textOf(dom, "warnings"), textOf(dom, "counting") + hidden);  // nothing else
  EXPECT_EQ(textOf(dom, "badges"), "completeexact");
  // Bytes: the root, main, build, Point, int[], parse, char[], String, and the worker's
  // build and Point.
  EXPECT_EQ(textOf(dom, "fg-drawn"), "10");
  EXPECT_EQ(textOf(dom, "fg-pruned"),
            "9 of 11 contexts shown; 2 below 0.01% of every metric left out (their values are "
            "counted in their callers)");
  EXPECT_EQ(textOf(dom, "details"), "all threads \u2014 557,616 bytes, 100.0% of all");
  EXPECT_EQ(textOf(dom, "search-result"), "");
  EXPECT_TRUE(pressed(dom, "metric-bytes"));
  EXPECT_FALSE(pressed(dom, "metric-objects"));
  EXPECT_EQ(tagOf(dom, "metric-bytecodes").find("disabled"), std::string::npos);

  auto sites = rowsOf(dom, "sites-bytes");
  ASSERT_EQ(sites.size(), 5u);
  // The last column: the first application frame, here the allocating method at its line.
  EXPECT_EQ(sites[0],
            "504,000 | 90.4% | 21,000 | \u2013 | app.Point | app.Main.build(Main.java:10) | "
            "app.Main.build(Main.java:10)");
  EXPECT_EQ(sites[1],
            "41,600 | 7.5% | 100 | 10,000 | int[] | app.Main.build(Main.java:11) | "
            "app.Main.build(Main.java:11)");
  EXPECT_EQ(sites[4],
            "16 | 0.0% | 1 | \u2013 | app.Tiny | app.Main.rare(Main.java:30) | "
            "app.Main.rare(Main.java:30)");
  auto byObjects = rowsOf(dom, "sites-objects");
  ASSERT_EQ(byObjects.size(), 5u);
  EXPECT_EQ(byObjects[1],
            "41,600 | 7.5% | 100 | 10,000 | int[] | app.Main.build(Main.java:11) | "
            "app.Main.build(Main.java:11)");
  EXPECT_EQ(byObjects[2],
            "10,800 | 1.9% | 50 | 5,000 | char[] | app.Main.parse(Main.java:20) | "
            "app.Main.parse(Main.java:20)");
  EXPECT_EQ(byObjects[3],
            "1,200 | 0.2% | 50 | \u2013 | java.lang.String | "
            "app.Main.parse(Main.java:21) | app.Main.parse(Main.java:21)");
  auto types = rowsOf(dom, "types");
  ASSERT_EQ(types.size(), 5u);
  EXPECT_EQ(types[2], "10,800 | 1.9% | 50 | 5,000 | char[]");
  auto notRewritten = rowsOf(dom, "not-rewritten");
  ASSERT_EQ(notRewritten.size(), 2u);
  EXPECT_EQ(notRewritten[0], "app.Bad |  | Truncated class file");
  // Markup in a profile string stays text: escaped in the DOM, no element made of it.
  EXPECT_EQ(notRewritten[1], std::string("app.Big | huge()V | ") + dragnet::test::kMarkupReason);
  EXPECT_EQ(dom.find("<b id=\"injected\""), std::string::npos);
  EXPECT_NE(dom.find("&lt;b id=\"injected\"&gt;"), std::string::npos);
  EXPECT_EQ(textOf(dom, "nr-summary"),
            "2 classes or methods ran unchanged, so their allocations are not counted:");
}

TEST_F(HtmlReport, ChromiumRunsScriptedSearchMetricAndZoom) {
  REQUIRE_CHROMIUM();
  fs::path html = write(Variant::Exact);
  // Search: both app.Point frames, 504,000 of 557,616 bytes.
  std::string dom = render(html, "search=Point");
  EXPECT_EQ(textOf(dom, "search-result"), "2 matching frames: 504,000 bytes, 90.4% of all");
  EXPECT_EQ(textOf(dom, "fg-drawn"), "10");
  // The same search by objects: 21,000 of 21,201 objects and arrays (the pruned app.Tiny
  // counts in its caller).
  dom = render(html, "metric=objects&search=Point");
  EXPECT_EQ(textOf(dom, "search-result"),
            "2 matching frames: 21,000 objects and arrays, 99.1% of all");
  EXPECT_TRUE(pressed(dom, "metric-objects"));
  EXPECT_FALSE(pressed(dom, "metric-bytes"));
  // A regular expression, and a search that matches a frame inside another match once.
  dom = render(html, "search=/^app\\.Main\\.(main|parse)$/");
  EXPECT_EQ(textOf(dom, "search-result"), "2 matching frames: 533,600 bytes, 95.7% of all");
  // Bytecodes: only the method frames have any (root, main, build, parse, worker's build).
  dom = render(html, "metric=bytecodes");
  EXPECT_EQ(textOf(dom, "fg-drawn"), "5");
  EXPECT_EQ(textOf(dom, "details"), "all threads \u2014 1,800 bytecodes, 100.0% of all");
  // Zoom into app.Main.parse (preorder index 5): its ancestors, itself and its 2 types.
  dom = render(html, "zoom=5");
  EXPECT_EQ(textOf(dom, "fg-drawn"), "5");
  EXPECT_EQ(textOf(dom, "crumbs"), "all threads\u203aapp.Main.main\u203aapp.Main.parse");
  EXPECT_EQ(textOf(dom, "details"), "app.Main.parse (Main.java) \u2014 12,000 bytes, 2.2% of all");
}

TEST_F(HtmlReport, ChromiumShowsSampledAndIncompleteProfiles) {
  REQUIRE_CHROMIUM();
  std::string dom = render(write(Variant::Sampled));
  std::string warnings = textOf(dom, "warnings");
  EXPECT_NE(warnings.find("Incomplete profile"), std::string::npos) << warnings;
  EXPECT_NE(warnings.find("Sampled profile (sample=524288): about one allocation per 524,288 "
                          "bytes"),
            std::string::npos)
      << warnings;
  EXPECT_NE(warnings.find("every number here is an estimate"), std::string::npos) << warnings;
  EXPECT_TRUE(textOf(dom, "counting").starts_with("Counted: sampled heap traffic: "));
  EXPECT_EQ(textOf(dom, "hidden-classes"), "[missing #hidden-classes]");
  EXPECT_EQ(textOf(dom, "badges"), "incompletesampled: estimates");
  EXPECT_EQ(textOf(dom, "total-bytes"), "\u2248 557,616");
  EXPECT_EQ(rowsOf(dom, "types")[0], "\u2248 504,000 | 90.4% | \u2248 21,000 | \u2013 | app.Point");
  EXPECT_EQ(textOf(dom, "total-classes"), "[missing #total-classes]");  // no End chunk
  // Sampling records no calls: n/a, not 0; its threads are recorded.
  EXPECT_EQ(textOf(dom, "total-calls"), "n/a");
  EXPECT_EQ(textOf(dom, "total-threads"), "2");
}

// The run the profile records, in the masthead (report/run_info.h); nothing of it for a
// profile without it.
TEST_F(HtmlReport, ChromiumShowsTheRun) {
  REQUIRE_CHROMIUM();
  fs::path plain = write(Variant::Exact);
  EXPECT_EQ(textOf(render(plain), "run"), "");
  profile_.meta["command.line"] = "java -cp app.jar app.Main 'a b'";
  profile_.meta["main"] = "app.Main";
  profile_.meta["java.vm.name"] = "OpenJDK 64-Bit Server VM";
  profile_.meta["java.vm.version"] = "17.0.9+9";
  profile_.meta["java.vm.vendor"] = "Debian";
  profile_.meta["java.version"] = "17.0.9";
  profile_.meta["host"] = "build-7";
  profile_.meta["start"] = "2026-11-28T05:18:37.123Z";
  profile_.meta["duration.ms"] = "1234";
  profile_.meta["dragnet.version"] = "0.1.0";
  model_ = dragnet::contexts::buildModel(profile_);
  fs::path html = dir_ / "run.html";
  {
    std::ofstream out(html, std::ios::binary);
    dragnet::report::writeHtml(out, model_, {});
  }
  std::string dom = render(html);
  EXPECT_EQ(textOf(dom, "run-command"), "java -cp app.jar app.Main 'a b'");
  EXPECT_EQ(textOf(dom, "run-main"), "app.Main");
  EXPECT_EQ(textOf(dom, "run-jvm"), "OpenJDK 64-Bit Server VM 17.0.9+9 (Debian), Java 17.0.9");
  EXPECT_EQ(textOf(dom, "run-host"), "build-7");
  EXPECT_EQ(textOf(dom, "run-started"), "2026-11-28T05:18:37.123Z, ran 1.234 s");
  EXPECT_EQ(textOf(dom, "run-dragnet"), "0.1.0");
}

}  // namespace
