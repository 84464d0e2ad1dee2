// The run a profile records (report/run_info.h): its Meta entries as the JSON "run" object
// and the text heading's lines, the same through every analysis's heading; a profile
// without them (written before they were recorded) reads with nulls and no lines.
#include "report/run_info.h"

#include <gtest/gtest.h>

#include <sstream>

#include "report/json_text.h"
#include "report/text_format.h"

namespace {

using Json = nlohmann::ordered_json;

dragnet::profile::Profile runProfile() {
  dragnet::profile::Profile p;
  p.complete = true;
  p.meta = {{"pid", "4711"},
            {"command", "app.Main a b"},
            {"command.line", "/usr/bin/java -cp app.jar app.Main a 'b c'"},
            {"main", "app.Main"},
            {"java.vm.name", "OpenJDK 64-Bit Server VM"},
            {"java.vm.vendor", "Debian"},
            {"java.vm.version", "17.0.9+9-Debian-1deb12u1"},
            {"java.version", "17.0.9"},
            {"host", "build-7"},
            {"start", "2026-11-28T05:18:37.123Z"},
            {"duration.ms", "1234"},
            {"dragnet.version", "0.1.0"}};
  return p;
}

std::string heading(const dragnet::profile::Profile& p) {
  std::ostringstream out;
  dragnet::report::writeHeading(out, dragnet::report::jsonHead(p, "test"), "test");
  return out.str();
}

TEST(RunInfo, JsonHasEveryField) {
  Json run = dragnet::report::runJson(runProfile());
  EXPECT_EQ(run["commandLine"], "/usr/bin/java -cp app.jar app.Main a 'b c'");
  EXPECT_EQ(run["command"], "app.Main a b");
  EXPECT_EQ(run["mainClass"], "app.Main");
  EXPECT_EQ(run["jvm"]["name"], "OpenJDK 64-Bit Server VM");
  EXPECT_EQ(run["jvm"]["vendor"], "Debian");
  EXPECT_EQ(run["jvm"]["version"], "17.0.9+9-Debian-1deb12u1");
  EXPECT_EQ(run["javaVersion"], "17.0.9");
  EXPECT_EQ(run["host"], "build-7");
  EXPECT_EQ(run["start"], "2026-11-28T05:18:37.123Z");
  EXPECT_EQ(run["durationMs"], 1234);
  EXPECT_EQ(run["dragnetVersion"], "0.1.0");
  EXPECT_EQ(dragnet::report::jsonHead(runProfile(), "test")["run"], run);
}

TEST(RunInfo, HeadingShowsTheRunUnderTheTitle) {
  EXPECT_EQ(heading(runProfile()),
            "dragnet test profile (pid 4711)\n"
            "  command   /usr/bin/java -cp app.jar app.Main a 'b c'\n"
            "  main      app.Main\n"
            "  jvm       OpenJDK 64-Bit Server VM 17.0.9+9-Debian-1deb12u1 (Debian), Java 17.0.9\n"
            "  host      build-7\n"
            "  started   2026-11-28T05:18:37.123Z, ran 1.234 s\n"
            "  dragnet   0.1.0\n");
}

// A killed JVM's profile: its duration runs to the last flush.
TEST(RunInfo, IncompleteProfileSaysUpToItsLastFlush) {
  dragnet::profile::Profile p = runProfile();
  p.complete = false;
  EXPECT_NE(heading(p).find("  started   2026-11-28T05:18:37.123Z, ran 1.234 s up to its last "
                            "flush\n"),
            std::string::npos)
      << heading(p);
}

// Written before the run was recorded: nulls in JSON, no lines; the command alone (meta
// `command`, recorded earlier) where it is the only one.
TEST(RunInfo, OldProfileReadsWithoutTheRun) {
  dragnet::profile::Profile p;
  p.complete = true;
  p.meta = {{"pid", "1"}};
  Json run = dragnet::report::runJson(p);
  for (const char* key :
       {"/commandLine", "/command", "/mainClass", "/jvm/name", "/jvm/vendor", "/jvm/version",
        "/javaVersion", "/host", "/start", "/durationMs", "/dragnetVersion"}) {
    EXPECT_TRUE(run[Json::json_pointer(key)].is_null()) << key;
  }
  EXPECT_EQ(heading(p), "dragnet test profile (pid 1)\n");
  p.meta["command"] = "app.Main x";
  p.meta["duration.ms"] = "12x";  // not a number: left out
  EXPECT_EQ(heading(p), "dragnet test profile (pid 1)\n  command   app.Main x\n");
}

}  // namespace
