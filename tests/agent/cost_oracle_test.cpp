// The cost oracles end to end (tests/agent/cost): every program line of every expected file
// runs without the agent and under `mode=cost` with 1 and 16 context slots on each oracle
// JVM, prints what it prints without the agent, and the cost model built from its profile
// holds every record of the file, derived by hand from the paper's rules and the bytecode:
// node kinds, lines, frequencies and D*/P* classes, AC/HRAC/HRAB, RAC/RAB/consumed,
// n-RAC/n-RAB, reference edges, points-to facts, the ranking and IPD/IPP/NLD over the scope.
// Every in-scope node must have a record, so an extra node fails too. A node's value is the
// sum over its instances (one per slot it ran in; in these programs one). CostOracle and
// DeadValues also run in the interpreter, with C1 only, with C2 (-Xbatch) and with everything
// compiled first (-Xcomp): the values must be the file's and the default flags' at every JIT
// tier. DRAGNET_COST_DUMP=1 prints each run's in-scope nodes, instances, edges and locations.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

#include "analyses/cost/model/load.h"
#include "cost_expected.h"
#include "oracle_jvms.h"
#include "profile/reader.h"

namespace fs = std::filesystem;
namespace model = dragnet::analyses::cost;
namespace cost = dragnet::test::cost;
using dragnet::test::JavaRun;
using dragnet::test::Jvm;
using dragnet::test::readFile;

namespace {

fs::path sources() { return fs::path(DRAGNET_SOURCE_DIR) / "tests" / "agent" / "cost"; }
fs::path work() { return fs::path(DRAGNET_BINARY_DIR) / "tests" / "cost-oracle"; }

JavaRun runJava(const Jvm& jvm, const std::string& flags, const std::string& agent,
                const std::string& programLine) {
  return dragnet::test::runJava(work(), jvm, flags, agent, programLine);
}

// The main class of a program line.
std::string mainOf(const std::string& line) { return line.substr(0, line.find(' ')); }

class CostOracle : public ::testing::TestWithParam<Jvm> {
 protected:
  void SetUp() override {
    if (!GetParam().missing.empty()) GTEST_SKIP() << GetParam().missing;
    ASSERT_TRUE(fs::exists(work() / "classes" / "CostOracle.class"))
        << "build the target dragnet_cost_oracles first";
  }

