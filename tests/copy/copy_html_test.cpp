// The HTML report of the Fig. 6 copy profile (fig6_profile.h, exact contexts): the embedded
// data against the spec's numbers (section 2.1), then the page rendered by headless Chromium
// (tests/report/chromium_dom.h; skipped without one): no console message or error, the
// totals, the naming switch, the graph of the top chains with its nodes and labelled edges,
// and the tables.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "../report/chromium_dom.h"
#include "analyses/copy/model/model.h"
#include "analyses/copy/report/report.h"
#include "fig6_profile.h"

namespace fs = std::filesystem;

namespace dragnet {
namespace {

using analyses::copy::Node;
using analyses::copy::NodeKind;
using Json = nlohmann::json;
using test::renderDom;
using test::rowsOf;
using test::slurp;
using test::tagOf;
using test::textOf;

const std::string kO3At39 =
    "<java.lang.Object[] List.<init>(ListClient.java:3) @ List ListClient.main(ListClient.java:39)>"
    ".ELM";
const std::string kO41 = "java.lang.Integer ListClient.main(ListClient.java:41) @ static";

class CopyHtml : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = test::copy::freshDir();
    profile_ = test::copy::readProfile(test::copy::writeFig6(dir_, 0));
    model_ = analyses::copy::buildModel(profile_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  fs::path write() {
    fs::path html = dir_ / "copy.html";
    std::ofstream out(html, std::ios::binary);
    report::writeCopyHtml(out, model_, {});
    return html;
  }
  Json data() { return Json::parse(report::copyHtmlData(model_, {})); }

  // The DOM after the script ran; the page must write nothing to the console (no message,
  // no uncaught error) and reach its end (body data-ready).
  std::string render(const std::string& hash = "") {
    std::string dom = renderDom(write(), dir_, renders_++, hash, "--enable-logging=stderr --v=0");
    std::string log = slurp(dir_ / "chromium.log");
    EXPECT_EQ(log.find(":CONSOLE"), std::string::npos) << log;
    EXPECT_NE(dom.find("data-ready=\"copy\""), std::string::npos) << hash;
    return dom;
  }
  uint32_t node(analyses::copy::Naming n, uint32_t site, uint32_t context, uint32_t field) {
    const auto& g = model_.view(n).graph;
    return g.find(Node{field ? NodeKind::Field : NodeKind::Alloc, {site, context}, field});
  }

  fs::path dir_;
  int renders_ = 0;
  profile::Profile profile_;
  analyses::copy::Model model_;
};

size_t occurrences(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = 0; (at = text.find(what, at)) != std::string::npos; at += what.size()) ++n;
  return n;
}

TEST_F(CopyHtml, FileIsSelfContained) {
  std::string page = slurp(write());
  EXPECT_EQ(page.rfind("<!DOCTYPE html>", 0), 0u);
  for (const char* placeholder : {"@TITLE@", "/*@CSS@*/", "@BODY@", "@DATA@", "/*@SCRIPT@*/"}) {
    EXPECT_EQ(page.find(placeholder), std::string::npos) << placeholder;
  }
  for (const char* remote : {"<link", "src=", "@import", "fetch(", "XMLHttpRequest"}) {
    EXPECT_EQ(page.find(remote), std::string::npos) << remote;
  }
  // The only url() is the arrow marker, an element of the page itself.
  EXPECT_EQ(occurrences(page, "url("), occurrences(page, "url(#arrow)"));
  EXPECT_EQ(occurrences(page, "http"), 1u);  // the SVG namespace, a name never fetched
  EXPECT_EQ(occurrences(page, "id=\"profile-data\""), 1u);
}

// The data: the header of the JSON report, and per naming the hot chain with its edges'
// frequencies and bytes, its producer's edge and (insensitive) its consumer's.
TEST_F(CopyHtml, DataHasTheChainsEdges) {
  Json j = data();
  EXPECT_EQ(j["format"], "dragnet-copy-html");
  EXPECT_EQ(j["totals"]["copies"], 1001);
  EXPECT_EQ(j["settings"]["slots"], 0);
  const Json& cs = j["namings"]["sensitive"];
  EXPECT_EQ(cs["nodeCount"], 29);
  EXPECT_EQ(cs["edgeCount"], 16);
  const Json& chain = cs["chains"]["top"][0];
  EXPECT_EQ(chain["wf"], 3996);
  EXPECT_EQ(chain["edges"], Json::parse("[[999, 4]]"));
  EXPECT_EQ(chain["producerEdge"], Json::parse("[1000, 4]"));
  EXPECT_TRUE(chain["consumerEdge"].is_null());
  std::map<uint32_t, std::string> names;
  for (const Json& n : cs["nodes"]) names[n["id"].get<uint32_t>()] = n["name"];
  EXPECT_EQ(names[chain["nodes"][0].get<uint32_t>()], kO3At39);
  EXPECT_EQ(names[chain["producer"].get<uint32_t>()], kO41);
  const Json& ci = j["namings"]["insensitive"]["chains"]["top"][0];
  EXPECT_EQ(ci["nodes"][0], ci["nodes"][1]);  // O3.ELM -> O3.ELM
  EXPECT_EQ(ci["consumed"], 10);
  EXPECT_EQ(ci["consumerEdge"], Json::parse("[10, 4]"));
  EXPECT_EQ(j["namings"]["sensitive"]["nath"].size(), 5u);
}

TEST_F(CopyHtml, RendersTotalsTablesAndTheGraph) {
  REQUIRE_CHROMIUM();
  std::string dom = render("graph=1");
  EXPECT_EQ(textOf(dom, "title"), "Copy profile");
  EXPECT_EQ(textOf(dom, "total-copies"), "1,001");
  EXPECT_EQ(textOf(dom, "total-births"), "1,016");
  EXPECT_EQ(textOf(dom, "total-top-method"), "99.80%");
  EXPECT_TRUE(test::pressed(dom, "naming-sensitive"));
  EXPECT_FALSE(test::pressed(dom, "naming-insensitive"));
  // The top chain: its producer O41, O3@39.ELM and O3@31.ELM; two edges; never consumed.
  std::string svg = tagOf(dom, "graph");
  EXPECT_NE(svg.find("data-nodes=\"3\""), std::string::npos) << svg;
  EXPECT_NE(svg.find("data-edges=\"2\""), std::string::npos) << svg;
  using analyses::copy::Naming;
  uint32_t o41 = node(Naming::Sensitive, 41, 0, 0);
  uint32_t e39 = node(Naming::Sensitive, 3, 39, profile::kElmField);
  uint32_t e31 = node(Naming::Sensitive, 3, 31, profile::kElmField);
  std::string id41 = "gnode-" + std::to_string(o41);
  EXPECT_NE(tagOf(dom, id41).find("class=\"gnode alloc producer\""), std::string::npos);
  EXPECT_NE(textOf(dom, id41).find("new java.lang.Integer"), std::string::npos);
  EXPECT_NE(tagOf(dom, "gnode-" + std::to_string(e39)).find("class=\"gnode field\""),
            std::string::npos);
  EXPECT_EQ(tagOf(dom, "gnode-0"), "");  // no C: the chain's value is never consumed
  std::string produce = "gedge-" + std::to_string(o41) + "-" + std::to_string(e39);
  EXPECT_NE(tagOf(dom, produce).find("gedge produce"), std::string::npos);
  EXPECT_NE(textOf(dom, produce).find("1,000\u00d7 \u00b7 4 B"), std::string::npos);
  std::string copy = "gedge-" + std::to_string(e39) + "-" + std::to_string(e31);
  EXPECT_NE(textOf(dom, copy).find("999\u00d7 \u00b7 4 B"), std::string::npos);
  // Tables.
  std::vector<std::string> chains = rowsOf(dom, "chains");
  ASSERT_FALSE(chains.empty());
  EXPECT_EQ(chains[0].rfind("1 | 3,996 | 999 | 4 | 1 | " + kO3At39 + " \u2192 ", 0), 0u)
      << chains[0];
  EXPECT_EQ(rowsOf(dom, "nath").size(), 5u);
  EXPECT_EQ(rowsOf(dom, "methods")[0],
            "999 | 99.80% | 999 | List.add(ListClient.java) (Ljava/lang/Object;)V");
  EXPECT_EQ(rowsOf(dom, "contexts")[0], "1,001 | 0 | ListClient.main(ListClient.java)");
  EXPECT_EQ(rowsOf(dom, "clones")[0].rfind("3,996 | 0 | ListClient ListClient.main(", 0), 0u);
  EXPECT_EQ(rowsOf(dom, "ccr")[2], "16 | 0.000");
}

// The insensitive naming with its top chain selected: O3.ELM -> O3.ELM drawn as a loop, and
// C, which the chain's value reached 10 times; the five chains of the default draw more.
TEST_F(CopyHtml, InsensitiveNamingAndASelectedChain) {
  REQUIRE_CHROMIUM();
  std::string dom = render("naming=insensitive&graph=1&chain=1");
  EXPECT_TRUE(test::pressed(dom, "naming-insensitive"));
  using analyses::copy::Naming;
  uint32_t elm = node(Naming::Insensitive, 3, 0, profile::kElmField);
  uint32_t o41 = node(Naming::Insensitive, 41, 0, 0);
  std::string svg = tagOf(dom, "graph");
  EXPECT_NE(svg.find("data-nodes=\"3\""), std::string::npos) << svg;
  EXPECT_NE(svg.find("data-edges=\"3\""), std::string::npos) << svg;
  EXPECT_NE(tagOf(dom, "gnode-0").find("class=\"gnode consumer\""), std::string::npos);
  std::string loop = "gedge-" + std::to_string(elm) + "-" + std::to_string(elm);
  EXPECT_NE(tagOf(dom, loop).find("gedge copy hot"), std::string::npos) << tagOf(dom, loop);
  EXPECT_NE(textOf(dom, loop).find("999\u00d7"), std::string::npos);
  std::string consume = "gedge-" + std::to_string(elm) + "-0";
  EXPECT_NE(textOf(dom, consume).find("10\u00d7 \u00b7 4 B"), std::string::npos);
  EXPECT_NE(tagOf(dom, "gnode-" + std::to_string(o41)).find("producer"), std::string::npos);
  EXPECT_EQ(textOf(dom, "graph-readout").rfind("Chain 1: ", 0), 0u);
  EXPECT_NE(textOf(dom, "graph-readout").find("(WF 3,996)"), std::string::npos);
  std::string five = render("naming=insensitive");
  EXPECT_NE(
      tagOf(five, "graph")
          .find("data-chains=\"" +
                std::to_string(std::min<size_t>(5, model_.insensitive.chains.top.size())) + "\""),
      std::string::npos);
}

// A profile recorded with slots=1 has one graph: the page shows the insensitive naming and
// offers no other.
TEST_F(CopyHtml, OneSlotHasOnlyTheInsensitiveNaming) {
  REQUIRE_CHROMIUM();
  profile_ = test::copy::readProfile(test::copy::writeFig6(dir_, 1));
  model_ = analyses::copy::buildModel(profile_);
  std::string dom = render("naming=sensitive");
  EXPECT_TRUE(test::pressed(dom, "naming-insensitive"));
  EXPECT_FALSE(test::pressed(dom, "naming-sensitive"));
  EXPECT_NE(tagOf(dom, "naming-sensitive").find("disabled"), std::string::npos);
  EXPECT_EQ(textOf(dom, "graph-title"), "The top 3 hot copy chains, context-insensitive");
}

}  // namespace
}  // namespace dragnet
