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

TEST(PprofReport, SampledProfileSaysItsValuesAreEstimates) {
  dragnet::profile::Profile p;
  Decoded d = decodeProfile(gunzip(pprofOf(Variant::Sampled, p)));
  EXPECT_EQ(d.period, 512u * 1024);
  ASSERT_EQ(d.comments.size(), 3u);
  EXPECT_EQ(d.comments[1], "sampled (sample=512k): the values are estimates");
  EXPECT_EQ(d.comments[2].rfind("incomplete", 0), 0u) << d.comments[2];
}

}  // namespace
