// `dragnet report -f html|pprof` end to end: the command writes the files (the formats'
// contents are checked in html_report_test.cpp and pprof_report_test.cpp); a lifetime
// profile gets the lifetime reports (checked in tests/lifetime).
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "known_profile.h"
#include "profile/writer.h"

namespace fs = std::filesystem;

namespace {

std::string slurp(const fs::path& p) {
  std::ifstream f(p, std::ios::binary);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

int report(const fs::path& profile, const std::string& args, const fs::path& log) {
  std::string cmd = "'" + std::string(DRAGNET_CLI) + "' report '" + profile.string() + "' " + args +
                    " 2> '" + log.string() + "'";
  int status = std::system(cmd.c_str());
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

TEST(ReportCli, WritesHtmlAndPprof) {
  fs::path dir = dragnet::test::testDir();
  fs::path profile = dragnet::test::writeKnownProfile(dir, dragnet::test::Variant::Exact);
  fs::path log = dir / "stderr.txt";
  ASSERT_EQ(report(profile, "-f html -o '" + (dir / "r.html").string() + "'", log), 0)
      << slurp(log);
  EXPECT_EQ(slurp(dir / "r.html").rfind("<!DOCTYPE html>", 0), 0u);

  ASSERT_EQ(report(profile, "--format pprof -o '" + (dir / "r.pb.gz").string() + "'", log), 0)
      << slurp(log);
  std::string gz = slurp(dir / "r.pb.gz");
  ASSERT_GE(gz.size(), 2u);
  EXPECT_EQ(gz.substr(0, 2), "\x1f\x8b");
  // To a pipe or file (not a terminal) pprof may go to stdout: the same bytes.
  ASSERT_EQ(report(profile, "-f pprof > '" + (dir / "stdout.pb.gz").string() + "'", log), 0);
  EXPECT_EQ(slurp(dir / "stdout.pb.gz"), gz);

  EXPECT_NE(report(profile, "-f svg", log), 0);
  EXPECT_NE(slurp(log).find("svg"), std::string::npos) << slurp(log);
}

// Two objects of 1,000 bytes of time: a void one of 16 bytes (16,000), and one of 8 bytes
// got at 100 (lag 800, in use until its death 7,200; the default use epoch, 65,536, ends
// after it). Total space 24,000.
fs::path writeLifetimeProfile(const fs::path& dir) {
  using namespace dragnet::profile;
  fs::path path = dir / "lifetime.dragnet";
  Writer w;
  std::string error;
  if (!w.open(path.string(), error)) throw std::runtime_error(error);
  w.meta({{"mode", "lifetime"}, {"gc.interval", "1000"}});
  w.methods({{1, "app/Main", "main", "()V", "Main.java"}});
  const uint32_t key = kAllocBit | 1u << 4;
  w.sites({{key, 1, 0, 5, SiteKind::New, "app/Box"}});
  ThreadChunk t;
  t.thread = 1;
  t.name = "main";
  t.firstNode = 1;
  t.nodes = {{0, 1}};
  w.thread(t);
  w.gcs(1, {{1000, true}});
  ObjectRecord unused;
  unused.id = 1;
  unused.thread = unused.node = 1;
  unused.key = key;
  unused.size = 16;
  unused.death = 1000;
  unused.deathGc = 1;
  ObjectRecord got = unused;
  got.id = 2;
  got.size = 8;
  got.firstGet = got.lastGet = 100;
  w.objects({unused, got});
  w.end({});
  w.close();
  return path;
}

TEST(ReportCli, LifetimeProfileTextJsonAndHtml) {
  fs::path dir = dragnet::test::testDir();
  fs::path profile = writeLifetimeProfile(dir);
  fs::path log = dir / "stderr.txt";
  ASSERT_EQ(report(profile, "> '" + (dir / "r.txt").string() + "'", log), 0) << slurp(log);
  std::string text = slurp(dir / "r.txt");
  EXPECT_EQ(text.rfind("dragnet lifetime profile\n", 0), 0u) << text;
  EXPECT_NE(text.find("\n  total space  24,000; "), std::string::npos) << text;
  EXPECT_NE(text.find("\n  void                             16,000  66.67% of the total space "
                      "is void; "),
            std::string::npos)
      << text;
  ASSERT_EQ(report(profile, "-f json -o '" + (dir / "r.json").string() + "'", log), 0)
      << slurp(log);
  std::string json = slurp(dir / "r.json");
  EXPECT_NE(json.find("\"format\": \"dragnet-lifetime\""), std::string::npos) << json;
  EXPECT_NE(json.find("\"total\": 24000.0"), std::string::npos) << json;
  // The lifetime HTML page (its content is checked in tests/lifetime/lifetime_html_test.cpp).
  ASSERT_EQ(report(profile, "-f html -o '" + (dir / "r.html").string() + "'", log), 0)
      << slurp(log);
  std::string html = slurp(dir / "r.html");
  EXPECT_EQ(html.rfind("<!DOCTYPE html>", 0), 0u);
  EXPECT_NE(html.find("\"format\":\"dragnet-lifetime-html\""), std::string::npos);
  // Flame graphs of a measure: pprof (gzip) and collapsed; a measure it does not have is a
  // usage error.
  ASSERT_EQ(report(profile, "-f pprof -o '" + (dir / "r.pb.gz").string() + "'", log), 0)
      << slurp(log);
  EXPECT_EQ(slurp(dir / "r.pb.gz").rfind("\x1f\x8b", 0), 0u);
  ASSERT_EQ(
      report(profile, "-f collapsed --opt measure=void > '" + (dir / "r.txt").string() + "'", log),
      0)
      << slurp(log);
  EXPECT_NE(slurp(dir / "r.txt").find(" 16000\n"), std::string::npos) << slurp(dir / "r.txt");
  EXPECT_EQ(report(profile, "-f collapsed --opt measure=size", log), 2);
  EXPECT_NE(slurp(log).find("expected measure=drag, void or lag"), std::string::npos) << slurp(log);
}

// A cost profile's meta only: mode cost's reports with the options given by --opt.
fs::path writeCostProfile(const fs::path& dir) {
  using namespace dragnet::profile;
  fs::path path = dir / "cost.dragnet";
  Writer w;
  std::string error;
  if (!w.open(path.string(), error)) throw std::runtime_error(error);
  w.meta({{"mode", "cost"}, {"flow.slots", "8"}});
  w.end({});
  w.close();
  return path;
}

// --opt NAME=VALUE: the analysis's report options (docs/REPORTS.md, "Report options"); a
// bad item is a usage error like the CLI's others (status 2, the message on stderr).
TEST(ReportCli, ReportOptions) {
  fs::path dir = dragnet::test::testDir();
  fs::path cost = writeCostProfile(dir);
  fs::path log = dir / "stderr.txt";
  fs::path json = dir / "r.json";
  ASSERT_EQ(
      report(cost, "-f json -o '" + json.string() + "' --opt consumer-rab=0 --opt height=2", log),
      0)
      << slurp(log);
  std::string j = slurp(json);
  EXPECT_NE(j.find("\"consumerRab\": 0,\n    \"consumerRule\": false,\n    \"height\": 2"),
            std::string::npos)
      << j;
  EXPECT_NE(j.find("\"slots\": 8"), std::string::npos) << j;
  ASSERT_EQ(report(cost, "-f json -o '" + json.string() + "'", log), 0) << slurp(log);
  EXPECT_NE(slurp(json).find("\"consumerRab\": 1048576,"), std::string::npos);

  int usage = report(cost, "-f svg", log);  // one of the CLI's own usage errors
  EXPECT_EQ(usage, 2);
  fs::path out = dir / "none.txt";
  EXPECT_EQ(report(cost, "--opt height=9 -o '" + out.string() + "'", log), usage);
  EXPECT_EQ(slurp(log), "dragnet: error: --opt height=9: expected 1, 2, 3 or 4\n");
  EXPECT_FALSE(fs::exists(out));
  EXPECT_EQ(report(cost, "--opt consumer-rab=-1", log), usage);
  EXPECT_NE(slurp(log).find("--opt consumer-rab=-1: expected a whole number"), std::string::npos);
  EXPECT_EQ(report(cost, "--opt depth=2", log), usage);
  EXPECT_EQ(slurp(log),
            "dragnet: error: --opt depth=2: mode cost has no report option 'depth' (its options: "
            "consumer-rab, height)\n");
  EXPECT_EQ(report(cost, "--opt height", log), usage);
  EXPECT_EQ(slurp(log), "dragnet: error: --opt height: expected NAME=VALUE\n");
  // An analysis takes its own options only.
  fs::path alloc = dragnet::test::writeKnownProfile(dir, dragnet::test::Variant::Exact);
  EXPECT_EQ(report(alloc, "--opt height=2", log), usage);
  EXPECT_NE(slurp(log).find("mode alloc has no report option 'height' (its options: thread)"),
            std::string::npos)
      << slurp(log);

  // dragnet shell takes them too: `set` shows them; a bad one stops it before the session.
  std::string shell = "'" + std::string(DRAGNET_CLI) + "' shell '" + cost.string() + "' ";
  std::string cmd = "printf 'set\\n' | " + shell + "--opt consumer-rab=0 > '" +
                    (dir / "shell.txt").string() + "' 2> '" + log.string() + "'";
  ASSERT_EQ(std::system(cmd.c_str()), 0) << slurp(log);
  EXPECT_EQ(slurp(dir / "shell.txt"), "consumer-rab 0 (the rule off)\nheight 4\n");
  cmd = shell + "--opt height=0 < /dev/null 2> '" + log.string() + "'";
  int status = std::system(cmd.c_str());
  EXPECT_EQ(WIFEXITED(status) ? WEXITSTATUS(status) : -1, usage);
  EXPECT_EQ(slurp(log), "dragnet: error: --opt height=0: expected 1, 2, 3 or 4\n");
}

}  // namespace
