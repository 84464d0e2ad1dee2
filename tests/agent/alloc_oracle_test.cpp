// End-to-end oracles of the alloc mode: AllocOracle.java runs under the agent on JDK 17
// (the `java` on PATH) with the G1, serial and parallel collectors and 16, 1 and 32 worker
// threads, and on the newest JDK present; every count it makes is compared with the truth:
// loops, an empty finalize() left empty, JP's Fig. 1 constructor case, the 8 rows of JP's Fig. 3,
// clones, reflection, lambdas, string concatenation, JNI, exceptions unwinding (also out of a
// super() call), threads. BytecodeOracle.java checks bytecodes=on and the depth limit,
// SampleOracle.java the estimates of sample=SIZE.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "contexts/model.h"
#include "oracle_jvms.h"
#include "profile/reader.h"

namespace fs = std::filesystem;
using dragnet::contexts::AllocModel;
using dragnet::contexts::SiteRow;

namespace {

struct Sum {
  uint64_t count = 0, elements = 0, bytes = 0;
};

using dragnet::test::Jvm;

// Whether the profile defines a method of class `cls` (internal name): one that was rewritten.
bool hasMethodOf(const dragnet::profile::Profile& p, const std::string& cls) {
  for (const auto& [id, m] : p.methods) {
    if (m.cls == cls) return true;
  }
  return false;
}

class AllocOracle : public ::testing::TestWithParam<Jvm> {
 protected:
  void SetUp() override {
    if (!GetParam().missing.empty()) GTEST_SKIP() << GetParam().missing;
  }

  static fs::path work() { return fs::path(DRAGNET_BINARY_DIR) / "tests" / "alloc-oracle"; }

  // The oracles are compiled at build time (tests/CMakeLists.txt: dragnet_alloc_oracles).
  static void compile() {
    ASSERT_TRUE(fs::exists(work() / "classes" / "BytecodeOracle.class"))
        << "build the target dragnet_alloc_oracles first";
  }

  void run(const Jvm& jvm, const std::string& program = "AllocOracle",
           const std::string& options = "", const std::string& expected = "oracle done\n") {
    compile();
    fs::path prof = work() / ("oracle-" + std::to_string(::getpid()) + ".dragnet");
    fs::path out = work() / ("stdout-" + std::to_string(::getpid()) + ".txt");  // ctest -j
    fs::path err = work() / ("stderr-" + std::to_string(::getpid()) + ".txt");
    std::string cmd = dragnet::test::killAfterTimeout() + "'" + jvm.java + "' " + jvm.flags +
                      " -Doracle.threads=" + std::to_string(jvm.threads) + " -agentpath:'" +
                      std::string(DRAGNET_AGENT) + "'=quiet=on" + options + ",out='" +
                      prof.string() + "' -cp '" + (work() / "classes").string() + "' " + program +
                      " > '" + out.string() + "'" +
                      (captureStderr_ ? " 2> '" + err.string() + "'" : std::string());
    ASSERT_EQ(std::system(cmd.c_str()), 0) << cmd;
    if (captureStderr_) stderr_ = dragnet::test::readFile(err);
    EXPECT_EQ(dragnet::test::readFile(out), expected);
    std::string error;
    ASSERT_TRUE(dragnet::profile::readProfile(prof.string(), profile_, error)) << error;
    EXPECT_TRUE(profile_.complete);
    EXPECT_EQ(profile_.truncation, "");
    model_ = dragnet::contexts::buildModel(profile_);
    // DRAGNET_KEEP_PROFILE=1 keeps it, to look into a failure.
    if (!std::getenv("DRAGNET_KEEP_PROFILE")) fs::remove(prof);
  }

  // Sum of the rows with a frame starting with `frame` anywhere in their context, of type
  // `type` (a prefix if it ends with '*'), origin `origin` and innermost frame starting
  // with `innermost`, and also under a frame starting with `also` (empty: any).
  Sum sumUnder(const std::string& frame, const std::string& type, const std::string& origin = "",
               const std::string& innermost = "", const std::string& also = "") {
    Sum s;
    for (const SiteRow& r : model_.rows) {
      if (!r.site) continue;
      auto frames = dragnet::contexts::rowFrames(model_, r);
      bool under = false;
      bool both = also.empty();
      for (const auto& f : frames) {
        under |= f.starts_with(frame);
        both |= f.starts_with(also);
      }
      if (!both) continue;
      if (frames.empty() || !frames[0].starts_with(innermost)) continue;
      std::string t = dragnet::contexts::javaTypeName(r.site->type);
      bool prefix = type.ends_with('*');
      if (!under || (prefix ? !t.starts_with(type.substr(0, type.size() - 1)) : t != type)) {
        continue;
      }
      if (!origin.empty() && dragnet::contexts::originName(r.site->kind) != origin) continue;
      s.count += r.count;
      s.elements += r.elements;
      s.bytes += r.bytes;
    }
    return s;
  }

