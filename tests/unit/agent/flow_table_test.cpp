// The flow modes' record-table reader (src/agent/flow_table.h) against a table written the
// way DragnetFlowTable writes it: every read reports exactly the counts added since the
// previous one, also when the thread grew its table once or several times in between.
#include "agent/flow_table.h"

#include <gtest/gtest.h>
#include <jni.h>

#include <cstdint>
#include <map>
#include <random>
#include <utility>

#include "agent/tree_memory.h"

extern "C" {
jlong JNICALL Java_java_lang_DragnetState_grow0(JNIEnv*, jclass, jlong, jlong, jlong);
void JNICALL Java_java_lang_DragnetState_retire0(JNIEnv*, jclass, jlong);
}

namespace dragnet::agent {
namespace {

using Key = std::pair<uint64_t, uint64_t>;

// DragnetFlowTable.count and growEdges, step for step (hash, home slot, linear probing,
// growth when half full, the old table's slots moved in index order).
class JavaTable {
 public:
  ~JavaTable() { Java_java_lang_DragnetState_retire0(nullptr, nullptr, table_); }

  void count(uint64_t a, uint64_t b, uint64_t n) {
    if (table_ == 0) grow();
    for (;;) {
      uint32_t m = cap_ - 1;
      for (uint32_t i = hash(a, b) & m, probes = 0; probes <= m; ++probes, i = (i + 1) & m) {
        uint64_t* s = slot(table_, i);
        if (s[0] == a && s[1] == b) {
          s[2] += n;
          return;
        }
        if (s[0] != 0) continue;
        if (2 * (used_ + 1) > cap_) break;
        s[2] = n;
        s[1] = b;
        s[0] = a;
        ++used_;
        return;
      }
      grow();
    }
  }
  uintptr_t table() const { return static_cast<uintptr_t>(table_); }
  int growths = 0;

 private:
  static int hash(uint64_t a, uint64_t b) {
    uint64_t h = a * 0x9E3779B97F4A7C15ULL + b * 0xC2B2AE3D27D4EB4FULL;
    return static_cast<int>(h ^ (h >> 29));
  }
  static uint64_t* slot(jlong table, uint32_t i) {
    return reinterpret_cast<uint64_t*>(static_cast<uintptr_t>(table)) + 3 * size_t{i};
  }
  void grow() {
    uint32_t cap = cap_ == 0 ? 1024 : 2 * cap_, m = cap - 1;
    jlong t = Java_java_lang_DragnetState_grow0(nullptr, nullptr, 0, 0, 24 * jlong{cap});
    ASSERT_NE(t, 0);
    for (uint32_t j = 0; j < cap_; ++j) {
      const uint64_t* o = slot(table_, j);
      if (o[0] == 0) continue;
      uint32_t i = hash(o[0], o[1]) & m;
      while (slot(t, i)[0] != 0) i = (i + 1) & m;
      std::copy(o, o + 3, slot(t, i));
    }
    Java_java_lang_DragnetState_retire0(nullptr, nullptr, table_);
    table_ = t;
    cap_ = cap;
    ++growths;
  }

  jlong table_ = 0;
  uint32_t cap_ = 0, used_ = 0;
};

// What the reads reported, summed per record; false on a report whose `was` is not the
// count the previous read reported.
struct Reported {
  std::map<Key, uint64_t> counts;
  bool consistent = true;
  FlowTableReader::Changed changed() {
    return [this](uint64_t a, uint64_t b, uint64_t count, uint64_t was) {
      uint64_t& c = counts[{a, b}];
      if (c != was || count <= was) consistent = false;
      c = count;
    };
  }
};

TEST(FlowTableReader, ReportsExactlyTheCountsAcrossGrowths) {
  std::mt19937_64 rng(7);
  JavaTable table;
  FlowTableReader reader;
  Reported reported;
  std::map<Key, uint64_t> truth;
  int reads = 0, growthsBetweenReads = 0, atLastRead = 0;
  // Rounds of records, the later ones with more new keys than the table had: a read
  // between rounds sees the table grown once, several times, or not at all.
  for (int round = 0, keys = 100; round < 11; ++round, keys = keys * 2) {
    for (int k = 0; k < 3 * keys; ++k) {
      Key key{1 + rng() % uint64_t(keys), rng() % 5};
      uint64_t n = 1 + rng() % 3;
      table.count(key.first, key.second, n);
      truth[key] += n;
    }
    if (round % 3 == 2) continue;  // some rounds without a read
    if (table.growths - atLastRead > 1) ++growthsBetweenReads;
    atLastRead = table.growths;
    trees::ReadScope scope;
    reader.readTable(1, table.table(), 0, false, reported.changed());
    ++reads;
    ASSERT_EQ(reported.counts, truth) << "after round " << round;
  }
  EXPECT_TRUE(reported.consistent);
  EXPECT_GE(table.growths, 8);
  EXPECT_GE(growthsBetweenReads, 2);
  EXPECT_EQ(reads, 8);
}

TEST(FlowTableReader, AnEndedThreadIsForgottenAndItsBytesCounted) {
  JavaTable table;
  FlowTableReader reader;
  Reported reported;
  for (uint64_t a = 1; a <= 600; ++a) table.count(a, 0, a);  // grows once: 2048 slots
  {
    trees::ReadScope scope;
    reader.readTable(3, table.table(), 5, true, reported.changed(), 100);
  }
  EXPECT_EQ(reported.counts.size(), 600u);
  EXPECT_EQ((reported.counts[{600, 0}]), 600u);
  // The table and the reader's mirror of it, plus the analysis's other tables.
  EXPECT_EQ(reader.peakBytes(), 2 * 2048 * 24 + 100u);
  EXPECT_EQ(reader.dropped(), 5u);
  // A thread of the same number later starts from nothing.
  Reported again;
  {
    trees::ReadScope scope;
    reader.readTable(3, table.table(), 5, false, again.changed());
  }
  EXPECT_EQ((again.counts[{600, 0}]), 600u);
  EXPECT_EQ(reader.dropped(), 10u);
}

}  // namespace
}  // namespace dragnet::agent
