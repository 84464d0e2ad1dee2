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
#include <memory>
#include <new>
#include <type_traits>
#include <utility>
#include <vector>

namespace dragnet::classfile {

// An allocator whose value-initialisation (resize, the sized constructor) default-
// initialises instead: trivial elements are left as they are. For scratch tables that are
// written before they are read, whose growing would otherwise fill them with zeros first.
template <class T>
struct UninitAllocator : std::allocator<T> {
  UninitAllocator() = default;
  template <class U>
  UninitAllocator(const UninitAllocator<U>&) noexcept {}  // NOLINT: rebinding converts
  template <class U>
  void construct(U* p) noexcept(std::is_nothrow_default_constructible_v<U>) {
    ::new (static_cast<void*>(p)) U;
  }
  template <class U, class... Args>
  void construct(U* p, Args&&... args) {
    ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
  }
};
template <class T>
using UninitVector = std::vector<T, UninitAllocator<T>>;

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

// A borrowed scratch object, given back when the Scratch goes out of scope. The objects
// are pooled by address: borrowing one moves a pointer, where moving the object (its
// vectors, each way) cost a hundred instructions per method for the reader's tables.
template <class T>
class Scratch {
 public:
  Scratch() {
    ScratchPool<std::unique_ptr<T>>::take(obj_);
    if (!obj_) obj_ = std::make_unique<T>();
  }
  // Back to the pool if it has room; else obj_ still holds the object and frees it.
  ~Scratch() { ScratchPool<std::unique_ptr<T>>::give(obj_); }
  Scratch(const Scratch&) = delete;
  Scratch& operator=(const Scratch&) = delete;

  // The borrowed object, with whatever contents its last user left: clear before use.
  T& operator*() { return *obj_; }
  T* operator->() { return obj_.get(); }

 private:
  std::unique_ptr<T> obj_;
};

}  // namespace dragnet::classfile
