// Locating the super(...)/this(...) call of a constructor.
//
// Before that call `this` is uninitialized and may only be stored, passed to that call, or
// used to assign fields of the class itself. We track, per operand-stack word and for
// local 0, whether it holds the uninitialized `this`, along every path from the start,
// until an invokespecial <init> consumes it as its receiver.
#include <deque>

#include "instrument/code_editor.h"
#include "instrument/descriptor.h"
#include "instrument/stack_effect.h"
#include "instrument/word_shuffle.h"

namespace dragnet::instrument {

using classfile::CodeAttr;
using classfile::Format;
using classfile::Insn;
using classfile::Op;

namespace {

struct State {
  std::vector<bool> stack;  // one flag per word: holds uninitialized `this`
  bool local0 = true;
};

bool isLoad0(const Insn& insn) {
  return insn.op == Op::aload_0 || (insn.op == Op::aload && insn.a == 0);
}
bool isStore0(const Insn& insn) {
  return insn.op == Op::astore_0 || (insn.op == Op::astore && insn.a == 0);
}

}  // namespace

std::vector<uint32_t> findSuperCalls(const classfile::ClassFile& cls, const CodeAttr& attr) {
  const auto& code = attr.code;
  std::vector<uint32_t> found;
  std::vector<bool> seen(code.insns.size() + 1, false);
  std::deque<std::pair<uint32_t, State>> work{{0, State{}}};
  while (!work.empty()) {
    auto [i, st] = std::move(work.front());
    work.pop_front();
    // One visit per instruction: javac's pre-super code is straight-line or a simple
    // conditional, where every path carries the same flags.
    while (i < code.insns.size() && !seen[i]) {
      seen[i] = true;
      const Insn& insn = code.insns[i];
      if (insn.op == Op::invokespecial && cls.pool.memberRef(insn.cp()).name == "<init>") {
        int slots = methodSlots(cls.pool.memberRef(insn.cp()).descriptor).args;
        size_t args = slots > 0 ? static_cast<size_t>(slots) : 0;
        if (st.stack.size() > args && st.stack[st.stack.size() - 1 - args]) {
          found.push_back(i);
          break;  // past this point `this` is initialized
        }
      }
      if (isLoad0(insn)) {
        st.stack.push_back(st.local0);
      } else if (isStore0(insn)) {
        st.local0 = !st.stack.empty() && st.stack.back();
        if (!st.stack.empty()) st.stack.pop_back();
      } else if (!shuffleWords(insn.op, st.stack)) {
        auto e = stackEffect(insn, cls.pool);
        if (!e) break;
        st.stack.resize(st.stack.size() > static_cast<size_t>(e->pop)
                            ? st.stack.size() - static_cast<size_t>(e->pop)
                            : 0);
        st.stack.resize(st.stack.size() + static_cast<size_t>(e->push), false);
      }
      Format f = classfile::opInfo(insn.op).format;
      if (f == Format::Branch2 || f == Format::Branch4) {
        work.emplace_back(code.position(insn.target()), st);
      } else if (f == Format::TableSwitch || f == Format::LookupSwitch) {
        const auto& sw = code.switches[static_cast<size_t>(insn.a)];
        work.emplace_back(code.position(sw.defaultTarget), st);
        for (auto t : sw.targets) work.emplace_back(code.position(t), st);
      }
      if (!fallsThrough(insn.op)) break;
      ++i;
    }
  }
  return found;
}

}  // namespace dragnet::instrument
