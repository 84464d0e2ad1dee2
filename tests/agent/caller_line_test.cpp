// Caller frames at the line of their call (src/contexts/call_sites.h): CallerLineOracle.java
// calls each case's methods from lines it marks; with caller-lines=on every allocation's
// stack must show the case's frame at exactly the line of the call it made, with the counts
// known from the program, in the interpreter and with C2 (-Xbatch: compiled as soon as hot),
// and in sampled mode (the stacks' bcis) at one of the case's lines. Without the option the
// exact mode records no call sites and its callers have no lines.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

// GCC 12 at -O3 reports a false -Wrestrict inside std::string's operator+ as inlined here
// (GCC bug 105329).
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wrestrict"
#include "../report/pprof_decode.h"
#pragma GCC diagnostic pop
#include "analyses/alloc/report/pprof_report.h"
#include "contexts/model.h"
#include "oracle_jvms.h"
#include "profile/reader.h"

namespace fs = std::filesystem;
namespace ctx = dragnet::contexts;
using dragnet::test::Jvm;

namespace {

constexpr uint64_t kN = 50000;  // per case: C2 compiles every loop with -Xbatch

fs::path work() { return fs::path(DRAGNET_BINARY_DIR) / "tests" / "alloc-oracle"; }

// The lines of the oracle's source marked "// @NAME", by name.
std::map<std::string, std::set<int>> markers() {
  std::ifstream in(fs::path(DRAGNET_SOURCE_DIR) / "tests" / "agent" / "CallerLineOracle.java");
  std::map<std::string, std::set<int>> m;
  std::string text;
  for (int line = 1; std::getline(in, text); ++line) {
    size_t at = text.find("// @");
    if (at != std::string::npos) m[text.substr(at + 4)].insert(line);
  }
  return m;
}

int markerLine(const std::string& name) {
  auto m = markers();
  EXPECT_EQ(m[name].size(), 1u) << name;
  return m[name].empty() ? -2 : *m[name].begin();
}

// Per case method and allocated type: the line of the case's frame in each allocation's
// stack (-1: none) -> objects allocated there.
using Lines = std::map<std::string, std::map<int, uint64_t>>;

// `allocator`: only the allocations of that method ("" any).
Lines caseLines(const dragnet::profile::Profile& p, const std::string& caseName,
                const std::string& type, const std::string& allocator = "") {
  Lines out;
  ctx::AllocModel m = ctx::buildModel(p);
  std::string prefix = "CallerLineOracle." + caseName + "(CallerLineOracle.java";
  for (const ctx::SiteRow& r : m.rows) {
    if (!r.site || ctx::javaTypeName(r.site->type) != type) continue;
    std::vector<std::string> frames = ctx::rowFrames(m, r);
    if (!allocator.empty() && (frames.empty() || !frames[0].starts_with(allocator + "("))) continue;
    for (const std::string& f : frames) {
      if (!f.starts_with(prefix)) continue;
      int line = f[prefix.size()] == ':' ? std::stoi(f.substr(prefix.size() + 1)) : -1;
      out[caseName][line] += r.count;
      break;
    }
  }
  return out;
}

// The same from the pprof report, decoded: the objects of each sample whose leaf is `type`,
// by the line of the case's location (-1: line 0, unknown).
Lines pprofLines(const std::string& raw, const std::string& caseName, const std::string& type,
                 const std::string& allocator = "") {
  Lines out;
  std::string frame = "CallerLineOracle." + caseName;
  for (const auto& [stack, values] : dragnet::test::pprof::decodeProfile(raw, false).samples) {
    std::vector<std::string> frames;
    std::stringstream in(stack);
    for (std::string f; std::getline(in, f, ';');) frames.push_back(f);
    if (frames.size() < 2 || frames[0] != type) continue;
    if (!allocator.empty() && frames[1] != allocator && !frames[1].starts_with(allocator + ":")) {
      continue;
    }
    for (const std::string& f : frames) {
      if (f != frame && !f.starts_with(frame + ":")) continue;
      out[caseName][f == frame ? -1 : std::stoi(f.substr(frame.size() + 1))] += values[0];
      break;
    }
  }
  return out;
}

dragnet::profile::Profile runOracle(const Jvm& jvm, const std::string& flags,
                                    const std::string& options) {
  fs::path prof = work() / ("callers-" + std::to_string(::getpid()) + ".dragnet");
  std::string agent = "-agentpath:'" + std::string(DRAGNET_AGENT) + "'=quiet=on,out='" +
                      prof.string() + "'" + options;
  dragnet::test::JavaRun r =
      dragnet::test::runJava(work(), jvm, flags, agent, "CallerLineOracle " + std::to_string(kN));
  EXPECT_EQ(r.status, 0) << r.cmd << "\n" << r.err;
  EXPECT_EQ(r.out, "oracle done\n") << r.cmd;
  dragnet::profile::Profile p;
  std::string error;
  EXPECT_TRUE(dragnet::profile::readProfile(prof.string(), p, error)) << error;
  fs::remove(prof);
  return p;
}

class CallerLines : public ::testing::TestWithParam<Jvm> {
 protected:
  void SetUp() override {
    if (!GetParam().missing.empty()) GTEST_SKIP() << GetParam().missing;
    ASSERT_TRUE(fs::exists(work() / "classes" / "CallerLineOracle.class"))
        << "build the target dragnet_alloc_oracles first";
  }

