// Per-thread reuse of scratch objects (structs of vectors) from one method to the next.
//
// Decoding, editing and writing a method each need a few tables sized by its code length.
// Allocating them anew for every method cost more than the work done with them, so each
// use borrows a previously used object (its vectors keep their capacity) and gives it back
// when done. Borrowing nests (a second borrow while one is out gets another object), and an
// object lost to an exception is simply replaced by a fresh one next time.
#pragma once

#include <array>
#include <cstddef>
#include <utility>

namespace dragnet::classfile {

// The per-thread pool behind Scratch, for owners whose use does not follow a scope (an
// editor takes its buffers at the first edit and gives them back when it commits).
template <class T>
class ScratchPool {
 public:
  // Moves a pooled object into `into` (if there is one; `into` is left as is otherwise).
  static void take(T& into) {
    Pool& p = pool();
    if (p.count > 0) into = std::move(p.slots[--p.count]);
  }
  // Moves `from` into the pool if there is room; `from` is left moved-from either way.
  static void give(T& from) {
    Pool& p = pool();
    if (p.count < p.slots.size()) p.slots[p.count++] = std::move(from);
  }

 private:
  struct Pool {
    std::array<T, 4> slots;
    size_t count = 0;
  };
  static Pool& pool() {
    thread_local Pool p;
    return p;
  }
};

template <class T>
class Scratch {
 public:
  Scratch() { ScratchPool<T>::take(obj_); }
  ~Scratch() { ScratchPool<T>::give(obj_); }
  Scratch(const Scratch&) = delete;
  Scratch& operator=(const Scratch&) = delete;

  // The borrowed object, with whatever contents its last user left: clear before use.
  T& operator*() { return obj_; }
  T* operator->() { return &obj_; }

 private:
  T obj_;
};

}  // namespace dragnet::classfile
