// The JVMs the agent's oracle programs run on: JDK 17 (the `java` on PATH) with each
// collector, and the newest JDK present.
#pragma once

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
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

// The oracle JVMs with G1 (the JIT-tier tests run on one collector).
inline std::vector<Jvm> g1Jvms() {
  std::vector<Jvm> v;
  for (const Jvm& j : oracleJvmParams()) {
    if (j.flags == "-XX:+UseG1GC") v.push_back(j);
  }
  return v;
}

struct JavaRun {
  int status = -1;
  std::string out, err, cmd;
};

// Runs `java [jvm flags] [flags] [agent] -cp WORK/classes PROGRAM-LINE` with its output in
// files of the work folder (ctest -j runs tests side by side: named by the pid).
inline JavaRun runJava(const std::filesystem::path& work, const Jvm& jvm, const std::string& flags,
                       const std::string& agent, const std::string& programLine) {
  std::string tag = std::to_string(::getpid());
  std::filesystem::path out = work / ("stdout-" + tag + ".txt"),
                        err = work / ("stderr-" + tag + ".txt");
  JavaRun r;
  // The interpreter runs the probes interpreted too: minutes on a busy machine.
  r.cmd = "timeout -s KILL 900 '" + jvm.java + "' " + jvm.flags + " " + flags + " " + agent +
          " -cp '" + (work / "classes").string() + "' " + programLine + " > '" + out.string() +
          "' 2> '" + err.string() + "'";
  r.status = std::system(r.cmd.c_str());
  r.out = readFile(out);
  r.err = readFile(err);
  std::filesystem::remove(out);
  std::filesystem::remove(err);
  return r;
}

// The values of a run with `flags` and of one with the default flags that the other lacks,
// one a line ("" when both give the same): what a JIT tier changed.
inline std::string tierDifference(const std::vector<std::string>& tier,
                                  const std::vector<std::string>& plain, const std::string& flags) {
  std::string only;
  for (const std::string& v : tier) {
    if (std::find(plain.begin(), plain.end(), v) == plain.end()) only += "\n  " + flags + ": " + v;
  }
  for (const std::string& v : plain) {
    if (std::find(tier.begin(), tier.end(), v) == tier.end()) only += "\n  default: " + v;
  }
  return only;
}

}  // namespace dragnet::test