  // Every case's allocations at exactly the lines of their calls, with exact counts.
  void checkExact(const std::string& flags) {
    dragnet::profile::Profile p = runOracle(GetParam(), flags, ",caller-lines=on");
    ASSERT_FALSE(HasFailure());
    EXPECT_EQ(p.meta[dragnet::profile::kCallSlotsMeta], "on");
    std::string raw = dragnet::report::pprofProfile(ctx::buildModel(p));
    auto expect = [&](const std::string& c, const std::string& type, std::map<int, uint64_t> want,
                      const std::string& allocator = "") {
      EXPECT_EQ(caseLines(p, c, type, allocator)[c], want) << c << " " << type << " " << flags;
      EXPECT_EQ(pprofLines(raw, c, type, allocator)[c], want)
          << "pprof: " << c << " " << type << " " << flags;
    };
    int a = markerLine("TWICE_A"), b = markerLine("TWICE_B");
    expect("twice", "CallerLineOracle$TwiceObj", {{a, 3 * kN}, {b, kN}});
    expect("once", "CallerLineOracle$OnceObj", {{markerLine("ONCE"), kN}});
    int va = markerLine("VIRT_A"), vb = markerLine("VIRT_B");
    expect("virtual", "double[]", {{va, kN}, {vb, kN}});
    expect("virtual", "long[]", {{va, kN}});
    expect("lambda", "CallerLineOracle$LambdaObj", {{markerLine("LAMBDA"), kN}});
    // (The linkage of its invokedynamic allocates byte[] too, with no line: not a call.)
    expect("ctorRef", "byte[]", {{markerLine("REF_A"), kN}, {markerLine("REF_B"), 2 * kN}},
           "CallerLineOracle$Ref.<init>");
    expect("reflect", "CallerLineOracle$ReflectObj", {{markerLine("REFLECT"), kN}});
  }
};

TEST_P(CallerLines, ExactInterpreted) { checkExact("-Xint"); }
TEST_P(CallerLines, ExactC2) { checkExact("-Xbatch -XX:-TieredCompilation"); }

// The default, caller-lines=off: no call sites listed, no numbers in the method nodes' keys
// (no call.slots meta), and the case's frame without a line, all its calls in one context.
TEST_P(CallerLines, ExactByDefaultRecordsNoCallSites) {
  dragnet::profile::Profile p = runOracle(GetParam(), "-Xint", "");
  ASSERT_FALSE(HasFailure());
  EXPECT_TRUE(p.callSites.empty()) << p.callSites.size() << " call sites";
  EXPECT_FALSE(p.meta.contains(dragnet::profile::kCallSlotsMeta));
  uint64_t numbered = 0;
  for (const auto& [id, t] : p.threads) {
    for (const dragnet::profile::NodeDef& n : t.nodes) {
      if (n.key == dragnet::profile::kRootKey || n.key == dragnet::profile::kLostKey ||
          dragnet::profile::isAllocKey(n.key)) {
        continue;
      }
      if ((n.key & dragnet::profile::kCallSlotMask) != 0 || n.slot != 0) ++numbered;
    }
  }
  EXPECT_EQ(numbered, 0u) << "method nodes with a call-site number";
  EXPECT_EQ(caseLines(p, "twice", "CallerLineOracle$TwiceObj")["twice"],
            (std::map<int, uint64_t>{{-1, 4 * kN}}));
  EXPECT_EQ(caseLines(p, "once", "CallerLineOracle$OnceObj")["once"],
            (std::map<int, uint64_t>{{-1, kN}}));
  std::string raw = dragnet::report::pprofProfile(ctx::buildModel(p));
  EXPECT_EQ(pprofLines(raw, "twice", "CallerLineOracle$TwiceObj")["twice"],
            (std::map<int, uint64_t>{{-1, 4 * kN}}));
}

// Sampled: each sample's case frame at one of the case's lines (the frame's bci), and both
// lines of a case that has two.
TEST_P(CallerLines, Sampled) {
  dragnet::profile::Profile p = runOracle(GetParam(), "", ",sample=256");
  ASSERT_FALSE(HasFailure());
  int a = markerLine("TWICE_A"), b = markerLine("TWICE_B");
  std::map<int, uint64_t> twice = caseLines(p, "twice", "CallerLineOracle$TwiceObj")["twice"];
  EXPECT_TRUE(twice.count(a) && twice.count(b)) << "twice: no sample from one of its lines";
  for (const auto& [line, n] : twice) EXPECT_TRUE(line == a || line == b) << line;
  int va = markerLine("VIRT_A"), vb = markerLine("VIRT_B");
  Lines circles = caseLines(p, "virtual", "double[]"), squares = caseLines(p, "virtual", "long[]");
  EXPECT_FALSE(circles["virtual"].empty());
  for (const auto& [line, n] : circles["virtual"]) EXPECT_TRUE(line == va || line == vb) << line;
  for (const auto& [line, n] : squares["virtual"]) EXPECT_EQ(line, va);
}

// `go tool pprof -list` shows the case's calls at their source lines (Go is not a dependency
// of the project: without it the test says so and is skipped).
TEST_P(CallerLines, GoToolPprofListsTheCallersLines) {
  if (std::system("command -v go > /dev/null 2>&1") != 0) {
    GTEST_SKIP() << "no `go` on PATH: `go tool pprof -list` not checked";
  }
  dragnet::profile::Profile p = runOracle(GetParam(), "", ",caller-lines=on");
  ASSERT_FALSE(HasFailure());
  fs::path gz = work() / ("callers-" + std::to_string(::getpid()) + ".pb.gz");
  {
    std::ofstream out(gz, std::ios::binary);
    std::string error;
    ASSERT_TRUE(dragnet::report::writePprof(out, ctx::buildModel(p), error)) << error;
  }
  fs::path listing = work() / ("callers-" + std::to_string(::getpid()) + ".txt");
  std::string cmd = "go tool pprof -list 'CallerLineOracle.twice' -source_path '" +
                    (fs::path(DRAGNET_SOURCE_DIR) / "tests" / "agent").string() + "' '" +
                    gz.string() + "' > '" + listing.string() + "' 2>&1";
  EXPECT_EQ(std::system(cmd.c_str()), 0) << cmd;
  std::string text = dragnet::test::readFile(listing);
  fs::remove(gz);
  fs::remove(listing);
  EXPECT_NE(text.find("@TWICE_A"), std::string::npos) << text;
  EXPECT_NE(text.find("@TWICE_B"), std::string::npos) << text;
}

INSTANTIATE_TEST_SUITE_P(Jvms, CallerLines, ::testing::ValuesIn(dragnet::test::g1Jvms()),
                         [](const auto& info) { return info.param.name; });

}  // namespace
