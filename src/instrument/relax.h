// Far branches, for CodeEditor::commit (code_editor.cpp; internal to src/instrument): once
// the new code is laid out, 16-bit branches that no longer reach their target are rewritten
// into their 32-bit forms; in classes with frames, the branch targets this creates get
// frames derived from the closest preceding one.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "classfile/class_file.h"

namespace dragnet::instrument {

struct FrameState;

// The JVM's limit of code_length.
inline constexpr uint32_t kMaxCode = 65535;

// The new code under construction: instructions, label positions, and which labels are
// pinned to their instruction rather than to the patch in front of it.
struct CodeLayout {
  std::vector<classfile::Insn> insns;
  std::vector<uint32_t> labels;
  // Per original instruction (+ end): patch start, insn. Scratch (classfile/scratch.h).
  std::vector<uint32_t>& before;
  std::vector<uint32_t>& at;
};

// frameFor(lay, switches, k, skip), see relax.
using FrameFor =
    std::function<std::string(CodeLayout& lay, const std::vector<classfile::Switch>& switches,
                              size_t k, classfile::Label skip)>;

// Replaces 16-bit branches that no longer reach their target: goto -> goto_w, jsr -> jsr_w,
// if<cond> L -> if<!cond> skip; goto_w L; skip:. Repeats until nothing changes (each
// rewrite only grows the code, so this terminates). Returns an error message or "".
// `length` is set to the code length, or to an upper bound of it below 32 KB.
// frameFor(lay, switches, k, skip) records the stack-map frame for the new branch target
// that relaxing the conditional at instruction k creates (the fall-through point `skip`),
// before any label moves; it returns why it cannot be derived, or "".
std::string relax(CodeLayout& lay, std::vector<classfile::Switch>& switches,
                  const FrameFor& frameFor, bool framesNeeded, uint32_t& length);

// The frame at the fall-through point `skip` of the conditional at instruction k, inserted
// into `table` (the frames so far, on the layout `lay`). The state comes from the closest
// frame at or before k (or the method's initial state), carried through the straight-line
// code up to and including k. Straight-line because any instruction between that frame and
// k that could be reached otherwise would have a frame of its own. `withNewLocals` gives a
// state the editor's locals (the patches on the way may use them). Returns why the frame
// cannot be derived, or "".
std::string deriveFrame(classfile::ClassFile& cls, const classfile::Member& method, CodeLayout& lay,
                        const std::vector<classfile::Switch>& switches,
                        classfile::StackMapTableAttr& table, size_t k, classfile::Label skip,
                        const std::function<void(FrameState&)>& withNewLocals);

}  // namespace dragnet::instrument
