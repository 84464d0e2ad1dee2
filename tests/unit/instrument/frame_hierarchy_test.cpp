// ClassHierarchy (src/instrument/class_hierarchy.h): facts from class bytes, the verifier's
// least upper bound, sources.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>

#include "classfile/class_file.h"
#include "instrument/class_hierarchy.h"

namespace dragnet::instrument {
namespace {

namespace cf = classfile;
namespace fs = std::filesystem;
using Bytes = std::vector<uint8_t>;

Bytes classBytes(std::string_view name, std::string_view super, uint16_t access = 0x21) {
  cf::ClassFile c;
  c.major = 52;
  c.access = access;
  c.thisClass = c.pool.addClass(name);
  if (!super.empty()) c.superClass = c.pool.addClass(super);
  auto out = cf::writeClass(c);
  EXPECT_TRUE(out.ok());
  return out.ok() ? out.value() : Bytes{};
}

// An in-memory source that counts its lookups.
struct MapSource {
  std::map<std::string, Bytes, std::less<>> classes;
  int* lookups;
  std::optional<Bytes> operator()(std::string_view name) const {
    ++*lookups;
    auto it = classes.find(name);
    if (it == classes.end()) return std::nullopt;
    return it->second;
  }
};

class HierarchyTest : public ::testing::Test {
 protected:
  HierarchyTest() : hierarchy(MapSource{classes(), &lookups}) {}
  static std::map<std::string, Bytes, std::less<>> classes() {
    std::map<std::string, Bytes, std::less<>> m;
    m["java/lang/Object"] = classBytes("java/lang/Object", "");
    m["java/lang/Number"] = classBytes("java/lang/Number", "java/lang/Object", 0x421);
    m["java/lang/Integer"] = classBytes("java/lang/Integer", "java/lang/Number");
    m["java/lang/Long"] = classBytes("java/lang/Long", "java/lang/Number");
    m["java/lang/String"] = classBytes("java/lang/String", "java/lang/Object");
    m["java/lang/Comparable"] = classBytes("java/lang/Comparable", "java/lang/Object", 0x601);
    m["p/A"] = classBytes("p/A", "java/lang/Object");
    m["p/B"] = classBytes("p/B", "p/A");
    m["p/C"] = classBytes("p/C", "p/B");
    m["p/D"] = classBytes("p/D", "p/A");
    m["p/Wrong"] = classBytes("p/Other", "p/A");  // bytes of another class
    return m;
  }
  int lookups = 0;
  ClassHierarchy hierarchy;
};

TEST_F(HierarchyTest, FactsFromClassBytes) {
  EXPECT_EQ(hierarchy.superName("p/C"), "p/B");
  EXPECT_EQ(hierarchy.superName("java/lang/Object"), "");
  EXPECT_EQ(hierarchy.superName("java/lang/Comparable"), "java/lang/Object");
  EXPECT_TRUE(hierarchy.isInterface("java/lang/Comparable"));
  EXPECT_FALSE(hierarchy.isInterface("java/lang/Number"));  // abstract, not an interface
  EXPECT_FALSE(hierarchy.approximate());
}

TEST_F(HierarchyTest, LookupsAreCached) {
  hierarchy.superName("p/C");
  hierarchy.isInterface("p/C");
  hierarchy.commonSuperclass("p/C", "p/B");
  int after = lookups;
  hierarchy.commonSuperclass("p/C", "p/D");
  hierarchy.commonSuperclass("p/C", "p/D");
  EXPECT_EQ(lookups, after + 1);  // only p/D was new
}

TEST_F(HierarchyTest, CommonSuperclassOfClasses) {
  EXPECT_EQ(hierarchy.commonSuperclass("p/C", "p/C"), "p/C");
  EXPECT_EQ(hierarchy.commonSuperclass("p/C", "p/B"), "p/B");
  EXPECT_EQ(hierarchy.commonSuperclass("p/B", "p/C"), "p/B");
  EXPECT_EQ(hierarchy.commonSuperclass("p/C", "p/D"), "p/A");
  EXPECT_EQ(hierarchy.commonSuperclass("java/lang/Integer", "java/lang/Long"), "java/lang/Number");
  EXPECT_EQ(hierarchy.commonSuperclass("java/lang/Integer", "java/lang/String"),
            "java/lang/Object");
  EXPECT_EQ(hierarchy.commonSuperclass("p/A", "java/lang/Object"), "java/lang/Object");
}

TEST_F(HierarchyTest, InterfacesMergeToObject) {
  EXPECT_EQ(hierarchy.commonSuperclass("java/lang/Comparable", "java/lang/Comparable"),
            "java/lang/Comparable");
  EXPECT_EQ(hierarchy.commonSuperclass("java/lang/String", "java/lang/Comparable"),
            "java/lang/Object");
  EXPECT_EQ(hierarchy.commonSuperclass("java/lang/Comparable", "p/A"), "java/lang/Object");
}

TEST_F(HierarchyTest, Arrays) {
  EXPECT_EQ(hierarchy.commonSuperclass("[Ljava/lang/Integer;", "[Ljava/lang/Long;"),
            "[Ljava/lang/Number;");
  EXPECT_EQ(hierarchy.commonSuperclass("[Lp/C;", "[Lp/D;"), "[Lp/A;");
  EXPECT_EQ(hierarchy.commonSuperclass("[[Lp/C;", "[[Lp/B;"), "[[Lp/B;");
  EXPECT_EQ(hierarchy.commonSuperclass("[[I", "[[F"), "[Ljava/lang/Object;");
  EXPECT_EQ(hierarchy.commonSuperclass("[[Lp/A;", "[Lp/A;"), "[Ljava/lang/Object;");
  EXPECT_EQ(hierarchy.commonSuperclass("[I", "[F"), "java/lang/Object");
  EXPECT_EQ(hierarchy.commonSuperclass("[I", "[Lp/A;"), "java/lang/Object");
  EXPECT_EQ(hierarchy.commonSuperclass("[I", "p/A"), "java/lang/Object");
  EXPECT_EQ(hierarchy.commonSuperclass("[I", "[I"), "[I");
  EXPECT_EQ(hierarchy.commonSuperclass("[Ljava/lang/Comparable;", "[Ljava/lang/String;"),
            "[Ljava/lang/Object;");
}

TEST_F(HierarchyTest, UnknownClassesAreReportedAndGuessed) {
  EXPECT_EQ(hierarchy.commonSuperclass("p/C", "q/Missing"), "java/lang/Object");
  EXPECT_TRUE(hierarchy.approximate());
  EXPECT_EQ(hierarchy.superName("p/Wrong"), "java/lang/Object");  // bytes name another class
  EXPECT_EQ(hierarchy.unknownClasses(), (std::vector<std::string>{"q/Missing", "p/Wrong"}));
  uint64_t g = hierarchy.guesses();
  hierarchy.clearErrors();
  EXPECT_FALSE(hierarchy.approximate());
  hierarchy.isInterface("q/Missing");  // cached guess, still reported
  EXPECT_TRUE(hierarchy.approximate());
  EXPECT_GT(hierarchy.guesses(), g);
}

TEST_F(HierarchyTest, DefineOverridesTheSource) {
  hierarchy.define("q/New", "p/B", false);
  EXPECT_EQ(hierarchy.commonSuperclass("q/New", "p/C"), "p/B");
  cf::ClassFile c;
  c.access = 0x601;
  c.thisClass = c.pool.addClass("q/Iface");
  c.superClass = c.pool.addClass("java/lang/Object");
  hierarchy.define(c);
  EXPECT_TRUE(hierarchy.isInterface("q/Iface"));
  EXPECT_FALSE(hierarchy.approximate());
}

TEST(ClassSourceTest, DirectoryModuleImageAndChain) {
  fs::path root = fs::temp_directory_path() / ("dragnet-hierarchy-" + std::to_string(::getpid()));
  fs::remove_all(root);
  auto put = [&](const fs::path& p, const Bytes& b) {
    fs::create_directories(p.parent_path());
    std::ofstream(p, std::ios::binary)
        .write(reinterpret_cast<const char*>(b.data()), static_cast<std::streamsize>(b.size()));
  };
  put(root / "cp" / "p" / "A.class", classBytes("p/A", "q/B"));
  put(root / "jdk" / "mod.one" / "q" / "B.class", classBytes("q/B", "java/lang/Object"));
  put(root / "jdk" / "mod.two" / "q" / "C.class", classBytes("q/C", "q/B"));
  ClassSource dir = directorySource(root / "cp");
  ClassSource image = moduleImageSource(root / "jdk");
  EXPECT_TRUE(dir("p/A"));
  EXPECT_FALSE(dir("q/B"));
  EXPECT_TRUE(image("q/B"));
  EXPECT_TRUE(image("q/C"));
  EXPECT_FALSE(image("p/A"));
  ClassHierarchy h(chainSources({dir, image}));
  EXPECT_EQ(h.commonSuperclass("p/A", "q/C"), "q/B");
  EXPECT_FALSE(h.approximate());
  fs::remove_all(root);
}

}  // namespace
}  // namespace dragnet::instrument
