// A std::vector whose buffer goes back to a per-thread pool when it is destroyed, and
// which a reader can fill in a pooled buffer (reuse()).
//
// A class model is built, edited, written and dropped, class after class: the vectors of
// one class (its pool, each method's instructions, labels and attribute tables) are
// allocated while parsing it and freed when it is dropped, a malloc and a free each: about
// 290 per class, a large share of a tool's work (docs/PERFORMANCE.md, "Where the time goes").
// Pooling the buffers of the few most frequent vectors lets the next class reuse them. The
// pools are bounded (buffers of at most kMaxBytes, at most kMaxPooledBytes per element type
// and thread), so a thread keeps at most a few MB however many classes it parses.
#pragma once

#include <cstddef>
#include <initializer_list>
#include <utility>
#include <vector>

namespace dragnet::classfile {

template <class T>
class VectorPool {
 public:
  static constexpr size_t kMaxBytes = 64 * 1024;
  static constexpr size_t kMaxPooledBytes = 256 * 1024;

  // Gives the empty vector `v` the newest pooled buffer if that one is larger (v's own
  // buffer, if it has one, takes its place in the pool).
  static void take(std::vector<T>& v) {
    if (tDead) return;
    Holder& h = holder();
    if (h.buffers.empty() || h.buffers.back().capacity() <= v.capacity()) return;
    std::vector<T>& top = h.buffers.back();
    h.bytes -= top.capacity() * sizeof(T);
    h.bytes += v.capacity() * sizeof(T);
    v.swap(top);
    if (top.capacity() == 0) h.buffers.pop_back();
  }

  // Destroys v's elements and pools its buffer if the pool has room (else frees it).
  static void give(std::vector<T>& v) {
    size_t bytes = v.capacity() * sizeof(T);
    if (tDead || bytes == 0 || bytes > kMaxBytes) return;
    // Elements first: destroying them may pool nested vectors of this same type (an
    // attribute list inside a Code attribute inside an attribute list).
    v.clear();
    Holder& h = holder();
    if (h.bytes + bytes > kMaxPooledBytes) return;
    h.bytes += bytes;
    h.buffers.push_back(std::move(v));
  }

 private:
  struct Holder {
    std::vector<std::vector<T>> buffers;
    size_t bytes = 0;
    ~Holder() { tDead = true; }
  };
  static Holder& holder() {
    thread_local Holder h;
    return h;
  }
  // Set when the thread's pool is destroyed (thread exit): a vector destroyed after that
  // (a static object at process exit) frees its buffer. A bool needs no destruction, so it
  // can be read at any time.
  inline static thread_local bool tDead = false;
};

template <class T>
class PooledVector : public std::vector<T> {
  using Base = std::vector<T>;

 public:
  using Base::Base;
  PooledVector() = default;
  PooledVector(const PooledVector&) = default;
  PooledVector(PooledVector&&) noexcept = default;
  PooledVector(const Base& v) : Base(v) {}                 // NOLINT: a vector converts
  PooledVector(Base&& v) noexcept : Base(std::move(v)) {}  // NOLINT: a vector converts
  PooledVector& operator=(const PooledVector&) = default;
  PooledVector& operator=(PooledVector&&) noexcept = default;
  PooledVector& operator=(const Base& v) {
    Base::operator=(v);
    return *this;
  }
  PooledVector& operator=(Base&& v) noexcept {
    Base::operator=(std::move(v));
    return *this;
  }
  PooledVector& operator=(std::initializer_list<T> l) {
    Base::operator=(l);
    return *this;
  }
  ~PooledVector() { VectorPool<T>::give(*this); }

  // Empties the vector, in a pooled buffer if it has none.
  void reuse() {
    this->clear();
    VectorPool<T>::take(*this);
  }
};

// For templates that fill either kind of vector.
template <class T>
void reuse(std::vector<T>& v) {
  v.clear();
}
template <class T>
void reuse(PooledVector<T>& v) {
  v.reuse();
}

}  // namespace dragnet::classfile
