// Every string of a profile is read as well-formed UTF-8 (profile/text.h), whatever chunk it
// is in: supplementary characters joined from the class file's surrogate pairs, NUL shown as
// U+2400, ill-formed bytes as U+FFFD. Then no report format can fail on a name.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <sstream>

#include "contexts/model.h"
#include "known_profile.h"
#include "profile/reader.h"
#include "profile/writer.h"
#include "analyses/alloc/report/alloc_report.h"
#include "analyses/alloc/report/html_report.h"
#include "analyses/alloc/report/pprof_report.h"

namespace {

namespace profile = dragnet::profile;

// U+1D518 as modified UTF-8 (the surrogate pair D835 DD18) and as UTF-8.
const std::string kPair = "\xED\xA0\xB5\xED\xB4\x98";
const std::string kChar = "\xF0\x9D\x94\x98";
const std::string kNul = "\xC0\x80";           // NUL, modified UTF-8
const std::string kNulShown = "\xE2\x90\x80";  // U+2400
const std::string kBad = "\xED\xA0\x80!\xFF";  // a lone high surrogate, '!', a byte never in UTF-8
const std::string kBadShown = "\xEF\xBF\xBD!\xEF\xBF\xBD";
constexpr uint32_t kSite = profile::kAllocBit | 1 << 4;

TEST(ProfileText, EveryStringIsReadAsWellFormedUtf8) {
  std::string path = (dragnet::test::testDir() / "names.dragnet").string();
  {
    profile::Writer w;
    std::string error;
    ASSERT_TRUE(w.open(path, error)) << error;
    w.meta({{"mode", "alloc"}, {"command", "p.C" + kPair + " " + kBad}});
    w.methods({{1, "p/C" + kPair, "m" + kNul + kPair, "(Lp/C" + kPair + ";)V", kPair + ".java"},
               {2, "p/D", kBad, "()V", ""}});
    w.sites({{kSite, 1, 0, 5, profile::SiteKind::New, "p/C" + kPair}});
    profile::ThreadChunk t;
    t.thread = 1;
    t.name = "worker " + kPair;
    t.firstNode = 1;
    t.nodes = {{0, 1}, {1, 2}, {1, kSite}};
    t.counters = {{1, {1, 0, 0, 0}}, {2, {1, 0, 0, 0}}, {3, {3, 0, 0, 0}}};
    w.thread(t);
    w.classSizes({{"p/C" + kPair, 16}});
    w.failures({{"p/C" + kPair, "m" + kNul + "()V", "why " + kPair}});
    w.end({{"threads", "1"}});
  }
  profile::Profile p;
  std::string error;
  ASSERT_TRUE(profile::readProfile(path, p, error)) << error;
  EXPECT_EQ(p.meta["command"], "p.C" + kChar + " " + kBadShown);
  const profile::MethodDef& m = p.methods.at(1);
  EXPECT_EQ(m.cls, "p/C" + kChar);
  EXPECT_EQ(m.name, "m" + kNulShown + kChar);
  EXPECT_EQ(m.descriptor, "(Lp/C" + kChar + ";)V");
  EXPECT_EQ(m.source, kChar + ".java");
  EXPECT_EQ(p.methods.at(2).name, kBadShown);
  EXPECT_EQ(p.sites.at(kSite).type, "p/C" + kChar);
  EXPECT_EQ(p.threads.at(1).name, "worker " + kChar);
  EXPECT_EQ(p.classSizes.count("p/C" + kChar), 1u);
  ASSERT_EQ(p.failures.size(), 1u);
  EXPECT_EQ(p.failures[0].cls, "p/C" + kChar);
  EXPECT_EQ(p.failures[0].method, "m" + kNulShown + "()V");
  EXPECT_EQ(p.failures[0].reason, "why " + kChar);

  // Every alloc format writes them as they are (the class size applies: 3 x 16 bytes).
  auto model = dragnet::contexts::buildModel(p);
  std::ostringstream text, json, collapsed, pprof;
  dragnet::report::writeText(text, model, {20});
  EXPECT_NE(text.str().find("p.C" + kChar + ".m" + kNulShown + kChar + "(" + kChar + ".java:5)"),
            std::string::npos)
      << text.str();
  dragnet::report::writeJson(json, model);
  auto j = nlohmann::json::parse(json.str());
  EXPECT_EQ(j["sites"][0]["type"], "p.C" + kChar);
  EXPECT_EQ(j["sites"][0]["bytes"], 48);
  EXPECT_EQ(j["notRewritten"][0]["method"], "m" + kNulShown + "()V");
  auto data = nlohmann::json::parse(dragnet::report::htmlData(model, {}));
  EXPECT_EQ(data["meta"]["command"], "p.C" + kChar + " " + kBadShown);
  dragnet::report::writeCollapsed(collapsed, model);
  EXPECT_EQ(collapsed.str(), "p.C" + kChar + ".m" + kNulShown + kChar + "(" + kChar +
                                 ".java:5);p.C" + kChar + " 48\n");
  EXPECT_TRUE(dragnet::report::writePprof(pprof, model, error)) << error;
}

}  // namespace
