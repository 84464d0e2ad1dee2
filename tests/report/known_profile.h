// A profile with known content, written with the profile Writer (no JVM needed), for the
// report tests. Its numbers:
//
//   thread 1 "main": app.Main.main (1 call, 100 bytecodes)
//     app.Main.build (10 calls, 1,000 bytecodes)
//       line 10: 20,000 app.Point (24 bytes each)          480,000 bytes
//       line 11: 100 int[], 10,000 elements (16 + 4 n)       41,600 bytes
//     app.Main.parse (5 calls, 500 bytecodes)
//       line 20: 50 char[], 5,000 elements (16 + 2 n)        10,800 bytes
//       line 21: 50 java.lang.String (24 bytes each)          1,200 bytes
//   thread 2 "worker": app.Main.build (2 calls, 200 bytecodes)
//       line 10: 1,000 app.Point                             24,000 bytes
//       app.Main.rare (1 call), line 30: 1 app.Tiny (16 bytes)   16 bytes
//
// Totals: 557,616 bytes; 21,051 objects; 150 arrays with 15,000 elements; 19 calls;
// 1,800 bytecodes; 11 contexts; 2 threads; 3 classes instrumented, 2 not rewritten (one
// reason holds markup, to check that reports escape it); the exact variant also names one
// hidden class, app.Main$$Lambda/0x0000000800c03000.
#pragma once

#include <filesystem>
#include <string>

namespace dragnet::test {

enum class Variant {
  Exact,    // complete, with bytecodes
  Sampled,  // meta sample=512k, and no End chunk (an incomplete profile)
};

// The reason of the second failure: markup that a report must show as text.
inline constexpr const char* kMarkupReason = "bad </script><b id=\"injected\">bold</b> & more";

// Writes the profile into `dir` and returns its path.
std::filesystem::path writeKnownProfile(const std::filesystem::path& dir, Variant v);

// A fresh directory for the current test's files, build/tests/report/SUITE.TEST (kept after
// the test to look at; each test runs in its own process under ctest, so no two share it).
std::filesystem::path testDir();

}  // namespace dragnet::test
