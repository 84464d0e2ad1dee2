// The lines of caller frames (contexts/call_sites.h) on hand-made profiles: which call
// sites pass their number, the line of a context with and without one, the merged tree
// keeping contexts apart by it, and the instrumenter's table of a class's invokes.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "alloc_test_support.h"
#include "contexts/call_sites.h"
#include "contexts/model.h"

namespace dragnet::test::hard::alloc_case {
namespace {

using profile::CallSite;
constexpr uint8_t kStatic = 184, kVirtual = 182, kSpecial = 183, kInterface = 185;

CallSite site(uint32_t method, uint32_t number, int32_t line, uint8_t op, std::string owner,
              std::string name, std::string desc) {
  return {method, number, 0, line, op, std::move(owner), std::move(name), std::move(desc)};
}

// Method 1 (Main.run) calls: make() on lines 10 and 11, once() on line 12, new Ref() on
// line 13 and 14 (two constructors, one of Ref), a Supplier's get() on line 15.
profile::Profile profile() {
  profile::Profile p;
  p.methods[1] = {1, "app/Main", "run", "()V", "Main.java"};
  p.methods[2] = {2, "app/Main", "make", "()Ljava/lang/Object;", "Main.java"};
  p.methods[3] = {3, "app/Main", "once", "()V", "Main.java"};
  p.methods[4] = {4, "app/Ref", "<init>", "()V", "Ref.java"};
  p.methods[5] = {5, "app/Other", "<init>", "()V", "Other.java"};
  p.methods[6] = {6, "app/Main", "lambda$run$0", "()Ljava/lang/Object;", "Main.java"};
  std::vector<CallSite> sites{
      site(1, 1, 10, kStatic, "app/Main", "make", "()Ljava/lang/Object;"),
      site(1, 2, 11, kStatic, "app/Main", "make", "()Ljava/lang/Object;"),
      site(1, 3, 12, kVirtual, "app/Main", "once", "()V"),
      site(1, 4, 13, kSpecial, "app/Ref", "<init>", "()V"),
      site(1, 5, 14, kSpecial, "app/Other", "<init>", "()V"),
      site(1, 6, 15, kInterface, "java/util/function/Supplier", "get", "()Ljava/lang/Object;"),
  };
  for (const CallSite& s : sites) p.callSites[{s.method, s.number}] = s;
  return p;
}

TEST(CallLines, SitesWithRivalsOnOtherLinesOrReachingUnprobedCodePassTheirNumber) {
  profile::Profile p = profile();
  std::vector<CallSite> mine;
  for (const auto& [at, s] : p.callSites) mine.push_back(s);
  EXPECT_EQ(alloc::needsSlot(mine), (std::vector<bool>{true, true, false, false, false, true}));
  // Two calls on one line are no rivals; a method handle's invoke reaches hidden classes.
  std::vector<CallSite> sameLine{
      site(1, 1, 10, kStatic, "A", "f", "()V"), site(1, 2, 10, kStatic, "A", "f", "()V"),
      site(1, 3, 11, kVirtual, "java/lang/invoke/MethodHandle", "invokeExact", "()V")};
  EXPECT_EQ(alloc::needsSlot(sameLine), (std::vector<bool>{false, false, true}));
}

TEST(CallLines, ANumberGivesItsSitesLineAndNoNumberTheOneLineThatCanCallDirectly) {
  profile::Profile p = profile();
  EXPECT_EQ(alloc::callLine(p, 1, 2, 1), 10);
  EXPECT_EQ(alloc::callLine(p, 1, 2, 2), 11);
  EXPECT_EQ(alloc::callLine(p, 1, 2, 0), -1);  // two lines: only a number can tell
  EXPECT_EQ(alloc::callLine(p, 1, 3, 0), 12);
  EXPECT_EQ(alloc::callLine(p, 1, 4, 0), 13);  // constructors by class
  EXPECT_EQ(alloc::callLine(p, 1, 5, 0), 14);
  // Through a proxy (a hidden class) from the get() on line 15: its number says so.
  EXPECT_EQ(alloc::callLine(p, 1, 4, 6), 15);
  EXPECT_EQ(alloc::callLine(p, 1, 6, 6), 15);
  EXPECT_EQ(alloc::callLine(p, 1, 6, 0), -1);   // no call of it: the JVM called it
  EXPECT_EQ(alloc::callLine(p, 1, 2, 7), -1);   // no site 7
  EXPECT_EQ(alloc::callLine(p, 9, 2, 1), -1);   // no such parent
  EXPECT_EQ(alloc::callLine(p, 1, 99, 0), -1);  // no such child
}

TEST(CallLines, ASiteThatCouldNotPassItsNumberLeavesTheLineUnknown) {
  profile::Profile p;
  p.methods[1] = {1, "A", "big", "()V", ""};
  p.methods[2] = {2, "A", "f", "()V", ""};
  for (uint32_t n = 1; n <= profile::kMaxCallSlot + 1; ++n) {
    // f from line 1 (site 1) and from line 2 past the last number.
    bool f = n == 1 || n == profile::kMaxCallSlot + 1;
    p.callSites[{1, n}] = site(1, n, f ? static_cast<int32_t>(n == 1 ? 1 : 2) : 3, kStatic, "A",
                               f ? "f" : "g", "()V");
  }
  EXPECT_EQ(alloc::callLine(p, 1, 2, 1), 1);
  EXPECT_EQ(alloc::callLine(p, 1, 2, 0), -1);
}

TEST(CallLines, SampledSitesAreKnownOnlyByTheirNumbers) {
  profile::Profile p = profile();
  p.callSites.clear();
  p.callSites[{1, 1}] = site(1, 1, 42, 0, "", "", "");
  EXPECT_EQ(alloc::callLine(p, 1, 2, 1), 42);
  EXPECT_EQ(alloc::callLine(p, 1, 2, 0), -1);
}

// run -> make (site 1), run -> make (site 2), each allocating; the merged tree keeps them
// apart and each row's caller frame has its line.
TEST(CallLines, TheModelKeepsContextsOfOneMethodApartByTheirSites) {
  profile::Profile p = profile();
  p.sites[profile::kAllocBit | 1 << 4] = {profile::kAllocBit | 1 << 4, 2,        3, 20,
                                          profile::SiteKind::New,      "app/Obj"};
  profile::ThreadTree t;
  t.id = 1;
  t.nodes = {{0, profile::kRootKey},
             {0, 1},
             {1, 2, 1},
             {1, 2, 2},
             {2, profile::kAllocBit | 1 << 4},
             {3, profile::kAllocBit | 1 << 4}};
  t.counters.resize(6);
  t.counters[4].count = 3;
  t.counters[5].count = 1;
  p.threads[1] = t;
  p.threads[2] = t;  // a second thread: merged by (parent, method, site)
  p.classSizes["app/Obj"] = 16;
  alloc::AllocModel m = alloc::buildModel(p);
  ASSERT_EQ(m.rows.size(), 2u);
  EXPECT_EQ(m.rows[0].count, 6u);
  EXPECT_EQ(
      alloc::rowFrames(m, m.rows[0]),
      (std::vector<std::string>{"app.Main.make(Main.java:20)", "app.Main.run(Main.java:10)"}));
  EXPECT_EQ(m.rows[1].count, 2u);
  EXPECT_EQ(
      alloc::rowFrames(m, m.rows[1]),
      (std::vector<std::string>{"app.Main.make(Main.java:20)", "app.Main.run(Main.java:11)"}));
}

TEST(CallLines, TheInstrumenterListsEveryInvokeOfTheMethodsItRewrites) {
  alloc::IdSource ids;
  EXPECT_TRUE(rewrite(dynCases(), ids)->result.callSites.empty());  // without callSlots: none
  auto r = rewrite(dynCases(), ids, false, true);
  const std::string obj = "Ljava/lang/Object;";
  std::vector<CallSite> want{
      site(1, 1, -1, kStatic, "java/lang/reflect/Array", "newArray", "(Ljava/lang/Class;I)" + obj),
      site(2, 1, -1, kStatic, "java/lang/reflect/Array", "multiNewArray",
           "(Ljava/lang/Class;[I)" + obj),
      site(3, 1, -1, kVirtual, "jdk/internal/misc/Unsafe", "allocateInstance",
           "(Ljava/lang/Class;)" + obj),
      site(4, 1, -1, kStatic, "java/lang/reflect/Array", "newInstance",
           "(Ljava/lang/Class;I)" + obj)};
  for (CallSite& s : want) {
    s.bci = 2;
    s.method += 4;  // the first rewrite's methods took ids 1-4
  }
  EXPECT_EQ(r->result.callSites, want);
}

}  // namespace
}  // namespace dragnet::test::hard::alloc_case
