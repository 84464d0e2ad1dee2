// `dragnet diff` end to end on two alloc profiles written with the profile Writer (no JVM):
//
//   A: app.Main.main > app.Main.build: 20,000 app.Point (line 10, 24 bytes each), 100 int[]
//      (line 11, 41,600 bytes), 1,000 lambda proxies app.Main$$Lambda$14 (line 12, 16 bytes
//      each, hidden class at 0x0000000800c03000); app.Main.rare: 20,000 app.Tiny (line 30,
//      16 bytes each)
//   B: 30,000 app.Point (+240,000 bytes), the same int[], 1,000 lambda proxies named
//      app.Main$$Lambda$15 at another address (the same after normalisation: unchanged),
//      no app.Tiny (vanished, -320,000 bytes), and 100,000 byte[16] at line 40 (3,200,000
//      bytes, appeared)
//
// Sites, types and contexts rank the new byte[] first, then the vanished Tiny, then the
// Point growth; the lambda's site is not listed. The text, the JSON and the HTML page
// (rendered in headless Chromium: no console output, the flame graph drawn with the
// appeared frames red and the vanished blue, the tables' rows) say so; profiles of
// different modes or variants are refused with status 2.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <nlohmann/json.hpp>

#include "chromium_dom.h"
#include "known_profile.h"
#include "profile/writer.h"

namespace fs = std::filesystem;
using dragnet::profile::Counters;

namespace {

using dragnet::test::slurp;

constexpr uint32_t kMain = 1, kBuild = 2, kRare = 3;

constexpr uint32_t site(uint32_t index, dragnet::profile::ElemKind kind) {
  return dragnet::profile::kAllocBit | index << 4 | static_cast<uint32_t>(kind);
}
constexpr uint32_t kPoint = site(1, dragnet::profile::ElemKind::Object);
constexpr uint32_t kInts = site(2, dragnet::profile::ElemKind::Int);
constexpr uint32_t kLambda = site(3, dragnet::profile::ElemKind::Object);
constexpr uint32_t kTiny = site(4, dragnet::profile::ElemKind::Object);
constexpr uint32_t kBytes = site(5, dragnet::profile::ElemKind::Byte);

// One profile: `b` selects B's numbers (above). `meta` overrides meta entries.
fs::path writeProfile(const fs::path& path, bool b,
                      const std::map<std::string, std::string>& meta = {}) {
  using namespace dragnet::profile;
  Writer w;
  std::string error;
  if (!w.open(path.string(), error)) throw std::runtime_error(error);
  std::map<std::string, std::string> m{{"mode", "alloc"}, {"pid", b ? "2002" : "1001"}};
  for (const auto& [k, v] : meta) m[k] = v;
  w.meta(m);
  std::string lambda =
      b ? "app/Main$$Lambda$15.0x0000000800d04000" : "app/Main$$Lambda$14.0x0000000800c03000";
  w.methods({{kMain, "app/Main", "main", "([Ljava/lang/String;)V", "Main.java"},
             {kBuild, "app/Main", "build", "()V", "Main.java"},
             {kRare, "app/Main", "rare", "()V", "Main.java"}});
  using K = SiteKind;
  w.sites({{kPoint, kBuild, 4, 10, K::New, "app/Point"},
           {kInts, kBuild, 12, 11, K::NewArray, "[I"},
           {kLambda, kBuild, 20, 12, K::Reflect, lambda},
           {kTiny, kRare, 0, 30, K::New, "app/Tiny"},
           {kBytes, kBuild, 30, 40, K::NewArray, "[B"}});
  ThreadChunk t;
  t.thread = 1;
  t.name = "main";
  t.firstNode = 1;
  t.ended = true;
  t.nodes = {{0, kMain}, {1, kBuild}, {2, kPoint}, {2, kInts}, {2, kLambda}};
  t.counters = {{1, Counters{1, 0, 0, 0}},
                {2, Counters{10, 0, 0, 0}},
                {3, Counters{b ? 30000u : 20000u, 0, 0, 0}},
                {4, Counters{100, 10000, 41600, 0}},
                {5, Counters{1000, 0, 0, 0}}};
  if (b) {
    t.nodes.push_back({2, kBytes});
    t.counters.push_back({6, Counters{100000, 1600000, 3200000, 0}});
  } else {
    t.nodes.push_back({1, kRare});
    t.nodes.push_back({6, kTiny});
    t.counters.push_back({6, Counters{1, 0, 0, 0}});
    t.counters.push_back({7, Counters{20000, 0, 0, 0}});
  }
  w.thread(t);
  w.classSizes({{"app/Point", 24}, {"app/Tiny", 16}, {lambda, 16}});
  w.end({{"threads", "1"}});
  w.close();
  return path;
}

struct Output {
  int status = -1;
  std::string out, err;
};

Output diff(const fs::path& dir, const std::string& args) {
  fs::path out = dir / "stdout.txt", err = dir / "stderr.txt";
  std::string cmd = "'" + std::string(DRAGNET_CLI) + "' diff " + args + " > '" + out.string() +
                    "' 2> '" + err.string() + "'";
  int status = std::system(cmd.c_str());
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, slurp(out), slurp(err)};
}

