// Computes a method's StackMapTable from scratch, as HotSpot's type-checking verifier
// (JVMS 4.10.1) expects it, using a ClassHierarchy for merges instead of loading classes.
//
// Where frames go: at every branch and switch target and every exception handler start
// that is reachable, and at the start of every run of unreachable code (see below). Every
// instruction that follows an unconditional transfer (goto, return, athrow, switch) and is
// reachable is necessarily one of those, so this is exactly what the verifier requires.
//
// How: dataflow over basic blocks with a worklist. At joins states merge as the verifier
// accepts them: equal types stay; Null with a reference gives the reference; two class or
// array types give ClassHierarchy::commonSuperclass; anything else gives Top in a local and
// is an error on the stack (stack heights must match too). An exception handler's state
// merges the locals of every instruction in its range, *before* the instruction for local
// stores and both before and after it otherwise (HotSpot checks after, the JVMS before; a
// frame that accepts both satisfies either), with the stack replaced by the catch type
// (java/lang/Throwable for catch-all). Unlike javac, which declares a local's source type,
// frames hold the types the code actually computes (never less precise than javac's).
//
// Unreachable code (javac never emits it; other compilers and rewriters do): as ASM's
// MethodWriter (COMPUTE_FRAMES) does, each maximal run of unreachable instructions is
// rewritten to nop ... nop athrow (instruction by instruction, so labels stay valid and the
// code can only shrink), gets a frame with no locals and java/lang/Throwable on the stack,
// and is cut out of every exception-handler range (handlers left with an empty range are
// removed). The athrow would consume the Throwable if it ever ran; it cannot.
//
// Not handled: jsr/ret (class versions < 50 have no StackMapTable; reported as
// unsupported). A constructor whose exception handler covers the super()/this() call needs
// HotSpot's flagThisUninit in the handler frame, which a frame can only express by holding
// UninitializedThis; such handlers (not expressible in Java) get Top there and fail.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "classfile/class_file.h"
#include "instrument/class_hierarchy.h"
#include "instrument/frame_state.h"

namespace dragnet::instrument {

struct FrameComputation {
  classfile::StackMapTableAttr table;  // the new frames (empty: none needed)
  uint16_t maxStack = 0;               // words the code needs (1 at least for dead code)
  uint16_t maxLocals = 0;              // slots the code needs (parameters included)
  size_t deadInstructions = 0;         // unreachable instructions replaced by nop/athrow
  bool approximate = false;            // the hierarchy guessed for an unknown class
  std::vector<std::string> errors;     // empty on success; then the method was updated

  bool ok() const { return errors.empty(); }
};

// Computes the frames of `method` (a member of `cls`, with a Code attribute, in a class of
// version 50 or later) and, on success, installs them: the Code attribute's StackMapTable is
// replaced (added, or removed when no frame is needed; its name entry added to the pool),
// max_stack and max_locals are raised to what the code needs (never lowered, so unchanged
// methods keep their bytes), and unreachable code is rewritten as described above. New
// constant-pool Class entries are added for types the frames name. On failure (errors set)
// the method is left as it was, though the pool may have grown and labels may have been
// added. Never throws.
FrameComputation computeFrames(classfile::ClassFile& cls, classfile::Member& method,
                               ClassHierarchy& hierarchy);

// The merge of one type into another at a join, as described above; `onStack` makes
// incompatible types an error (returns false) instead of Top. Sets *changed if `into`
// changed. May throw classfile::ParseFailure if the pool is full.
bool mergeType(classfile::VType& into, const classfile::VType& from, bool onStack,
               classfile::ConstantPool& pool, ClassHierarchy& hierarchy, bool* changed);

// Encodes `current` as a StackMapTable frame at `at`, relative to the previous frame's
// declared locals entries (for the first frame: frameEntries(initial.locals, true)), the
// way javac does: same, same_locals_1_stack_item, chop, append, else full. Trailing Top
// locals are left implicit. Updates `previousLocals` to this frame's declared locals.
classfile::Frame encodeFrame(const FrameState& current, classfile::Label at,
                             std::vector<classfile::VType>& previousLocals,
                             const classfile::ConstantPool& pool);

}  // namespace dragnet::instrument
