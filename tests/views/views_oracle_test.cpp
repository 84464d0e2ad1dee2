// The report views end to end: ViewsOracle.java runs once under `dragnet run` (mode alloc,
// exact), then `dragnet report` shows its first application frames and applies the stack
// filters in every format, against what the program is known to allocate (ViewsOracle.java):
// 1,000 P in direct(); 100 ArrayList in viaJdk() and their Object[50] in
// java.util.ArrayList.<init>; 200 int[10] in lib.Helper.make from viaLib(). The HTML page is
// rendered in headless Chromium (skipped without one).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "../report/chromium_dom.h"
#include "../report/pprof_decode.h"

namespace fs = std::filesystem;
using Json = nlohmann::json;

namespace {

fs::path work() { return fs::path(DRAGNET_BINARY_DIR) / "tests" / "views-oracle"; }
fs::path profilePath() { return work() / "views.dragnet"; }
fs::path lifetimePath() { return work() / "views-lifetime.dragnet"; }
fs::path sampledPath() { return work() / "views-sampled.dragnet"; }

std::string slurp(const fs::path& p) { return dragnet::test::slurp(p); }

// The line of the source file `file` (under tests/views) that ends with "// @marker".
int lineOf(const std::string& file, const std::string& marker) {
  std::ifstream in(fs::path(DRAGNET_VIEWS_SOURCE) / file);
  int n = 0;
  for (std::string line; std::getline(in, line);) {
    ++n;
    if (line.ends_with("// @" + marker)) return n;
  }
  return -1;
}

struct Output {
  int status = 0;
  std::string out, err;
};

// `dragnet report PROFILE ARGS` with its stdout in a file of the test's own.
Output report(const std::string& args, const std::string& name = "out",
              const fs::path& profile = profilePath()) {
  fs::path out = work() / (name + ".txt"), err = work() / (name + ".err");
  std::string cmd = std::string("'") + DRAGNET_CLI + "' report '" + profile.string() + "' " + args +
                    " > '" + out.string() + "' 2> '" + err.string() + "'";
  int rc = std::system(cmd.c_str());
  return {WEXITSTATUS(rc), slurp(out), slurp(err)};
}

Json reportJson(const std::string& args, const fs::path& profile = profilePath()) {
  Output r = report("-f json " + args, "json", profile);
  EXPECT_EQ(r.status, 0) << r.err;
  return Json::parse(r.out);
}

// byFirstAppFrame as frame -> (count, elements).
std::map<std::string, std::pair<uint64_t, uint64_t>> groups(const Json& j) {
  std::map<std::string, std::pair<uint64_t, uint64_t>> g;
  for (const Json& row : j.at("byFirstAppFrame")) {
    g[row.at("frame").get<std::string>()] = {row.at("count"), row.at("elements")};
  }
  return g;
}

// The site rows of `type` whose innermost frame starts with `frame`.
std::vector<Json> rowsOf(const Json& j, const std::string& type, const std::string& frame) {
  std::vector<Json> rows;
  for (const Json& row : j.at("sites")) {
    if (row.at("type") == type && row.at("frames").at(0).get<std::string>().starts_with(frame)) {
      rows.push_back(row);
    }
  }
  return rows;
}

class ViewsOracle : public ::testing::Test {
 protected:
  // One JVM run for all the tests of this binary.
  static void SetUpTestSuite() {
    fs::create_directories(work());
    std::string cmd = std::string("timeout -s KILL 180 '") + DRAGNET_CLI + "' run -o '" +
                      profilePath().string() + "' -- '" + DRAGNET_JAVA + "' -cp '" +
                      DRAGNET_VIEWS_CLASSES + "' ViewsOracle > '" + (work() / "run.out").string() +
                      "' 2> '" + (work() / "run.err").string() + "'";
    status_ = std::system(cmd.c_str());
    cmd = std::string("timeout -s KILL 180 '") + DRAGNET_CLI + "' run --mode lifetime -o '" +
          lifetimePath().string() + "' -- '" + DRAGNET_JAVA + "' -cp '" + DRAGNET_VIEWS_CLASSES +
          "' ViewsOracle > '" + (work() / "lifetime.out").string() + "' 2> '" +
          (work() / "lifetime.err").string() + "'";
    lifetimeStatus_ = std::system(cmd.c_str());
    cmd = std::string("timeout -s KILL 180 '") + DRAGNET_CLI + "' run --sample 1k -o '" +
          sampledPath().string() + "' -- '" + DRAGNET_JAVA + "' -cp '" + DRAGNET_VIEWS_CLASSES +
          "' ViewsOracle > '" + (work() / "sampled.out").string() + "' 2> '" +
          (work() / "sampled.err").string() + "'";
    sampledStatus_ = std::system(cmd.c_str());
  }

