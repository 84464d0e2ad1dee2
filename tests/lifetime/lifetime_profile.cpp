#include "lifetime_profile.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <stdexcept>

#include "profile/writer.h"

namespace dragnet::test {

namespace fs = std::filesystem;
using profile::EventAt;
using profile::kNoTime;
using profile::ObjectRecord;

namespace {

void definitions(profile::Profile& p) {
  for (const profile::MethodDef& m : std::initializer_list<profile::MethodDef>{
           {kMain, "app/Main", "main", "([Ljava/lang/String;)V", "Main.java"},
           {kBuild, "app/Main", "build", "()V", "Main.java"},
           {kHelper, "app/Main", "helper", "()V", "Main.java"},
           {kUse, "app/Main", "use", "()V", "Main.java"},
           {kOther, "app/Main", "other", "()V", "Main.java"},
           {kRun, "app/Util", "run", "()V", "Util.java"}}) {
    p.methods[m.id] = m;
  }
  using K = profile::SiteKind;
  for (const profile::SiteDef& s :
       std::initializer_list<profile::SiteDef>{{kPoint, kBuild, 4, 10, K::New, "app/Point"},
                                               {kInts, kBuild, 12, 11, K::NewArray, "[I"},
                                               {kNode, kHelper, 3, 20, K::New, "app/Node"},
                                               {kJni, 0, 0, -1, K::Jni, "java/lang/String"}}) {
    p.sites[s.key] = s;
  }
}

profile::ThreadTree tree(uint32_t id, const char* name,
                         std::initializer_list<profile::NodeDef> nodes) {
  profile::ThreadTree t;
  t.id = id;
  t.name = name;
  t.ended = true;
  t.nodes.push_back({0, profile::kRootKey});
  t.nodes.insert(t.nodes.end(), nodes);
  t.counters.resize(t.nodes.size());
  return t;
}

ObjectRecord record(uint64_t id, EventAt at, uint32_t key, uint64_t size, uint64_t alloc,
                    uint64_t death, uint32_t gc) {
  ObjectRecord r;
  r.id = id;
  r.thread = at.thread;
  r.node = at.node;
  r.key = key;
  r.size = size;
  r.alloc = alloc;
  r.death = death;
  r.deathGc = gc;
  return r;
}

ObjectRecord got(ObjectRecord r, uint64_t first, uint64_t last, EventAt firstAt, EventAt lastAt) {
  r.firstGet = first;
  r.lastGet = last;
  r.firstGetAt = firstAt;
  r.lastGetAt = lastAt;
  return r;
}

void objects(profile::Profile& p) {
  const EventAt use{1, 4}, other{1, 5}, run{2, 1};
  ObjectRecord one = record(1, {1, 2}, kPoint, 24, 100, 500, 2);
  one.firstPut = one.lastPut = 150;
  one.firstPutAt = one.lastPutAt = use;
  p.objects = {
      one,
      got(record(3, {2, 3}, kPoint, 24, 300, 500, 2), 450, 480, use, use),
      got(record(2, {1, 2}, kPoint, 24, 200, 1000, 3), 200, 250, use, other),
      got(record(4, {2, 4}, kInts, 56, 1000, 1500, 4), 1010, 1010, run, run),
      got(record(7, {2, 3}, kPoint, 24, 1100, 1500, 4), 1150, 1160, use, other),
      record(6, {2, 5}, kJni, 40, 1600, 1800, 5),
      got(record(5, {1, 3}, kNode, 32, 1200, 2000, 0), 1300, 1950, run, run),
  };
  p.gcs = {{400, false}, {500, true}, {1000, false}, {1500, true}, {1800, false}};
}

}  // namespace

profile::Profile lifetimeProfile(const std::map<std::string, std::string>& meta) {
  profile::Profile p;
  p.version = profile::kVersion;
  p.meta = {{"mode", "lifetime"},
            {"pid", "4711"},
            {"use.epoch", "100"},
            {"gc.interval", "1k"},
            {"stack", "2"}};
  for (const auto& [k, v] : meta) {
    if (v.empty()) {
      p.meta.erase(k);
    } else {
      p.meta[k] = v;
    }
  }
  definitions(p);
  p.threads[1] = tree(1, "main", {{0, kMain}, {1, kBuild}, {2, kHelper}, {1, kUse}, {4, kOther}});
  p.threads[2] = tree(2, "worker", {{0, kRun}, {1, kMain}, {2, kBuild}, {1, kBuild}, {3, kHelper}});
  objects(p);
  p.complete = true;
  return p;
}

void writeProfile(const profile::Profile& p, const fs::path& path) {
  profile::Writer w;
  std::string error;
  if (!w.open(path.string(), error)) throw std::runtime_error(error);
  w.meta(p.meta);
  std::vector<profile::MethodDef> methods;
  for (const auto& [id, m] : p.methods) methods.push_back(m);
  w.methods(methods);
  std::vector<profile::SiteDef> sites;
  for (const auto& [key, s] : p.sites) sites.push_back(s);
  w.sites(sites);
  for (const auto& [id, t] : p.threads) {
    profile::ThreadChunk c;
    c.thread = id;
    c.name = t.name;
    c.firstNode = 1;
    c.ended = t.ended;
    c.nodes.assign(t.nodes.begin() + 1, t.nodes.end());
    w.thread(c);
  }
  w.gcs(1, p.gcs);
  w.objects(p.objects);
  if (p.complete) w.end({{"threads", std::to_string(p.threads.size())}});
  w.close();
}

fs::path testDir() {
  const auto* test = ::testing::UnitTest::GetInstance()->current_test_info();
  fs::path dir = fs::path(DRAGNET_BINARY_DIR) / "tests" / "lifetime" /
                 (std::string(test->test_suite_name()) + "." + test->name());
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

std::string readFile(const fs::path& path) {
  std::ifstream f(path, std::ios::binary);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

}  // namespace dragnet::test
