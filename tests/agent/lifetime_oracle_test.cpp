// End-to-end oracles of mode lifetime (HUP): LifetimeOracle.java runs under the agent with
// a small gc-interval, and every object of its cases is compared with times computed by
// hand (the program allocates nothing but known pads between the events):
//   - HUP Fig. 11 (b, c, d): the first get is the read after the pad, whatever the
//     constructor or a later statement put: lag = 16 + 100000 for A, B and C;
//   - a void int[1000]: never got, void space = size x lifetime, lifetime = reachable time
//     up to the first collection after it was dropped;
//   - a dragged object: read once, then held for 300000 bytes of allocation;
//   - a lagged object: lag = 16 + 200000;
//   - System.arraycopy: the source got, the destination put, at the call; Class.isInstance,
//     System.identityHashCode, Thread.holdsLock: their argument got, at the call;
//   - JNI (tests/agent/lifetime_oracle_jni.cpp): GetIntField, GetIntArrayRegion,
//     GetPrimitiveArrayCritical and GetStringUTFLength get; SetIntField and
//     SetByteArrayRegion put;
// on JDK 17 with each collector and on the newest JDK; and in 4 threads, at once (every
// object classified alike, no lag shorter than alone) and one after the other (the same
// totals as one thread, times 4).
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "analyses/lifetime/model/aggregate.h"
#include "oracle_jvms.h"
#include "profile/reader.h"

namespace fs = std::filesystem;
namespace lt = dragnet::analyses::lifetime;
using dragnet::profile::kNoTime;
using dragnet::profile::ObjectRecord;
using dragnet::test::Jvm;

namespace {

constexpr uint64_t kGcInterval = 64 * 1024;  // gc-interval of the runs
constexpr uint64_t kEpoch = 4096;            // use-epoch of the runs
// A collection comes within one pad chunk (4 KB) of its threshold, so an object dropped
// at time t dies by t + gc-interval + 4 KB.
constexpr uint64_t kDeathSlack = kGcInterval + 4096;

// One allocation as the clock saw it, and whether the oracle made it.
struct Allocation {
  uint64_t time = 0, size = 0;
  uint32_t thread = 0;
  bool underOracle = false;  // a LifetimeOracle frame in its allocation stack
  uint32_t site = 0;         // index into Model::nested (and Recording::siteNames)
};

struct Recording {
  dragnet::profile::Profile profile;
  lt::Model model;
  std::string messages;                // the JVM's standard error
  std::vector<Allocation> byTime;      // every record, by allocation time
  std::vector<std::string> siteNames;  // per nested site: class < frames, for messages
};

void indexAllocations(Recording& r) {
  for (const lt::NestedSite& site : r.model.nested) {
    std::vector<std::string> frames = lt::nestedFrames(r.model, site);
    bool under = std::any_of(frames.begin(), frames.end(),
                             [](const std::string& f) { return f.starts_with("LifetimeOracle"); });
    std::string& name = r.siteNames.emplace_back(r.model.classes[site.cls].name);
    for (size_t i = 0; i < frames.size() && i < 4; ++i) name += " < " + frames[i];
    auto index = static_cast<uint32_t>(r.siteNames.size() - 1);
    for (uint32_t i : lt::objectsOf(r.model, site)) {
      const ObjectRecord& o = lt::object(r.model, i);
      r.byTime.push_back({o.alloc, o.size, o.thread, under, index});
    }
  }
  std::sort(r.byTime.begin(), r.byTime.end(),
            [](const Allocation& a, const Allocation& b) { return a.time < b.time; });
}

class LifetimeOracle : public ::testing::Test {
 protected:
  static fs::path work() { return fs::path(DRAGNET_BINARY_DIR) / "tests" / "alloc-oracle"; }

