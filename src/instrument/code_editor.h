// Editing one method's code: insert patches before/after instructions, at entry, before
// every return and on exceptional exit; then commit, which fixes up everything else.
//
// Label semantics (why the result stays correct):
//  - insertBefore(i): the patch belongs to instruction i. Every label at i (branch and
//    switch targets, exception ranges and handlers, line numbers, local-variable ranges,
//    stack-map frames) moves to the patch start, so whatever reached i now runs the patch
//    first, and a try range starting at i covers it. Exception: `Uninitialized(label)`
//    verification types and type-annotation offsets name the instruction itself (a `new`,
//    a cast), so those labels are pinned to it.
//  - insertAfter(i): between i and i+1 on the fall-through path only; labels at i+1 stay,
//    so branches to i+1 skip the patch. Only for instructions that fall through.
//  - insertAtEntry: before everything, labels at 0 do not move: a loop back to the first
//    instruction does not run the entry patch again.
//  - insertOnExceptionalExit: a catch-all handler appended after the code and after all
//    existing handlers (so they still win), covering the original code; it runs the patch
//    and rethrows (with ExitCover::AllButCalls, the original invokes stay uncovered: one
//    exception-table entry per stretch between them). Its stack-map frame is a full frame
//    with no locals (but the live locals, below) and a Throwable on the stack, which every
//    state in the range is assignable to.
//  - newLiveLocal: a local the entry patch assigns and every patch may use; since it is
//    assigned before any original instruction runs, every frame can declare it, so each
//    frame is decoded, given the local, and re-encoded (relative to the previous one).
// Patches are stack-neutral and branch-free (patch.h), so no new frame is ever needed for
// them; max_stack grows by the largest patch peak.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <vector>

#include "classfile/class_file.h"
#include "instrument/patch.h"

namespace dragnet::instrument {

struct FrameState;

// What the exceptional-exit handler covers.
enum class ExitCover {
  Everything,  // every instruction of the original code (but super(), see below)
  // Every instruction but the original invokes. For a tool that does the exit's work before
  // each call anyway (mode alloc's instruction counts: flushed before every call), so that
  // an exception a callee throws needs no handler: without exception edges from its calls,
  // the JIT's work on the method is about what it was before (the handler stays for
  // athrow and the instructions that throw by themselves).
  AllButCalls,
};

// Where an entry patch goes in a constructor.
enum class ConstructorEntry {
  BeforeSuperCall,  // first thing in the method; `this` is still uninitialized
  AfterSuperCall,   // right after the super(...)/this(...) call that initializes `this`
};

// Typed result of a commit: the method was rewritten, or left exactly as it was.
struct EditOutcome {
  bool changed = false;
  std::string reason;     // why it was left unchanged (empty when changed)
  bool tooLarge = false;  // unchanged because the code would pass the JVM's 64 KB limit

  static EditOutcome ok() { return {true, {}, false}; }
  static EditOutcome unchanged(std::string why) { return {false, std::move(why), false}; }
};

class CodeEditor {
 public:
  // `method` must belong to `cls` and stay alive until commit().
  CodeEditor(classfile::ClassFile& cls, classfile::Member& method);
  ~CodeEditor();
  CodeEditor(CodeEditor&&) = default;
  CodeEditor& operator=(CodeEditor&&) = default;
  CodeEditor(const CodeEditor&) = default;
  CodeEditor& operator=(const CodeEditor&) = default;

  bool hasCode() const { return code_ != nullptr; }
  // Inline: asked for every probe a tool inserts.
  uint32_t size() const { return code_ ? static_cast<uint32_t>(code_->code.insns.size()) : 0; }
  const classfile::Insn& insn(uint32_t i) const { return code_->code.insns[i]; }
  classfile::ConstantPool& pool() { return cls_->pool; }
  bool isConstructor() const;
  // finalize()V whose code is a lone `return`: never modified (commit leaves it unchanged).
  bool isEmptyFinalizer() const;

