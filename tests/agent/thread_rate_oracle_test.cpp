// The per-thread views and the allocation-rate series end to end: ThreadRateOracle.java
// runs under the agent (JDK 17, flush=1) in the exact and the sampled alloc mode. Each
// thread's tree is its own, named; its Rate chunks add up exactly to its tree's allocations
// and all of them to the profile's totals; the phases thread's series shows its two phases
// with the pause between them.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <set>
#include <string>

#include "analyses/alloc/report/threads.h"
#include "contexts/model.h"
#include "newest_jdk.h"
#include "oracle_jvms.h"
#include "profile/reader.h"

namespace fs = std::filesystem;
using namespace dragnet;

namespace {

class ThreadRateOracle : public ::testing::TestWithParam<std::string> {
 protected:
  static fs::path work() { return fs::path(DRAGNET_BINARY_DIR) / "tests" / "alloc-oracle"; }

  void run(const std::string& options) {
    ASSERT_TRUE(fs::exists(work() / "classes" / "ThreadRateOracle.class"))
        << "build the target dragnet_alloc_oracles first";
    std::string tag = std::to_string(::getpid());
    fs::path prof = work() / ("rate-" + tag + ".dragnet");
    fs::path out = work() / ("rate-stdout-" + tag + ".txt");
    std::string cmd = test::killAfterTimeout() + "java -agentpath:'" + std::string(DRAGNET_AGENT) +
                      "'=quiet=on,flush=1" + options + ",out='" + prof.string() + "' -cp '" +
                      (work() / "classes").string() + "' ThreadRateOracle > '" + out.string() + "'";
    ASSERT_EQ(std::system(cmd.c_str()), 0) << cmd;
    EXPECT_EQ(test::readFile(out), "oracle done\n");
    std::string error;
    ASSERT_TRUE(profile::readProfile(prof.string(), p_, error)) << error;
    ASSERT_TRUE(p_.complete);
    if (!std::getenv("DRAGNET_KEEP_PROFILE")) fs::remove(prof);
    fs::remove(out);
  }

  uint32_t thread(const std::string& name) {
    for (const auto& [id, t] : p_.threads) {
      if (t.name == name) return id;
    }
    ADD_FAILURE() << "no thread " << name;
    return 0;
  }

  // The allocations of thread `id` at sites of type `type` in its Rate chunks: (count, time
  // of the first chunk, time of the last).
  struct Seen {
    uint64_t count = 0, first = UINT64_MAX, last = 0;
  };
  Seen rated(uint32_t id, const std::string& type) {
    Seen s;
    for (const profile::RateChunk& r : p_.rates) {
      if (r.thread != id) continue;
      for (const auto& [key, c] : r.keys) {
        auto site = p_.sites.find(key);
        if (site == p_.sites.end() || site->second.type != type || c.count == 0) continue;
        s.count += c.count;
        s.first = std::min(s.first, r.time);
        s.last = std::max(s.last, r.time);
      }
    }
    return s;
  }

  // Of thread `id`'s tree: the arrays of type `type` and their bytes.
  std::pair<uint64_t, uint64_t> inTree(uint32_t id, const std::string& type) {
    const profile::ThreadTree& t = p_.threads.at(id);
    std::pair<uint64_t, uint64_t> sum;
    for (size_t i = 1; i < t.nodes.size(); ++i) {
      auto site = p_.sites.find(t.nodes[i].key);
      if (site == p_.sites.end() || site->second.type != type) continue;
      sum.first += t.counters[i].count;
      sum.second += t.counters[i].bytes;
    }
    return sum;
  }

  bool sampled() const { return GetParam() == "sampled"; }

