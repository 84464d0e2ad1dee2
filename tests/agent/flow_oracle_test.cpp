// The flow oracles end to end (tests/agent/flow): every program runs under
// `--mode copy` with exact contexts (slots=0) on each oracle JVM, prints what it prints
// without the agent, and the copy model built from its profile (both namings, NATH, clone
// pairs, hot chains, flat and cumulative copies, cuts) holds every record of its expected
// files expected/PROGRAM.ci.edges and .cs.edges, derived by hand from the paper's rules and
// the bytecode; every in-scope edge must be listed there, so an extra edge fails too.
// ListClient and FlowSummaries also run in the interpreter, with C1 only, with C2 (-Xbatch:
// compiled as soon as hot) and with everything compiled first (-Xcomp): the graph must be the
// same exact one at every JIT tier, and the same as with the default flags. DRAGNET_FLOW_DUMP=1
// prints each run's named graphs.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

#include "analyses/copy/model/model.h"
#include "flow_expected.h"
#include "flow_names.h"
#include "oracle_jvms.h"
#include "profile/reader.h"

namespace fs = std::filesystem;
namespace copy = dragnet::analyses::copy;
namespace flow = dragnet::test::flow;
using dragnet::test::JavaRun;
using dragnet::test::Jvm;
using dragnet::test::readFile;

namespace {

fs::path sources() { return fs::path(DRAGNET_SOURCE_DIR) / "tests" / "agent" / "flow"; }
fs::path work() { return fs::path(DRAGNET_BINARY_DIR) / "tests" / "flow-oracle"; }

JavaRun runJava(const Jvm& jvm, const std::string& flags, const std::string& agent,
                const std::string& programLine) {
  return dragnet::test::runJava(work(), jvm, flags, agent, programLine);
}

class FlowOracle : public ::testing::TestWithParam<Jvm> {
 protected:
  void SetUp() override {
    if (!GetParam().missing.empty()) GTEST_SKIP() << GetParam().missing;
    ASSERT_TRUE(fs::exists(work() / "classes" / "ListClient.class"))
        << "build the target dragnet_flow_oracles first";
  }

