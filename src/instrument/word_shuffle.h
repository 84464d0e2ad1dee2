// The dup/swap family applied to a per-word model of the operand stack (one T per word,
// bottom first), for analyses that track a property of stack values through shuffles.
#pragma once

#include <cstddef>
#include <vector>

#include "classfile/opcodes.h"

namespace dragnet::instrument {

// Applies `op` to `s` if it is dup, dup_x1, dup_x2, dup2, dup2_x1, dup2_x2 or swap and
// returns true; returns false (leaving `s` alone) for every other opcode. A stack too
// shallow for the shuffle (malformed code, which the verifier rejects) is left alone.
template <class T>
bool shuffleWords(classfile::Op op, std::vector<T>& s) {
  using classfile::Op;
  size_t need = 0;
  switch (op) {
    case Op::dup:
      need = 1;
      break;
    case Op::dup_x1:
    case Op::dup2:
    case Op::swap:
      need = 2;
      break;
    case Op::dup_x2:
    case Op::dup2_x1:
      need = 3;
      break;
    case Op::dup2_x2:
      need = 4;
      break;
    default:
      return false;
  }
  if (s.size() < need) return true;
  std::vector<T> t(s.end() - static_cast<long>(need), s.end());
  s.resize(s.size() - need);
  auto put = [&s](std::initializer_list<T> v) { s.insert(s.end(), v.begin(), v.end()); };
  auto putAll = [&s, &t] { s.insert(s.end(), t.begin(), t.end()); };
  switch (op) {
    case Op::dup:
    case Op::dup2:
      putAll(), putAll();
      break;
    case Op::dup_x1:
      put({t[1]}), putAll();
      break;
    case Op::dup_x2:
      put({t[2]}), putAll();
      break;
    case Op::dup2_x1:
      put({t[1], t[2]}), putAll();
      break;
    case Op::dup2_x2:
      put({t[2], t[3]}), putAll();
      break;
    default:
      put({t[1], t[0]});  // swap
      break;
  }
  return true;
}

}  // namespace dragnet::instrument