  // Runs LifetimeOracle with `args` on `jvm` and reads its profile into `r`.
  static void run(const Jvm& jvm, const std::string& args, int threads, Recording& r,
                  const std::string& options = "") {
    ASSERT_TRUE(fs::exists(work() / "classes" / "LifetimeOracle.class"))
        << "build the target dragnet_alloc_oracles first";
    std::string tag = std::to_string(::getpid());  // ctest -j runs tests side by side
    fs::path prof = work() / ("lifetime-" + tag + ".dragnet");
    fs::path out = work() / ("lifetime-stdout-" + tag + ".txt");
    fs::path err = work() / ("lifetime-stderr-" + tag + ".txt");
    std::string cmd =
        dragnet::test::killAfterTimeout() + "'" + jvm.java + "' " + jvm.flags +
        " -Dlifetime.jni='" + std::string(DRAGNET_LIFETIME_JNI) + "' -agentpath:'" +
        std::string(DRAGNET_AGENT) + "'=mode=lifetime,quiet=on,gc-interval=64k,use-epoch=4k" +
        options + ",out='" + prof.string() + "' -cp '" + (work() / "classes").string() +
        "' LifetimeOracle " + args + " > '" + out.string() + "' 2> '" + err.string() + "'";
    ASSERT_EQ(std::system(cmd.c_str()), 0) << cmd;
    // Transparency: what the program prints without the agent (9 + 1 + 7 + 9 + 0 + 9 per
    // thread: the fields and sums it reads back).
    EXPECT_EQ(dragnet::test::readFile(out), "lifetime oracle: " + std::to_string(threads) +
                                                " thread(s), result " +
                                                std::to_string(27 * threads) + "\n");
    std::string error;
    ASSERT_TRUE(dragnet::profile::readProfile(prof.string(), r.profile, error)) << error;
    EXPECT_TRUE(r.profile.complete);
    r.model = lt::buildModel(r.profile);
    indexAllocations(r);
    r.messages = dragnet::test::readFile(err);
    fs::remove(prof);
    fs::remove(out);
    fs::remove(err);
  }
};

// The records of objects of class `cls` (Java spelling) allocated by a method whose name
// starts with `method` (empty: any).
std::vector<ObjectRecord> objects(const Recording& r, const std::string& cls,
                                  const std::string& method = "") {
  std::vector<ObjectRecord> v;
  const lt::ClassGroup* c = lt::classByName(r.model, cls);
  if (!c) return v;
  for (uint32_t i : lt::objectsOf(r.model, *c)) {
    const lt::NestedSite& site = r.model.nested[r.model.nestedOf[i]];
    if (!r.model.methods[site.method].name.starts_with(method)) continue;
    v.push_back(lt::object(r.model, i));
  }
  return v;
}

const lt::Stats& classStats(const Recording& r, const std::string& cls) {
  static const lt::Stats none;
  const lt::ClassGroup* c = lt::classByName(r.model, cls);
  return c ? c->stats : none;
}
std::string oracle(const std::string& nested) { return "LifetimeOracle$" + nested; }

uint64_t lag(const ObjectRecord& o) { return o.firstGet - o.alloc; }

// What was allocated in [o.alloc, t): by the oracle and by others, with the others listed.
struct Window {
  uint64_t own = 0, others = 0, count = 0;
  std::string list;
};

Window window(const Recording& r, const ObjectRecord& o, uint64_t t) {
  bool sampled = r.model.settings.sample != 0;
  Window w;
  auto it = std::lower_bound(r.byTime.begin(), r.byTime.end(), o.alloc,
                             [](const Allocation& a, uint64_t v) { return a.time < v; });
  for (; it != r.byTime.end() && it->time < t; ++it) {
    if (sampled ? it->underOracle : it->thread == o.thread) {
      w.own += it->size;
    } else {
      w.others += it->size;
      ++w.count;
      w.list += "\n    at " + std::to_string(it->time) + ": " + r.siteNames[it->site];
    }
  }
  return w;
}

// The most that others' allocations can add to the clock (see elapsed).
uint64_t othersBound(const Recording& r, const Window& w) {
  constexpr uint64_t kChunk = 4096;  // DragnetLife.CHUNK
  return w.others + (r.model.settings.sample != 0 ? 0 : 2 * kChunk * w.count);
}
uint64_t othersBound(const Recording& r, const ObjectRecord& o, uint64_t t) {
  return othersBound(r, window(r, o, t));
}

// Whether the time from o's allocation to `t` is `expected` bytes of the oracle's own
// allocations. The clock is global: the JVM's own threads allocate now and then (a cleaner
// thread; a thread that asks for a JIT compile resolves the class's string constants,
// allocating them), and a quiet JVM is not guaranteed. So two things are checked: the
// oracle's allocations in [alloc, t) (its thread's; in the sampled variant, whose records
// carry no thread, those under a LifetimeOracle frame) add up to `expected`, which places
// the event exactly among them; and the clock's reading, t - alloc, is that plus what the
// others allocated in between: exactly in the sampled variant (every sampled byte), in the
// exact one at most that plus two clock chunks per other allocation (its thread reserves a
// 4 KB chunk, and the oracle's thread continues after it, leaving the rest of its own).
::testing::AssertionResult elapsed(const Recording& r, const ObjectRecord& o, uint64_t t,
                                   uint64_t expected) {
  if (t == kNoTime || t < o.alloc) return ::testing::AssertionFailure() << "no such event";
  Window w = window(r, o, t);
  uint64_t clock = t - o.alloc;
  // The exact variant's lower bound is the oracle's bytes alone: an object's time is its
  // `new`'s, so another thread's object made at the end of that thread's clock chunk can
  // carry the time where the oracle's thread's next chunk begins (JDK 25's main thread
  // does so at Thread.start), inside the span without adding to it.
  uint64_t least = w.own + (r.model.settings.sample != 0 ? w.others : 0);
  if (w.own == expected && clock >= least && clock <= w.own + othersBound(r, w)) {
    return ::testing::AssertionSuccess();
  }
  return ::testing::AssertionFailure()
         << "the oracle's bytes " << w.own << " (expected " << expected << "), clock " << clock
         << ", other allocations " << w.others << " in " << w.count << " objects" << w.list;
}

// Every object of one thread's cases against the hand-computed times.
void checkSingleThread(const Recording& r) {
  const uint64_t kPad = 100000;
  // HUP Fig. 11 b/c/d: never a get before the read after the pad; the puts of c and d are
  // right after the 16-byte allocation.
  for (const char* cls : {"A", "B", "C"}) {
    auto v = objects(r, oracle(cls), "LifetimeOracle.fig11(");
    ASSERT_EQ(v.size(), 1u) << cls;
    EXPECT_EQ(v[0].size, 16u);
    EXPECT_TRUE(elapsed(r, v[0], v[0].firstGet, 16 + kPad)) << cls;
    EXPECT_EQ(v[0].lastGet, v[0].firstGet) << cls;
  }
  auto a = objects(r, oracle("A"))[0];
  EXPECT_EQ(a.firstPut, kNoTime);
  auto b = objects(r, oracle("B"))[0];
  EXPECT_TRUE(elapsed(r, b, b.firstPut, 16u));
  EXPECT_EQ(b.lastPut, b.firstPut);
  auto c = objects(r, oracle("C"))[0];
  EXPECT_TRUE(elapsed(r, c, c.firstPut, 16u));
  EXPECT_TRUE(elapsed(r, c, c.lastPut, 16u));  // c.i = 0 right after the constructor

  // Void: an int[1000] (4016 bytes) reachable through its holder (24 bytes) for a pad of
  // 300000, never read.
  auto voided = objects(r, "int[]", "LifetimeOracle.voided(");
  ASSERT_EQ(voided.size(), 1u);
  const ObjectRecord& vo = voided[0];
  EXPECT_EQ(vo.size, 4016u);
  EXPECT_EQ(vo.firstGet, kNoTime);
  EXPECT_EQ(vo.firstPut, kNoTime);
  uint64_t reachable = 4016 + 24 + 300000;
  EXPECT_GE(vo.death - vo.alloc, reachable);
  EXPECT_LE(vo.death - vo.alloc, reachable + kDeathSlack + othersBound(r, vo, vo.death));
  lt::Life life = lt::lifeOf(vo, kEpoch);
  EXPECT_FALSE(life.used);
  EXPECT_EQ(life.time(lt::Phase::Void), vo.death - vo.alloc);

  // Drag: Held is read right after its allocation, then held for a pad of 300000.
  auto held = objects(r, oracle("Held"));
  ASSERT_EQ(held.size(), 1u);
  const ObjectRecord& h = held[0];
  EXPECT_TRUE(elapsed(r, h, h.firstGet, 16u));
  EXPECT_EQ(h.lastGet, h.firstGet);
  lt::Life hl = lt::lifeOf(h, kEpoch);
  EXPECT_TRUE(hl.dragged());
  // The last use is known to the end of its use epoch.
  EXPECT_GE(hl.time(lt::Phase::Drag), 300000 - kEpoch);
  EXPECT_LE(hl.time(lt::Phase::Drag), 300000 + kDeathSlack + othersBound(r, h, h.death));
  EXPECT_EQ(hl.time(lt::Phase::Lag), 16u);

  // Lag: Late is read after a pad of 200000.
  auto late = objects(r, oracle("Late"));
  ASSERT_EQ(late.size(), 1u);
  EXPECT_TRUE(elapsed(r, late[0], late[0].firstGet, 16 + 200000u));

  // System.arraycopy(src, dst) after both long[100] (816 bytes each) and a pad.
  auto longs = objects(r, "long[]", "LifetimeOracle.copied(");
  ASSERT_EQ(longs.size(), 2u);
  const ObjectRecord& src = longs[0].alloc < longs[1].alloc ? longs[0] : longs[1];
  const ObjectRecord& dst = longs[0].alloc < longs[1].alloc ? longs[1] : longs[0];
  EXPECT_TRUE(elapsed(r, src, src.firstGet, 816 + 816 + kPad));
  EXPECT_EQ(src.firstPut, kNoTime);
  EXPECT_EQ(dst.firstGet, kNoTime);
  EXPECT_TRUE(elapsed(r, dst, dst.firstPut, 816 + kPad));

  // An object whose monitor is inflated (Object.wait): monitorenter right after the
  // 16-byte allocation, then a read after each of two pads.
  auto mon = objects(r, oracle("Monitored"), "LifetimeOracle.monitored(");
  ASSERT_EQ(mon.size(), 1u);
  EXPECT_TRUE(elapsed(r, mon[0], mon[0].firstGet, 16u));
  EXPECT_TRUE(elapsed(r, mon[0], mon[0].lastGet, 16 + 2 * kPad));
  EXPECT_TRUE(elapsed(r, mon[0], mon[0].firstPut, 16u));  // its constructor's v = 6

  // JDK natives that read their argument inside the JVM: the use is counted at the call.
  for (const char* cls : {"ByIsInstance", "ByIdentityHash", "ByHoldsLock"}) {
    auto v = objects(r, oracle(cls), "LifetimeOracle.natives(");
    ASSERT_EQ(v.size(), 1u) << cls;
    EXPECT_TRUE(elapsed(r, v[0], v[0].firstGet, 16 + kPad)) << cls;
  }

  // JNI: the only uses are the natives' JNI calls after the pads.
  auto via = objects(r, oracle("ViaJni"));
  ASSERT_EQ(via.size(), 1u);
  EXPECT_TRUE(elapsed(r, via[0], via[0].firstGet, 16 + kPad));  // GetIntField
  EXPECT_TRUE(elapsed(r, via[0], via[0].firstPut, 16u));        // its constructor's v = 5
  auto set = objects(r, oracle("SetByJni"));
  ASSERT_EQ(set.size(), 1u);
  EXPECT_EQ(set[0].firstGet, kNoTime);
  EXPECT_TRUE(elapsed(r, set[0], set[0].firstPut, 16 + kPad));  // SetIntField
  auto ints = objects(r, "int[]", "LifetimeOracle.jniInts(");
  ASSERT_EQ(ints.size(), 1u);
  EXPECT_TRUE(elapsed(r, ints[0], ints[0].firstGet, 56 + kPad));  // GetIntArrayRegion of an int[10]
  auto bytes = objects(r, "byte[]", "LifetimeOracle.jniBytes(");
  ASSERT_EQ(bytes.size(), 1u);
  EXPECT_EQ(bytes[0].firstGet, kNoTime);
  EXPECT_TRUE(elapsed(r, bytes[0], bytes[0].firstPut, 40 + kPad));  // SetByteArrayRegion
  auto shorts = objects(r, "short[]", "LifetimeOracle.jniCritical(");
  ASSERT_EQ(shorts.size(), 1u);
  EXPECT_TRUE(elapsed(r, shorts[0], shorts[0].firstGet, 40 + kPad));  // GetPrimitiveArrayCritical
  EXPECT_EQ(shorts[0].firstPut, kNoTime);                             // released with JNI_ABORT
  // Nested critical regions: the inner array's get waits for the outer region's end, at
  // the same time (nothing is allocated inside).
  auto outer = objects(r, "short[]", "LifetimeOracle.jniNested(");
  auto inner = objects(r, "int[]", "LifetimeOracle.jniNested(");
  ASSERT_EQ(outer.size(), 1u);
  ASSERT_EQ(inner.size(), 1u);
  EXPECT_TRUE(elapsed(r, outer[0], outer[0].firstGet,
                      24 + 48 + kPad));  // short[4], then int[8], then the pad
  EXPECT_TRUE(elapsed(r, inner[0], inner[0].firstGet, 48 + kPad));
  // Released with an exception pending: the copy back is a put all the same.
  auto pending = objects(r, "int[]", "LifetimeOracle.jniPending(");
  ASSERT_EQ(pending.size(), 1u);
  EXPECT_TRUE(
      elapsed(r, pending[0], pending[0].firstGet, 40 + kPad));  // GetIntArrayElements of an int[6]
  EXPECT_TRUE(elapsed(r, pending[0], pending[0].firstPut, 40 + kPad));  // the release
  auto strings = objects(r, "java.lang.String", "LifetimeOracle.jniString(");
  ASSERT_EQ(strings.size(), 1u);
  // new String(char[4]): the String, the char[] and the String's byte[] value, then the
  // pad; GetStringUTFLength is its first get. (The String's time is its `new`'s, before
  // its argument, the char[], was allocated.)
  EXPECT_TRUE(elapsed(r, strings[0], strings[0].firstGet, 24 + 24 + 24 + kPad));
}

// LifetimeOracle.cloned() alone (argument "clones").
void checkClones(const Recording& r) {
  const uint64_t kPad = 100000;
  // Object.clone: an int[250] (1016 bytes) cloned, the checkcast after the call its first
  // get, read again after a pad; a Copyable (16 bytes) cloned by super.clone() in copy(),
  // to which the copy belongs, read after a pad.
  auto arrays = objects(r, "int[]", "LifetimeOracle.cloned(");
  ASSERT_EQ(arrays.size(), 2u);
  const ObjectRecord& orig = arrays[0].alloc < arrays[1].alloc ? arrays[0] : arrays[1];
  const ObjectRecord& copy = arrays[0].alloc < arrays[1].alloc ? arrays[1] : arrays[0];
  EXPECT_EQ(copy.size, 1016u);
  EXPECT_TRUE(elapsed(r, orig, copy.alloc, 1016));
  EXPECT_TRUE(elapsed(r, orig, orig.firstGet, 1016u));  // the clone call's receiver
  EXPECT_TRUE(elapsed(r, copy, copy.firstGet, 1016u));
  EXPECT_TRUE(elapsed(r, copy, copy.lastGet, 1016 + kPad));
  EXPECT_EQ(copy.firstPut, kNoTime);
  ASSERT_EQ(objects(r, oracle("Copyable"), "LifetimeOracle.cloned(").size(), 1u);
  auto copies = objects(r, oracle("Copyable"), "LifetimeOracle$Copyable.copy(");
  ASSERT_EQ(copies.size(), 1u);
  EXPECT_TRUE(elapsed(r, copies[0], copies[0].lastGet, 16 + kPad));
  // The checkcast right after super.clone() is its first get.
  EXPECT_TRUE(elapsed(r, copies[0], copies[0].firstGet, 16u));
}

TEST_F(LifetimeOracle, SingleThreadOnEachJvm) {
  for (const Jvm& jvm : dragnet::test::oracleJvms()) {
    SCOPED_TRACE(jvm.name);
    Recording r;
    run(jvm, "1", 1, r);
    if (HasFatalFailure()) return;
    checkSingleThread(r);
    EXPECT_EQ(r.model.settings.gcInterval, kGcInterval);
    EXPECT_EQ(r.model.settings.useEpoch, kEpoch);
    // The precision the report states: no freed object outlived its last forced
    // collection by more than gc-interval plus one allocation (a pad chunk, or one of the
    // JVM's start-up objects).
    EXPECT_GT(r.model.precision.forcedGcs, 10u);
    EXPECT_LE(r.model.precision.maxGap, kGcInterval + (1u << 20));
  }
}

// The helper makes each object's phantom reference with `new`, through a constructor the
// agent empties (reference_class.cpp); where the JVM verifies boot classes (-Xverify:all)
// that class would not link, so the agent keeps the constructor and the helper uses
// Unsafe.allocateInstance. Both give the oracle's exact times, on JDK 17 and on the newest
// JDK (whose JIT calls into the VM for allocateInstance while VMObjectAlloc is enabled).
TEST_F(LifetimeOracle, VerifiedBootClassesGiveTheSameTimes) {
  const std::vector<Jvm> all = dragnet::test::oracleJvms();
  for (Jvm jvm : {all.front(), all.back()}) {
    SCOPED_TRACE(jvm.name);
    Recording byNew, verified;
    run(jvm, "1", 1, byNew);
    jvm.flags += " -Xverify:all";
    run(jvm, "1", 1, verified);
    if (HasFatalFailure()) return;
    EXPECT_EQ(byNew.profile.totals["references"], "new");
    EXPECT_EQ(verified.profile.totals["references"], "allocateInstance");
    checkSingleThread(verified);
    EXPECT_EQ(classStats(verified, oracle("Held")).objects,
              classStats(byNew, oracle("Held")).objects);
  }
}

// gc-budget: a run with a budget of 1% forces a collection only after 99 times the last
// one's duration, so most gc-interval thresholds are passed over (counted in the End
// chunk, gc.deferred), there are fewer forced collections, and deaths are known less
// precisely; the program's output is the same (run checks it). With gc-interval given and
// no gc-budget (every other test here) nothing is passed over.
TEST_F(LifetimeOracle, GcBudgetPassesOverThresholds) {
  const Jvm jvm = dragnet::test::oracleJvms()[0];
  Recording every, budget;
  run(jvm, "1", 1, every);
  run(jvm, "1", 1, budget, ",gc-budget=1");
  if (HasFatalFailure()) return;
  EXPECT_EQ(every.profile.meta["gc.budget"], "100");
  EXPECT_EQ(every.profile.totals["gc.deferred"], "0");
  EXPECT_EQ(every.model.settings.gcDeferred, 0u);
  EXPECT_EQ(budget.profile.meta["gc.budget"], "1");
  EXPECT_EQ(budget.model.settings.gcBudget, 1u);
  EXPECT_GT(budget.model.settings.gcDeferred, 10u);
  EXPECT_LT(budget.model.precision.forcedGcs, every.model.precision.forcedGcs);
  EXPECT_GT(budget.model.precision.maxGap, kGcInterval + (1u << 20));
  // The same objects either way: the budget changes when deaths are seen, nothing else.
  EXPECT_EQ(classStats(budget, oracle("Held")).objects, classStats(every, oracle("Held")).objects);
  EXPECT_GT(classStats(every, oracle("Held")).objects, 0u);
}

// The JNI wrappers (uses and allocations), the upcalls and the agent's own JNI calls obey
// JNI's rules: -Xcheck:jni has nothing to say (4 threads, every case, stacks on).
TEST_F(LifetimeOracle, CheckJniIsQuiet) {
  Jvm jvm = dragnet::test::oracleJvms()[0];
  // HotSpot prints -Xcheck:jni's warnings on its tty, standard output unless told otherwise.
  jvm.flags += " -Xcheck:jni -XX:+DisplayVMOutputToStderr";
  Recording r;
  run(jvm, "4", 4, r, ",use-contexts=on");
  if (HasFatalFailure()) return;
  EXPECT_EQ(r.messages.find("WARNING"), std::string::npos) << r.messages;
  EXPECT_EQ(r.messages.find("FATAL"), std::string::npos) << r.messages;
  EXPECT_EQ(classStats(r, oracle("ViaJni")).lagged, 4u);
}

// Four threads one after the other: the same objects and times as one thread, so each
// class's counts are four times one thread's, and each object's lag is its one-thread
// twin's (in the oracle's own bytes: see elapsed).
TEST_F(LifetimeOracle, SerialThreadsGiveFourTimesOneThread) {
  Jvm jvm = dragnet::test::oracleJvms()[0];
  Recording one, four;
  run(jvm, "1", 1, one);
  run(jvm, "4 serial", 4, four);
  if (HasFatalFailure()) return;
  for (const char* cls : {"A", "B", "C", "Late", "Held", "ViaJni", "SetByJni"}) {
    SCOPED_TRACE(cls);
    const lt::Stats& s1 = classStats(one, oracle(cls));
    const lt::Stats& s4 = classStats(four, oracle(cls));
    EXPECT_EQ(s4.objects, 4 * s1.objects);
    EXPECT_EQ(s4.lagged, 4 * s1.lagged);
    EXPECT_EQ(s4.dragged, 4 * s1.dragged);
    EXPECT_EQ(s4.voids, 4 * s1.voids);
    // Each thread's lags are one thread's, in the oracle's own bytes.
    auto alone = objects(one, oracle(cls));
    ASSERT_EQ(alone.size(), 1u);
    for (const ObjectRecord& o : objects(four, oracle(cls))) {
      if (alone[0].firstGet == kNoTime) {
        EXPECT_EQ(o.firstGet, kNoTime);
      } else {
        EXPECT_TRUE(elapsed(four, o, o.firstGet, window(one, alone[0], alone[0].firstGet).own));
      }
    }
  }
  // Each thread's objects, alone, are what one thread makes.
  auto voided = objects(four, "int[]", "LifetimeOracle.voided(");
  ASSERT_EQ(voided.size(), 4u);
  for (const ObjectRecord& o : voided) {
    EXPECT_EQ(o.firstGet, kNoTime);
    EXPECT_GE(o.death - o.alloc, 4016 + 24 + 300000u);
    EXPECT_LE(o.death - o.alloc, 4016 + 24 + 300000 + kDeathSlack + othersBound(four, o, o.death));
  }
  for (const ObjectRecord& a : objects(four, oracle("A")))
    EXPECT_TRUE(elapsed(four, a, a.firstGet, 100016u));
  for (const ObjectRecord& s : objects(four, "java.lang.String", "LifetimeOracle.jniString(")) {
    EXPECT_TRUE(elapsed(four, s, s.firstGet, 100072u));
  }
}

// Four threads at once: the clock is global, so other threads' allocations lengthen the
// lags, but every object is classified as when alone and no time is shorter.
TEST_F(LifetimeOracle, ConcurrentThreadsClassifyAlike) {
  Jvm jvm = dragnet::test::oracleJvms()[0];
  Recording r;
  run(jvm, "4", 4, r);
  if (HasFatalFailure()) return;
  for (const char* cls : {"A", "B", "C", "Late", "ViaJni"}) {
    auto v = objects(r, oracle(cls));
    ASSERT_EQ(v.size(), 4u) << cls;
    for (const ObjectRecord& o : v) EXPECT_GE(lag(o), 100016u) << cls;
    EXPECT_EQ(classStats(r, oracle(cls)).lagged, 4u) << cls;
  }
  EXPECT_EQ(classStats(r, oracle("Held")).dragged, 4u);
  EXPECT_EQ(classStats(r, oracle("SetByJni")).voids, 4u);
  auto voided = objects(r, "int[]", "LifetimeOracle.voided(");
  ASSERT_EQ(voided.size(), 4u);
  for (const ObjectRecord& o : voided) {
    EXPECT_EQ(o.firstGet, kNoTime);
    EXPECT_GE(o.death - o.alloc, 4016 + 24 + 300000u);
  }
  // Record ids are unique across the threads' id blocks.
  std::vector<uint64_t> ids;
  for (const ObjectRecord& o : r.profile.objects) ids.push_back(o.id);
  std::sort(ids.begin(), ids.end());
  EXPECT_EQ(std::adjacent_find(ids.begin(), ids.end()), ids.end());
}

}  // namespace

