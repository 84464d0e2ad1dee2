// The copy profile of the paper's Fig. 6 program (List / ListClient; the spec's section
// 2.1, ../shared/notes/bloat-analysis-spec.md), written with the profile Writer as the agent
// would record it, so that the model's tests read it through the real reader.
//
// Allocation site index = the line of the `new` (O3 = site 3 ...). Contexts: O3 made under
// receivers from sites 39, 42 and 31; O16 under 39; O31 and O32 under 46; O35 under 47;
// the others in static main (0). The 16 edges of the spec's table (frequencies with
// `pos < list.count - 1`: 999 elements copied), births of each site, and the copies per
// context of the calling-context tree:
//
//   main
//     List.<init>()            List.add            ListClient.<init>     List.get
//     ListClient.deepClone
//       List.<init>(List)
//         List.<init>()  List.iterator > ListIterator.<init> [1 copy]
//         ListIterator.hasNext   ListIterator.next > List.get   List.add [999 copies]
//       ListClient.<init>
//     ListClient.shallowClone
//       ListClient.<init> [1 copy]
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>

#include "analyses/copy/model/graph.h"
#include "profile/reader.h"

namespace dragnet::test::copy {

// Method ids of the profile.
enum Method : uint32_t {
  kMain = 1,
  kListInit = 2,      // List.<init>()V
  kListCopyInit = 3,  // List.<init>(LList;)V
  kListAdd = 4,
  kListGet = 5,
  kListIterator = 6,
  kIteratorInit = 7,
  kHasNext = 8,
  kNext = 9,
  kClientInit = 10,
  kDeepClone = 11,
  kShallowClone = 12,
};

// Field ids.
enum Field : uint32_t { kElems = 2, kCount = 3, kPos = 4, kList = 5, kMyList = 6 };

// `slots`: the recording's flow.slots (0: object names written; else tags hold the slot).
// `wholeList`: the spec's variant with `pos < list.count` (1000 elements copied: rows 6 and
// 10 1000, rows 8 and 11 2001).
std::filesystem::path writeFig6(const std::filesystem::path& dir, uint32_t slots,
                                bool wholeList = false);

profile::Profile readProfile(const std::filesystem::path& path);

// A fresh temporary directory for the current test (removed by the caller).
std::filesystem::path freshDir();

// A test whose SetUp writes a profile into dir_ (freshDir()) and reads it into profile_;
// the directory goes with the test.
class WrittenProfileTest : public ::testing::Test {
 protected:
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::filesystem::path dir_;
  profile::Profile profile_;
};

// The node of field `f` of the object (site, context).
inline analyses::copy::Node fieldNode(uint32_t site, uint32_t ctx, uint32_t f) {
  return {analyses::copy::NodeKind::Field, {site, ctx}, f};
}

}  // namespace dragnet::test::copy
