// Mode cost's heap shadows of array elements (tests/agent/cost/ArrayShadows.java), on each
// oracle JVM: with array-shadow=element (the default) each element's load depends on the
// store of that element (and System.arraycopy's load on the shadows of the elements it reads,
// the copied elements taking its store's); with array-shadow=array every load of the array
// depends on its last store, and the profile says so.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <set>
#include <string>

#include "analyses/cost/model/load.h"
#include "analyses/cost/model/model.h"
#include "oracle_jvms.h"
#include "profile/reader.h"

namespace fs = std::filesystem;
namespace model = dragnet::analyses::cost;
using dragnet::test::Jvm;

namespace {

fs::path work() { return fs::path(DRAGNET_BINARY_DIR) / "tests" / "cost-oracle"; }

// The lines of the program nodes a node of ArrayShadows.main at `line` of `kind` depends on.
std::multiset<int> dependencies(const dragnet::profile::Profile& p, const model::CostModel& m,
                                int line, model::NodeKind kind) {
  std::multiset<int> out;
  const model::InstanceGraph& g = m.graph();
  for (uint32_t v = 0; v < g.size(); ++v) {
    const model::NodeDef& d = g.def(v);
    auto method = p.methods.find(d.method);
    if (d.line != line || d.kind != kind || method == p.methods.end() ||
        method->second.cls != "ArrayShadows" || method->second.name != "main") {
      continue;
    }
    for (uint32_t u : g.preds(v)) out.insert(g.def(u).line);
  }
  return out;
}

class CostArrayShadows : public ::testing::TestWithParam<Jvm> {
 protected:
  void SetUp() override {
    if (!GetParam().missing.empty()) GTEST_SKIP() << GetParam().missing;
    ASSERT_TRUE(fs::exists(work() / "classes" / "ArrayShadows.class"))
        << "build the target dragnet_cost_oracles first";
  }

  static dragnet::profile::Profile run(const std::string& shadow) {
    const Jvm& jvm = GetParam();
    fs::path prof = work() / ("shadows-" + std::to_string(::getpid()) + ".dragnet");
    fs::path out = work() / ("shadows-" + std::to_string(::getpid()) + ".txt");
    std::string cmd = "timeout -s KILL 300 '" + jvm.java + "' " + jvm.flags + " -agentpath:'" +
                      std::string(DRAGNET_AGENT) + "'=mode=cost,array-shadow=" + shadow +
                      ",quiet=on,out='" + prof.string() + "' -cp '" +
                      (work() / "classes").string() + "' ArrayShadows > '" + out.string() + "'";
    EXPECT_EQ(std::system(cmd.c_str()), 0) << cmd;
    EXPECT_EQ(dragnet::test::readFile(out), "7 5 499500\n");
    dragnet::profile::Profile p;
    std::string error;
    EXPECT_TRUE(dragnet::profile::readProfile(prof.string(), p, error)) << error;
    fs::remove(prof);
    fs::remove(out);
    return p;
  }
};

using K = model::NodeKind;

TEST_P(CostArrayShadows, ElementsKeepTheirOwnWriters) {
  dragnet::profile::Profile p = run("element");
  EXPECT_TRUE(model::recordingOf(p).elementShadows);
  model::CostModel m(model::loadGraph(p));
  // v = b[1]: the store b[1] = 7 (line 13), not b[0]'s later one (line 14).
  EXPECT_EQ(dependencies(p, m, 15, K::LoadField), (std::multiset<int>{13}));
  // arraycopy's load reads b[0] and b[1]: both stores.
  EXPECT_EQ(dependencies(p, m, 18, K::LoadField), (std::multiset<int>{13, 14}));
  // w = c[2]: not copied over, still c[2] = 5's (line 17).
  EXPECT_EQ(dependencies(p, m, 19, K::LoadField), (std::multiset<int>{17}));
  // x = c[0]: copied, the arraycopy's store (line 18).
  EXPECT_EQ(dependencies(p, m, 20, K::LoadField), (std::multiset<int>{18}));
  // The element buffers are counted with the static fields' shadows: more than one shadow
  // per array takes.
  dragnet::profile::Profile perArray = run("array");
  EXPECT_GT(model::totalsOf(p).shadowBytes, model::totalsOf(perArray).shadowBytes);
}

TEST_P(CostArrayShadows, OnePerArrayTakesTheLastStore) {
  dragnet::profile::Profile p = run("array");
  EXPECT_FALSE(model::recordingOf(p).elementShadows);
  model::CostModel m(model::loadGraph(p));
  EXPECT_EQ(dependencies(p, m, 15, K::LoadField), (std::multiset<int>{14}));
  EXPECT_EQ(dependencies(p, m, 19, K::LoadField), (std::multiset<int>{18}));
  EXPECT_EQ(dependencies(p, m, 20, K::LoadField), (std::multiset<int>{18}));
}

INSTANTIATE_TEST_SUITE_P(Jvms, CostArrayShadows,
                         ::testing::ValuesIn(dragnet::test::oracleJvmParams()),
                         [](const auto& info) { return info.param.name; });

}  // namespace