  void SetUp() override {
    ASSERT_EQ(status_, 0) << slurp(work() / "run.err");
    ASSERT_EQ(slurp(work() / "run.out"), "views oracle done\n");
  }

  static int status_, lifetimeStatus_, sampledStatus_;
};
int ViewsOracle::sampledStatus_ = -1;
int ViewsOracle::status_ = -1;
int ViewsOracle::lifetimeStatus_ = -1;

// The planted allocations' first application frames, exactly, and the grouping by them: each
// group is the sum of the rows whose innermost non-JDK frame is its method, none is dropped.
TEST_F(ViewsOracle, FirstApplicationFrameAndItsGrouping) {
  Json j = reportJson("");
  auto g = groups(j);
  using Pair = std::pair<uint64_t, uint64_t>;
  EXPECT_EQ(g["ViewsOracle.direct(ViewsOracle.java)"], Pair(1000, 0));
  EXPECT_EQ(g["ViewsOracle.viaJdk(ViewsOracle.java)"], Pair(200, 5000));
  EXPECT_EQ(g["lib.Helper.make(Helper.java)"], Pair(200, 2000));
  ASSERT_TRUE(g.count("(no application frame)"));  // the JVM's own threads, start-up
  EXPECT_GT(g["(no application frame)"].first, 0u);

  // The column: at the allocating line when the frame allocates, else without a line.
  auto points = rowsOf(j, "ViewsOracle$P", "ViewsOracle.direct(");
  ASSERT_EQ(points.size(), 1u);
  EXPECT_EQ(points[0].at("count"), 1000);
  EXPECT_EQ(points[0].at("firstAppFrame"),
            "ViewsOracle.direct(ViewsOracle.java:" +
                std::to_string(lineOf("ViewsOracle.java", "direct")) + ")");
  auto arrays = rowsOf(j, "java.lang.Object[]", "java.util.ArrayList.<init>(");
  uint64_t viaJdk = 0;
  for (const Json& row : arrays) {
    if (row.at("frames").at(1) != "ViewsOracle.viaJdk(ViewsOracle.java)") continue;
    EXPECT_EQ(row.at("firstAppFrame"), "ViewsOracle.viaJdk(ViewsOracle.java)");
    viaJdk += row.at("count").get<uint64_t>();
  }
  EXPECT_EQ(viaJdk, 100u);
  auto lists = rowsOf(j, "java.util.ArrayList", "ViewsOracle.viaJdk(");
  ASSERT_EQ(lists.size(), 1u);
  EXPECT_EQ(lists[0].at("firstAppFrame"), "ViewsOracle.viaJdk(ViewsOracle.java:" +
                                              std::to_string(lineOf("ViewsOracle.java", "viaJdk")) +
                                              ")");
  auto ints = rowsOf(j, "int[]", "lib.Helper.make(");
  ASSERT_EQ(ints.size(), 1u);
  EXPECT_EQ(
      ints[0].at("firstAppFrame"),
      "lib.Helper.make(Helper.java:" + std::to_string(lineOf("lib/Helper.java", "make")) + ")");

  // Every row in exactly one group: recomputed from the rows' frames by the definition.
  std::map<std::string, Pair> expected;
  uint64_t count = 0, bytes = 0, grouped = 0, groupedBytes = 0;
  for (const Json& row : j.at("sites")) {
    std::string key = "(no application frame)";
    for (const Json& f : row.at("frames")) {
      std::string frame = f.get<std::string>();
      bool jdk = false;
      for (const char* p : {"java.", "javax.", "jdk.", "sun.", "com.sun."}) {
        jdk = jdk || frame.starts_with(p);
      }
      if (jdk) continue;
      std::string method = frame.substr(0, frame.find('('));
      std::string file = frame.substr(frame.find('(') + 1);
      key = method + "(" + file.substr(0, file.find_first_of(":)")) + ")";
      break;
    }
    expected[key].first += row.at("count").get<uint64_t>();
    expected[key].second += row.at("elements").get<uint64_t>();
    count += row.at("count").get<uint64_t>();
    bytes += row.at("bytes").get<uint64_t>();
  }
  EXPECT_EQ(g, expected);
  for (const Json& row : j.at("byFirstAppFrame")) {
    grouped += row.at("count").get<uint64_t>();
    groupedBytes += row.at("bytes").get<uint64_t>();
  }
  const Json& t = j.at("totals");
  EXPECT_EQ(grouped, t.at("objects").get<uint64_t>() + t.at("arrays").get<uint64_t>());
  EXPECT_EQ(grouped, count);
  EXPECT_EQ(groupedBytes, t.at("bytes").get<uint64_t>());
  EXPECT_EQ(groupedBytes, bytes);

  // The text report: the column and the table.
  Output text = report("--top 100");
  ASSERT_EQ(text.status, 0) << text.err;
  EXPECT_NE(text.out.find("site, type  | first application frame"), std::string::npos);
  EXPECT_NE(text.out.find("Top first application frames by bytes"), std::string::npos);
  EXPECT_NE(text.out.find("ViewsOracle$P  | ViewsOracle.direct(ViewsOracle.java:"),
            std::string::npos)
      << text.out;
}

// --app-exclude lib.: the library's frames are not the application's; its allocations go to
// their caller.
TEST_F(ViewsOracle, AppExcludeMovesLibraryFramesToTheirCaller) {
  Json j = reportJson("--app-exclude lib.,org.example.");
  EXPECT_EQ(j.at("appExclude"), Json::array({"lib.", "org.example."}));
  auto g = groups(j);
  EXPECT_EQ(g.count("lib.Helper.make(Helper.java)"), 0u);
  EXPECT_EQ(g["ViewsOracle.viaLib(ViewsOracle.java)"],
            std::make_pair(uint64_t{200}, uint64_t{2000}));
  auto ints = rowsOf(j, "int[]", "lib.Helper.make(");
  ASSERT_EQ(ints.size(), 1u);
  EXPECT_EQ(ints[0].at("firstAppFrame"), "ViewsOracle.viaLib(ViewsOracle.java)");
  Output text = report("--app-exclude lib.");
  EXPECT_NE(text.out.find("  app        frames not the application's: the JDK's and lib.\n"),
            std::string::npos)
      << text.out;
}

// The filters' totals, exactly, in every format.
TEST_F(ViewsOracle, FiltersKeepExactTotals) {
  Json whole = reportJson("");
  const Json& all = whole.at("totals");
  uint64_t allObjects = all.at("objects").get<uint64_t>() + all.at("arrays").get<uint64_t>();

  Json inc = reportJson("--include ViewsOracle.viaJdk");
  EXPECT_EQ(inc.at("totals").at("objects"), 100);
  EXPECT_EQ(inc.at("totals").at("arrays"), 100);
  EXPECT_EQ(inc.at("totals").at("elements"), 5000);
  const Json& f = inc.at("filter");
  EXPECT_EQ(f.at("include"), Json::array({"ViewsOracle.viaJdk"}));
  EXPECT_EQ(f.at("kept").at("objects"), 200);
  EXPECT_EQ(f.at("kept").at("bytes"), inc.at("totals").at("bytes"));
  EXPECT_EQ(f.at("total").at("objects"), allObjects);
  EXPECT_EQ(f.at("total").at("bytes"), all.at("bytes"));
  EXPECT_DOUBLE_EQ(f.at("keptShare").get<double>(),
                   inc.at("totals").at("bytes").get<double>() / all.at("bytes").get<double>());
  EXPECT_EQ(inc.at("sites").size(), 2u);  // ArrayList, and its Object[] in ArrayList.<init>

  // A stack with a java.* frame is dropped: viaJdk's Object[] (in ArrayList.<init>).
  Json both = reportJson("--include 'ViewsOracle.via*' --exclude 'java.*'");
  EXPECT_EQ(both.at("totals").at("objects"), 100);
  EXPECT_EQ(both.at("totals").at("arrays"), 200);
  EXPECT_EQ(both.at("totals").at("elements"), 2000);

  // Without the program's frames, what is left has no application frame at all.
  Json none = reportJson("--exclude 'ViewsOracle.*'");
  for (const Json& g : whole.at("byFirstAppFrame")) {
    if (g.at("frame") != "(no application frame)") continue;
    EXPECT_EQ(none.at("totals").at("bytes"), g.at("bytes"));
    EXPECT_EQ(none.at("totals").at("objects").get<uint64_t>() +
                  none.at("totals").at("arrays").get<uint64_t>(),
              g.at("count").get<uint64_t>());
  }

  // --focus: stacks through ArrayList.<init>, shown from it on.
  std::string focus = "--include ViewsOracle.viaJdk --focus 'java.util.ArrayList.<init>'";
  Json foc = reportJson(focus);
  EXPECT_EQ(foc.at("totals").at("objects"), 0);
  EXPECT_EQ(foc.at("totals").at("arrays"), 100);
  EXPECT_EQ(foc.at("totals").at("elements"), 5000);
  Output collapsed = report("-f collapsed " + focus);
  ASSERT_EQ(collapsed.status, 0) << collapsed.err;
  std::istringstream lines(collapsed.out);
  uint64_t collapsedBytes = 0;
  for (std::string line; std::getline(lines, line);) {
    EXPECT_TRUE(line.starts_with("java.util.ArrayList.<init>(ArrayList.java:")) << line;
    collapsedBytes += std::stoull(line.substr(line.rfind(' ') + 1));
  }
  EXPECT_EQ(collapsedBytes, foc.at("totals").at("bytes").get<uint64_t>());

  // pprof: the kept samples and the filter as a comment.
  fs::path pb = work() / "focus.pb.gz";
  Output pprof = report("-f pprof -o '" + pb.string() + "' " + focus);
  ASSERT_EQ(pprof.status, 0) << pprof.err;
  auto d = dragnet::test::pprof::decodeProfile(dragnet::test::pprof::gunzip(slurp(pb)));
  uint64_t space = 0, objects = 0;
  for (const auto& [stack, values] : d.samples) {
    EXPECT_NE(stack.find(";java.util.ArrayList.<init>:"), std::string::npos) << stack;
    objects += values.at(0);
    space += values.at(1);
  }
  EXPECT_EQ(objects, 100u);
  EXPECT_EQ(space, foc.at("totals").at("bytes").get<uint64_t>());
  bool commented = false;
  for (const std::string& c : d.comments) {
    commented = commented || c.starts_with(
                                 "filter include ViewsOracle.viaJdk; focus "
                                 "java.util.ArrayList.<init>: kept ");
  }
  EXPECT_TRUE(commented);

  // The text header says which filters and what share they kept.
  Output text = report("--include ViewsOracle.viaJdk");
  char share[16];
  std::snprintf(share, sizeof share, "%.1f%%", 100.0 * f.at("keptShare").get<double>());
  EXPECT_NE(text.out.find("  filter     include ViewsOracle.viaJdk: kept "), std::string::npos)
      << text.out;
  EXPECT_NE(text.out.find(std::string("bytes (") + share + "), 200 of "), std::string::npos)
      << text.out;
}

// The page: the column and the table; the filter inputs (set from the URL hash) recompute
// the tables and the flame graph; no console message.
TEST_F(ViewsOracle, HtmlFiltersRecomputeTheTables) {
  REQUIRE_CHROMIUM();
  fs::path html = work() / "views.html", dir = work() / "html";
  fs::create_directories(dir);
  Output r = report("-f html --top 50 -o '" + html.string() + "'");
  ASSERT_EQ(r.status, 0) << r.err;
  const std::string logging = "--enable-logging=stderr --v=0";
  std::string dom = dragnet::test::renderDom(html, dir, 0, "", logging);
  EXPECT_EQ(slurp(dir / "chromium.log").find(":CONSOLE"), std::string::npos)
      << slurp(dir / "chromium.log");
  auto apps = dragnet::test::rowsOf(dom, "by-first-app");
  bool none = false;
  for (const std::string& row : apps) none = none || row.ends_with("| (no application frame)");
  EXPECT_TRUE(none);
  auto sites = dragnet::test::rowsOf(dom, "sites-objects");
  ASSERT_FALSE(sites.empty());
  const std::string direct = "ViewsOracle.direct(ViewsOracle.java:" +
                             std::to_string(lineOf("ViewsOracle.java", "direct")) + ")";
  EXPECT_TRUE(sites[0].starts_with("16,000 | ")) << sites[0];
  EXPECT_TRUE(sites[0].ends_with("| 1,000 | \u2013 | ViewsOracle$P | " + direct + " | " + direct))
      << sites[0];
  EXPECT_EQ(dragnet::test::textOf(dom, "filter-result"), "");

  Json inc = reportJson("--include ViewsOracle.viaJdk");
  dom = dragnet::test::renderDom(html, dir, 1, "include=ViewsOracle.viaJdk", logging);
  EXPECT_EQ(slurp(dir / "chromium.log").find(":CONSOLE"), std::string::npos)
      << slurp(dir / "chromium.log");
  const Json& f = inc.at("filter");
  char share[16];
  std::snprintf(share, sizeof share, "%.1f%%", 100.0 * f.at("keptShare").get<double>());
  auto grouped = [](uint64_t v) {  // 1234567 -> "1,234,567"
    std::string digits = std::to_string(v), out;
    for (size_t k = 0; k < digits.size(); ++k) {
      if (k > 0 && (digits.size() - k) % 3 == 0) out.push_back(',');
      out.push_back(digits[k]);
    }
    return out;
  };

  EXPECT_EQ(dragnet::test::textOf(dom, "filter-result"),
            "kept " + grouped(f.at("kept").at("bytes")) + " of " +
                grouped(f.at("total").at("bytes")) + " bytes (" + share + "), 200 of " +
                grouped(f.at("total").at("objects")) + " objects and arrays");
  apps = dragnet::test::rowsOf(dom, "by-first-app");
  ASSERT_EQ(apps.size(), 1u);
  EXPECT_EQ(apps[0], grouped(f.at("kept").at("bytes")) +
                         " | 100.0% | 200 | n/a | ViewsOracle.viaJdk(ViewsOracle.java)");
  sites = dragnet::test::rowsOf(dom, "sites-bytes");
  ASSERT_EQ(sites.size(), 2u);
  EXPECT_NE(sites[0].find("| 100 | n/a | java.lang.Object[] | java.util.ArrayList.<init>("),
            std::string::npos)
      << sites[0];
  EXPECT_TRUE(sites[0].ends_with("| ViewsOracle.viaJdk(ViewsOracle.java)")) << sites[0];
  // The flame graph: all > main > viaJdk > (ArrayList, ArrayList.<init> > Object[]), and the
  // constructors ArrayList.<init> calls.
  EXPECT_NE(dragnet::test::textOf(dom, "fg-drawn"), "");
  EXPECT_LT(std::stoi(dragnet::test::textOf(dom, "fg-drawn")), 12);

  // Typing into an input: the filter applies (after its short delay; Chromium's virtual time
  // runs the timers) and goes into the URL hash.
  fs::path typed = work() / "typed.html";
  std::string page = slurp(html);
  page.insert(page.rfind("</body>"),
              "<script>const i = document.getElementById('f-include');"
              "i.value = 'ViewsOracle.viaLib'; i.dispatchEvent(new Event('input'));"
              "setTimeout(() => { document.body.dataset.hash = location.hash; }, 1000);</script>");
  std::ofstream(typed, std::ios::binary) << page;
  dom = dragnet::test::renderDom(typed, dir, 3, "", logging + " --virtual-time-budget=3000");
  EXPECT_EQ(slurp(dir / "chromium.log").find(":CONSOLE"), std::string::npos)
      << slurp(dir / "chromium.log");
  EXPECT_NE(dom.find("data-hash=\"#include=ViewsOracle.viaLib\""), std::string::npos);
  uint64_t libBytes = 0;  // the 200 int[10]
  Json whole = reportJson("");
  for (const Json& g : whole.at("byFirstAppFrame")) {
    if (g.at("frame") == "lib.Helper.make(Helper.java)") libBytes = g.at("bytes").get<uint64_t>();
  }
  EXPECT_EQ(
      dragnet::test::textOf(dom, "filter-result").rfind("kept " + grouped(libBytes) + " of ", 0),
      0u)
      << dragnet::test::textOf(dom, "filter-result");
  apps = dragnet::test::rowsOf(dom, "by-first-app");
  ASSERT_EQ(apps.size(), 1u);
  EXPECT_EQ(apps[0], grouped(libBytes) + " | 100.0% | 200 | n/a | lib.Helper.make(Helper.java)");

  // Filtered by dragnet report: the page says so.
  fs::path filtered = work() / "filtered.html";
  r = report("-f html --include ViewsOracle.viaJdk -o '" + filtered.string() + "'");
  ASSERT_EQ(r.status, 0) << r.err;
  dom = dragnet::test::renderDom(filtered, dir, 2, "", logging);
  EXPECT_EQ(dragnet::test::textOf(dom, "cli-filter")
                .rfind("Filtered by dragnet report (include ViewsOracle.viaJdk): kept ", 0),
            0u)
      << dragnet::test::textOf(dom, "cli-filter");
}

// Mode lifetime: the same first application frames (of the nested sites) and the filters
// as the objects the model takes.
TEST_F(ViewsOracle, LifetimeFirstApplicationFramesAndFilters) {
  ASSERT_EQ(lifetimeStatus_, 0) << slurp(work() / "lifetime.err");
  ASSERT_EQ(slurp(work() / "lifetime.out"), "views oracle done\n");
  auto objects = [](const Json& j) {
    std::map<std::string, uint64_t> g;
    for (const Json& row : j.at("byFirstAppFrame")) g[row.at("frame")] = row.at("objects");
    return g;
  };
  Json j = reportJson("", lifetimePath());
  auto g = objects(j);
  EXPECT_EQ(g["ViewsOracle.direct(ViewsOracle.java)"], 1000u);
  EXPECT_EQ(g["ViewsOracle.viaJdk(ViewsOracle.java)"], 200u);
  EXPECT_EQ(g["lib.Helper.make(Helper.java)"], 200u);
  EXPECT_GT(g["(no application frame)"], 0u);
  uint64_t sum = 0;
  for (const auto& [frame, n] : g) sum += n;
  EXPECT_EQ(sum, j.at("totals").at("objects").get<uint64_t>());
  bool column = false;
  for (const Json& s : j.at("nested")) {
    if (s.at("type") != "ViewsOracle$P" ||
        !s.at("frames").at(0).get<std::string>().starts_with("ViewsOracle.direct(")) {
      continue;
    }
    column = true;
    EXPECT_EQ(s.at("firstAppFrame"), "ViewsOracle.direct(ViewsOracle.java:" +
                                         std::to_string(lineOf("ViewsOracle.java", "direct")) +
                                         ")");
  }
  EXPECT_TRUE(column);
  auto lib = objects(reportJson("--app-exclude lib.", lifetimePath()));
  EXPECT_EQ(lib.count("lib.Helper.make(Helper.java)"), 0u);
  EXPECT_EQ(lib["ViewsOracle.viaLib(ViewsOracle.java)"], 200u);

  Json inc = reportJson("--include ViewsOracle.viaJdk", lifetimePath());
  EXPECT_EQ(inc.at("totals").at("objects"), 200);
  EXPECT_EQ(inc.at("filter").at("kept").at("objects"), 200);
  EXPECT_EQ(inc.at("filter").at("total").at("objects"), j.at("totals").at("objects"));
  EXPECT_EQ(inc.at("filter").at("total").at("bytes"), j.at("totals").at("bytes"));
  Json both = reportJson("--include 'ViewsOracle.via*' --exclude 'java.*'", lifetimePath());
  EXPECT_EQ(both.at("totals").at("objects"), 300);  // 100 ArrayList, 200 int[]
  Json foc = reportJson("--focus 'java.util.ArrayList.<init>' --include ViewsOracle.viaJdk",
                        lifetimePath());
  EXPECT_EQ(foc.at("totals").at("objects"), 100);  // the Object[50]s
  // The flame graphs from the focus frame on: one stack, ArrayList.<init>'s Object[].
  Output flame = report(
      "-f collapsed --opt measure=void --focus 'java.util.ArrayList.<init>' "
      "--include ViewsOracle.viaJdk",
      "lifetime-collapsed", lifetimePath());
  ASSERT_EQ(flame.status, 0) << flame.err;
  EXPECT_TRUE(flame.out.starts_with("java.util.ArrayList.<init>(ArrayList.java:")) << flame.out;
  EXPECT_NE(flame.out.find(";java.lang.Object[] "), std::string::npos) << flame.out;
  EXPECT_EQ(std::count(flame.out.begin(), flame.out.end(), '\n'), 1) << flame.out;
  Output text = report("--include ViewsOracle.viaJdk", "lifetime", lifetimePath());
  EXPECT_NE(text.out.find("  filter     include ViewsOracle.viaJdk: kept "), std::string::npos)
      << text.out;
}

// Mode alloc sampled: estimates, so no known counts; but the same views over them: the
// groups add up to the totals, and the filtered totals are the kept rows' sums and the
// header's "kept".
TEST_F(ViewsOracle, SampledViewsAddUp) {
  ASSERT_EQ(sampledStatus_, 0) << slurp(work() / "sampled.err");
  Json j = reportJson("", sampledPath());
  ASSERT_TRUE(j.at("sampled").get<bool>());
  uint64_t count = 0, bytes = 0;
  for (const Json& g : j.at("byFirstAppFrame")) {
    count += g.at("count").get<uint64_t>();
    bytes += g.at("bytes").get<uint64_t>();
  }
  const Json& t = j.at("totals");
  EXPECT_EQ(count, t.at("objects").get<uint64_t>() + t.at("arrays").get<uint64_t>());
  EXPECT_EQ(bytes, t.at("bytes").get<uint64_t>());
  Json inc = reportJson("--include 'ViewsOracle.via*'", sampledPath());
  uint64_t kept = 0, keptCount = 0;
  for (const Json& row : inc.at("sites")) {
    bool through = false;
    for (const Json& f : row.at("frames")) {
      through = through || f.get<std::string>().starts_with("ViewsOracle.via");
    }
    EXPECT_TRUE(through) << row.dump();
    kept += row.at("bytes").get<uint64_t>();
    keptCount += row.at("count").get<uint64_t>();
  }
  EXPECT_GT(kept, 0u);
  EXPECT_EQ(inc.at("filter").at("kept").at("bytes").get<uint64_t>(), kept);
  EXPECT_EQ(inc.at("filter").at("kept").at("objects").get<uint64_t>(), keptCount);
  EXPECT_EQ(inc.at("filter").at("total").at("bytes"), t.at("bytes"));
  uint64_t through = 0;  // the unfiltered rows through a via* frame: the same
  for (const Json& row : j.at("sites")) {
    for (const Json& f : row.at("frames")) {
      if (f.get<std::string>().starts_with("ViewsOracle.via")) {
        through += row.at("bytes").get<uint64_t>();
        break;
      }
    }
  }
  EXPECT_EQ(through, kept);
}

}  // namespace
