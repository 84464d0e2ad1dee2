// Mode lifetime on a method its use probes would push over the JVM's 64 KB code limit: the
// method is rewritten again without them (its calling context, its receiver's use at entry
// and its allocations still recorded) and listed as partly rewritten, instead of running
// unprofiled. A method that fits keeps every probe. The source is generated.
#include <gtest/gtest.h>

#include <sstream>
#include <string>

#include "../../../e2e_hard/hard_cases.h"
#include "analyses/lifetime/probes/instrumenter.h"
#include "profile/format.h"

namespace dragnet::test::hard {
namespace {

constexpr int kLines = 4500;  // ~12 bytes of code each, and a ~5-byte use probe each

std::string wideSource() {
  std::ostringstream s;
  s << "public class Wide {\n  int a = 1;\n  static int t() { return 1; }\n"
       "  static int wide(Wide o) {\n    int s = 0;\n";
  // Each read of o.a follows a call, which may advance the clock: each needs a probe.
  for (int k = 0; k < kLines; ++k) s << "    s += o.a + t();\n";
  s << "    return s;\n  }\n"
       "  static int[] small(Wide o) {\n    return new int[o.a];\n  }\n}\n";
  return s.str();
}

// Calls of DragnetLife.<name> in method `method` of `cls`.
int lifeCalls(const cf::ClassFile& cls, std::string_view method, std::string_view name) {
  int n = 0;
  for (const cf::Member& m : cls.methods) {
    if (cls.memberName(m) != method) continue;
    const auto* code = cf::findAttr<cf::CodeAttr>(m.attributes);
    if (!code) continue;
    for (const cf::Insn& insn : code->code.insns) {
      if (insn.op != cf::Op::invokestatic) continue;
      auto ref = cls.pool.memberRef(insn.cp());
      n += ref.owner == dragnet::analyses::lifetime::kLifeClass && ref.name == name;
    }
  }
  return n;
}

TEST(LifetimePartial, AMethodTooLargeForItsUseProbesKeepsTheRest) {
  if (jdk17().javac.empty()) GTEST_SKIP() << "no javac";
  std::string why;
  std::string dir = compileJava(jdk17(), {{"Wide.java", wideSource()}}, "--release 17", &why);
  ASSERT_FALSE(dir.empty()) << why;
  std::vector<Editable> classes = parseAll(readClasses(dir));
  ASSERT_EQ(classes.size(), 1u);
  cf::ClassFile& cls = classes[0].cls;
  dragnet::contexts::IdSource ids;
  auto r = dragnet::analyses::lifetime::instrumentClass(cls, ids, {});
  EXPECT_TRUE(r.changed);
  ASSERT_EQ(r.failures.size(), 1u);
  const auto& f = r.failures[0];
  EXPECT_EQ(f.method, "wide(LWide;)I");
  EXPECT_TRUE(dragnet::profile::isPartial(f)) << f.reason;
  EXPECT_NE(f.reason.find("4500 use probes left out"), std::string::npos) << f.reason;
  EXPECT_NE(f.reason.find("over the JVM's limit of 65535"), std::string::npos) << f.reason;
  // wide: rewritten for its context (it is in the profile's methods) without use probes.
  bool listed = false;
  for (const auto& m : r.methods) listed |= m.name == "wide";
  EXPECT_TRUE(listed);
  EXPECT_EQ(lifeCalls(cls, "wide", "get"), 0);
  // small fits: the get probe of its read of o.a and its array's registration stay.
  EXPECT_EQ(lifeCalls(cls, "small", "get"), 1);
  EXPECT_EQ(lifeCalls(cls, "small", "array"), 1);
  auto bytes = cf::writeClass(cls);
  EXPECT_TRUE(bytes.ok());
}

}  // namespace
}  // namespace dragnet::test::hard
