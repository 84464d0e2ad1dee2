// dragnet run's heap limit: what a java command line asks for, and the option that raises it.
#include "cli/heap_limit.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>

namespace dragnet::cli {
namespace {

std::map<std::string, std::string>& variables() {
  static std::map<std::string, std::string> v;
  return v;
}
const char* fakeEnv(const char* name) {
  auto it = variables().find(name);
  return it == variables().end() ? nullptr : it->second.c_str();
}

class HeapLimit : public ::testing::Test {
 protected:
  void SetUp() override { variables().clear(); }
  HeapRequest request(std::vector<std::string> command) { return heapRequest(command, fakeEnv); }
};

TEST_F(HeapLimit, JavaSizes) {
  EXPECT_EQ(parseJavaSize("512m"), uint64_t{512} << 20);
  EXPECT_EQ(parseJavaSize("2G"), uint64_t{2} << 30);
  EXPECT_EQ(parseJavaSize("1024k"), uint64_t{1} << 20);
  EXPECT_EQ(parseJavaSize("123456"), 123456u);
  EXPECT_EQ(parseJavaSize(""), std::nullopt);
  EXPECT_EQ(parseJavaSize("m"), std::nullopt);
  EXPECT_EQ(parseJavaSize("12mb"), std::nullopt);
  EXPECT_EQ(parseJavaSize("1x"), std::nullopt);
}

TEST_F(HeapLimit, TheLastSettingBeforeTheMainClassWins) {
  HeapRequest r =
      request({"java", "-Xmx64m", "-cp", "-Xmx1g", "-XX:MaxHeapSize=96m", "Main", "-Xmx2g"});
  ASSERT_TRUE(r.maxBytes);
  EXPECT_EQ(*r.maxBytes, uint64_t{96} << 20);  // -cp's value and the program's are not options
  EXPECT_EQ(r.optionsEnd, 5u);
  EXPECT_FALSE(r.inLateVariable);
  HeapRaise raise = raiseHeap(r, 2);
  EXPECT_EQ(raise.option, "-Xmx192m");
  EXPECT_EQ(raise.asked, "-Xmx96m");
}

TEST_F(HeapLimit, OptionsEndAtJarAndModule) {
  EXPECT_EQ(request({"java", "-Xmx8m", "-jar", "app.jar", "-Xmx1g"}).optionsEnd, 2u);
  EXPECT_EQ(request({"java", "-m", "mod/p.Main"}).optionsEnd, 1u);
  EXPECT_EQ(request({"java", "--module=mod/p.Main"}).optionsEnd, 1u);
  EXPECT_EQ(*request({"java", "-Xmx8m", "-jar", "app.jar", "-Xmx1g"}).maxBytes, uint64_t{8} << 20);
}

TEST_F(HeapLimit, VariablesInTheJvmsOrder) {
  variables()["JAVA_TOOL_OPTIONS"] = "-Xmx100m";
  EXPECT_EQ(*request({"java", "Main"}).maxBytes, uint64_t{100} << 20);
  EXPECT_EQ(*request({"java", "-Xmx200m", "Main"}).maxBytes, uint64_t{200} << 20);
  variables()["_JAVA_OPTIONS"] = "-Dx=1 -Xmx300m";
  HeapRequest late = request({"java", "-Xmx200m", "Main"});
  EXPECT_EQ(*late.maxBytes, uint64_t{300} << 20);
  EXPECT_TRUE(late.inLateVariable);
  HeapRaise none = raiseHeap(late, 2);
  EXPECT_TRUE(none.option.empty());
  EXPECT_NE(none.why.find("_JAVA_OPTIONS"), std::string::npos);
}

TEST_F(HeapLimit, TheDefaultIsRaisedByItsPercentage) {
  HeapRaise d = raiseHeap(request({"java", "Main"}), 1.5);
  EXPECT_EQ(d.option, "-XX:MaxRAMPercentage=37.5");
  EXPECT_EQ(d.asked, "the JVM's default (MaxRAMPercentage=25)");
  EXPECT_EQ(raiseHeap(request({"java", "-XX:MaxRAMPercentage=80", "Main"}), 2).option,
            "-XX:MaxRAMPercentage=100");
  EXPECT_EQ(raiseHeap(request({"java", "-XX:MaxRAMFraction=2", "Main"}), 1.5).option,
            "-XX:MaxRAMPercentage=75");
  // An explicit size wins over a percentage, whatever their order.
  EXPECT_EQ(raiseHeap(request({"java", "-Xmx1g", "-XX:MaxRAMPercentage=80", "Main"}), 2).option,
            "-Xmx2g");
  EXPECT_TRUE(raiseHeap(request({"java", "-Xmx1g", "Main"}), 1).option.empty());
}

TEST_F(HeapLimit, ArgFilesAreRead) {
  auto dir = std::filesystem::temp_directory_path() / "dragnet-heap-limit-test";
  std::filesystem::create_directories(dir);
  auto file = dir / "opts";
  std::ofstream(file) << "-cp \"a b.jar\"\n  -Xmx40m\n";
  HeapRequest r = request({"java", "@" + file.string(), "Main"});
  ASSERT_TRUE(r.maxBytes);
  EXPECT_EQ(*r.maxBytes, uint64_t{40} << 20);
  EXPECT_EQ(r.optionsEnd, 2u);
  EXPECT_EQ(raiseHeap(r, 1.25).option, "-Xmx50m");
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace dragnet::cli
