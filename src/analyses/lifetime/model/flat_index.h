// An open-addressing hash index from integer keys (uint64_t or unsigned __int128) to the
// dense numbers 0, 1, 2, ... of the groups they name. The model looks up two per object
// record (its nested site, its pattern); with linear probing in one flat array a lookup
// costs about one cache miss, where std::unordered_map's buckets and nodes cost three.
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace dragnet::analyses::lifetime {

// splitmix64's finalizer (std::hash of an integer is the identity).
inline uint64_t mixBits(uint64_t x) {
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}
inline uint64_t hashKey(uint64_t k) { return mixBits(k); }
inline uint64_t hashKey(unsigned __int128 k) {
  return mixBits(mixBits(static_cast<uint64_t>(k)) ^ static_cast<uint64_t>(k >> 64));
}

template <class Key>
class FlatIndex {
 public:
  // The number of `key`; a new key gets `next`. Second: whether the key was new.
  std::pair<uint32_t, bool> insert(Key key, uint32_t next) {
    if (2 * (used_ + 1) > slots_.size()) grow();
    Slot& s = find(key);
    if (s.value != kEmpty) return {s.value, false};
    s = Slot{key, next};
    ++used_;
    return {next, true};
  }

 private:
  static constexpr uint32_t kEmpty = ~uint32_t{0};
  struct Slot {
    Key key{};
    uint32_t value = kEmpty;
  };

  Slot& find(Key key) {
    size_t mask = slots_.size() - 1;
    for (size_t i = hashKey(key) & mask;; i = (i + 1) & mask) {
      if (slots_[i].value == kEmpty || slots_[i].key == key) return slots_[i];
    }
  }

  void grow() {
    std::vector<Slot> old = std::move(slots_);
    slots_.assign(old.empty() ? 64 : 2 * old.size(), Slot{});
    for (const Slot& s : old) {
      if (s.value != kEmpty) find(s.key) = s;
    }
  }

  std::vector<Slot> slots_;  // size a power of two, at most half full
  size_t used_ = 0;
};

}  // namespace dragnet::analyses::lifetime
