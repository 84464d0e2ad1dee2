// Finds the newest JDK on the machine for the tests that also run on a JDK newer than the
// 17 on PATH (the agent's oracles, the hard cases that need a newer language level).
// The one place that knows where JDKs are installed: $DRAGNET_NEWEST_JDK (a JDK home, or
// "none" to act as if there were no newer JDK), else every directory under /usr/lib/jvm and
// every *jdk* directory under /opt and /usr/local, each judged by its `release` file.
#pragma once

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <system_error>
#include <vector>

namespace dragnet::test {

struct JdkHome {
  std::string home;     // empty: none found
  std::string version;  // JAVA_VERSION of its `release` file, e.g. "25.0.3"
  int major = 0;        // 25 (and 8 for "1.8.0_402")
  std::string java() const { return home.empty() ? "" : home + "/bin/java"; }
};

// The JDK at `home`: its `release` file's JAVA_VERSION and a bin/java; major 0 if either is
// missing or unreadable.
inline JdkHome readJdkHome(const std::filesystem::path& home) {
  JdkHome jdk;
  std::error_code ec;
  if (!std::filesystem::is_regular_file(home / "bin" / "java", ec)) return jdk;
  std::ifstream release(home / "release");
  const std::string key = "JAVA_VERSION=";
  for (std::string line; std::getline(release, line);) {
    if (!line.starts_with(key)) continue;
    std::string v = line.substr(key.size());
    if (v.size() >= 2 && v.front() == '"' && v.back() == '"') v = v.substr(1, v.size() - 2);
    std::string first = v.substr(0, v.find_first_not_of("0123456789"));
    if (first == "1" && v.size() > 2) first = v.substr(2, v.find_first_not_of("0123456789", 2) - 2);
    if (first.empty() || first.size() > 4) return jdk;
    jdk.home = home.string();
    jdk.version = v;
    jdk.major = std::stoi(first);
    return jdk;
  }
  return jdk;
}

// Whether a is newer than b, comparing their versions number by number ("25.0.10" > "25.0.3").
inline bool newerJdk(const JdkHome& a, const JdkHome& b) {
  auto numbers = [](const std::string& v) {
    std::vector<long> n;
    for (size_t i = 0; i < v.size();) {
      size_t end = v.find_first_not_of("0123456789", i);
      if (end == std::string::npos) end = v.size();
      if (end > i) n.push_back(std::stol(v.substr(i, std::min<size_t>(end - i, 9))));
      i = end + 1;
    }
    return n;
  };
  if (a.major != b.major) return a.major > b.major;
  return numbers(a.version) > numbers(b.version);
}

// The candidate homes under `roots`: every directory in each root whose name contains
// `pattern` (empty: every directory). Symbolic links to the same JDK count once at the
// comparison (equal versions: the first is kept).
inline std::vector<std::filesystem::path> jdkCandidates(
    const std::vector<std::pair<std::filesystem::path, std::string>>& roots) {
  std::vector<std::filesystem::path> out;
  for (const auto& [root, pattern] : roots) {
    std::error_code ec;
    for (const auto& e : std::filesystem::directory_iterator(root, ec)) {
      if (!e.is_directory(ec)) continue;
      std::string name = e.path().filename().string();
      if (pattern.empty() || name.find(pattern) != std::string::npos) out.push_back(e.path());
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

// The newest JDK of at least `minMajor` among `candidates`; `override` is the value of
// $DRAGNET_NEWEST_JDK (nullptr: unset): "none" finds nothing, a JDK home is taken if it is
// recent enough and nothing else is looked at.
inline JdkHome newestJdkIn(const std::vector<std::filesystem::path>& candidates, int minMajor,
                           const char* override) {
  if (override && *override) {
    if (std::string(override) == "none") return {};
    JdkHome jdk = readJdkHome(override);
    return jdk.major >= minMajor ? jdk : JdkHome{};
  }
  JdkHome best;
  for (const auto& home : candidates) {
    JdkHome jdk = readJdkHome(home);
    if (jdk.major >= minMajor && (best.home.empty() || newerJdk(jdk, best))) best = jdk;
  }
  return best;
}

// The newest JDK on this machine newer than 17 (or of at least `minMajor`).
inline JdkHome newestJdk(int minMajor = 18) {
  static const std::vector<std::filesystem::path> candidates =
      jdkCandidates({{"/usr/lib/jvm", ""}, {"/opt", "jdk"}, {"/usr/local", "jdk"}});
  return newestJdkIn(candidates, minMajor, std::getenv("DRAGNET_NEWEST_JDK"));
}

// The reason given when a test that needs such a JDK is skipped.
inline std::string noNewestJdk(int minMajor = 18) {
  return "no JDK " +
         (minMajor == 18 ? std::string("newer than 17") : std::to_string(minMajor) + " or newer") +
         " found (looked at $DRAGNET_NEWEST_JDK, /usr/lib/jvm/*, /opt/*jdk*, /usr/local/*jdk*; "
         "scripts/install-deps.sh installs one where Debian has it)";
}

}  // namespace dragnet::test
