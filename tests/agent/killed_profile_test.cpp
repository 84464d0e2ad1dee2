// A killed run keeps what it recorded. KilledOracle allocates known
// objects, keeps them reachable and waits; the agent flushes every second (flush=1); the
// test reads the profile as it grows until it holds what a flush must leave, kills the
// JVM with SIGKILL and checks the profile it left:
// - mode alloc: the objects' bytes (class sizes measured at a flush, not only at exit),
//   except the class with a finalizer, whose objects are counted as of unknown size;
// - mode lifetime: the objects alive at the kill, as live objects of their known sizes.
// Nothing here is timed: the test waits for the profile's content (up to a limit only to
// fail instead of hanging).
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <functional>
#include <set>
#include <string>
#include <thread>

#include "analyses/lifetime/model/aggregate.h"
#include "contexts/model.h"
#include "oracle_jvms.h"
#include "profile/codec.h"
#include "profile/reader.h"

namespace fs = std::filesystem;
using namespace dragnet;

namespace {

fs::path work() { return fs::path(DRAGNET_BINARY_DIR) / "tests" / "alloc-oracle"; }

// Runs KilledOracle under the agent with `options` until `enough` holds for the profile
// read while it runs (at most 120 s), then kills it with SIGKILL; the profile it left
// (and its bytes in `raw`).
// With `gate`: the program allocates its Leaks only once `gate` holds for the profile
// (the test then creates the file it waits for).
profile::Profile runAndKill(const std::string& options,
                            const std::function<bool(const profile::Profile&)>& enough,
                            std::string* raw = nullptr,
                            const std::function<bool(const profile::Profile&)>& gate = {}) {
  std::string tag = std::to_string(::getpid());
  fs::path prof = work() / ("killed-" + tag + ".dragnet");
  fs::path out = work() / ("killed-stdout-" + tag + ".txt");
  fs::path gateFile = work() / ("killed-gate-" + tag);
  fs::remove(prof);
  fs::remove(gateFile);
  std::string cmd = "exec java -agentpath:'" + std::string(DRAGNET_AGENT) + "'=quiet=on,flush=1" +
                    options + ",out='" + prof.string() + "' -cp '" + (work() / "classes").string() +
                    "' KilledOracle ";
  if (gate) cmd.append("'").append(gateFile.string()).append("'");
  cmd.append(" > '").append(out.string()).append("'");
  pid_t pid = ::fork();
  if (pid == 0) {
    ::execl("/bin/sh", "sh", "-c", cmd.c_str(), static_cast<char*>(nullptr));
    ::_exit(127);
  }
  EXPECT_GT(pid, 0);
  bool done = false;
  auto until = std::chrono::steady_clock::now() + std::chrono::seconds(120);
  while (!done && std::chrono::steady_clock::now() < until) {
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    profile::Profile p;
    std::string error;
    bool read = profile::readProfile(prof.string(), p, error);
    if (read && gate && !fs::exists(gateFile) && gate(p))
      std::ofstream(gateFile.string()).put('\n');
    if (test::readFile(out) != "ready\n") continue;
    done = read && enough(p);
  }
  ::kill(pid, SIGKILL);
  int status = 0;
  ::waitpid(pid, &status, 0);
  EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL) << "the JVM ended by itself";
  EXPECT_TRUE(done) << "the profile never held what a flush must leave";
  profile::Profile p;
  std::string error;
  EXPECT_TRUE(profile::readProfile(prof.string(), p, error)) << error;
  if (raw) *raw = test::readFile(prof);
  if (!std::getenv("DRAGNET_KEEP_PROFILE")) fs::remove(prof);
  fs::remove(gateFile);
  return p;
}

struct Sum {
  uint64_t count = 0, bytes = 0;
  bool known = true;
};

Sum allocOf(const contexts::AllocModel& m, const std::string& type) {
  Sum s;
  for (const auto& r : m.rows) {
    if (!r.site || r.site->type != type) continue;
    s.count += r.count;
    s.bytes += r.bytes;
    s.known = s.known && r.bytesKnown;
  }
  return s;
}

// 24 bytes: a 12-byte header (compressed class pointers) and two ints, or a long and a
// compressed reference, aligned to 8 (JDK 17's default layout on x86-64).
constexpr uint64_t kObjectSize = 24;