class DiffCli : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = dragnet::test::testDir();
    a_ = writeProfile(dir_ / "a.dragnet", false);
    b_ = writeProfile(dir_ / "b.dragnet", true);
  }
  std::string both() const { return "'" + a_.string() + "' '" + b_.string() + "'"; }
  fs::path dir_, a_, b_;
};

const char* const kPointSite = "app.Main.build(Main.java:10) app.Point";

TEST_F(DiffCli, TextRanksThePlantedChangesFirst) {
  Output r = diff(dir_, both());
  ASSERT_EQ(r.status, 0) << r.err;
  std::istringstream lines(r.out);
  std::vector<std::string> sites;
  bool in = false;
  for (std::string line; std::getline(lines, line);) {
    if (line.starts_with("Allocation sites by |delta bytes|")) {
      EXPECT_EQ(line,
                "Allocation sites by |delta bytes|: 1 grew, 0 shrank, 1 appeared, 1 vanished");
      in = true;
    } else if (in && line.empty()) {
      break;
    } else if (in) {
      sites.push_back(line);
    }
  }
  ASSERT_EQ(sites.size(), 4u) << r.out;  // the column titles and three rows
  EXPECT_NE(sites[1].find("appeared"), std::string::npos) << sites[1];
  EXPECT_NE(sites[1].find("+3,200,000"), std::string::npos) << sites[1];
  EXPECT_NE(sites[1].find("+100,000"), std::string::npos) << sites[1];  // count
  EXPECT_NE(sites[1].find("new"), std::string::npos) << sites[1];
  EXPECT_NE(sites[1].find("app.Main.build(Main.java:40) byte[]"), std::string::npos) << sites[1];
  EXPECT_NE(sites[2].find("vanished"), std::string::npos) << sites[2];
  EXPECT_NE(sites[2].find("-320,000"), std::string::npos) << sites[2];
  EXPECT_NE(sites[2].find("gone"), std::string::npos) << sites[2];
  EXPECT_NE(sites[3].find("grew"), std::string::npos) << sites[3];
  EXPECT_NE(sites[3].find("480,000"), std::string::npos) << sites[3];
  EXPECT_NE(sites[3].find("720,000"), std::string::npos) << sites[3];
  EXPECT_NE(sites[3].find("+240,000"), std::string::npos) << sites[3];
  EXPECT_NE(sites[3].find("+50.0%"), std::string::npos) << sites[3];
  EXPECT_NE(sites[3].find(kPointSite), std::string::npos) << sites[3];
  // The lambda proxies' site is the same in both once its name is normalised.
  EXPECT_EQ(r.out.find("Lambda"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("  A: " + a_.string() + " (pid 1001)"), std::string::npos) << r.out;
}

TEST_F(DiffCli, JsonHasEveryChangedRowWithItsValues) {
  Output r = diff(dir_, both() + " -f json");
  ASSERT_EQ(r.status, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["format"], "dragnet-diff");
  EXPECT_EQ(j["mode"], "alloc");
  EXPECT_EQ(j["variant"], "exact");
  EXPECT_EQ(j["totals"][0]["measure"], "bytes");
  EXPECT_EQ(j["totals"][0]["a"], 480000 + 41600 + 16000 + 320000);
  EXPECT_EQ(j["totals"][0]["b"], 720000 + 41600 + 16000 + 3200000);
  const auto& tables = j["tables"];
  ASSERT_EQ(tables.size(), 3u);
  EXPECT_EQ(tables[0]["id"], "sites");
  EXPECT_EQ(tables[0]["measures"], nlohmann::json({"bytes", "count"}));
  const auto& rows = tables[0]["rows"];
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows[0]["key"], "app.Main.build(Main.java:40) byte[]");
  EXPECT_EQ(rows[0]["change"], "appeared");
  EXPECT_EQ(rows[0]["delta"], nlohmann::json({3200000, 100000}));
  EXPECT_TRUE(rows[0]["percent"].is_null());
  EXPECT_EQ(rows[1]["change"], "vanished");
  EXPECT_EQ(rows[1]["delta"], nlohmann::json({-320000, -20000}));
  EXPECT_EQ(rows[2]["key"], kPointSite);
  EXPECT_EQ(rows[2]["a"], nlohmann::json({480000, 20000}));
  EXPECT_EQ(rows[2]["b"], nlohmann::json({720000, 30000}));
  EXPECT_EQ(rows[2]["percent"], 50.0);
  EXPECT_EQ(tables[1]["id"], "types");
  EXPECT_EQ(tables[1]["rows"][0]["key"], "byte[]");
  EXPECT_EQ(tables[2]["id"], "contexts");
  EXPECT_EQ(tables[2]["rows"][0]["key"],
            "app.Main.main(Main.java);app.Main.build(Main.java:40);byte[]");
  EXPECT_EQ(tables[2]["rows"][1]["key"],
            "app.Main.main(Main.java);app.Main.rare(Main.java:30);app.Tiny");
}