  // Every `program` line of PROGRAM's expected files under the agent with `flags`, each
  // checked against both files (unless `checkFiles` is false); `scoped` (if given) gets the
  // runs' in-scope edges.
  static void check(const std::string& program, const std::string& flags = "",
                    bool checkFiles = true, std::vector<std::string>* scoped = nullptr) {
    const Jvm& jvm = GetParam();
    std::vector<flow::Expected> files;
    std::vector<std::string> lines;
    for (const char* naming : {"ci", "cs"}) {
      fs::path path = sources() / "expected" / (program + "." + naming + ".edges");
      flow::Expected& e = files.emplace_back(flow::readExpected(path.string(), jvm.major));
      for (const std::string& error : e.errors) ADD_FAILURE() << error;
      for (const std::string& l : e.programs) {
        if (std::find(lines.begin(), lines.end(), l) == lines.end()) lines.push_back(l);
      }
    }
    ASSERT_FALSE(lines.empty());
    const std::string expectedOut = readFile(sources() / "expected" / (program + ".out"));
    ASSERT_FALSE(expectedOut.empty());
    for (const std::string& line : lines) {
      std::string who = "`" + line + "` on " + jvm.name + (flags.empty() ? "" : " " + flags);
      JavaRun plain = runJava(jvm, flags, "", line);
      ASSERT_EQ(plain.status, 0) << who << " without the agent: " << plain.cmd << "\n" << plain.err;
      EXPECT_EQ(plain.out, expectedOut) << who << " without the agent";

      fs::path prof = work() / ("copy-" + std::to_string(::getpid()) + ".dragnet");
      JavaRun r = runJava(jvm, flags,
                          "-agentpath:'" + std::string(DRAGNET_AGENT) +
                              "'=mode=copy,slots=0,quiet=on,out='" + prof.string() + "'",
                          line);
      ASSERT_EQ(r.status, 0) << who << ": " << r.cmd << "\n" << r.err;
      EXPECT_EQ(r.out, expectedOut) << who << ": the output differs under the agent";
      EXPECT_EQ(r.out, plain.out) << who << ": the output differs under the agent";
      dragnet::profile::Profile p;
      std::string error;
      bool read = dragnet::profile::readProfile(prof.string(), p, error);
      fs::remove(prof);
      ASSERT_TRUE(read) << who << ": " << error;
      ASSERT_TRUE(p.complete) << who << ": the profile has no End chunk";
      ASSERT_TRUE(copy::isCopyProfile(p)) << who;
      ASSERT_EQ(copy::settingsOf(p).slots, 0u) << who;

      copy::Model m = copy::buildModel(p);
      flow::SiteLabels labels(p);
      flow::NamedGraph ci(m, copy::Naming::Insensitive, labels);
      flow::NamedGraph cs(m, copy::Naming::Sensitive, labels);
      if (const char* dump = std::getenv("DRAGNET_FLOW_DUMP"); dump && *dump) {
        for (const flow::NamedGraph* g : {&ci, &cs}) std::cerr << who << ":\n" << flow::dump(*g);
      }
      for (const flow::Expected& e : files) {
        if (checkFiles) {
          for (const std::string& f : flow::check(e, ci, cs)) ADD_FAILURE() << who << ": " << f;
        }
        if (!scoped) continue;
        scoped->push_back(e.file + ", `" + line + "`:");
        for (std::string& edge : flow::scopedEdges(e, ci, cs)) scoped->push_back(std::move(edge));
      }
    }
  }
};

TEST_P(FlowOracle, ListClient) { check("ListClient"); }
TEST_P(FlowOracle, ListClient1000) { check("ListClient1000"); }
TEST_P(FlowOracle, CalendarCase) { check("CalendarCase"); }
TEST_P(FlowOracle, FlowSummaries) { check("FlowSummaries"); }
TEST_P(FlowOracle, FlowOpcodes) { check("FlowOpcodes"); }
TEST_P(FlowOracle, FlowTokens) { check("FlowTokens"); }
TEST_P(FlowOracle, FlowCtors) { check("FlowCtors"); }
TEST_P(FlowOracle, FlowThreads) { check("FlowThreads"); }

INSTANTIATE_TEST_SUITE_P(Jvms, FlowOracle, ::testing::ValuesIn(dragnet::test::oracleJvmParams()),
                         [](const auto& info) { return info.param.name; });

// Exact at every JIT tier: the same expected graph in the interpreter, with C1 only, with C2
// compiling as soon as a method is hot (-Xbatch: the caller waits, so the hot loops run
// compiled however busy the machine is) and with every method compiled before it first runs.
// Besides the expected files (which a run may fail for other reasons), the in-scope graph
// must be the one a run with the default flags gives, edge for edge.
class FlowOracleTiers : public FlowOracle {
 protected:
  static void checkTier(const std::string& program, const std::string& flags) {
    std::vector<std::string> tier, plain;
    check(program, flags, true, &tier);
    if (HasFatalFailure()) return;
    check(program, "", false, &plain);
    if (HasFatalFailure()) return;
    std::string only = dragnet::test::tierDifference(tier, plain, flags);
    EXPECT_TRUE(only.empty()) << program << " on " << GetParam().name << ": " << flags
                              << " and the default flags give different in-scope edges:" << only;
  }
};

TEST_P(FlowOracleTiers, ListClientInterpreted) { checkTier("ListClient", "-Xint"); }
TEST_P(FlowOracleTiers, ListClientC1) { checkTier("ListClient", "-XX:TieredStopAtLevel=1"); }
TEST_P(FlowOracleTiers, ListClientC2) { checkTier("ListClient", "-Xbatch"); }
TEST_P(FlowOracleTiers, ListClientCompiled) { checkTier("ListClient", "-Xcomp"); }
TEST_P(FlowOracleTiers, FlowSummariesInterpreted) { checkTier("FlowSummaries", "-Xint"); }
TEST_P(FlowOracleTiers, FlowSummariesC1) { checkTier("FlowSummaries", "-XX:TieredStopAtLevel=1"); }
TEST_P(FlowOracleTiers, FlowSummariesC2) { checkTier("FlowSummaries", "-Xbatch"); }
TEST_P(FlowOracleTiers, FlowSummariesCompiled) { checkTier("FlowSummaries", "-Xcomp"); }

INSTANTIATE_TEST_SUITE_P(Jvms, FlowOracleTiers, ::testing::ValuesIn(dragnet::test::g1Jvms()),
                         [](const auto& info) { return info.param.name; });

}  // namespace