  // expected/FILE.cost's program under the agent with `flags` at 1 and 16 slots, each run
  // checked against the file (unless `checkFile` is false); `scoped` (if given) gets the
  // runs' in-scope values.
  static void check(const std::string& file, const std::string& flags = "", bool checkFile = true,
                    std::vector<std::string>* scoped = nullptr) {
    const Jvm& jvm = GetParam();
    cost::Expected e = cost::readExpected((sources() / "expected" / (file + ".cost")).string());
    for (const std::string& error : e.errors) ADD_FAILURE() << error;
    ASSERT_EQ(e.programs.size(), 1u) << e.file;
    const std::string& line = e.programs[0];
    const std::string expectedOut = readFile(sources() / "expected" / (mainOf(line) + ".out"));
    ASSERT_FALSE(expectedOut.empty());
    std::string who = "`" + line + "` on " + jvm.name + (flags.empty() ? "" : " " + flags);
    JavaRun plain = runJava(jvm, flags, "", line);
    ASSERT_EQ(plain.status, 0) << who << " without the agent: " << plain.cmd << "\n" << plain.err;
    EXPECT_EQ(plain.out, expectedOut) << who << " without the agent";
    for (uint32_t slots : {1u, 16u}) {
      std::string run = who + ", slots=" + std::to_string(slots);
      fs::path prof = work() / ("cost-" + std::to_string(::getpid()) + ".dragnet");
      JavaRun r = runJava(jvm, flags,
                          "-agentpath:'" + std::string(DRAGNET_AGENT) + "'=mode=cost,slots=" +
                              std::to_string(slots) + ",quiet=on,out='" + prof.string() + "'",
                          line);
      ASSERT_EQ(r.status, 0) << run << ": " << r.cmd << "\n" << r.err;
      EXPECT_EQ(r.out, expectedOut) << run << ": the output differs under the agent";
      EXPECT_EQ(r.out, plain.out) << run << ": the output differs under the agent";
      dragnet::profile::Profile p;
      std::string error;
      bool read = dragnet::profile::readProfile(prof.string(), p, error);
      fs::remove(prof);
      ASSERT_TRUE(read) << run << ": " << error;
      ASSERT_TRUE(p.complete) << run << ": the profile has no End chunk";
      ASSERT_TRUE(model::isCostProfile(p)) << run;
      ASSERT_EQ(model::recordingOf(p).slots, slots) << run;
      EXPECT_EQ(model::totalsOf(p).dropped, 0u) << run << ": records lost";

      cost::Run values(p);
      if (const char* dump = std::getenv("DRAGNET_COST_DUMP"); dump && *dump) {
        std::cerr << run << ":\n" << cost::dump(e, values);
      }
      if (checkFile) {
        for (const std::string& f : cost::check(e, values)) ADD_FAILURE() << run << ": " << f;
      }
      if (!scoped) continue;
      for (const std::string& v : cost::scopedValues(e, values))
        scoped->push_back("slots=" + std::to_string(slots) + " " + v);
    }
  }
};

TEST_P(CostOracle, CostOracle) { check("CostOracle"); }
TEST_P(CostOracle, CostOracleN1000) { check("CostOracleN-1000"); }
TEST_P(CostOracle, CostOracleN2000) { check("CostOracleN-2000"); }
TEST_P(CostOracle, DeadValues) { check("DeadValues"); }

INSTANTIATE_TEST_SUITE_P(Jvms, CostOracle, ::testing::ValuesIn(dragnet::test::oracleJvmParams()),
                         [](const auto& info) { return info.param.name; });

// Exact at every JIT tier: the same expected values in the interpreter, with C1 only, with
// C2 compiling as soon as a method is hot (-Xbatch: the caller waits, so the hot loops run
// compiled however busy the machine is) and with every method compiled before it first runs.
// Besides the expected file (which a run may fail for other reasons), the in-scope values
// must be the ones a run with the default flags gives.
class CostOracleTiers : public CostOracle {
 protected:
  static void checkTier(const std::string& file, const std::string& flags) {
    std::vector<std::string> tier, plain;
    check(file, flags, true, &tier);
    if (HasFatalFailure()) return;
    check(file, "", false, &plain);
    if (HasFatalFailure()) return;
    std::string only = dragnet::test::tierDifference(tier, plain, flags);
    EXPECT_TRUE(only.empty()) << file << " on " << GetParam().name << ": " << flags
                              << " and the default flags give different in-scope values:" << only;
  }
};

TEST_P(CostOracleTiers, CostOracleInterpreted) { checkTier("CostOracle", "-Xint"); }
TEST_P(CostOracleTiers, CostOracleC1) { checkTier("CostOracle", "-XX:TieredStopAtLevel=1"); }
TEST_P(CostOracleTiers, CostOracleC2) { checkTier("CostOracle", "-Xbatch"); }
TEST_P(CostOracleTiers, CostOracleCompiled) { checkTier("CostOracle", "-Xcomp"); }
TEST_P(CostOracleTiers, DeadValuesInterpreted) { checkTier("DeadValues", "-Xint"); }
TEST_P(CostOracleTiers, DeadValuesC1) { checkTier("DeadValues", "-XX:TieredStopAtLevel=1"); }
TEST_P(CostOracleTiers, DeadValuesC2) { checkTier("DeadValues", "-Xbatch"); }
TEST_P(CostOracleTiers, DeadValuesCompiled) { checkTier("DeadValues", "-Xcomp"); }

INSTANTIATE_TEST_SUITE_P(Jvms, CostOracleTiers, ::testing::ValuesIn(dragnet::test::g1Jvms()),
                         [](const auto& info) { return info.param.name; });

}  // namespace
