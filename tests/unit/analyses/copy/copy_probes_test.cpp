// Mode copy's probes (src/analyses/copy/probes) on every class javac makes of tests/data/java:
// each class, with its tag field if it is a root class, is instrumented and written back,
// every method rewritten; and in Shadows the probes each method needs, and no more.
#include <gtest/gtest.h>

#include <string>

#include "../../support/javac_fixture.h"
#include "analyses/copy/probes/instrumenter.h"
#include "flow/probe_code.h"
#include "flow/tag_field.h"

namespace dragnet::test {
namespace {

namespace copy = dragnet::analyses::copy;

// Calls of `owner`.`name` in method `method` of `cls`.
int calls(const cf::ClassFile& cls, std::string_view method, std::string_view owner,
          std::string_view name) {
  int n = 0;
  for (const cf::Member& m : cls.methods) {
    if (cls.memberName(m) != method) continue;
    const auto* code = cf::findAttr<cf::CodeAttr>(m.attributes);
    if (!code) continue;
    for (const cf::Insn& insn : code->code.insns) {
      if (insn.op != cf::Op::invokestatic) continue;
      auto ref = cls.pool.memberRef(insn.cp());
      n += ref.owner == owner && ref.name == name;
    }
  }
  return n;
}

class CopyProbesTest : public JavacTest {};

TEST_F(CopyProbesTest, EveryTestClassIsRewrittenAndWritten) {
  std::string why;
  const auto& classes = javacClasses(&why);
  ASSERT_FALSE(classes.empty()) << why;
  dragnet::contexts::IdSource ids;
  flow::FlowIds flowIds;
  size_t roots = 0, methods = 0;
  for (const CompiledClass& c : classes) {
    auto parsed = cf::parseClass(c.bytes);
    ASSERT_TRUE(parsed.ok()) << c.path;
    cf::ClassFile cls = std::move(parsed).value();
    flow::TagFieldOutcome tag = flow::addTagField(cls);
    roots += tag.root;
    auto r = copy::instrumentClass(cls, ids, flowIds, {.bytecodes = false, .rootClass = tag.root});
    for (const auto& f : r.failures) {
      EXPECT_TRUE(profile::isPartial(f)) << c.path << " " << f.method << ": " << f.reason;
    }
    methods += r.methods.size();
    auto written = cf::writeClass(cls);
    ASSERT_TRUE(written.ok()) << c.path;
    EXPECT_TRUE(cf::parseClass(written.value()).ok()) << c.path;
  }
  EXPECT_GT(roots, 5u);
  EXPECT_GT(methods, 50u);
}

TEST_F(CopyProbesTest, ALoadsNodeReachesTheReturnWithoutAMove) {
  std::string why;
  for (const CompiledClass& c : javacClasses(&why)) {
    if (c.path != "dragnet/testdata/Shadows.class") continue;
    cf::ClassFile cls = cf::parseClass(c.bytes).value();
    dragnet::contexts::IdSource ids;
    flow::FlowIds flowIds;
    copy::instrumentClass(cls, ids, flowIds, {});
    EXPECT_EQ(calls(cls, "straight", flow::kFlowClass, "field"), 1);  // the load's node
    EXPECT_EQ(calls(cls, "straight", flow::kFlowClass, "ret"), 1);
    EXPECT_EQ(calls(cls, "straight", flow::kFlowClass, "take"), 1);
    // x + 1: the parameter may carry its caller's node, consumed by iadd (one record); the
    // sum has none, so its return writes bottom and nothing is stored.
    EXPECT_EQ(calls(cls, "computed", copy::kCopyClass, "use"), 1);
    EXPECT_EQ(calls(cls, "computed", copy::kCopyClass, "store"), 0);
    return;
  }
  FAIL() << "Shadows.class not compiled: " << why;
}

}  // namespace
}  // namespace dragnet::test
