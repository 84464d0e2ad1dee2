// The model's hash index (src/analyses/lifetime/model/flat_index.h): dense numbers in insertion
// order, stable across growth, for 64- and 128-bit keys.
#include "analyses/lifetime/model/flat_index.h"

#include <gtest/gtest.h>

namespace {

using dragnet::analyses::lifetime::FlatIndex;

TEST(LifetimeFlatIndex, NumbersKeysInInsertionOrderAcrossGrowth) {
  FlatIndex<uint64_t> index;
  const uint32_t n = 10000;
  // Keys shaped like the model's: (id << 32 | key), many sharing their low bits.
  for (uint32_t i = 0; i < n; ++i) {
    auto [value, fresh] = index.insert(uint64_t{i} << 32 | 0x80000010u, i);
    EXPECT_EQ(value, i);
    EXPECT_TRUE(fresh);
  }
  for (uint32_t i = 0; i < n; ++i) {
    auto [value, fresh] = index.insert(uint64_t{i} << 32 | 0x80000010u, 12345);
    EXPECT_EQ(value, i);
    EXPECT_FALSE(fresh);
  }
  EXPECT_EQ(index.insert(0, n).first, n);  // key 0 is a key like any other
  EXPECT_EQ(index.insert(0, n + 1).first, n);
}

TEST(LifetimeFlatIndex, WideKeysDifferInEveryPart) {
  FlatIndex<unsigned __int128> index;
  auto key = [](uint64_t nested, uint32_t first, uint32_t last) {
    return static_cast<unsigned __int128>(nested) << 64 | uint64_t{first} << 32 | last;
  };
  uint32_t next = 0;
  for (uint64_t a = 0; a < 20; ++a) {
    for (uint32_t b = 0; b < 20; ++b) {
      for (uint32_t c = 0; c < 20; ++c) {
        EXPECT_EQ(index.insert(key(a, b, c), next).first, next);
        ++next;
      }
    }
  }
  EXPECT_EQ(index.insert(key(7, 3, 19), 99999).first, 7u * 400 + 3 * 20 + 19);
  EXPECT_EQ(index.insert(key(19, 19, 19), 99999).first, 7999u);
}

}  // namespace