  // Calls counted in the contexts `callee` directly under `caller` (frame name prefixes).
  uint64_t calls(const std::string& caller, const std::string& callee) {
    uint64_t n = 0;
    for (const auto& node : model_.nodes) {
      if (node.key == dragnet::profile::kRootKey || dragnet::profile::isAllocKey(node.key))
        continue;
      const auto& parent = model_.nodes[node.parent];
      if (parent.key == dragnet::profile::kRootKey) continue;
      if (dragnet::contexts::frameName(profile_, node.key, -1).starts_with(callee) &&
          dragnet::contexts::frameName(profile_, parent.key, -1).starts_with(caller)) {
        n += node.c.count;
      }
    }
    return n;
  }

  // The counters of the context whose frames, outermost first from a thread's root, start
  // with `path` one for one (summed over threads).
  dragnet::profile::Counters context(const std::vector<std::string>& path) {
    dragnet::profile::Counters sum;
    for (const auto& node : model_.nodes) {
      std::vector<std::string> frames;
      for (const auto* n = &node; n->key != dragnet::profile::kRootKey;
           n = &model_.nodes[n->parent]) {
        if (dragnet::profile::isAllocKey(n->key)) break;
        frames.insert(frames.begin(), dragnet::contexts::frameName(profile_, n->key, -1));
      }
      if (frames.size() != path.size()) continue;
      bool match = true;
      for (size_t i = 0; i < path.size(); ++i) match = match && frames[i].starts_with(path[i]);
      if (!match) continue;
      sum.count += node.c.count;
      sum.insns += node.c.insns;
    }
    return sum;
  }

  // Sum of the rows whose innermost frame starts with `frame` and whose type (and, for
  // arrays, JP element kind) match; empty strings match anything.
  Sum sum(const std::string& frame, const std::string& type, const std::string& kind = "") {
    Sum s;
    for (const SiteRow& r : model_.rows) {
      auto frames = dragnet::contexts::rowFrames(model_, r);
      if (frames.empty() || !frames[0].starts_with(frame)) continue;
      if (!type.empty() && (!r.site || dragnet::contexts::javaTypeName(r.site->type) != type))
        continue;
      auto k = static_cast<dragnet::profile::ElemKind>(model_.nodes[r.node].key & 15);
      if (!kind.empty() && dragnet::contexts::jpKind(k) != kind) continue;
      s.count += r.count;
      s.elements += r.elements;
      s.bytes += r.bytes;
    }
    return s;
  }

  // Objects of `type` allocated anywhere under a frame starting with `frame`.
  uint64_t countUnder(const std::string& frame, const std::string& type) {
    uint64_t n = 0;
    for (const SiteRow& r : model_.rows) {
      if (!r.site || dragnet::contexts::javaTypeName(r.site->type) != type) continue;
      auto frames = dragnet::contexts::rowFrames(model_, r);
      if (std::any_of(frames.begin(), frames.end(),
                      [&](const std::string& f) { return f.starts_with(frame); })) {
        n += r.count;
      }
    }
    return n;
  }

  // The counters of every context whose innermost frame starts with `frame`.
  std::vector<dragnet::profile::Counters> contextsOf(const std::string& frame) {
    std::vector<dragnet::profile::Counters> v;
    for (const auto& node : model_.nodes) {
      if (node.key == dragnet::profile::kRootKey || dragnet::profile::isAllocKey(node.key))
        continue;
      if (dragnet::contexts::frameName(profile_, node.key, -1).starts_with(frame)) {
        v.push_back(node.c);
      }
    }
    return v;
  }

  uint64_t total(const std::string& key) { return std::stoull(profile_.totals[key]); }

  // ContextOracle (3.5 M contexts) in -Xmx32m with agent `options`, its stderr kept.
  void runContextOracleInSmallHeap(const std::string& options) {
    Jvm jvm = GetParam();
    jvm.flags += " -Xmx32m";
    captureStderr_ = true;
    run(jvm, "ContextOracle", ",quiet=off" + options, "contexts done: 1048576 leaves\n");
  }

  // `warning` on the JVM's stderr exactly once.
  void expectWarnedOnce(const std::string& warning) {
    size_t at = stderr_.find(warning);
    EXPECT_NE(at, std::string::npos) << stderr_;
    EXPECT_EQ(stderr_.find(warning, at + 1), std::string::npos) << "warned twice: " << stderr_;
  }