TEST_F(DiffCli, TopMinDeltaAndSort) {
  Output r = diff(dir_, both() + " -f json --min-delta 300000");
  ASSERT_EQ(r.status, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["tables"][0]["rows"].size(), 2u);  // the Point growth (+240,000) left out
  EXPECT_EQ(j["tables"][0]["counts"]["grew"], 1);
  r = diff(dir_, both() + " --top 1");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("... 2 more (--top)"), std::string::npos) << r.out;
  r = diff(dir_, both() + " -f json --sort count");
  ASSERT_EQ(r.status, 0) << r.err;
  j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["tables"][0]["rankedBy"], "count");
  EXPECT_EQ(j["tables"][0]["rows"][0]["key"], "app.Main.build(Main.java:40) byte[]");
  for (const char* bad : {" --top -1", " --min-delta -5"}) {
    r = diff(dir_, both() + bad);
    EXPECT_EQ(r.status, 2) << bad;
    EXPECT_NE(r.err.find("must not be negative"), std::string::npos) << r.err;
  }
  r = diff(dir_, both() + " --sort drag");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("--sort drag: no alloc table has that measure (bytes, count)"),
            std::string::npos)
      << r.err;
}

TEST_F(DiffCli, RefusesProfilesOfDifferentModesOrVariants) {
  fs::path life = writeProfile(dir_ / "life.dragnet", true, {{"mode", "lifetime"}});
  Output r = diff(dir_, "'" + a_.string() + "' '" + life.string() + "'");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("A is an alloc profile and B a lifetime profile"), std::string::npos)
      << r.err;
  EXPECT_TRUE(r.out.empty()) << r.out;
  fs::path sampled = writeProfile(dir_ / "sampled.dragnet", true, {{"sample", "512k"}});
  r = diff(dir_, "'" + a_.string() + "' '" + sampled.string() + "'");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("A is an exact alloc profile and B a sampled one"), std::string::npos)
      << r.err;
  r = diff(dir_, "'" + a_.string() + "'");
  EXPECT_EQ(r.status, 2) << r.err;
}

