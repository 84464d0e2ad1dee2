// Corpus test: the exact modes' list of JIT changes (src/agent/jit_changes.h) covers every
// allocation C2 could skip in the JDKs on this machine. C2 replaces only methods marked
// @IntrinsicCandidate; for each such method whose body allocates (or calls the helpers
// the intrinsics' bodies allocate through), the allocation must be
//   - a failure path's exception (compiled code leaves failures to the interpreter, which
//     runs the body), or
//   - in a method whose intrinsic the agent disables, or whose transformation it switches
//     off (string concatenation, boxing, the Vector API), or
//   - one of the few listed below that run the same at every tier.
// A new JDK that adds an allocating intrinsic fails here with its name.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <set>
#include <string>
#include <vector>

#include "agent/jit_changes.h"
#include "classfile/class_file.h"
#include "classfile/opcodes.h"
#include "jdk_image.h"

namespace fs = std::filesystem;
using namespace dragnet::classfile;

namespace {

// Intrinsics whose allocation does not depend on the tier: the interpreter and C1 use the
// same instruction as C2 whenever C2 would (Math.fma with UseFMA: the BigDecimal path runs
// only without the instruction, then at every tier).
const std::set<std::string> kSameAtEveryTier{"java/lang/Math.fma"};

// Callees through which the intrinsics' Java bodies allocate.
bool allocatingCall(const ConstantPool::Member& m) {
  return (m.owner == "java/lang/reflect/Array" && m.name == "newInstance") ||
         (m.owner == "java/lang/StringUTF16" && m.name == "newBytesFor") ||
         (m.owner == "java/math/BigInteger" &&
          (m.name == "multiplyToLen" || m.name == "squareToLen"));
}

// Whether the straight-line code from instruction `at` on ends in athrow before any
// branch or return: an exception and its message, made on a failure path.
bool failurePath(const std::vector<Insn>& insns, size_t at) {
  for (size_t k = at; k < insns.size(); ++k) {
    Op op = insns[k].op;
    if (op == Op::athrow) return true;
    if ((op >= Op::ifeq && op <= Op::return_) || op == Op::ifnull || op == Op::ifnonnull ||
        op == Op::goto_w) {
      return false;
    }
  }
  return false;
}

bool intrinsicCandidate(const ClassFile& c, const Member& m) {
  const auto* a = findAttr<RuntimeVisibleAnnotationsAttr>(m.attributes);
  if (!a) return false;
  for (const Annotation& an : a->annotations) {
    std::string_view t = c.pool.utf8(an.type);
    if (t == "Ljdk/internal/vm/annotation/IntrinsicCandidate;" ||
        t == "Ljdk/internal/HotSpotIntrinsicCandidate;") {
      return true;
    }
  }
  return false;
}

// "class.method" of each marked method that allocates other than on a failure path.
std::vector<std::string> allocatingIntrinsics(const ClassFile& c) {
  std::vector<std::string> out;
  for (const Member& m : c.methods) {
    const CodeAttr* code = m.code();
    if (!code || !intrinsicCandidate(c, m)) continue;
    bool allocates = false;
    const auto& insns = code->code.insns;
    for (size_t k = 0; k < insns.size(); ++k) {
      const Insn& i = insns[k];
      switch (i.op) {
        case Op::new_:
        case Op::newarray:
        case Op::anewarray:
        case Op::multianewarray:
          allocates |= !failurePath(insns, k);
          break;
        case Op::invokestatic:
        case Op::invokevirtual:
        case Op::invokespecial:
          allocates |= allocatingCall(c.pool.memberRef(i.cp())) && !failurePath(insns, k);
          break;
        default:
          break;
      }
    }
    if (allocates) out.push_back(std::string(c.name()) + "." + std::string(c.memberName(m)));
  }
  return out;
}

bool covered(const std::string& method) {
  if (kSameAtEveryTier.count(method)) return true;
  for (const auto& d : dragnet::agent::disabledIntrinsics()) {
    if (method == std::string(d.cls) + "." + d.method) return true;
  }
  for (const auto& t : dragnet::agent::disabledTransformations()) {
    for (std::string_view prefix : t.methodsOf) {
      if (method.starts_with(prefix)) return true;
    }
  }
  return false;
}

std::vector<uint8_t> readFile(const fs::path& p) {
  std::ifstream f(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(f), {}};
}

TEST(IntrinsicsCorpus, EveryAllocatingIntrinsicIsKeptOffOrTierIndependent) {
  std::vector<fs::path> homes;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator("/usr/lib/jvm", ec)) {
    if (fs::exists(e.path() / "lib" / "modules") && !fs::is_symlink(e.path())) {
      homes.push_back(e.path());
    }
  }
  ASSERT_FALSE(homes.empty()) << "no JDK under /usr/lib/jvm";
  for (const fs::path& home : homes) {
    fs::path image = dragnet::testing::extractedJdkImage(home);
    ASSERT_FALSE(image.empty()) << home;
    size_t marked = 0;
    std::vector<std::string> found, uncovered;
    for (const auto& e : fs::recursive_directory_iterator(image)) {
      if (e.path().extension() != ".class") continue;
      std::vector<uint8_t> bytes = readFile(e.path());
      auto parsed = parseClass(bytes, {e.path().string()});
      if (!parsed) continue;
      for (const Member& m : parsed.value().methods)
        marked += intrinsicCandidate(parsed.value(), m);
      for (std::string& name : allocatingIntrinsics(parsed.value())) {
        if (!covered(name)) uncovered.push_back(name);
        found.push_back(std::move(name));
      }
    }
    EXPECT_GT(marked, 100u) << home << ": @IntrinsicCandidate methods found";
    // The ones every JDK since 17 has: the check reads what it should.
    for (const char* known :
         {"java/util/Arrays.copyOf", "jdk/internal/misc/Unsafe.allocateUninitializedArray0",
          "java/lang/Integer.valueOf"}) {
      EXPECT_NE(std::find(found.begin(), found.end(), known), found.end()) << home << ": " << known;
    }
    std::string list;
    for (const auto& u : uncovered) list += "\n  " + u;
    EXPECT_TRUE(uncovered.empty())
        << home << ": allocating intrinsics neither kept off nor known "
        << "to run alike at every tier (src/agent/jit_changes.cpp):" << list;
  }
}

}  // namespace
