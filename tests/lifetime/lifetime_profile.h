// A lifetime profile with hand-computed content, for the analyzer and report tests.
// Time is bytes allocated; meta use.epoch=100, gc.interval=1k, stack=2.
//
// Methods: 1 app.Main.main, 2 app.Main.build, 3 app.Main.helper, 4 app.Main.use,
//          5 app.Main.other, 6 app.Util.run (all in Main.java / Util.java)
// Sites:   Point  build line 10 (new app.Point)     Ints  build line 11 (newarray int[])
//          Node   helper line 20 (new app.Node)     Jni   JNI String, method 0
// Thread 1: 1 main, 2 main>build, 3 main>build>helper, 4 main>use, 5 main>use>other
// Thread 2: 1 run, 2 run>main, 3 run>main>build, 4 run>build, 5 run>main>build>helper
// GCs: 1 @400, 2 @500 forced, 3 @1000, 4 @1500 forced, 5 @1800. End time 2000.
//
// Objects (written in this order, by death; get places as (thread, node)):
//  id size alloc death gc  firstGet lastGet  lastUse  lag use drag void  total  where
//   1  24   100   500  2   -        -        -          0   0    0  400   9600  t1 n2 Point
//   3  24   300   500  2   450      480      500      150  50    0    0   4800  t2 n3 Point
//   2  24   200  1000  3   200      250      300        0 100  700    0  19200  t1 n2 Point
//   4  56  1000  1500  4   1010     1010     1100      10  90  400    0  28000  t2 n4 Ints
//   7  24  1100  1500  4   1150     1160     1200      50  50  300    0   9600  t2 n3 Point
//   6  40  1600  1800  5   -        -        -          0   0    0  200   8000  t2 n5 Jni
//   5  32  1200  2000  0   1300     1950     2000     100 700    0    0  25600  t1 n3 Node
// (object 1 has puts at 150, which do not make it used; gets of 2 and 7 are at (1,4)
// first and (1,5) last, of 3 at (1,4) both, of 4 and 5 at (2,1) both.)
//
// Totals: space 104,800 = lag 8,560 + use 32,240 + drag 46,400 + void 17,600; 7 objects,
// 224 bytes, 4 lagged (3, 4, 5, 7), 3 dragged (2, 4, 7), 2 void (1, 6).
// Nested sites (stack 2): [build, main]+Point {1, 2, 3, 7} 43,200; [build, run]+Ints {4}
// 28,000; [helper, build]+Node {5} 25,600; [helper, build]+Jni {6} 8,000.
#pragma once

#include <filesystem>
#include <map>
#include <string>

#include "profile/reader.h"

namespace dragnet::test {

inline constexpr uint32_t kMain = 1, kBuild = 2, kHelper = 3, kUse = 4, kOther = 5, kRun = 6;
inline constexpr uint32_t allocKey(uint32_t index, profile::ElemKind kind) {
  return profile::kAllocBit | index << 4 | static_cast<uint32_t>(kind);
}
inline constexpr uint32_t kPoint = allocKey(1, profile::ElemKind::Object);
inline constexpr uint32_t kInts = allocKey(2, profile::ElemKind::Int);
inline constexpr uint32_t kNode = allocKey(3, profile::ElemKind::Object);
inline constexpr uint32_t kJni = allocKey(4, profile::ElemKind::Object);

// The profile above, in memory (as the reader would fill it). `meta` entries override or
// (with an empty value) remove the defaults.
profile::Profile lifetimeProfile(const std::map<std::string, std::string>& meta = {});

// Writes `p` with the profile Writer (meta, methods, sites, threads, objects, GCs, End).
void writeProfile(const profile::Profile& p, const std::filesystem::path& path);

// A fresh directory for the current test's files: build/tests/lifetime/SUITE.TEST.
std::filesystem::path testDir();

// A file's bytes ("" when it cannot be read).
std::string readFile(const std::filesystem::path& path);

}  // namespace dragnet::test
