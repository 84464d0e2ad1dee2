// The newest-JDK discovery of the tests (tests/agent/newest_jdk.h) on fake JDK trees: the
// newest by each home's `release` file, JDK 17 and older left out, the override.
#include "../../agent/newest_jdk.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

namespace fs = std::filesystem;
using dragnet::test::jdkCandidates;
using dragnet::test::JdkHome;
using dragnet::test::newestJdkIn;

namespace {

class NewestJdk : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = fs::temp_directory_path() / ("dragnet-jdks-" + std::to_string(::getpid()));
    fs::remove_all(root_);
    fs::create_directories(root_ / "lib" / "jvm");
    fs::create_directories(root_ / "opt");
  }
  void TearDown() override { fs::remove_all(root_); }

  // A fake JDK home: bin/java and a `release` file with JAVA_VERSION (none if empty).
  fs::path jdk(const fs::path& home, const std::string& version, bool java = true) {
    fs::create_directories(home / "bin");
    if (java) std::ofstream(home / "bin" / "java") << "#!/bin/sh\n";
    if (!version.empty()) {
      std::ofstream(home / "release")
          << "IMPLEMENTOR=\"Someone\"\nJAVA_VERSION=\"" << version << "\"\nOS_NAME=\"Linux\"\n";
    }
    return home;
  }

  std::vector<fs::path> candidates() {
    return jdkCandidates({{root_ / "lib" / "jvm", ""}, {root_ / "opt", "jdk"}});
  }

  fs::path root_;
};

TEST_F(NewestJdk, PicksTheNewestByItsReleaseFile) {
  jdk(root_ / "lib" / "jvm" / "java-17-openjdk-amd64", "17.0.15");
  jdk(root_ / "lib" / "jvm" / "java-21-openjdk-amd64", "21.0.7");
  jdk(root_ / "lib" / "jvm" / "zulu-8", "1.8.0_402");
  // Named as if older, but its release file says 25; and a newer update of it under /opt.
  jdk(root_ / "lib" / "jvm" / "a-jdk", "25.0.3");
  fs::path opt = jdk(root_ / "opt" / "jdk-25.0.10", "25.0.10");
  jdk(root_ / "opt" / "not-a-java-home", "26");           // no "jdk" in its name: not looked at
  jdk(root_ / "lib" / "jvm" / "broken-26", "26", false);  // no bin/java
  jdk(root_ / "lib" / "jvm" / "no-release", "");
  JdkHome n = newestJdkIn(candidates(), 18, nullptr);
  EXPECT_EQ(n.home, opt.string());
  EXPECT_EQ(n.major, 25);
  EXPECT_EQ(n.version, "25.0.10");
  EXPECT_EQ(n.java(), (opt / "bin" / "java").string());
  // At least 26: none.
  EXPECT_EQ(newestJdkIn(candidates(), 26, nullptr).home, "");
}

TEST_F(NewestJdk, NothingNewerThan17) {
  jdk(root_ / "lib" / "jvm" / "java-17-openjdk-amd64", "17.0.15");
  jdk(root_ / "lib" / "jvm" / "java-11-openjdk-amd64", "11.0.2");
  JdkHome n = newestJdkIn(candidates(), 18, nullptr);
  EXPECT_EQ(n.home, "");
  EXPECT_EQ(n.java(), "");
}

TEST_F(NewestJdk, OverrideHidesOrNamesOne) {
  jdk(root_ / "lib" / "jvm" / "temurin-25-jdk-amd64", "25.0.3");
  fs::path other = jdk(root_ / "elsewhere", "21.0.1");
  EXPECT_EQ(newestJdkIn(candidates(), 18, nullptr).major, 25);
  EXPECT_EQ(newestJdkIn(candidates(), 18, "none").home, "");
  EXPECT_EQ(newestJdkIn(candidates(), 18, other.c_str()).home, other.string());
  // A named JDK that is too old or not a JDK at all finds nothing.
  EXPECT_EQ(newestJdkIn(candidates(), 25, other.c_str()).home, "");
  EXPECT_EQ(newestJdkIn(candidates(), 18, (root_ / "nowhere").c_str()).home, "");
}

}  // namespace