// The classes of every ClassSizes chunk in the file, each as often as it is written.
std::multiset<std::string> sizedClasses(const std::string& raw) {
  std::multiset<std::string> out;
  auto u32 = [&](size_t at) {
    uint32_t v = 0;
    for (int i = 3; i >= 0; --i)
      v = v << 8 | static_cast<uint8_t>(raw[at + static_cast<size_t>(i)]);
    return v;
  };
  for (size_t pos = profile::kHeaderSize; raw.size() - pos >= profile::kChunkHeaderSize;) {
    uint32_t len = u32(pos + 1);
    if (len > raw.size() - pos - profile::kChunkHeaderSize) break;
    if (raw[pos] == static_cast<char>(profile::ChunkType::ClassSizes)) {
      profile::Decoder d(reinterpret_cast<const uint8_t*>(raw.data()) + pos + 9, len);
      for (uint64_t n = d.count(); n > 0 && d.ok(); --n) {
        out.insert(d.str());
        d.u();
      }
    }
    pos += profile::kChunkHeaderSize + len;
  }
  return out;
}

TEST(KilledProfile, AllocModeKeepsObjectBytes) {
  std::string raw;
  profile::Profile p = runAndKill(
      "",
      [](const profile::Profile& p) {
        contexts::AllocModel m = contexts::buildModel(p);
        return allocOf(m, "KilledOracle$Leak").count == 5000 &&
               p.classSizes.count("KilledOracle$Leak") == 1;
      },
      &raw,
      [](const profile::Profile& p) { return p.classSizes.count("KilledOracle$Point") == 1; });
  // Each flush writes the sizes of the classes new since, none twice: Point's in a flush
  // before the Leaks were allocated, Leak's in a later one.
  std::multiset<std::string> sized = sizedClasses(raw);
  EXPECT_EQ(sized.size(), p.classSizes.size());
  EXPECT_EQ(sized.count("KilledOracle$Point"), 1u);
  EXPECT_FALSE(p.complete);
  contexts::AllocModel m = contexts::buildModel(p);
  Sum points = allocOf(m, "KilledOracle$Point");
  EXPECT_EQ(points.count, 10000u);
  EXPECT_TRUE(points.known);
  EXPECT_EQ(points.bytes, 10000 * kObjectSize);
  Sum leaks = allocOf(m, "KilledOracle$Leak");
  EXPECT_EQ(leaks.count, 5000u);
  EXPECT_EQ(leaks.bytes, 5000 * kObjectSize);
  Sum arrays = allocOf(m, "[I");
  EXPECT_EQ(arrays.count, 1000u);
  EXPECT_EQ(arrays.bytes, 1000u * (16 + 400));
  // A class with a finalizer is measured at exit only: its objects are counted, unsized.
  Sum fins = allocOf(m, "KilledOracle$Fin");
  EXPECT_EQ(fins.count, 100u);
  EXPECT_FALSE(fins.known);
  EXPECT_EQ(p.classSizes.count("KilledOracle$Fin"), 0u);
  EXPECT_GE(m.unsizedObjects, 100u);
}

TEST(KilledProfile, LifetimeModeKeepsLiveObjects) {
  auto leaksOf = [](const profile::Profile& p, uint64_t* bytes = nullptr) {
    uint64_t n = 0;
    for (const profile::ObjectRecord& r : p.objects) {
      auto s = p.sites.find(r.key);
      if (s == p.sites.end() || s->second.type != "KilledOracle$Leak") continue;
      ++n;
      if (bytes) *bytes += r.size;
    }
    return n;
  };
  profile::Profile p =
      runAndKill(",mode=lifetime", [&](const profile::Profile& p) { return leaksOf(p) == 5000; });
  EXPECT_FALSE(p.complete);
  uint64_t bytes = 0;
  EXPECT_EQ(leaksOf(p, &bytes), 5000u);
  EXPECT_EQ(bytes, 5000 * kObjectSize);
  EXPECT_GE(p.liveAtFlush, 5000u + 10000 + 100 + 1000);
  uint64_t points = 0, leaksPut = 0;
  for (const profile::ObjectRecord& r : p.objects) {
    auto s = p.sites.find(r.key);
    if (s == p.sites.end()) continue;
    if (s->second.type == "KilledOracle$Point") {
      ++points;
      EXPECT_EQ(r.deathGc, 0u);
    }
    // Each Leak had `next` put once, right after its allocation.
    if (s->second.type == "KilledOracle$Leak" && r.firstPut != profile::kNoTime) ++leaksPut;
  }
  EXPECT_EQ(points, 10000u);
  EXPECT_EQ(leaksPut, 5000u);
  analyses::lifetime::Model m = analyses::lifetime::buildModel(p);
  EXPECT_GE(m.precision.aliveAtEnd, 16100u);
}

}  // namespace
