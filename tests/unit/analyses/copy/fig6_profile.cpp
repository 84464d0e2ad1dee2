#include "fig6_profile.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <map>
#include <stdexcept>
#include <string>

#include "profile/writer.h"

namespace fs = std::filesystem;

namespace dragnet::test::copy {

using namespace profile;

namespace {

uint32_t allocKey(uint32_t site, bool array) { return kAllocBit | site << 4 | (array ? 1 : 0); }

class Tags {
 public:
  explicit Tags(uint32_t slots) : slots_(slots) {}
  uint32_t of(uint32_t site, uint32_t context) {
    if (slots_ > 0) return (context % slots_) << kTagSiteBits | site;
    auto [it, fresh] =
        names_.try_emplace({site, context}, static_cast<uint32_t>(names_.size() + 1));
    return it->second;
  }
  std::vector<ObjectName> names() const {
    std::vector<ObjectName> out;
    for (const auto& [key, tag] : names_) out.push_back({tag, key.first, key.second});
    return out;
  }

 private:
  uint32_t slots_;
  std::map<std::pair<uint32_t, uint32_t>, uint32_t> names_;
};

void definitions(Writer& w) {
  auto m = [](uint32_t id, const char* cls, const char* name, const char* desc) {
    return MethodDef{id, cls, name, desc, "ListClient.java"};
  };
  w.methods({m(kMain, "ListClient", "main", "([Ljava/lang/String;)V"),
             m(kListInit, "List", "<init>", "()V"), m(kListCopyInit, "List", "<init>", "(LList;)V"),
             m(kListAdd, "List", "add", "(Ljava/lang/Object;)V"),
             m(kListGet, "List", "get", "(I)Ljava/lang/Object;"),
             m(kListIterator, "List", "iterator", "()Ljava/util/Iterator;"),
             m(kIteratorInit, "ListIterator", "<init>", "(LList;)V"),
             m(kHasNext, "ListIterator", "hasNext", "()Z"),
             m(kNext, "ListIterator", "next", "()Ljava/lang/Object;"),
             m(kClientInit, "ListClient", "<init>", "(LList;)V"),
             m(kDeepClone, "ListClient", "deepClone", "()LListClient;"),
             m(kShallowClone, "ListClient", "shallowClone", "()LListClient;")});
  auto s = [](uint32_t line, uint32_t method, SiteKind kind, const char* type) {
    return SiteDef{allocKey(line, kind == SiteKind::ANewArray),
                   method,
                   0,
                   static_cast<int32_t>(line),
                   kind,
                   type};
  };
  w.sites({s(3, kListInit, SiteKind::ANewArray, "[Ljava/lang/Object;"),
           s(16, kListIterator, SiteKind::New, "ListIterator"),
           s(31, kDeepClone, SiteKind::New, "List"), s(32, kDeepClone, SiteKind::New, "ListClient"),
           s(35, kShallowClone, SiteKind::New, "ListClient"), s(39, kMain, SiteKind::New, "List"),
           s(41, kMain, SiteKind::New, "java/lang/Integer"), s(42, kMain, SiteKind::New, "List"),
           s(44, kMain, SiteKind::New, "java/lang/String"),
           s(46, kMain, SiteKind::New, "ListClient"), s(47, kMain, SiteKind::New, "ListClient")});
}

// The calling-context tree of the header; returns the node numbers of the three contexts
// that copy: List.add under deepClone, ListIterator.<init>, ListClient.<init> under
// shallowClone.
void tree(Writer& w) {
  ThreadChunk t;
  t.thread = 1;
  t.name = "main";
  t.firstNode = 1;
  t.nodes = {
      {0, kMain},          // 1
      {1, kListInit},      // 2
      {1, kListAdd},       // 3
      {1, kClientInit},    // 4
      {1, kDeepClone},     // 5
      {5, kListCopyInit},  // 6
      {6, kListInit},      // 7
      {6, kListIterator},  // 8
      {8, kIteratorInit},  // 9
      {6, kHasNext},       // 10
      {6, kNext},          // 11
      {11, kListGet},      // 12
      {6, kListAdd},       // 13
      {5, kClientInit},    // 14
      {1, kShallowClone},  // 15
      {15, kClientInit},   // 16
      {1, kListGet},       // 17
  };
  t.counters = {{1, {1, 0, 0, 0}},     {2, {2, 0, 0, 0}},    {3, {1005, 0, 0, 0}},
                {4, {2, 0, 0, 0}},     {5, {1, 0, 0, 0}},    {6, {1, 0, 0, 0}},
                {7, {1, 0, 0, 0}},     {8, {1, 0, 0, 0}},    {9, {1, 0, 0, 0}},
                {10, {1000, 0, 0, 0}}, {11, {999, 0, 0, 0}}, {12, {999, 0, 0, 0}},
                {13, {999, 0, 0, 0}},  {14, {1, 0, 0, 0}},   {15, {1, 0, 0, 0}},
                {16, {1, 0, 0, 0}},    {17, {5, 0, 0, 0}}};
  t.ended = true;
  w.thread(t);
}

}  // namespace

fs::path writeFig6(const fs::path& dir, uint32_t slots, bool wholeList) {
  fs::path path =
      dir / ("fig6-slots" + std::to_string(slots) + (wholeList ? "-whole" : "") + ".dragnet");
  const uint64_t n = wholeList ? 1000 : 999;  // elements deepClone copies
  Writer w;
  std::string error;
  if (!w.open(path.string(), error)) throw std::runtime_error(error);
  w.meta({{"mode", "copy"}, {"flow.slots", std::to_string(slots)}, {"flow.refBytes", "4"}});
  definitions(w);
  tree(w);
  Tags tags(slots);
  auto obj = [&](uint32_t site, uint32_t ctx, uint32_t field) {
    return flowNode(FlowKind::Object, field, tags.of(site, ctx));
  };
  const uint64_t c = flowNode(FlowKind::Consumer, 0, 0);
  FlowThreadChunk f;
  f.thread = 1;
  f.edges = {
      {obj(3, 39, 0), obj(39, 0, kElems), 1},             // 1
      {obj(3, 42, 0), obj(42, 0, kElems), 1},             // 2
      {obj(3, 31, 0), obj(31, 46, kElems), 1},            // 3
      {obj(41, 0, 0), obj(3, 39, kElmField), 1000},       // 4
      {obj(44, 0, 0), obj(3, 42, kElmField), 5},          // 5
      {obj(3, 39, kElmField), obj(3, 31, kElmField), n},  // 6
      {obj(3, 42, kElmField), c, 10},                     // 7
      {obj(39, 0, kCount), c, 1001 + n},                  // 8
      {obj(42, 0, kCount), c, 5},                         // 9
      {obj(31, 46, kCount), c, n},                        // 10
      {obj(16, 39, kPos), c, 2 * n + 1},                  // 11
      {obj(39, 0, 0), obj(46, 0, kMyList), 1},            // 12
      {obj(42, 0, 0), obj(47, 0, kMyList), 1},            // 13
      {obj(31, 46, 0), obj(32, 46, kMyList), 1},          // 14
      {obj(47, 0, kMyList), obj(35, 47, kMyList), 1},     // 15
      {obj(46, 0, kMyList), obj(16, 39, kList), 1},       // 16
  };
  f.births = {{3, 39, 1},  {3, 42, 1},  {3, 31, 1}, {16, 39, 1},   {31, 46, 1},
              {32, 46, 1}, {35, 47, 1}, {39, 0, 1}, {41, 0, 1000}, {42, 0, 1},
              {44, 0, 5},  {46, 0, 1},  {47, 0, 1}};
  f.copies = {{13, n}, {9, 1}, {16, 1}};
  f.ended = true;
  w.flowDefs({{kElems, "List", "elems", "[Ljava/lang/Object;", false},
              {kCount, "List", "count", "I", false},
              {kPos, "ListIterator", "pos", "I", false},
              {kList, "ListIterator", "list", "LList;", false},
              {kMyList, "ListClient", "myList", "LList;", false}},
             tags.names());
  w.flowThread(f);
  w.end({{"flow.cuts", "0"}, {"flow.unknownTags", "0"}});
  return path;
}

Profile readProfile(const fs::path& path) {
  Profile p;
  std::string error;
  if (!profile::readProfile(path.string(), p, error)) throw std::runtime_error(error);
  return p;
}

fs::path freshDir() {
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  fs::path dir = fs::temp_directory_path() / ("dragnet-copy-" + std::to_string(::getpid()) + "-" +
                                              info->test_suite_name() + "." + info->name());
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

}  // namespace dragnet::test::copy