// Mode lifetime with sample=SIZE at an interval of one byte: the JVM's sampler picks every
// object, each stands for itself (weight 1) and the sampled clock advances by each object's
// size, so the sampled variant must give the exact variant's answers: the same oracle, on
// JDK 17 with each collector and the newest JDK (whose locking keeps the hash in the
// header). With the serial and parallel collectors the cases run on the main thread, whose
// start-up TLAB once held them all unsampled (Sampler::start).
TEST_F(LifetimeOracle, SampledEveryObjectGivesTheExactTimes) {
  for (const Jvm& jvm : dragnet::test::oracleJvms()) {
    SCOPED_TRACE(jvm.name);
    Recording r;
    bool g1 = jvm.flags.find("G1") != std::string::npos;
    run(jvm, g1 ? "1" : "main", 1, r, ",sample=1");
    if (HasFatalFailure()) return;
    EXPECT_EQ(r.model.settings.sample, 1u);
    checkSingleThread(r);
    // What the helper allocates is not the program's (the JVM resolving the helper's string
    // constants under DragnetSample.slow, often on the reference handler thread): no site
    // may have a helper frame (3 runs in 4 had one before the sampler dropped them).
    for (const lt::NestedSite& site : r.model.nested) {
      for (const std::string& frame : lt::nestedFrames(r.model, site)) {
        EXPECT_FALSE(frame.starts_with("java.lang.Dragnet")) << frame;
      }
    }
    EXPECT_TRUE(r.profile.totals.contains("samples.agent"));
    // Nor any object the JVM allocates for itself, which the exact variant cannot see:
    // class objects (the oracle's own classes load while it runs), string constants.
    for (const lt::ClassGroup& c : r.model.classes) EXPECT_NE(c.name, "java.lang.Class");
    EXPECT_GT(std::stoull(r.profile.totals["samples.jvm"]), 0u);
  }
}

