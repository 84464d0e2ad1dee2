// PooledVector: a destroyed vector's buffer is reused by the next reuse() on the thread,
// within the pool's bounds. (That models parsed class after class through the pools write
// the same bytes is the corpus round trip's: every class of the JDK and the jars.)
#include "classfile/pooled_vector.h"

#include <gtest/gtest.h>

#include <thread>

namespace {

using dragnet::classfile::PooledVector;
using dragnet::classfile::VectorPool;

// A type of its own, so that no other test's vectors are in its pool.
struct Item {
  int v = 0;
};

TEST(PooledVector, ReuseTakesTheBufferOfADestroyedVector) {
  const Item* buffer = nullptr;
  {
    PooledVector<Item> a;
    a.reserve(100);
    a.push_back({7});
    buffer = a.data();
  }
  PooledVector<Item> b;
  b.reuse();
  EXPECT_TRUE(b.empty());
  EXPECT_EQ(b.capacity(), 100u);
  EXPECT_EQ(b.data(), buffer);
  // The pool is empty now: another vector gets nothing.
  PooledVector<Item> c;
  c.reuse();
  EXPECT_EQ(c.capacity(), 0u);
}

TEST(PooledVector, ASmallerBufferIsNotTaken) {
  struct Small {
    int v = 0;
  };
  { PooledVector<Small>(4); }
  PooledVector<Small> big(64);
  big.reuse();
  EXPECT_EQ(big.capacity(), 64u);
  PooledVector<Small> none;
  none.reuse();
  EXPECT_EQ(none.capacity(), 4u);  // the pooled one, still there
}

TEST(PooledVector, BuffersAboveTheLimitAreFreed) {
  struct Big {
    char bytes[1024];
  };
  constexpr size_t kOver = VectorPool<Big>::kMaxBytes / sizeof(Big) + 1;
  { PooledVector<Big> a(kOver); }
  PooledVector<Big> b;
  b.reuse();
  EXPECT_EQ(b.capacity(), 0u);
}

TEST(PooledVector, MovesAndCopiesKeepContents) {
  PooledVector<Item> a{{1}, {2}, {3}};
  PooledVector<Item> b = a;
  PooledVector<Item> c = std::move(a);
  std::vector<Item> plain{{4}};
  c = std::move(plain);
  ASSERT_EQ(b.size(), 3u);
  EXPECT_EQ(b[2].v, 3);
  ASSERT_EQ(c.size(), 1u);
  EXPECT_EQ(c[0].v, 4);
}

// A pool belongs to its thread: a buffer pooled on another thread is not seen here, and
// the other thread's pool is freed when it ends.
TEST(PooledVector, PoolsArePerThread) {
  struct PerThread {
    int v = 0;
  };
  std::thread t([] { PooledVector<PerThread>(32); });
  t.join();
  PooledVector<PerThread> v;
  v.reuse();
  EXPECT_EQ(v.capacity(), 0u);
}

}  // namespace
