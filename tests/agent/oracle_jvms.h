// The JVMs the agent's oracle programs run on: JDK 17 (the `java` on PATH) with each
// collector, and the newest JDK present.
#pragma once

#include <filesystem>
#include <fstream>
#include <ostream>
#include <sstream>
#include <string>
#include <vector>

#include "newest_jdk.h"

namespace dragnet::test {

// A JVM configuration to run an oracle on: which java, collector and thread count, and
// its JDK's feature version. An empty `java` is a JDK this machine lacks; `missing` says so.
struct Jvm {
  std::string name, java, flags;
  int threads = 16;
  int major = 17;
  std::string missing;
};

// gtest prints a test's parameter into its name in ctest's listing: the name alone.
inline void PrintTo(const Jvm& jvm, std::ostream* os) { *os << jvm.name; }

// JDK 17 with each collector and 16, 1 and 32 threads; the newest JDK present with G1,
// named "newest_g1" whatever its version (ctest's test names are fixed at build time).
// Without a JDK newer than 17 that entry has no java and `missing` set: the parameterized
// suites skip it with that message, so the skip shows in ctest's output.
inline std::vector<Jvm> oracleJvmParams() {
  std::vector<Jvm> v{{"jdk17_g1", "java", "-XX:+UseG1GC", 16, 17, ""},
                     {"jdk17_serial_1thread", "java", "-XX:+UseSerialGC", 1, 17, ""},
                     {"jdk17_parallel_32threads", "java", "-XX:+UseParallelGC", 32, 17, ""}};
  JdkHome newest = newestJdk();
  v.push_back({"newest_g1", newest.java(), "-XX:+UseG1GC", 16, newest.major,
               newest.home.empty() ? noNewestJdk() : ""});
  return v;
}

// The JVMs of oracleJvmParams() this machine has.
inline std::vector<Jvm> oracleJvms() {
  std::vector<Jvm> v = oracleJvmParams();
  std::erase_if(v, [](const Jvm& j) { return j.java.empty(); });
  return v;
}

// Put before an oracle's java command: a JVM that hangs (a deadlock, an endless loop in a
// probe) is killed, so that it fails its test instead of holding up the whole run.
inline std::string killAfterTimeout() { return "timeout -s KILL 180 "; }

inline std::string readFile(const std::filesystem::path& p) {
  std::ifstream f(p);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

}  // namespace dragnet::test
