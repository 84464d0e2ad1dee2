#include "known_profile.h"

#include <gtest/gtest.h>

#include <stdexcept>

#include "profile/writer.h"

namespace dragnet::test {

namespace fs = std::filesystem;
using profile::Counters;
using profile::kAllocBit;

namespace {

constexpr uint32_t kMain = 1, kBuild = 2, kParse = 3, kRare = 4;

constexpr uint32_t site(uint32_t index, profile::ElemKind kind) {
  return kAllocBit | index << 4 | static_cast<uint32_t>(kind);
}
constexpr uint32_t kPoint = site(1, profile::ElemKind::Object);
constexpr uint32_t kInts = site(2, profile::ElemKind::Int);
constexpr uint32_t kChars = site(3, profile::ElemKind::Char);
constexpr uint32_t kString = site(4, profile::ElemKind::Object);
constexpr uint32_t kTiny = site(5, profile::ElemKind::Object);

void definitions(profile::Writer& w) {
  w.methods({{kMain, "app/Main", "main", "([Ljava/lang/String;)V", "Main.java"},
             {kBuild, "app/Main", "build", "()V", "Main.java"},
             {kParse, "app/Main", "parse", "()V", "Main.java"},
             {kRare, "app/Main", "rare", "()V", "Main.java"}});
  using K = profile::SiteKind;
  w.sites({{kPoint, kBuild, 4, 10, K::New, "app/Point"},
           {kInts, kBuild, 12, 11, K::NewArray, "[I"},
           {kChars, kParse, 3, 20, K::NewArray, "[C"},
           {kString, kParse, 9, 21, K::New, "java/lang/String"},
           {kTiny, kRare, 0, 30, K::New, "app/Tiny"}});
}

// Counters: {count, elements, bytes (arrays only), insns}.
void threads(profile::Writer& w) {
  profile::ThreadChunk main;
  main.thread = 1;
  main.name = "main";
  main.firstNode = 1;
  main.ended = true;
  main.nodes = {{0, kMain},  {1, kBuild}, {2, kPoint}, {2, kInts},
                {1, kParse}, {5, kChars}, {5, kString}};
  main.counters = {{1, Counters{1, 0, 0, 100}},   {2, Counters{10, 0, 0, 1000}},
                   {3, Counters{20000, 0, 0, 0}}, {4, Counters{100, 10000, 41600, 0}},
                   {5, Counters{5, 0, 0, 500}},   {6, Counters{50, 5000, 10800, 0}},
                   {7, Counters{50, 0, 0, 0}}};
  w.thread(main);
  profile::ThreadChunk worker;
  worker.thread = 2;
  worker.name = "worker";
  worker.firstNode = 1;
  worker.ended = true;
  worker.nodes = {{0, kBuild}, {1, kPoint}, {1, kRare}, {3, kTiny}};
  worker.counters = {{1, Counters{2, 0, 0, 200}},
                     {2, Counters{1000, 0, 0, 0}},
                     {3, Counters{1, 0, 0, 0}},
                     {4, Counters{1, 0, 0, 0}}};
  w.thread(worker);
}

}  // namespace

fs::path writeKnownProfile(const fs::path& dir, Variant v) {
  fs::path path = dir / (v == Variant::Exact ? "known.dragnet" : "known-sampled.dragnet");
  profile::Writer w;
  std::string error;
  if (!w.open(path.string(), error)) throw std::runtime_error(error);
  std::map<std::string, std::string> meta{
      {"mode", "alloc"}, {"pid", "4711"}, {"bytecodes", "on"}, {"depth", "1024"}};
  if (v == Variant::Sampled) meta["sample"] = "512k";
  w.meta(meta);
  definitions(w);
  threads(w);
  w.classSizes({{"app/Point", 24}, {"java/lang/String", 24}, {"app/Tiny", 16}});
  w.failures({{"app/Bad", "", "Truncated class file"}, {"app/Big", "huge()V", kMarkupReason}});
  if (v == Variant::Exact) {
    w.failures({{"app/Main$$Lambda.0x0000000800c03000", "", std::string(profile::kHidden)}});
    w.end({{"classes.instrumented", "3"},
           {"threads", "2"},
           {"runtime.native.peak", "351744"},
           {"runtime.native.bytes", "29312"},
           {"runtime.native.limit", "1073741824"},
           {"runtime.heap.bytes", "8192"},
           {"runtime.index.lookups", "12"}});
  }
  w.close();
  return path;
}

fs::path testDir() {
  const auto* test = ::testing::UnitTest::GetInstance()->current_test_info();
  fs::path dir = fs::path(DRAGNET_BINARY_DIR) / "tests" / "report" /
                 (std::string(test->test_suite_name()) + "." + test->name());
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

}  // namespace dragnet::test
