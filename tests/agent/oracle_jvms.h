// The JVMs the agent's oracle programs run on: JDK 17 (the `java` on PATH) with each
// collector, and the newest JDK present.
#pragma once

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace dragnet::test {

// A JVM configuration to run an oracle on: which java, collector and thread count.
struct Jvm {
  std::string name, java, flags;
  int threads = 16;
};

// JDK 17 with each collector and 16, 1 and 32 threads; the newest JDK present with G1.
inline std::vector<Jvm> oracleJvms() {
  std::vector<Jvm> v{{"jdk17_g1", "java", "-XX:+UseG1GC", 16},
                     {"jdk17_serial_1thread", "java", "-XX:+UseSerialGC", 1},
                     {"jdk17_parallel_32threads", "java", "-XX:+UseParallelGC", 32}};
  for (const char* jdk : {"/usr/lib/jvm/temurin-25-jdk-amd64/bin/java"}) {
    if (std::filesystem::exists(jdk)) v.push_back({"jdk25_g1", jdk, "-XX:+UseG1GC", 16});
  }
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