TEST_F(DiffCli, HtmlPageRendersTheFlameGraphAndTables) {
  REQUIRE_CHROMIUM();
  fs::path html = dir_ / "diff.html";
  Output r = diff(dir_, both() + " -f html -o '" + html.string() + "'");
  ASSERT_EQ(r.status, 0) << r.err;
  std::string page = slurp(html);
  for (const char* remote : {"<link", "src=", "@import", "fetch(", "XMLHttpRequest"}) {
    EXPECT_EQ(page.find(remote), std::string::npos) << remote;
  }
  std::string dom = dragnet::test::renderDom(html, dir_, 0, "", "--enable-logging=stderr --v=0");
  std::string log = slurp(dir_ / "chromium.log");
  EXPECT_EQ(log.find(":CONSOLE"), std::string::npos) << log;
  ASSERT_NE(dom.find("data-ready=\"diff\""), std::string::npos) << dom.substr(0, 2000);
  // The merged tree: all, main, the allocating frames with their lines (build:10, :11, :12,
  // :40, rare:30) and under each its type.
  size_t frames = 0;
  for (size_t at = 0; (at = dom.find("<g class=\"frame ", at)) != std::string::npos; ++at) ++frames;
  EXPECT_EQ(frames, 12u);
  EXPECT_EQ(dragnet::test::textOf(dom, "dfg-drawn"), "12");
  // byte[] appeared: red; app.Tiny and its caller rare vanished: blue; int[] the same: grey.
  // The lambda proxies are one frame, unchanged.
  auto frameClass = [&](const std::string& title) {
    size_t t = dom.find("<title>" + title);
    if (t == std::string::npos) return std::string("[no frame " + title + "]");
    size_t g = dom.rfind("<g class=\"", t);
    return dom.substr(g + 10, dom.find('"', g + 10) - g - 10);
  };
  EXPECT_EQ(frameClass("byte[]\n"), "frame grew");
  EXPECT_EQ(frameClass("app.Tiny\n"), "frame shrank");
  EXPECT_EQ(frameClass("int[]\n"), "frame same");
  EXPECT_EQ(frameClass("app.Main$$Lambda\n"), "frame same");
  EXPECT_NE(dom.find("<title>byte[]\nA 0, B 3,200,000, delta +3,200,000</title>"),
            std::string::npos);
  auto rows = dragnet::test::rowsOf(dom, "table-sites");
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows[0],
            "appeared | app.Main.build(Main.java:40) byte[] | 0 | 3,200,000 | "
            "+3,200,000 | new | +100,000");
  EXPECT_EQ(rows[1],
            "vanished | app.Main.rare(Main.java:30) app.Tiny | 320,000 | 0 | -320,000 | gone | "
            "-20,000");
  EXPECT_EQ(rows[2], std::string("grew | ") + kPointSite +
                         " | 480,000 | 720,000 | +240,000 | +50.0% | +10,000");
  EXPECT_EQ(dragnet::test::textOf(dom, "total-0"), "+3,120,000");
  EXPECT_TRUE(dragnet::test::pressed(dom, "width-max"));
  // Width by B (#width=b): the vanished frames (B: 0) are not drawn.
  dom = dragnet::test::renderDom(html, dir_, 1, "width=b", "--enable-logging=stderr --v=0");
  EXPECT_TRUE(dragnet::test::pressed(dom, "width-b"));
  EXPECT_EQ(dragnet::test::textOf(dom, "dfg-drawn"), "10");
  EXPECT_EQ(dom.find("<title>app.Tiny"), std::string::npos);
}

}  // namespace
