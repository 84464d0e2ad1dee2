// Several alloc profiles merged into one (analyses/alloc/merge.h, `dragnet report A B`):
// two JVMs that numbered the same methods and sites differently, and laid app.Point out
// differently (24 and 32 bytes). Their sum:
//
//   app.Main.main > app.Main.work: 15 app.Point (10 x 24 + 5 x 32 = 400 bytes),
//                                  5 int[] (50 elements, 112 + 168 = 280 bytes)
//   app.Other.run (second JVM only): 1 app.Point (32 bytes)
//
// Lifetime profiles and profiles recorded differently are refused.
#include "contexts/merge.h"

#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdlib>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "contexts/model.h"
#include "known_profile.h"
#include "profile/writer.h"

namespace fs = std::filesystem;
using namespace dragnet::profile;
using dragnet::contexts::AllocModel;
using dragnet::contexts::SiteRow;

namespace {

constexpr uint32_t site(uint32_t index, ElemKind kind) {
  return kAllocBit | index << 4 | static_cast<uint32_t>(kind);
}

struct Part {
  std::map<std::string, std::string> meta;
  bool end = true;
};

void write(const fs::path& path, const std::function<void(Writer&)>& body) {
  Writer w;
  std::string error;
  if (!w.open(path.string(), error)) throw std::runtime_error(error);
  body(w);
  w.close();
}

// The first JVM: main = 1, work = 2; Point = site 1, int[] = site 2.
fs::path writeFirst(const fs::path& dir, const Part& part = {{{"mode", "alloc"}, {"pid", "100"}}}) {
  fs::path path = dir / "first.dragnet";
  write(path, [&](Writer& w) {
    w.meta(part.meta);
    w.methods(
        {{1, "app/Main", "main", "()V", "Main.java"}, {2, "app/Main", "work", "()V", "Main.java"}});
    w.sites({{site(1, ElemKind::Object), 2, 4, 10, SiteKind::New, "app/Point"},
             {site(2, ElemKind::Int), 2, 8, 11, SiteKind::NewArray, "[I"}});
    ThreadChunk t;
    t.thread = 1;
    t.name = "main";
    t.firstNode = 1;
    t.nodes = {{0, 1}, {1, 2}, {2, site(1, ElemKind::Object)}, {2, site(2, ElemKind::Int)}};
    t.counters = {{1, {1, 0, 0, 0}}, {2, {1, 0, 0, 0}}, {3, {10, 0, 0, 0}}, {4, {2, 20, 112, 0}}};
    w.thread(t);
    w.classSizes({{"app/Point", 24}});
    w.failures({{"app/Bad", "", "Truncated class file"}});
    if (part.end) w.end({{"classes.instrumented", "3"}, {"threads", "1"}});
  });
  return path;
}

// The second JVM: work = 1, main = 2, Other.run = 3; int[] = site 1, Point = site 2 (in
// work) and site 3 (in Other.run); a Point takes 32 bytes.
fs::path writeSecond(const fs::path& dir, bool end = true) {
  fs::path path = dir / "second.dragnet";
  write(path, [&](Writer& w) {
    w.meta({{"mode", "alloc"}, {"pid", "200"}});
    w.methods({{1, "app/Main", "work", "()V", "Main.java"},
               {2, "app/Main", "main", "()V", "Main.java"},
               {3, "app/Other", "run", "()V", "Other.java"}});
    w.sites({{site(1, ElemKind::Int), 1, 8, 11, SiteKind::NewArray, "[I"},
             {site(2, ElemKind::Object), 1, 4, 10, SiteKind::New, "app/Point"},
             {site(3, ElemKind::Object), 3, 0, 5, SiteKind::New, "app/Point"}});
    ThreadChunk main;
    main.thread = 1;
    main.name = "main";
    main.firstNode = 1;
    main.nodes = {{0, 2}, {1, 1}, {2, site(1, ElemKind::Int)}, {2, site(2, ElemKind::Object)}};
    main.counters = {{1, {1, 0, 0, 0}}, {2, {1, 0, 0, 0}}, {3, {3, 30, 168, 0}}, {4, {5, 0, 0, 0}}};
    w.thread(main);
    ThreadChunk other;
    other.thread = 2;
    other.name = "other";
    other.firstNode = 1;
    other.nodes = {{0, 3}, {1, site(3, ElemKind::Object)}};
    other.counters = {{1, {1, 0, 0, 0}}, {2, {1, 0, 0, 0}}};
    w.thread(other);
    w.classSizes({{"app/Point", 32}});
    w.failures({{"app/Bad", "", "Truncated class file"}});
    if (end) w.end({{"classes.instrumented", "4"}, {"threads", "2"}});
  });
  return path;
}

Profile read(const fs::path& path) {
  Profile p;
  std::string error;
  if (!readProfile(path.string(), p, error)) throw std::runtime_error(error);
  return p;
}

bool merge(const std::vector<fs::path>& paths, Profile& out, std::string& error) {
  std::vector<Profile> parts;
  std::vector<std::string> names;
  for (const fs::path& p : paths) {
    parts.push_back(read(p));
    names.push_back(p.string());
  }
  return dragnet::contexts::mergeProfiles(parts, names, out, error);
}

// The merged model's row whose innermost frame starts with `frame`, of type `type`.
const SiteRow* row(const AllocModel& m, const std::string& frame, const std::string& type) {
  for (const SiteRow& r : m.rows) {
    auto frames = dragnet::contexts::rowFrames(m, r);
    if (r.site && r.site->type == type && !frames.empty() && frames[0].starts_with(frame)) {
      return &r;
    }
  }
  return nullptr;
}

std::string run(const std::string& args, int& status) {
  std::string cmd = "'" + std::string(DRAGNET_CLI) + "' report " + args + " 2>&1";
  FILE* pipe = ::popen(cmd.c_str(), "r");
  std::string out;
  char buf[4096];
  for (size_t n; (n = std::fread(buf, 1, sizeof buf, pipe)) > 0;) out.append(buf, n);
  int s = ::pclose(pipe);
  status = WIFEXITED(s) ? WEXITSTATUS(s) : -1;
  return out;
}

TEST(MergeProfiles, SumsContextsAcrossDifferentNumberings) {
  fs::path dir = dragnet::test::testDir();
  Profile merged;
  std::string error;
  ASSERT_TRUE(merge({writeFirst(dir), writeSecond(dir)}, merged, error)) << error;
  AllocModel m = dragnet::contexts::buildModel(merged);
  EXPECT_EQ(m.objects, 16u);
  EXPECT_EQ(m.arrays, 5u);
  EXPECT_EQ(m.elements, 50u);
  EXPECT_EQ(m.bytes, 400u + 280u + 32u);
  EXPECT_EQ(m.rows.size(), 3u);  // one row per context and site, not per JVM
  const SiteRow* points = row(m, "app.Main.work(Main.java:10)", "app/Point");
  ASSERT_NE(points, nullptr);
  EXPECT_EQ(points->count, 15u);
  EXPECT_EQ(points->bytes, 400u);
  EXPECT_EQ(dragnet::contexts::rowFrames(m, *points),
            (std::vector<std::string>{"app.Main.work(Main.java:10)", "app.Main.main(Main.java)"}));
  const SiteRow* ints = row(m, "app.Main.work(Main.java:11)", "[I");
  ASSERT_NE(ints, nullptr);
  EXPECT_EQ(ints->count, 5u);
  EXPECT_EQ(ints->elements, 50u);
  EXPECT_EQ(ints->bytes, 280u);
  const SiteRow* other = row(m, "app.Other.run(Other.java:5)", "app/Point");
  ASSERT_NE(other, nullptr);
  EXPECT_EQ(other->bytes, 32u);
  EXPECT_EQ(merged.threads.size(), 3u);
  EXPECT_EQ(merged.methods.size(), 3u);
  EXPECT_EQ(merged.failures.size(), 1u);  // the same failure in both
  EXPECT_EQ(merged.totals.at("classes.instrumented"), "7");
  EXPECT_EQ(merged.meta.at("pid"), "100, merged with 200");
  EXPECT_TRUE(merged.complete);
}

TEST(MergeProfiles, IncompleteIfOnePartIs) {
  fs::path dir = dragnet::test::testDir();
  Profile merged;
  std::string error;
  ASSERT_TRUE(merge({writeFirst(dir), writeSecond(dir, false)}, merged, error)) << error;
  EXPECT_FALSE(merged.complete);
}

// Which modes merge at all the registry says (report/analysis.h; the CLI test below refuses a
// lifetime profile); the merge itself refuses profiles of different modes or recordings.
TEST(MergeProfiles, RefusesLifetimeAndDifferentRecordings) {
  fs::path dir = dragnet::test::testDir();
  fs::path second = writeSecond(dir);
  Profile merged;
  std::string error;
  fs::path lifetime = writeFirst(dir, {{{"mode", "lifetime"}, {"pid", "100"}}});
  EXPECT_FALSE(merge({lifetime, second}, merged, error));
  EXPECT_NE(error.find(second.string() + " was recorded with mode=alloc, the first with "
                                         "mode=lifetime"),
            std::string::npos)
      << error;
  fs::path sampled = writeFirst(dir, {{{"mode", "alloc"}, {"sample", "524288"}}});
  EXPECT_FALSE(merge({second, sampled}, merged, error));
  EXPECT_NE(error.find(sampled.string() + " was recorded with sample=524288, the first with "
                                          "sample=off"),
            std::string::npos)
      << error;
}

TEST(MergeProfiles, ReportCommandMergesSeveralFiles) {
  fs::path dir = dragnet::test::testDir();
  std::string first = writeFirst(dir).string(), second = writeSecond(dir).string();
  int status = -1;
  std::string json = run("'" + first + "' '" + second + "' -f json", status);
  ASSERT_EQ(status, 0) << json;
  auto j = nlohmann::json::parse(json);
  EXPECT_EQ(j["totals"]["objects"], 16);
  EXPECT_EQ(j["totals"]["bytes"], 712);
  EXPECT_EQ(j["totals"]["threads"], 3);
  std::string text = run("'" + first + "' '" + second + "'", status);
  ASSERT_EQ(status, 0) << text;
  EXPECT_EQ(text.rfind("dragnet allocation profile (pid 100, merged with 200)\n", 0), 0u) << text;

  fs::path lifetime = writeFirst(dir, {{{"mode", "lifetime"}, {"pid", "100"}}});
  std::string refused = run("'" + second + "' '" + lifetime.string() + "'", status);
  EXPECT_EQ(status, 1);
  EXPECT_NE(refused.find("dragnet: error: cannot merge the profiles: " + lifetime.string() +
                         " is a lifetime profile"),
            std::string::npos)
      << refused;
}

}  // namespace
