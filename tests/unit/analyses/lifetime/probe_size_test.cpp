// The sampled lifetime probes' inlining contract (src/analyses/lifetime/runtime/java/lang/DragnetSample.java):
// get and put must be larger than C1's inlining limit, so that C1 calls them instead of
// inlining them into every probe site, and small enough for C2 to inline where the call
// is frequent. A javac that compiles them smaller (or an annotation that forces inlining)
// would double C1's compile time on every workload without failing any other test.
#include <gtest/gtest.h>

#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "classfile/class_file.h"
#include "classfile/code.h"

namespace dragnet {
namespace {

namespace cf = classfile;

// HotSpot's defaults: C1MaxInlineSize / MaxInlineSize, and C2's FreqInlineSize (JDK 17-25).
constexpr uint32_t kC1MaxInlineSize = 35;
constexpr uint32_t kFreqInlineSize = 325;

std::vector<uint8_t> readFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

bool hasAnnotation(const cf::ClassFile& c, const cf::Member& m, std::string_view type) {
  for (const cf::Attribute& a : m.attributes) {
    if (const auto* rv = std::get_if<cf::RuntimeVisibleAnnotationsAttr>(&a.body)) {
      for (const cf::Annotation& an : rv->annotations) {
        if (c.pool.utf8(an.type) == type) return true;
      }
    }
  }
  return false;
}

TEST(ProbeSize, SampledUseProbesAreCalledByC1AndInlinedByC2) {
  std::vector<uint8_t> bytes =
      readFile(DRAGNET_BINARY_DIR "/runtime/agent-classes/java/lang/DragnetSample.class");
  ASSERT_FALSE(bytes.empty()) << "build the agent's runtime helper first";
  auto parsed = cf::parseClass(bytes);
  ASSERT_TRUE(parsed.ok());
  const cf::ClassFile& c = parsed.value();
  int found = 0;
  for (const cf::Member& m : c.methods) {
    std::string_view name = c.memberName(m);
    if (name != "get" && name != "put") continue;
    ++found;
    ASSERT_EQ(c.memberDescriptor(m), "(Ljava/lang/Object;)V");
    const cf::CodeAttr* code = m.code();
    ASSERT_NE(code, nullptr);
    uint32_t length = cf::computeOffsets(code->code).back();
    EXPECT_GT(length, kC1MaxInlineSize) << name;
    EXPECT_LE(length, kFreqInlineSize) << name;
    EXPECT_FALSE(hasAnnotation(c, m, "Ljdk/internal/vm/annotation/ForceInline;")) << name;
    EXPECT_FALSE(hasAnnotation(c, m, "Ljdk/internal/vm/annotation/DontInline;")) << name;
  }
  EXPECT_EQ(found, 2);
}

}  // namespace
}  // namespace dragnet
