// `dragnet report -f html|pprof` end to end: the command writes the files (the formats'
// contents are checked in html_report_test.cpp and pprof_report_test.cpp).
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdlib>
#include <fstream>
#include <sstream>

#include "known_profile.h"

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

}  // namespace