  dragnet::profile::Profile profile_;
  AllocModel model_;
  bool captureStderr_ = false;  // run() keeps the JVM's stderr in stderr_
  std::string stderr_;
};

TEST_P(AllocOracle, CountsEqualTheTruth) {
  run(GetParam());
  if (HasFatalFailure()) return;
  // Loops.
  Sum points = sum("AllocOracle.loops(", "AllocOracle$Point");
  EXPECT_EQ(points.count, 1000u);
  ASSERT_TRUE(profile_.classSizes.count("AllocOracle$Point"));
  EXPECT_EQ(points.bytes, 1000u * profile_.classSizes.at("AllocOracle$Point"));
  Sum longs = sum("AllocOracle.loops(", "long[]", "J");
  EXPECT_EQ(longs.count, 10u);
  EXPECT_EQ(longs.elements, 45u);
  EXPECT_EQ(longs.bytes, 520u);  // 16-byte header, 8 per element: sum of 16 + 8i, i < 10

  // Calls per context, leaf methods included.
  EXPECT_EQ(calls("AllocOracle.loops(", "AllocOracle.leaf("), 700u);
  EXPECT_EQ(calls("AllocOracle.loops(", "AllocOracle.middle("), 700u);
  EXPECT_EQ(calls("AllocOracle.middle(", "AllocOracle.leaf("), 700u);
  EXPECT_EQ(calls("AllocOracle.main(", "AllocOracle.loops("), 1u);
  // 30 callees of one context, in turn: each found again, in the cache line, its overflow
  // block or the index, with its own counts.
  for (int i = 0; i < 30; ++i) {
    SCOPED_TRACE(i);
    std::string fan = "AllocOracle.fan" + std::to_string(i) + "(";
    EXPECT_EQ(calls("AllocOracle.fanOut(", fan), 4u);
    Sum arrays = sum(fan, "int[]", "I");
    EXPECT_EQ(arrays.count, 4u);
    EXPECT_EQ(arrays.elements, 4u * (i + 1));
  }

  // An empty finalize() stays empty: no Finalizer registered for Quiet's objects.
  EXPECT_EQ(sum("AllocOracle.quiet(", "AllocOracle$Quiet").count, 100u);
  EXPECT_EQ(countUnder("AllocOracle.quiet(", "java.lang.ref.Finalizer"), 0u);
  // It cannot allocate: not listed as not rewritten (nor are Object's and Enum's).
  for (const auto& f : profile_.failures) EXPECT_NE(f.method, "finalize()V") << f.cls;

  // JP Fig. 1: the Object is allocated in A(), none in A(Object).
  EXPECT_EQ(sum("AllocOracle.figure1(", "AllocOracle$A").count, 1u);
  EXPECT_EQ(sum("AllocOracle$A.<init>(AllocOracle.java:11)", "java.lang.Object").count, 1u);
  EXPECT_EQ(sum("AllocOracle$A.<init>(", "").count, 1u);  // nothing else in either constructor

  // JP Fig. 3: arrays and elements per element kind, all 8 rows.
  struct Row {
    const char* method;
    uint64_t rArrays, rElements, iArrays, iElements;
  };
  const Row fig3[] = {{"f3a", 9, 38, 0, 0}, {"f3b", 9, 8, 0, 0},  {"f3c", 3, 2, 0, 0},
                      {"f3d", 1, 0, 0, 0},  {"f3e", 3, 8, 6, 30}, {"f3f", 3, 8, 6, 0},
                      {"f3g", 3, 2, 0, 0},  {"f3h", 1, 0, 0, 0}};
  for (const Row& r : fig3) {
    SCOPED_TRACE(r.method);
    std::string frame = std::string("AllocOracle.") + r.method + "(";
    Sum R = sum(frame, "", "R"), I = sum(frame, "", "I");
    EXPECT_EQ(R.count, r.rArrays);
    EXPECT_EQ(R.elements, r.rElements);
    EXPECT_EQ(I.count, r.iArrays);
    EXPECT_EQ(I.elements, r.iElements);
  }

  // Array clones: three copies of an int[7] (Object.clone is native: no `new` shows them).
  Sum ints = sum("AllocOracle.clones(", "int[]");
  EXPECT_EQ(ints.count, 4u);
  EXPECT_EQ(ints.elements, 28u);

  // Exceptions: every allocation stays in the method that made it, also after an
  // exception left a super() call.
  EXPECT_EQ(sum("AllocOracle.thrower(", "AllocOracle$Point").count, 5u);
  EXPECT_EQ(sum("AllocOracle.exceptions(", "AllocOracle$Point").count, 5u);
  EXPECT_EQ(sum("AllocOracle.exceptions(", "AllocOracle$Derived").count, 5u);
  EXPECT_EQ(sum("AllocOracle.exceptions(", "java.lang.StringBuilder").count, 5u);
  EXPECT_EQ(sum("AllocOracle$Base.<init>(", "java.lang.IllegalStateException").count, 5u);
  EXPECT_EQ(sum("AllocOracle$Derived.<init>(", "java.lang.StringBuilder").count, 0u);

  // The uncaught-exception handler runs at the thread's root, not under the frames the
  // exception left (no exit ran for them).
  EXPECT_EQ(sumUnder("java.lang.Thread.dispatchUncaughtException(", "AllocOracle$Point").count, 7u);
  EXPECT_EQ(sumUnder("AllocOracle.dies(", "AllocOracle$Point").count, 0u);

  // Allocations JP misses. Object.clone: one copy per call, counted once whether the
  // interpreter (VMObjectAlloc) or compiled code (inline) made it.
  EXPECT_EQ(sumUnder("AllocOracle.objectClones(", "AllocOracle$C").count, 20001u);
  EXPECT_EQ(sumUnder("AllocOracle.objectClones(", "AllocOracle$D").count, 20001u);
  EXPECT_EQ(sumUnder("AllocOracle$C.clone(", "AllocOracle$C", "clone").count, 20000u);
  Sum squares = sumUnder("AllocOracle$Shape.copy(", "AllocOracle$Square", "clone");
  EXPECT_EQ(squares.count, 10u);
  ASSERT_TRUE(profile_.classSizes.count("AllocOracle$Square"));
  EXPECT_EQ(squares.bytes, 10u * profile_.classSizes.at("AllocOracle$Square"));
  // Reflection: JDK 17 allocates natively first, then in a generated accessor; JDK 18+
  // through method handles. Either way 50 objects under reflection().
  EXPECT_EQ(sumUnder("AllocOracle.reflection(", "AllocOracle$R").count, 50u);
  Sum ints4 = sumUnder("AllocOracle.reflectArrays(", "int[]", "reflect");
  EXPECT_EQ(ints4.count, 20000u);
  EXPECT_EQ(ints4.elements, 80000u);
  Sum strs = sumUnder("AllocOracle.reflectArrays(", "java.lang.String[]");
  EXPECT_EQ(strs.count, 30u);
  EXPECT_EQ(strs.elements, 60u);
  Sum longs2 = sumUnder("AllocOracle.reflectArrays(", "long[][]");
  EXPECT_EQ(longs2.count, 1u);
  EXPECT_EQ(longs2.elements, 3u);
  Sum longs1 = sumUnder("AllocOracle.reflectArrays(", "long[]", "reflect");
  EXPECT_EQ(longs1.count, 3u);
  EXPECT_EQ(longs1.elements, 6u);
  // Capturing lambdas: one instance of the hidden class per evaluation.
  EXPECT_EQ(sumUnder("AllocOracle.lambdas(", "AllocOracle$$Lambda*", "reflect").count, 100u);
  // String concatenation through invokedynamic: the result String of each a + b, made in
  // StringConcatHelper.simpleConcat (linking the call site makes other Strings).
  EXPECT_EQ(sumUnder("AllocOracle.concat(", "java.lang.String", "new",
                     "java.lang.StringConcatHelper.", "java.lang.StringConcatHelper.simpleConcat(")
                .count,
            100u);
  // JNI: File.list makes the names (3 per call) in native code.
  Sum names = sumUnder("AllocOracle.jni(", "java.lang.String", "jni");
  EXPECT_EQ(names.count, 30u);
  EXPECT_GE(sumUnder("AllocOracle.jni(", "java.lang.String[]", "jni").count, 10u);

  // N threads x 500, each its own tree.
  auto threads = static_cast<uint64_t>(GetParam().threads);
  EXPECT_EQ(sum("AllocOracle.worker(", "AllocOracle$Point").count, 500 * threads);
  size_t workers = 0;
  for (const auto& [id, t] : profile_.threads) workers += t.name.starts_with("worker-");
  EXPECT_EQ(workers, threads);
}

// bytecodes=on: executed instructions per context, counted per basic block (a block counts
// whole when it starts, as in JP); the truth follows from BytecodeOracle's bytecode (see
// the javap listing of its javac --release 11 output). Then depth=3: deeper frames are
// collapsed into the context at depth 3, calls and instructions included.
TEST_P(AllocOracle, BytecodesAndDepthLimitEqualTheTruth) {
  run(GetParam(), "BytecodeOracle", ",bytecodes=on", "bytecode oracle done\n");
  if (HasFatalFailure()) return;
  const std::string main = "BytecodeOracle.main(", rec = "BytecodeOracle.rec(";
  // 4 + 3 per loop test + 6 per iteration + 2: 99 per call of loop(10), 3 calls.
  auto loop = context({main, "BytecodeOracle.loop("});
  EXPECT_EQ(loop.count, 3u);
  EXPECT_EQ(loop.insns, 3u * 99);
  // Blocks of 6 and 4 up to the athrow; the catcher's first block (6) counts whole.
  EXPECT_EQ(context({main, "BytecodeOracle.catcher(", "BytecodeOracle.thrower("}).insns, 10u);
  EXPECT_EQ(context({main, "BytecodeOracle.catcher("}).insns, 6u + 3 + 2);
  // rec(n): 9 instructions for n > 0, 6 for n = 0 (which calls sq), one context per level.
  std::vector<std::string> path{main};
  for (int level = 10; level >= 0; --level) {
    path.push_back(rec);
    SCOPED_TRACE(level);
    auto c = context(path);
    EXPECT_EQ(c.count, 1u);
    EXPECT_EQ(c.insns, level > 0 ? 9u : 6u);
  }
  path.push_back("BytecodeOracle.sq(");
  EXPECT_EQ(context(path).count, 1u);
  EXPECT_EQ(context(path).insns, 4u);
  // Leaves of one block (counted by their entry probe, no frame): sq 5 times, 4 each; div
  // throws ArithmeticException at its idiv and still counts its block whole. leaves():
  // 4 + 3 per loop test + 7 per iteration + 7 up to the call of div + 2 in the handler + 2.
  auto leaves = context({main, "BytecodeOracle.leaves("});
  EXPECT_EQ(leaves.insns, 4u + 3 * 6 + 7 * 5 + 7 + 2 + 2);
  auto sq = context({main, "BytecodeOracle.leaves(", "BytecodeOracle.sq("});
  EXPECT_EQ(sq.count, 5u);
  EXPECT_EQ(sq.insns, 5u * 4);
  auto div = context({main, "BytecodeOracle.leaves(", "BytecodeOracle.div("});
  EXPECT_EQ(div.count, 1u);
  EXPECT_EQ(div.insns, 4u);
  // Frames that never return (System.exit) still have their instructions counted: those
  // are added before every call.
  EXPECT_EQ(context({main, "BytecodeOracle.spinThenExit("}).insns, 4u + 33 + 60 + 6 + 2 + 2);
  // An ArrayIndexOutOfBoundsException from element's iaload unwinds element (2 + 4, its
  // exit handler adds them) and through (8, added before its call), caught in unwound
  // (4 + 3 in the handler).
  const std::string unwound = "BytecodeOracle.unwound(", through = "BytecodeOracle.through(";
  EXPECT_EQ(context({main, unwound}).insns, 4u + 3);
  EXPECT_EQ(context({main, unwound, through}).insns, 8u);
  auto element = context({main, unwound, through, "BytecodeOracle.element("});
  EXPECT_EQ(element.count, 1u);
  EXPECT_EQ(element.insns, 2u + 4);
  EXPECT_EQ(context({main}).insns, 4u + 4 * 3 + 3 * 7 + 20 + 3);

  run(GetParam(), "BytecodeOracle", ",bytecodes=on,depth=3", "bytecode oracle done\n");
  if (HasFatalFailure()) return;
  auto top = context({main, rec});
  EXPECT_EQ(top.count, 1u);
  EXPECT_EQ(top.insns, 9u);
  auto deepest = context({main, rec, rec});  // rec(9) .. rec(0) and the leaf sq(0)
  EXPECT_EQ(deepest.count, 11u);
  EXPECT_EQ(deepest.insns, 9u * 9 + 6 + 4);
  EXPECT_EQ(context({main, rec, rec, rec}).count, 0u);
  uint64_t collapsed = 0;
  for (const auto& [id, t] : profile_.threads) collapsed += t.collapsed;
  EXPECT_GE(collapsed, 10u);
  EXPECT_EQ(context({main, "BytecodeOracle.loop("}).insns, 3u * 99);
}

// record=off (a diagnostic): every class is rewritten as usual, the program runs as it
// does without the agent, and nothing is recorded.
TEST_P(AllocOracle, RecordOffRewritesButRecordsNothing) {
  run(GetParam(), "BytecodeOracle", ",bytecodes=on,record=off", "bytecode oracle done\n");
  if (HasFatalFailure()) return;
  // The JDK's classes too: about 340-380 classes of a JDK 17 run this small are rewritten.
  EXPECT_GT(std::stoull(profile_.totals["classes.instrumented"]), 300u);
  EXPECT_TRUE(hasMethodOf(profile_, "java/lang/String"));
  uint64_t counted = 0;
  for (const auto& node : model_.nodes) counted += node.c.count + node.c.insns;
  EXPECT_EQ(counted, 0u);
}

// sample=64k: no rewriting; the estimates of two sites with known totals (about 3,200 and
// 1,500 samples) land within 15% of the truth (more than 5 standard deviations).
TEST_P(AllocOracle, SampledEstimatesAreClose) {
  run(GetParam(), "SampleOracle", ",sample=64k", "sample oracle done\n");
  if (HasFatalFailure()) return;
  EXPECT_EQ(profile_.meta["sample"], "65536");
  EXPECT_EQ(profile_.totals.count("classes.instrumented"), 0u);  // nothing was rewritten
  EXPECT_GT(std::stoull(profile_.totals["samples"]), 3000u);
  Sum big = sum("SampleOracle.big(SampleOracle.java:8)", "long[]", "J");
  Sum small = sum("SampleOracle.small(SampleOracle.java:13)", "java.lang.Object[]", "R");
  auto near = [](double estimate, double truth) { return std::abs(estimate / truth - 1) < 0.15; };
  EXPECT_PRED2(near, big.count, 200000.0);
  EXPECT_PRED2(near, big.elements, 200000.0 * 128);
  EXPECT_PRED2(near, big.bytes, 208000000.0);
  EXPECT_PRED2(near, small.count, 4000000.0);
  EXPECT_PRED2(near, small.bytes, 96000000.0);
}

// sample=SIZE leaves the collector alone: a main that allocates 1,000 byte[1000] runs with
// no collection at all (-Xlog:gc shows no pause), and every one of its arrays is still
// sampled at an interval of one byte, although its first allocations land in the TLAB the
// main thread took during start-up, before sampling began (the agent primes that thread's
// sample point: samples.priming bytes, which the profile leaves out).
TEST_P(AllocOracle, SampledModeLeavesTheHeap) {
  Jvm jvm = GetParam();
  fs::path log = work() / ("gc-" + std::to_string(::getpid()) + ".log");
  jvm.flags += " -Xlog:gc:file='" + log.string() + "'";
  run(jvm, "SampleStartOracle", ",sample=1", "sample start oracle done\n");
  if (HasFatalFailure()) return;
  std::string gc = dragnet::test::readFile(log);
  fs::remove(log);
  EXPECT_NE(gc.find("Using"), std::string::npos) << gc;  // the log was written
  EXPECT_EQ(gc.find("Pause"), std::string::npos) << gc;
  EXPECT_GT(std::stoull(profile_.totals["samples.priming"]), 0u);
  Sum arrays = sum("SampleStartOracle.main(SampleStartOracle.java:9)", "byte[]", "B");
  EXPECT_EQ(arrays.count, 1000u);
  EXPECT_EQ(arrays.elements, 1000000u);
  EXPECT_EQ(arrays.bytes, 1016000u);
}

// Hidden classes never reach the class-load hook: the profile names each one (a Failures
// record with the reason kHidden) and counts them (classes.hidden); a class defined with a
// null name reaches it without a name and is rewritten all the same. HiddenOracle defines
// one through Lookup.defineHiddenClass and uses a lambda (a hidden proxy class). The hidden
// class is not rewritten (no method of it in the profile: its own 100 int[10] are not
// counted), what it calls is counted, and so is the lambda's body (a method of the
// oracle's class).
TEST_P(AllocOracle, HiddenClassesAreNamed) {
  run(GetParam(), "HiddenOracle", "", "hidden oracle done: true\n");
  if (HasFatalFailure()) return;
  uint64_t hidden = 0, templates = 0, lambdas = 0;
  for (const auto& f : profile_.failures) {
    if (!dragnet::profile::isHidden(f)) continue;
    ++hidden;
    EXPECT_NE(f.cls.find("0x"), std::string::npos) << f.cls;
    templates += f.cls.starts_with("HiddenTemplate");
    lambdas += f.cls.starts_with("HiddenOracle$$Lambda");
  }
  EXPECT_EQ(templates, 1u);
  EXPECT_EQ(lambdas, 1u);
  EXPECT_EQ(profile_.totals["classes.hidden"], std::to_string(hidden));
  EXPECT_FALSE(hasMethodOf(profile_, "HiddenTemplate"));
  EXPECT_EQ(sumUnder("HiddenOracle.main", "long[]", "", "HiddenOracle.counted").count, 100u);
  EXPECT_EQ(sumUnder("HiddenOracle.main", "int[]", "", "HiddenOracle.lambda$main$").count, 100u);
  // Defined with a null name: rewritten all the same.
  EXPECT_TRUE(hasMethodOf(profile_, "NamelessTemplate"));
  EXPECT_EQ(sumUnder("HiddenOracle.main", "short[]", "", "NamelessTemplate.run").count, 100u);
}

// Throwable backtraces: arrays the JVM allocates inside the native fillInStackTrace with no
// event; the probe after that call records them from Throwable.backtrace. Known counts
// (BacktraceOracle.java: 50 backtraces of 4 chunks), and per type exactly what the JVM's
// own sampler reports at an interval of one byte (every allocation sampled) for the same
// program, whatever arrays this JVM's chunks hold.
TEST_P(AllocOracle, BacktracesAreCounted) {
  const std::string done = "backtrace oracle: 50 caught\n";
  const char* fill = "java.lang.Throwable.fillInStackTrace";
  const std::vector<std::string> types = {"short[]", "int[]", "long[]", "java.lang.Object[]"};
  std::map<std::string, Sum> exact;
  run(GetParam(), "BacktraceOracle", "", done);
  if (HasFatalFailure()) return;
  for (const auto& t : types) exact[t] = sumUnder("BacktraceOracle.recurse", t, "jvm", fill);
  EXPECT_EQ(exact["short[]"].count, 200u);
  EXPECT_EQ(exact["short[]"].elements, 6400u);
  EXPECT_EQ(exact["int[]"].count, 200u);
  EXPECT_EQ(exact["int[]"].elements, 6400u);
  run(GetParam(), "BacktraceOracle", ",sample=1", done);
  if (HasFatalFailure()) return;
  for (const auto& t : types) {
    SCOPED_TRACE(t);
    Sum sampled = sumUnder("BacktraceOracle.recurse", t, "", fill);
    EXPECT_EQ(exact[t].count, sampled.count);
    EXPECT_EQ(exact[t].elements, sampled.elements);
    EXPECT_EQ(exact[t].bytes, sampled.bytes);
  }
}

// Virtual threads (JDK 21+): each one's tree is merged into one thread, "virtual threads",
// when it ends, and the trees of those still alive at VM death are merged then. Counts,
// contexts and calls equal the truth, as for platform threads.
TEST_P(AllocOracle, VirtualThreadsAreCounted) {
  if (GetParam().major < 21) GTEST_SKIP() << "no virtual threads before JDK 21";
  run(GetParam(), "VirtualOracle", "", "virtual oracle done\n");
  if (HasFatalFailure()) return;
  // 200 virtual threads: 1,100 iterations (20 x (1 + ... + 10)); the platform thread: 7.
  Sum objects = sumUnder("VirtualOracle.vwork", "java.lang.Object", "", "VirtualOracle.vwork");
  Sum arrays = sumUnder("VirtualOracle.vwork", "int[]", "", "VirtualOracle.leafAlloc");
  EXPECT_EQ(objects.count, 1107u);
  EXPECT_EQ(arrays.count, 1107u);
  EXPECT_EQ(arrays.elements, 11070u);
  EXPECT_EQ(calls("VirtualOracle.vwork", "VirtualOracle.leafAlloc"), 1107u);
  // Under the virtual threads' own frames only (not the platform thread's Thread.run).
  Sum virtualArrays =
      sumUnder("java.lang.VirtualThread.run", "int[]", "", "VirtualOracle.leafAlloc");
  EXPECT_EQ(virtualArrays.count, 1100u);
  EXPECT_EQ(calls("VirtualOracle.lambda$main$0", "VirtualOracle.vwork"), 200u);
  // The parked thread, merged at VM death.
  EXPECT_EQ(sumUnder("VirtualOracle.parked", "long[]", "", "VirtualOracle.parked").count, 50u);
  EXPECT_EQ(profile_.totals["threads.virtual"], "201");
  bool named = false;
  for (const auto& t : profile_.threads) named |= t.second.name == "virtual threads";
  EXPECT_TRUE(named);
}

// Mode lifetime names contexts of each thread's own tree, so there every virtual thread's
// tree is written as a thread's when it ends (and those still alive at VM death then):
// the same counts, under the virtual threads' own frames.
TEST_P(AllocOracle, VirtualThreadsAreThreadsInModeLifetime) {
  if (GetParam().major < 21) GTEST_SKIP() << "no virtual threads before JDK 21";
  run(GetParam(), "VirtualOracle", ",mode=lifetime", "virtual oracle done\n");
  if (HasFatalFailure()) return;
  EXPECT_EQ(sumUnder("java.lang.VirtualThread.run", "int[]", "", "VirtualOracle.leafAlloc").count,
            1100u);
  EXPECT_EQ(sumUnder("VirtualOracle.vwork", "java.lang.Object", "", "VirtualOracle.vwork").count,
            1107u);
  EXPECT_EQ(sumUnder("VirtualOracle.parked", "long[]", "", "VirtualOracle.parked").count, 50u);
  EXPECT_EQ(profile_.totals["threads.virtual"], "201");
}

// ContextOracle.java: 3.5 million contexts (4^10 call paths through four methods, a Leaf
// allocated at the end of each) in a program that runs in -Xmx32m. The trees are native
// memory, so the program runs profiled in the same heap, with every context exact.
TEST_P(AllocOracle, ContextTreeOutsideTheJavaHeap) {
  Jvm jvm = GetParam();
  jvm.flags += " -Xmx32m";
  run(jvm, "ContextOracle", "", "contexts done: 1048576 leaves\n");
  if (HasFatalFailure()) return;
  EXPECT_EQ(model_.dropped, 0u);
  for (const char* m : {"ContextOracle.m0", "ContextOracle.m1", "ContextOracle.m2"}) {
    auto contexts = contextsOf(m);
    // m0 is called once from main at depth 10, and each method 4^k times at depth 9 - k.
    uint64_t expected = std::string(m) == "ContextOracle.m0" ? 1 : 0;
    for (uint64_t n = 1; n <= 1u << 18; n *= 4) expected += n;
    EXPECT_EQ(contexts.size(), expected) << m;
    EXPECT_TRUE(std::all_of(contexts.begin(), contexts.end(), [](const auto& c) {
      return c.count == 1;
    })) << m;
  }
  auto leafInits = contextsOf("ContextOracle$Leaf.<init>");
  EXPECT_EQ(leafInits.size(), 1u << 20);
  Sum leaves = sum("ContextOracle.m", "ContextOracle$Leaf");
  EXPECT_EQ(leaves.count, 1u << 20);
  size_t leafRows = 0, single = 0;  // one context per path, one Leaf each
  for (const SiteRow& r : model_.rows) {
    if (!r.site || r.site->type != "ContextOracle$Leaf") continue;
    ++leafRows;
    single += r.count == 1;
  }
  EXPECT_EQ(leafRows, 1u << 20);
  EXPECT_EQ(single, leafRows);
  // At least a 64-byte line per context, within the bound (1g by default).
  EXPECT_GT(total("runtime.native.peak"), model_.nodes.size() * 64);
  EXPECT_LE(total("runtime.native.peak"), total("runtime.native.limit"));
  EXPECT_EQ(total("runtime.native.limit"), 1u << 30);
}

// max-memory bounds the trees: past it, events of new contexts are dropped (counted at the
// thread's root), with one warning on stderr; the program runs as it does without it.
TEST_P(AllocOracle, MaxMemoryDropsNewContextsWithOneWarning) {
  runContextOracleInSmallHeap(",max-memory=16m");
  if (HasFatalFailure()) return;
  EXPECT_GT(model_.dropped, 1000000u);
  EXPECT_LE(total("runtime.native.peak"), 16u << 20);
  EXPECT_EQ(total("runtime.native.limit"), 16u << 20);
  expectWarnedOnce("dragnet: warning: the calling-context trees reached max-memory=16m");
  // The contexts made before the bound keep exact counts: every one of them is one path.
  for (const auto& c : contextsOf("ContextOracle.m")) EXPECT_EQ(c.count, 1u);
}

// bytecodes=on keeps its instruction counts in Java arrays: they may take 1/64 of the
// maximum heap (512 KB of -Xmx32m: 65,536 contexts), then new contexts are dropped with one
// warning, and the program keeps its heap (before, it ran on until the arrays' growth
// failed with an OutOfMemoryError the probe caught, silently).
TEST_P(AllocOracle, BytecodeCountsKeepToTheirShareOfTheHeap) {
  runContextOracleInSmallHeap(",bytecodes=on");
  if (HasFatalFailure()) return;
  EXPECT_GT(model_.dropped, 1000000u);
  // Plus each thread's first array (256 contexts, 2 KB).
  EXPECT_LE(total("runtime.heap.bytes"), (32u << 20) / 64 + 8 * 2048);
  expectWarnedOnce("dragnet: warning: bytecodes=on keeps its instruction counts");
  EXPECT_EQ(stderr_.find("max-memory"), std::string::npos) << stderr_;
  for (const auto& c : contextsOf("ContextOracle.m")) EXPECT_EQ(c.count, 1u);
}

// A malformed option stops the JVM before it runs anything, with a message naming it; the
// agent also loads through JAVA_TOOL_OPTIONS.
TEST(AgentStart, BadOptionStopsTheJvmAndToolOptionsWork) {
  fs::path dir = fs::path(DRAGNET_BINARY_DIR) / "tests" / "agent-start";
  fs::create_directories(dir);
  std::string agent = "-agentpath:" + std::string(DRAGNET_AGENT);
  std::string cmd =
      "java '" + agent + "=colour=red' -version 2> '" + (dir / "err.txt").string() + "'";
  int status = std::system(cmd.c_str());
  EXPECT_NE(status, 0);
  std::ifstream f(dir / "err.txt");
  std::stringstream err;
  err << f.rdbuf();
  EXPECT_NE(err.str().find("unknown option 'colour'"), std::string::npos) << err.str();
  fs::path prof = dir / "tool.dragnet";
  cmd = "JAVA_TOOL_OPTIONS='" + agent + "=quiet=on,out=" + prof.string() +
        "' java -version 2>/dev/null";
  ASSERT_EQ(std::system(cmd.c_str()), 0);
  dragnet::profile::Profile p;
  std::string error;
  ASSERT_TRUE(dragnet::profile::readProfile(prof.string(), p, error)) << error;
  EXPECT_TRUE(p.complete);
  // `java -version` on JDK 17 loads about 400 classes, 330-340 of them rewritten.
  EXPECT_GT(std::stoull(p.totals["classes.instrumented"]), 300u);
  EXPECT_TRUE(hasMethodOf(p, "java/lang/String"));
  // The options' meta data, from the option tables: the common keys, none of lifetime's.
  EXPECT_EQ(p.meta["mode"], "alloc");
  EXPECT_EQ(p.meta["bytecodes"], "off");
  EXPECT_EQ(p.meta["depth"], "1024");
  EXPECT_EQ(p.meta["record"], "on");
  EXPECT_EQ(p.meta.count("sample") + p.meta.count("gc.interval") + p.meta.count("stack"), 0u);

  // Mode lifetime: its own keys too, with the old and the new spellings.
  prof = dir / "life.dragnet";
  cmd = "java '" + agent +
        "=quiet=on,mode=lifetime,gc-interval=1m,stack=3,use-contexts=on,out=" + prof.string() +
        "' -version 2>/dev/null";
  ASSERT_EQ(std::system(cmd.c_str()), 0);
  dragnet::profile::Profile l;
  ASSERT_TRUE(dragnet::profile::readProfile(prof.string(), l, error)) << error;
  EXPECT_EQ(l.meta["mode"], "lifetime");
  EXPECT_EQ(l.meta["gc.interval"], "1048576");
  EXPECT_EQ(l.meta["gc.budget"], "100");
  EXPECT_EQ(l.meta["use.epoch"], "65536");
  EXPECT_EQ(l.meta["stacks"], "on");
  EXPECT_EQ(l.meta["stack"], "3");

  // An option of another mode stops the JVM, naming the option and the mode that takes it.
  cmd = "java '" + agent + "=site-frames=3' -version 2> '" + (dir / "err.txt").string() + "'";
  EXPECT_NE(std::system(cmd.c_str()), 0);
  std::ifstream f2(dir / "err.txt");
  std::stringstream err2;
  err2 << f2.rdbuf();
  EXPECT_NE(err2.str().find("option 'site-frames' is accepted by mode lifetime only"),
            std::string::npos)
      << err2.str();
}

INSTANTIATE_TEST_SUITE_P(Jvms, AllocOracle, ::testing::ValuesIn(dragnet::test::oracleJvmParams()),
                         [](const auto& info) { return info.param.name; });

}  // namespace