// The sampled probes' slow path reads native memory through Unsafe's natives only: before,
// it called Unsafe.getByte(long), a Java method whose entry probe sees the JDK's Unsafe, so
// once a program had given that object an identity hash, each slow path recursed into
// itself and the JVM hung (for good: not even SIGTERM ended it).
TEST_F(LifetimeOracle, SampledProbesWithAHashedUnsafe) {
  const Jvm& jvm = dragnet::test::oracleJvms().front();
  Recording r;
  run(jvm, "hashedUnsafe", 1, r, ",sample=1");
  if (HasFatalFailure()) return;
  checkSingleThread(r);
}

// Object.clone allocates inside the JVM and then resets the copy's header: the copies
// belong to the method that calls clone, in both variants, and the sampled variant
// registers a sampled copy once it is back in Java code (DragnetSample.cloned), so its
// uses count from the checkcast after the call.
TEST_F(LifetimeOracle, ClonesBelongToTheirCallerAndAreUsed) {
  for (const Jvm& jvm : dragnet::test::oracleJvms()) {
    for (const char* options : {"", ",sample=1"}) {
      SCOPED_TRACE(jvm.name + options);
      Recording r;
      run(jvm, "clones", 1, r, options);
      if (HasFatalFailure()) return;
      checkClones(r);
    }
  }
}
