// A toy third mode (tests/agent/toy_mode: one folder, one registry line) in an agent of its
// own, built from the same core and alloc's agent part: its probes go into the same rewrite
// as the calling-context base's, so the profile has alloc's exact counts and the program
// sees the toy's calls. ToyOracle's loops run until C2 compiles them; -Xint agrees.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <string>

#include "contexts/model.h"
#include "oracle_jvms.h"
#include "profile/reader.h"

namespace fs = std::filesystem;

namespace {

struct ToyRun {
  std::string stdout_;
  dragnet::profile::Profile profile;
};

struct Sum {
  uint64_t count = 0, elements = 0;
};

// Runs ToyOracle with `agent` and `options`; its output and its profile.
ToyRun run(const std::string& agent, const std::string& options, const std::string& flags) {
  fs::path work = fs::path(DRAGNET_BINARY_DIR) / "tests" / "alloc-oracle";
  std::string tag = std::to_string(::getpid()) + "-" +
                    std::to_string(std::hash<std::string>{}(agent + options + flags));
  fs::path prof = work / ("toy-" + tag + ".dragnet");
  fs::path out = work / ("toy-" + tag + ".txt");
  std::string cmd = dragnet::test::killAfterTimeout() + "java " + flags + " -agentpath:'" + agent +
                    "'=quiet=on," + options + ",out='" + prof.string() + "' -cp '" +
                    (work / "classes").string() + "' ToyOracle > '" + out.string() + "'";
  ToyRun r;
  EXPECT_EQ(std::system(cmd.c_str()), 0) << cmd;
  r.stdout_ = dragnet::test::readFile(out);
  std::string error;
  EXPECT_TRUE(dragnet::profile::readProfile(prof.string(), r.profile, error)) << error;
  fs::remove(prof);
  fs::remove(out);
  return r;
}

// What ToyOracle's method `method` allocated, over every context.
Sum allocatedIn(const dragnet::profile::Profile& p, const std::string& method) {
  dragnet::contexts::AllocModel m = dragnet::contexts::buildModel(p);
  Sum s;
  for (const auto& row : m.rows) {
    if (!row.site) continue;
    auto def = p.methods.find(row.site->method);
    if (def == p.methods.end() || def->second.cls != "ToyOracle" || def->second.name != method) {
      continue;
    }
    s.count += row.count;
    s.elements += row.elements;
  }
  return s;
}

TEST(ToyMode, RunsWithAllocInOneRewritePass) {
  for (const char* flags : {"-Xbatch", "-Xint"}) {
    SCOPED_TRACE(flags);
    ToyRun toy = run(DRAGNET_TOY_AGENT, "mode=toy", flags);
    ToyRun alloc = run(DRAGNET_AGENT, "mode=alloc", flags);
    // The toy's probe ran at every call of the two counted methods, only under the toy.
    EXPECT_EQ(toy.stdout_, "hits 100000\n");
    EXPECT_EQ(alloc.stdout_, "hits 0\n");
    EXPECT_EQ(toy.profile.meta["mode"], "toy");
    EXPECT_EQ(toy.profile.totals["toy.probes"], "2");
    // alloc's counts, exact, from the same rewrite.
    for (const auto& run : {&toy, &alloc}) {
      Sum array = allocatedIn(run->profile, "countedArray");
      EXPECT_EQ(array.count, 50000u);
      EXPECT_EQ(array.elements, 350000u);
      EXPECT_EQ(allocatedIn(run->profile, "countedObject").count, 50000u);
      EXPECT_EQ(allocatedIn(run->profile, "plain").count, 50000u);
    }
  }
}

}  // namespace