  // Patches are copied in; the same Patch object can be reused for the next insertion.
  void insertBefore(uint32_t i, const Patch& patch);
  // The same for a patch given as its instructions, whose stack need the caller already
  // knows (`peak` words above the insertion point); like a Patch, they must be
  // stack-neutral and branch-free. For probes built without a Patch (Routine's prepared
  // calls).
  void insertBefore(uint32_t i, std::span<const classfile::Insn> insns, int peak);
  // False (nothing inserted) when instruction i does not fall through.
  bool insertAfter(uint32_t i, const Patch& patch);
  void insertAtEntry(const Patch& patch, ConstructorEntry mode = ConstructorEntry::AfterSuperCall);
  void insertBeforeReturns(const Patch& patch);
  void insertOnExceptionalExit(const Patch& patch, ExitCover cover = ExitCover::Everything);
  // A fresh local-variable slot range past max_locals (2 slots for long/double).
  uint16_t newLocal(int slots);
  // A fresh local of verification type `type` that lives through the whole method: every
  // stack-map frame (existing, derived, and the exceptional-exit handler's) declares it.
  // The entry patch must assign it; commit refuses a method with live locals and no entry
  // patch, or whose entry patch comes after super() (frames before the call would name a
  // local that is not yet assigned).
  uint16_t newLiveLocal(const classfile::VType& type);

  // Applies the edits. On failure (a JVM limit, an unknown constructor shape) the method
  // is left unchanged and the reason says why. The editor is spent afterwards.
  EditOutcome commit();

 private:
  // Order of insertions at one instruction: its before-patches, the instruction, then the
  // after-patches, entry-after-super() ones first.
  enum class Where : uint8_t { Before, AfterSuper, After, Entry, Exit };
  struct Insertion {
    uint32_t index;  // original instruction (unused for Entry and Exit)
    Where where;
    uint32_t begin, end;  // range in patchInsns_
  };

  // All inserted instructions, flat, and where they go. Taken from a per-thread pool at
  // the first edit and given back by commit(), so that editing the next method reuses the
  // storage: inserting a probe allocates nothing once warm.
  struct Buffers {
    std::vector<classfile::Insn> patchInsns;
    std::vector<Insertion> inserts;
  };

  // One commit's work, phase by phase (code_editor.cpp).
  class Commit;

  void add(Where where, uint32_t index, const Patch& patch);
  void add(Where where, uint32_t index, std::span<const classfile::Insn> insns,
           std::optional<int> peak);
  EditOutcome commitEdits();
  void releaseBuffers();
  // After a commit that left the method unchanged: forget the edits' locals and stack
  // needs too, so that the method can be edited afresh (with fewer probes).
  void resetEdits();
  // The final frames of a method with live locals: each frame decoded, the live locals
  // set, and re-encoded relative to the one before. Empty string on success.
  std::string frameLiveLocals(classfile::StackMapTableAttr& table);
  // Pads a state's locals to the new max_locals and gives the live locals their types.
  void withNewLocals(FrameState& state) const;

  classfile::ClassFile* cls_;
  classfile::Member* method_;
  classfile::CodeAttr* code_;
  Buffers buf_;
  int peak_ = 0, exitPeak_ = 0;  // largest stack need of ordinary and exit patches
  ExitCover exitCover_ = ExitCover::Everything;
  bool badPatch_ = false;  // a patch was not stack-neutral
  uint32_t maxLocals_ = 0;
  struct LiveLocal {
    uint16_t slot;
    classfile::VType type;
  };
  std::vector<LiveLocal> live_;
};

// Indices of the invokespecial <init> calls that initialize `this` in a constructor (one
// per path in unusual bytecode; exactly one for javac output). Empty if none is found.
std::vector<uint32_t> findSuperCalls(const classfile::ClassFile& cls,
                                     const classfile::CodeAttr& code);

}  // namespace dragnet::instrument
