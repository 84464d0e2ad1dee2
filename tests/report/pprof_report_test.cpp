// The pprof report of the known profile (known_profile.h), read back with a minimal
// protobuf decoder of its own (gunzip with zlib, then the wire format), independent of the
// encoder in src/report: sample types, every sample's stack, values and type label,
// functions and file names, comments.
#include "analyses/alloc/report/pprof_report.h"

#include <gtest/gtest.h>
#include <zlib.h>

#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "contexts/model.h"
#include "known_profile.h"
#include "pprof_decode.h"
#include "profile/reader.h"

namespace {

using dragnet::test::Variant;

using dragnet::test::pprof::decode;
using dragnet::test::pprof::Decoded;
using dragnet::test::pprof::decodeProfile;
using dragnet::test::pprof::gunzip;
using dragnet::test::pprof::Message;
using dragnet::test::pprof::varint;

std::string pprofOf(Variant v, dragnet::profile::Profile& p) {
  auto path = dragnet::test::writeKnownProfile(dragnet::test::testDir(), v);
  std::string error;
  EXPECT_TRUE(dragnet::profile::readProfile(path.string(), p, error)) << error;
  auto m = dragnet::contexts::buildModel(p);
  std::ostringstream out;
  EXPECT_TRUE(dragnet::report::writePprof(out, m, error)) << error;
  return out.str();
}

TEST(PprofReport, SamplesAreTheAllocationRowsAndBytecodes) {
  dragnet::profile::Profile p;
  std::string gz = pprofOf(Variant::Exact, p);
  ASSERT_GE(gz.size(), 2u);
  EXPECT_EQ(static_cast<uint8_t>(gz[0]), 0x1f);  // gzip magic
  EXPECT_EQ(static_cast<uint8_t>(gz[1]), 0x8b);
  Decoded d = decodeProfile(gunzip(gz));
  ASSERT_FALSE(d.strings.empty());
  EXPECT_EQ(d.strings[0], "");
  EXPECT_EQ(d.sampleTypes, (std::vector<std::string>{"alloc_objects/count", "alloc_space/bytes",
                                                     "alloc_elements/count", "bytecodes/count"}));
  EXPECT_EQ(d.defaultType, "alloc_space");
  EXPECT_EQ(d.period, 1u);
  EXPECT_EQ(d.comments, std::vector<std::string>{"dragnet allocation profile (pid 4711)"});
  using V = std::vector<uint64_t>;
  const std::map<std::string, V> expected{
      // Allocations: the type as the leaf frame, the allocating method at the site's line.
      {"app.Point;app.Main.build:10;app.Main.main", V{20000, 480000, 0, 0}},
      {"int[];app.Main.build:11;app.Main.main", V{100, 41600, 10000, 0}},
      {"app.Point;app.Main.build:10", V{1000, 24000, 0, 0}},
      {"char[];app.Main.parse:20;app.Main.main", V{50, 10800, 5000, 0}},
      {"java.lang.String;app.Main.parse:21;app.Main.main", V{50, 1200, 0, 0}},
      {"app.Tiny;app.Main.rare:30;app.Main.build", V{1, 16, 0, 0}},
      // Bytecodes executed in each context itself.
      {"app.Main.main", V{0, 0, 0, 100}},
      {"app.Main.build;app.Main.main", V{0, 0, 0, 1000}},
      {"app.Main.parse;app.Main.main", V{0, 0, 0, 500}},
      {"app.Main.build", V{0, 0, 0, 200}},
  };
  EXPECT_EQ(d.samples, expected);
  EXPECT_EQ(d.typeLabels["int[];app.Main.build:11;app.Main.main"], "int[]");
  EXPECT_EQ(d.typeLabels["app.Point;app.Main.build:10"], "app.Point");
  EXPECT_EQ(d.typeLabels.size(), 6u);  // allocation samples only
  EXPECT_EQ(d.originLabels["int[];app.Main.build:11;app.Main.main"], "newarray");
  EXPECT_EQ(d.originLabels["app.Point;app.Main.build:10"], "new");
  EXPECT_EQ(d.functions["app.Main.build"],
            std::make_pair(std::string("app.Main.build()V"), std::string("app/Main.java")));
  EXPECT_EQ(d.functions["app.Main.main"].first, "app.Main.main([Ljava/lang/String;)V");
  EXPECT_EQ(d.functions["int[]"], std::make_pair(std::string("int[]"), std::string("")));
}

// With the call sites of the known profile's methods, each caller location has the line of
// its call: main calls build from line 5 (its one call of it) and parse from line 8 (one of
// two lines, told by the context's slot); the worker's build calls rare from line 12. A
// context whose line cannot be known keeps line 0.
TEST(PprofReport, CallerLocationsHaveTheLinesOfTheirCalls) {
  using dragnet::profile::CallSite;
  dragnet::profile::Profile p;
  auto path = dragnet::test::writeKnownProfile(dragnet::test::testDir(), Variant::Exact);
  std::string error;
  ASSERT_TRUE(dragnet::profile::readProfile(path.string(), p, error)) << error;
  auto add = [&](CallSite s) { p.callSites[{s.method, s.number}] = s; };
  add({1, 1, 3, 5, 184, "app/Main", "build", "()V"});
  add({1, 2, 9, 6, 184, "app/Main", "parse", "()V"});
  add({1, 3, 14, 8, 184, "app/Main", "parse", "()V"});
  add({2, 1, 20, 12, 184, "app/Main", "rare", "()V"});
  dragnet::profile::ThreadTree& main = p.threads.at(1);
  ASSERT_EQ(main.nodes[5].key, 3u);  // parse
  main.nodes[5].slot = 3;
  auto m = dragnet::contexts::buildModel(p);
  std::ostringstream out;
  ASSERT_TRUE(dragnet::report::writePprof(out, m, error)) << error;
  Decoded d = decodeProfile(gunzip(out.str()));
  using V = std::vector<uint64_t>;
  const std::map<std::string, V> expected{
      {"app.Point;app.Main.build:10;app.Main.main:5", V{20000, 480000, 0, 0}},
      {"int[];app.Main.build:11;app.Main.main:5", V{100, 41600, 10000, 0}},
      {"app.Point;app.Main.build:10", V{1000, 24000, 0, 0}},
      {"char[];app.Main.parse:20;app.Main.main:8", V{50, 10800, 5000, 0}},
      {"java.lang.String;app.Main.parse:21;app.Main.main:8", V{50, 1200, 0, 0}},
      {"app.Tiny;app.Main.rare:30;app.Main.build:12", V{1, 16, 0, 0}},
      {"app.Main.main", V{0, 0, 0, 100}},
      {"app.Main.build;app.Main.main:5", V{0, 0, 0, 1000}},
      {"app.Main.parse;app.Main.main:8", V{0, 0, 0, 500}},
      {"app.Main.build", V{0, 0, 0, 200}},
  };
  EXPECT_EQ(d.samples, expected);
  // Without the slot main's two lines calling parse leave the line unknown.
  main.nodes[5].slot = 0;
  auto unknown = dragnet::contexts::buildModel(p);
  std::ostringstream again;
  ASSERT_TRUE(dragnet::report::writePprof(again, unknown, error)) << error;
  EXPECT_EQ(decodeProfile(gunzip(again.str())).samples.count("app.Main.parse;app.Main.main"), 1u);
}

TEST(PprofReport, SampledProfileSaysItsValuesAreEstimates) {
  dragnet::profile::Profile p;
  Decoded d = decodeProfile(gunzip(pprofOf(Variant::Sampled, p)));
  EXPECT_EQ(d.period, 512u * 1024);
  ASSERT_EQ(d.comments.size(), 3u);
  EXPECT_EQ(d.comments[1], "sampled (sample=512k): the values are estimates");
  EXPECT_EQ(d.comments[2].rfind("incomplete", 0), 0u) << d.comments[2];
}

}  // namespace
