// Exact at every JIT tier: IntrinsicOracle.java runs each allocation path that HotSpot's C2
// would hide (allocating intrinsics, StringBuilder fusion, box elimination) hot enough to be
// compiled, under the agent in the interpreter (-Xint), with C1 only, with C2 (-Xbatch: compiled as
// soon as hot) and with everything compiled first (-Xcomp), on JDK 17 and the newest JDK. Every
// case's counts per type must equal -Xint's and the counts known from the program; mode lifetime
// must see the same objects and advance its clock by the same bytes. With jit=keep (C2 as
// it is) some case must differ: the oracle really reaches the paths C2 changes.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "analyses/lifetime/model/aggregate.h"
#include "contexts/model.h"
#include "oracle_jvms.h"
#include "profile/reader.h"

namespace fs = std::filesystem;
namespace alloc = dragnet::contexts;
namespace lt = dragnet::analyses::lifetime;
using dragnet::test::Jvm;

namespace {

constexpr int kIterations = 60000;  // per case: C2 compiles every loop before two thirds

const std::vector<std::string> kCases{"copyOf",    "copyOfRange", "copyOfTyped", "arrayListGrowth",
                                      "toArray",   "concat",      "builder",     "utf16",
                                      "boxUnused", "boxUnboxed",  "bigMultiply", "digests"};

struct Count {
  uint64_t count = 0, elements = 0, bytes = 0;
  bool operator==(const Count&) const = default;
};
// case -> type -> counts of the allocations made under that case's method.
using Counts = std::map<std::string, std::map<std::string, Count>>;

fs::path work() { return fs::path(DRAGNET_BINARY_DIR) / "tests" / "alloc-oracle"; }

// The oracle case whose method is among `frames`, or "".
std::string caseOf(const std::vector<std::string>& frames) {
  for (const auto& f : frames) {
    for (const auto& c : kCases) {
      if (f.starts_with("IntrinsicOracle." + c + "(")) return c;
    }
  }
  return "";
}

// Runs the oracle under the agent; the profile read back.
dragnet::profile::Profile runOracle(const Jvm& jvm, const std::string& jvmFlags,
                                    const std::string& agentOptions) {
  fs::path prof = work() / ("intrinsic-" + std::to_string(::getpid()) + ".dragnet");
  fs::path out = work() / ("intrinsic-" + std::to_string(::getpid()) + ".txt");
  // The interpreter runs the probes interpreted too: minutes on a busy machine.
  std::string cmd = "timeout -s KILL 900 '" + jvm.java + "' " + jvm.flags + " " + jvmFlags +
                    " -agentpath:'" + std::string(DRAGNET_AGENT) + "'=quiet=on,out='" +
                    prof.string() + "'" + agentOptions + " -cp '" + (work() / "classes").string() +
                    "' IntrinsicOracle " + std::to_string(kIterations) + " > '" + out.string() +
                    "'";
  dragnet::profile::Profile p;
  EXPECT_EQ(std::system(cmd.c_str()), 0) << cmd;
  EXPECT_EQ(dragnet::test::readFile(out), "oracle done\n") << cmd;
  std::string error;
  EXPECT_TRUE(dragnet::profile::readProfile(prof.string(), p, error)) << error;
  EXPECT_TRUE(p.complete) << cmd;
  fs::remove(prof);
  fs::remove(out);
  return p;
}

// A hidden class's name without its address (which differs from run to run).
std::string typeName(std::string name) {
  if (size_t at = name.find(".0x"); at != std::string::npos) name.erase(at);
  if (size_t at = name.find("/0x"); at != std::string::npos) name.erase(at);
  return name;
}

Counts allocCounts(const dragnet::profile::Profile& p) {
  Counts c;
  alloc::AllocModel m = alloc::buildModel(p);
  for (const alloc::SiteRow& r : m.rows) {
    if (!r.site) continue;
    std::string k = caseOf(alloc::rowFrames(m, r));
    if (k.empty()) continue;
    Count& n = c[k][typeName(alloc::javaTypeName(r.site->type))];
    n.count += r.count;
    n.elements += r.elements;
    n.bytes += r.bytes;
  }
  return c;
}

// Mode lifetime: objects and their bytes (the clock's advance) per case and type.
Counts lifetimeCounts(const dragnet::profile::Profile& p) {
  Counts c;
  lt::Model m = lt::buildModel(p);
  for (const lt::NestedSite& s : m.nested) {
    std::string k = caseOf(lt::pathFrames(m, s.context));
    if (k.empty()) continue;
    Count& n = c[k][typeName(m.classes[s.cls].name)];
    n.count += s.stats.objects;
    n.bytes += s.stats.bytes;
  }
  return c;
}

std::string show(const Counts& c, const std::string& k) {
  std::string s;
  if (!c.count(k)) return "(none)";
  for (const auto& [type, n] : c.at(k)) {
    s += type + ": " + std::to_string(n.count) + " / " + std::to_string(n.elements) + " el / " +
         std::to_string(n.bytes) + " B; ";
  }
  return s;
}

class IntrinsicOracle : public ::testing::TestWithParam<Jvm> {
 protected:
  void SetUp() override {
    if (!GetParam().missing.empty()) GTEST_SKIP() << GetParam().missing;
    ASSERT_TRUE(fs::exists(work() / "classes" / "IntrinsicOracle.class"))
        << "build the target dragnet_alloc_oracles first";
  }
  uint64_t n(const Counts& c, const std::string& k, const std::string& type) {
    return c.count(k) && c.at(k).count(type) ? c.at(k).at(type).count : 0;
  }
  uint64_t elements(const Counts& c, const std::string& k, const std::string& type) {
    return c.count(k) && c.at(k).count(type) ? c.at(k).at(type).elements : 0;
  }
};

TEST_P(IntrinsicOracle, EveryTierCountsWhatTheBytecodeAllocatesInBothModes) {
  const Jvm& jvm = GetParam();
  Counts xint = allocCounts(runOracle(jvm, "-Xint", ""));
  const uint64_t N = kIterations;
  // Known from the program. A case's first iteration may also run JDK code that allocates
  // once (an invokedynamic's linkage, a class's initialization): up to 1% more.
  auto about = [](uint64_t actual, uint64_t expected) {
    return actual >= expected && actual <= expected + expected / 100;
  };
  EXPECT_PRED2(about, n(xint, "copyOf", "java.lang.Object[]"), N);
  EXPECT_PRED2(about, elements(xint, "copyOf", "java.lang.Object[]"), 20 * N);
  EXPECT_PRED2(about, n(xint, "copyOfRange", "java.lang.Object[]"), N);
  EXPECT_PRED2(about, elements(xint, "copyOfRange", "java.lang.Object[]"), 18 * N);
  EXPECT_PRED2(about, elements(xint, "copyOfTyped", "java.lang.String[]"), 20 * N);
  EXPECT_PRED2(about, n(xint, "arrayListGrowth", "java.util.ArrayList"), N);
  EXPECT_PRED2(about, n(xint, "arrayListGrowth", "java.lang.Object[]"), 3 * N);
  EXPECT_PRED2(about, elements(xint, "arrayListGrowth", "java.lang.Object[]"), (10 + 15 + 22) * N);
  EXPECT_PRED2(about, elements(xint, "toArray", "java.lang.Object[]"), 3 * N);
  EXPECT_PRED2(about, n(xint, "concat", "java.lang.String"), N);
  EXPECT_PRED2(about, n(xint, "concat", "byte[]"), N);
  EXPECT_PRED2(about, n(xint, "builder", "java.lang.StringBuilder"), N);
  EXPECT_PRED2(about, n(xint, "builder", "java.lang.String"), N);
  EXPECT_PRED2(about, n(xint, "builder", "byte[]"), 2 * N);
  EXPECT_PRED2(about, n(xint, "utf16", "java.lang.String"), N);
  // String(char[]) first tries Latin-1 (a byte[3]), then UTF-16 (StringUTF16.toBytes: byte[6]).
  EXPECT_PRED2(about, n(xint, "utf16", "byte[]"), 2 * N);
  EXPECT_PRED2(about, elements(xint, "utf16", "byte[]"), 9 * N);
  EXPECT_PRED2(about, n(xint, "boxUnused", "java.lang.Integer"), N);
  EXPECT_PRED2(about, n(xint, "boxUnboxed", "java.lang.Integer"), N);
  EXPECT_PRED2(about, n(xint, "bigMultiply", "java.math.BigInteger"), N);
  // The product's int[17] (multiplyToLen), copied without its leading zero word (the
  // 502-bit product needs 16): two per multiply.
  EXPECT_PRED2(about, n(xint, "bigMultiply", "int[]"), 2 * N);
  // Per digest: the clone's state and buffer, the work array, the result.
  EXPECT_PRED2(about, n(xint, "digests", "int[]") + n(xint, "digests", "long[]"), 2 * N);
  EXPECT_PRED2(about, n(xint, "digests", "byte[]"), 2 * N);

  // -Xbatch: a method is compiled as soon as it is hot, the caller waiting, so that most
  // of every loop runs compiled code however busy the machine is.
  for (const char* flags : {"-Xbatch", "-XX:TieredStopAtLevel=1", "-Xcomp"}) {
    Counts tier = allocCounts(runOracle(jvm, flags, ""));
    for (const auto& k : kCases) {
      EXPECT_EQ(tier[k], xint[k]) << jvm.name << " " << flags << " case " << k
                                  << "\n  tier:  " << show(tier, k)
                                  << "\n  -Xint: " << show(xint, k);
    }
  }

  // What C2 hides when left alone: the oracle reaches those paths.
  Counts kept = allocCounts(runOracle(jvm, "-Xbatch", ",jit=keep"));
  int differing = 0;
  for (const auto& k : kCases) differing += kept[k] == xint[k] ? 0 : 1;
  EXPECT_GE(differing, 6) << "jit=keep: the oracle should miss allocations in most cases";

  // Mode lifetime (in the same test: one -Xint run per JVM) sees the same objects.
  Counts life = lifetimeCounts(runOracle(jvm, "", ",mode=lifetime,site-frames=0"));
  for (const auto& k : kCases) {
    ASSERT_TRUE(life.count(k)) << k;
    for (const auto& [type, c] : xint[k]) {
      // The loop's own allocations; what JDK code allocates once on a first use differs
      // between the modes (mode lifetime's helper uses JDK classes too).
      if (c.count < kIterations / 4) continue;
      EXPECT_EQ(life[k][type].count, c.count) << jvm.name << " case " << k << " " << type;
      // The clock advances by each object's size; alloc knows every array's bytes (its
      // objects' sizes only for classes it measured at exit).
      if (type.ends_with("]") || c.bytes > 0) {
        EXPECT_EQ(life[k][type].bytes, c.bytes) << jvm.name << " case " << k << " " << type;
      }
    }
  }
}

std::vector<Jvm> g1Jvms() {
  std::vector<Jvm> v;
  for (const Jvm& j : dragnet::test::oracleJvmParams()) {
    if (j.flags == "-XX:+UseG1GC") v.push_back(j);
  }
  return v;
}

INSTANTIATE_TEST_SUITE_P(Jvms, IntrinsicOracle, ::testing::ValuesIn(g1Jvms()),
                         [](const auto& info) { return info.param.name; });

}  // namespace
