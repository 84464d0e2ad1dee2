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
  EXPECT_NE(text.find("\n  total space  24,000\n"), std::string::npos) << text;
  EXPECT_NE(text.find("\n  void                             16,000  66.67% of the total space "
                      "is void\n"),
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
  // The alloc-only formats say so.
  EXPECT_EQ(report(profile, "-f pprof -o '" + (dir / "r.pb.gz").string() + "'", log), 2);
  EXPECT_NE(slurp(log).find("pprof is not available for a lifetime profile"), std::string::npos)
      << slurp(log);
}

}  // namespace