  profile::Profile p_;
};

TEST_P(ThreadRateOracle, ThreadsAndRateSeriesAddUp) {
  run(sampled() ? ",sample=4096" : "");
  uint32_t alpha = thread("oracle-alpha"), beta = thread("oracle-beta");
  uint32_t phases = thread("oracle-phases");
  ASSERT_TRUE(alpha && beta && phases);
  // Each thread's own tree: exact counts, or estimates near them.
  auto a = inTree(alpha, "[B"), b = inTree(beta, "[B");
  if (sampled()) {
    EXPECT_NEAR(static_cast<double>(a.second), 3'000'000.0, 600'000.0);
    EXPECT_NEAR(static_cast<double>(b.second), 1'600'000.0, 400'000.0);
  } else {
    EXPECT_EQ(a.first, 300u);
    EXPECT_EQ(b.first, 200u);
    EXPECT_GE(a.second, 3'000'000u);
    EXPECT_LT(a.second, 3'000'000u + 300 * 32);
  }
  EXPECT_EQ(inTree(alpha, "[J").first, 0u);  // the phases' arrays are the phases thread's

  // Every thread's Rate chunks add up to its tree; all of them to the profile's totals.
  report::RateSeries s = report::rateSeries(p_, nullptr);
  contexts::AllocModel m = contexts::buildModel(p_);
  EXPECT_EQ(s.bytes, m.bytes);
  EXPECT_EQ(s.objects, m.objects + m.arrays);
  std::vector<report::ThreadRow> rows = report::threadRows(p_, nullptr);
  EXPECT_EQ(rows.size(), p_.threads.size());
  for (const report::ThreadRow& r : rows) {
    auto it = s.threads.find(r.id);
    std::pair<uint64_t, uint64_t> rate =
        it == s.threads.end() ? std::pair<uint64_t, uint64_t>{} : it->second;
    EXPECT_EQ(rate, (std::pair<uint64_t, uint64_t>{r.bytes, r.objects})) << r.name;
    if (r.id == alpha) {
      EXPECT_NE(r.topSite.find("ThreadRateOracle$Worker.run(ThreadRateOracle.java:"),
                std::string::npos)
          << r.topSite;
      EXPECT_TRUE(r.topSite.ends_with(" byte[]")) << r.topSite;
    }
  }

  // The phases: 40 long[] recorded before the pause, 20 int[] after it, and between them at
  // least one interval in which the thread allocated nothing.
  Seen one = rated(phases, "[J"), two = rated(phases, "[I");
  if (!sampled()) {  // a 100 KB array is sampled (almost) surely: weight ~1, but not exactly
    EXPECT_EQ(one.count, 40u);
    EXPECT_EQ(two.count, 20u);
  } else {
    EXPECT_NEAR(static_cast<double>(one.count), 40.0, 2.0);
    EXPECT_NEAR(static_cast<double>(two.count), 20.0, 2.0);
  }
  EXPECT_LT(one.last, two.first);
  std::set<uint32_t> only{phases};
  report::RateSeries ps = report::rateSeries(p_, &only);
  EXPECT_EQ(ps.width, 1000u);
  size_t lastOne = (one.last - ps.width / 10 - 1) / ps.width;
  size_t firstTwo = (two.first - ps.width / 10 - 1) / ps.width;
  ASSERT_LT(firstTwo, ps.intervals.size());
  bool gap = false;
  for (size_t i = lastOne + 1; i < firstTwo; ++i) gap |= ps.intervals[i].bytes == 0;
  EXPECT_TRUE(gap) << "intervals " << lastOne << " and " << firstTwo;
}

INSTANTIATE_TEST_SUITE_P(Modes, ThreadRateOracle, ::testing::Values("exact", "sampled"));

// The sampled mode on virtual threads (VirtualOracle.java, the newest JDK, every allocation
// sampled): the 201 virtual threads share one tree, "virtual threads", which holds the
// Objects they allocate in vwork (1,100); the platform thread running vwork(7) has its own.
TEST(SampledVirtualThreads, ShareOneTree) {
  test::JdkHome jdk = test::newestJdk(21);
  if (jdk.home.empty()) GTEST_SKIP() << test::noNewestJdk(21);
  fs::path work = fs::path(DRAGNET_BINARY_DIR) / "tests" / "alloc-oracle";
  std::string tag = std::to_string(::getpid());
  fs::path prof = work / ("vsampled-" + tag + ".dragnet"), out = work / ("vout-" + tag + ".txt");
  std::string cmd = test::killAfterTimeout() + "'" + jdk.java() + "' -agentpath:'" +
                    std::string(DRAGNET_AGENT) + "'=quiet=on,sample=1,out='" + prof.string() +
                    "' -cp '" + (work / "classes").string() + "' VirtualOracle > '" + out.string() +
                    "'";
  ASSERT_EQ(std::system(cmd.c_str()), 0) << cmd;
  EXPECT_EQ(test::readFile(out), "virtual oracle done\n");
  profile::Profile p;
  std::string error;
  ASSERT_TRUE(profile::readProfile(prof.string(), p, error)) << error;
  fs::remove(prof);
  fs::remove(out);
  EXPECT_LT(p.threads.size(), 30u);
  uint64_t virtualObjects = 0, platformObjects = 0;
  for (const auto& [id, t] : p.threads) {
    for (size_t i = 1; i < t.nodes.size(); ++i) {
      auto site = p.sites.find(t.nodes[i].key);
      if (site == p.sites.end() || site->second.type != "java/lang/Object") continue;
      auto m = p.methods.find(site->second.method);
      if (m == p.methods.end() || m->second.name != "vwork") continue;
      (t.name == "virtual threads" ? virtualObjects : platformObjects) += t.counters[i].count;
    }
  }
  EXPECT_NEAR(static_cast<double>(virtualObjects), 1100.0, 60.0);
  EXPECT_NEAR(static_cast<double>(platformObjects), 7.0, 3.0);
}

}  // namespace
