// Mode copy's reports (text, JSON) of the Fig. 6 profile (fig6_profile.h), through the
// registry as `dragnet report` finds them: the numbers of the spec's section 2.1 as each
// format shows them.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "fig6_profile.h"
#include "profile/codec.h"
#include "report/analysis.h"

namespace fs = std::filesystem;

namespace dragnet {
namespace {

using Json = nlohmann::json;

class CopyReport : public ::testing::Test {
 protected:
  void SetUp() override { dir_ = test::copy::freshDir(); }
  void TearDown() override { fs::remove_all(dir_); }

  std::string render(const profile::Profile& p, std::string_view format) {
    const report::Analysis* a = report::analysisOf(p);
    EXPECT_NE(a, nullptr);
    if (!a) return {};
    EXPECT_EQ(a->name, "copy");
    std::ostringstream out;
    std::string error;
    EXPECT_TRUE(a->write(p, format, {.top = 20}, out, error)) << error;
    return out.str();
  }
  fs::path dir_;
};

// Listed before alloc, which owns every profile.
TEST_F(CopyReport, TheRegistryGivesCopyProfilesToMode) {
  std::vector<std::string_view> names;
  for (const report::Analysis& a : report::registeredAnalyses()) names.push_back(a.name);
  auto copy = std::find(names.begin(), names.end(), "copy");
  ASSERT_NE(copy, names.end());
  EXPECT_LT(copy - names.begin(), std::find(names.begin(), names.end(), "alloc") - names.begin());
  profile::Profile p = test::copy::readProfile(test::copy::writeFig6(dir_, 0));
  const report::Analysis* a = report::analysisOf(p);
  ASSERT_NE(a, nullptr);
  EXPECT_EQ(a->name, "copy");
  EXPECT_TRUE(report::writes(*a, "text"));
  EXPECT_TRUE(report::writes(*a, "json"));
  EXPECT_FALSE(a->merges);
  EXPECT_EQ(report::analysisNamed("copy"), a);
  p.meta["mode"] = "alloc";
  EXPECT_EQ(report::analysisOf(p)->name, "alloc");
}

TEST_F(CopyReport, Json) {
  profile::Profile p = test::copy::readProfile(test::copy::writeFig6(dir_, 0));
  Json j = Json::parse(render(p, "json"));
  EXPECT_EQ(j["format"], "dragnet-copy");
  EXPECT_EQ(j["complete"], true);
  EXPECT_EQ(j["settings"]["slots"], 0);
  EXPECT_EQ(j["settings"]["chainMax"], 5);
  EXPECT_EQ(j["totals"]["copies"], 1001);
  EXPECT_EQ(j["totals"]["heapCopies"], 1001);
  EXPECT_EQ(j["totals"]["births"], 1016);
  EXPECT_EQ(j["totals"]["edges"], 16);
  // Assertion 5: flat and cumulative.
  const Json& methods = j["profiles"]["methods"];
  EXPECT_EQ(methods[0]["method"], "List.add(ListClient.java)");
  EXPECT_EQ(methods[0]["self"], 999);
  bool deep = false;
  for (const Json& m : methods) {
    if (m["method"] == "ListClient.deepClone(ListClient.java)") {
      deep = true;
      EXPECT_EQ(m["self"], 0);
      EXPECT_EQ(m["total"], 1000);
      EXPECT_EQ(m["descriptor"], "()LListClient;");
    }
  }
  EXPECT_TRUE(deep);
  EXPECT_DOUBLE_EQ(j["profiles"]["concentration"][0].get<double>(), 999.0 / 1001.0);
  const Json& top = j["profiles"]["contexts"][0];
  EXPECT_EQ(top["frames"], Json::array({"ListClient.main(ListClient.java)"}));
  EXPECT_EQ(top["total"], 1001);
  // Assertion 4: the hot chain, and the top clone pair.
  const Json& cs = j["graphs"]["sensitive"];
  EXPECT_EQ(cs["nodes"], 29);  // C and 28 others
  EXPECT_EQ(cs["edges"], 16);
  const Json& chain = cs["chains"]["top"][0];
  EXPECT_EQ(chain["wf"], 3996);
  EXPECT_EQ(chain["freq"], 999);
  EXPECT_EQ(chain["bytes"], 4);
  EXPECT_EQ(chain["length"], 1);
  ASSERT_EQ(chain["nodes"].size(), 2u);
  EXPECT_EQ(chain["nodes"][0]["site"], 3);
  EXPECT_EQ(chain["nodes"][0]["context"], 39);
  EXPECT_EQ(chain["nodes"][0]["field"], "ELM");
  EXPECT_EQ(chain["nodes"][1]["context"], 31);
  EXPECT_EQ(chain["producer"]["site"], 41);
  EXPECT_EQ(chain["consumed"], 0);
  const Json& pair = cs["clones"]["top"][0];
  EXPECT_EQ(pair["volume"], 3996);
  EXPECT_EQ(pair["from"]["site"], 46);
  EXPECT_EQ(pair["to"]["site"], 32);
  EXPECT_EQ(pair["to"]["context"], 46);
  // Assertion 3: NATH.
  const Json& nath = cs["nath"];
  ASSERT_EQ(nath.size(), 5u);
  std::set<int> sites;
  for (const Json& r : nath) {
    sites.insert(r["object"]["site"].get<int>());
    EXPECT_EQ(r["births"], 1);
  }
  EXPECT_EQ(sites, (std::set<int>{16, 32, 35, 46, 47}));
  // The heaviest edges: O39.count -> C (2000 x 4 bytes), O16@39.pos -> C (1999 x 4), then
  // O41 -> O3@39.ELM (1000 x 4).
  const Json& edges = cs["edgeList"];
  EXPECT_EQ(edges[0]["src"]["name"], "<List ListClient.main(ListClient.java:39) @ static>.count");
  EXPECT_EQ(edges[0]["dst"]["kind"], "consumer");
  EXPECT_EQ(edges[0]["freq"], 2000);
  EXPECT_EQ(edges[1]["src"]["field"], "ListIterator.pos");
  EXPECT_EQ(edges[2]["src"]["site"], 41);
  EXPECT_EQ(edges[2]["dst"]["field"], "ELM");
  EXPECT_EQ(edges[2]["freq"], 1000);
  EXPECT_EQ(j["graphs"]["insensitive"]["fanOut"]["max"], 3);
  EXPECT_EQ(j["graphs"]["insensitive"]["fanOut"]["maxNode"]["site"], 3);
  EXPECT_EQ(j["conflictRatios"][2]["slots"], 16);
  EXPECT_EQ(j["conflictRatios"][2]["ccr"], 0.0);
}

TEST_F(CopyReport, Text) {
  profile::Profile p = test::copy::readProfile(test::copy::writeFig6(dir_, 0));
  std::string text = render(p, "text");
  auto has = [&](const std::string& s) {
    EXPECT_NE(text.find(s), std::string::npos) << "missing: " << s << "\n" << text;
  };
  has("dragnet copy profile\n");
  has("1-object-sensitive with exact contexts (slots=0), and context-insensitive");
  has("1,001 heap-to-heap copies; 1,016 objects allocated");
  has("          999  99.80%          999  List.add(ListClient.java)\n");
  has("        1,000            0  ListClient.deepClone(ListClient.java) < "
      "ListClient.main(ListClient.java)\n");
  has("          3,996         999      4       1  <java.lang.Object[] "
      "List.<init>(ListClient.java:3) @ List ListClient.main(ListClient.java:39)>.ELM -> "
      "<java.lang.Object[] List.<init>(ListClient.java:3) @ List "
      "ListClient.deepClone(ListClient.java:31)>.ELM\n");
  has("produced by java.lang.Integer ListClient.main(ListClient.java:41) @ static; never "
      "consumed\n");
  has("          3,996            0  ListClient ListClient.main(ListClient.java:46) @ static -> "
      "ListClient ListClient.deepClone(ListClient.java:32) @ ListClient "
      "ListClient.main(ListClient.java:46)\n");
  has("              1            0  ListIterator List.iterator(ListClient.java:16) @ List "
      "ListClient.main(ListClient.java:39)\n");
  has("Hot copy chains, context-insensitive");
  has(" CCR-4 0.061 CCR-8 0.061 CCR-16 0.000 (average over 11 allocation sites)");
  EXPECT_EQ(text.find("CORRUPT"), std::string::npos);
  EXPECT_EQ(text.find("INCOMPLETE"), std::string::npos);
}

// A flipped bit in the FlowThread chunk: the report says CORRUPT and shows what is left (the
// definitions and the tree, no flows).
TEST_F(CopyReport, CorruptFlowChunk) {
  fs::path path = test::copy::writeFig6(dir_, 0);
  std::string bytes;
  {
    std::ifstream f(path, std::ios::binary);
    std::stringstream s;
    s << f.rdbuf();
    bytes = s.str();
  }
  // The FlowThread chunk is the one before End, the last.
  size_t pos = profile::kHeaderSize, flow = 0;
  while (pos < bytes.size()) {
    if (static_cast<uint8_t>(bytes[pos]) == uint8_t(profile::ChunkType::FlowThread)) flow = pos;
    pos += profile::kChunkHeaderSize +
           profile::loadU32(reinterpret_cast<const uint8_t*>(&bytes[pos + 1]));
  }
  ASSERT_GT(flow, 0u);
  bytes[flow + 20] ^= 4;
  {
    std::ofstream f(path, std::ios::binary | std::ios::trunc);
    f << bytes;
  }
  profile::Profile p = test::copy::readProfile(path);
  ASSERT_TRUE(p.corrupt());
  std::string text = render(p, "text");
  EXPECT_NE(text.find("  CORRUPT: profile corrupt: 1 chunk"), std::string::npos) << text;
  EXPECT_NE(text.find("0 heap-to-heap copies"), std::string::npos) << text;
  Json j = Json::parse(render(p, "json"));
  EXPECT_TRUE(j["corrupt"].is_string());
  EXPECT_EQ(j["totals"]["copies"], 0);
}

}  // namespace
}  // namespace dragnet
