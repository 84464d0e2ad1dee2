// The BIT-style instrumentation API: a class is a set of routines, a routine a set of
// basic blocks, a block a list of instructions; a tool inserts calls to static analysis
// methods before or after any of them (Lee & Zorn, BIT, sections 3-4).
//
//   ClassInstrumenter ci(cls);
//   for (Routine& r : ci.routines())
//     for (const BasicBlock& b : r.blocks())
//       r.beforeBlock(b, Call{"my/Analysis", "block", {Arg::i(id), Arg::i(b.size())}});
//   ci.commit();   // per-routine outcomes: changed, or unchanged with a reason
//
// Unlike BIT 1997, exception handlers stay correct (see code_editor.h), any number of
// arguments can be passed, and runtime values (a branch outcome, an operand, the thrown
// exception) can be passed as the first argument.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "classfile/class_file.h"
#include "instrument/code_editor.h"

namespace dragnet::instrument {

// An argument of an analysis call. Constants are pushed from the constant pool (added
// without duplicates); locals are loaded; runtime values are copied from the operand stack
// and must be the first argument of a call.
struct Arg {
  enum class Kind {
    Int,            // int constant (ids, offsets, sizes)
    Long,           // long constant
    String,         // String constant (names), modified UTF-8
    Local,          // a local variable (slot in `value`, descriptor in `text`), e.g. a
                    // method-wide local from Routine::liveLocal
    BranchOutcome,  // boolean: whether the conditional branch at this instruction is taken
    Value,          // the value on top of the stack (descriptor in `text`), e.g. a return value
    FieldObject,    // the object of a getfield/putfield at this instruction
    ArrayObject,    // the array of an xaload/xastore/arraylength at this instruction
    Exception,      // the exception on the stack (handler entry or athrow)
  };
  Kind kind = Kind::Int;
  int64_t value = 0;
  std::string text;

  static Arg i(int32_t v) { return {Kind::Int, v, {}}; }
  static Arg j(int64_t v) { return {Kind::Long, v, {}}; }
  static Arg str(std::string_view s) { return {Kind::String, 0, std::string(s)}; }
  static Arg local(uint16_t slot, std::string_view desc) {
    return {Kind::Local, slot, std::string(desc)};
  }
  static Arg branchOutcome() { return {Kind::BranchOutcome, 0, {}}; }
  static Arg top(std::string_view desc) { return {Kind::Value, 0, std::string(desc)}; }
  static Arg fieldObject() { return {Kind::FieldObject, 0, {}}; }
  static Arg arrayObject() { return {Kind::ArrayObject, 0, {}}; }
  static Arg exception() { return {Kind::Exception, 0, {}}; }

  bool isRuntime() const { return kind >= Kind::BranchOutcome; }
  std::string descriptor() const;
};

// A call to `static <returns> owner.name(<args>)`; the descriptor follows from the
// arguments and `returns`. A result is stored into local `into`, or dropped if `into` < 0.
struct Call {
  std::string owner;  // internal name, e.g. "dragnet/tools/ICount"
  std::string name;
  std::vector<Arg> args;
  std::string returns = "V";  // field descriptor of the result, or V
  int32_t into = -1;          // local slot for the result

  std::string descriptor() const;
};

// The class that computes branch outcomes from duplicated operands (a small helper shipped
// with the tools' runtime), so inserted code never branches.
inline constexpr std::string_view kBranchHelper = "dragnet/rt/Bit";

// A Call prepared for one class: every argument an Int constant, the result void. Its
// Methodref is resolved once per class (at the first insertion) and its stack need is its
// arity, so inserting it checks no shape and builds no Patch: for tools that insert the same call
// at many places with different values (icount's count per block), where the per-probe shape check
// cost as much as the rest of the probe. Only the routines that share the table it was prepared in
// accept it (those of one ClassInstrumenter, or the one Routine made on its own), and only while
// they live.
struct PreparedShape;
class PreparedCall {
 public:
  static constexpr size_t kMaxArgs = 8;
  size_t arity() const { return arity_; }

 private:
  friend class Routine;
  const std::vector<PreparedShape>* table_ = nullptr;  // the shapes of its class
  uint32_t shape_ = 0;                                 // index in *table_
  uint8_t arity_ = 0;
};

// The analysis methods of a class's prepared calls. The Methodref is added at the first
// insertion, after that probe's constants, so the pool grows in the same order as with
// the Call form (an Integer added after the Methodref could need ldc_w instead of ldc).
struct PreparedShape {
  std::string owner, name;
  size_t arity = 0;        // Int arguments, void result: arity decides the descriptor
  std::string descriptor;  // made once, for the Methodref
  classfile::CpIndex ref = classfile::CpIndex::None;
};

struct Instruction {
  uint32_t index = 0;   // position in the routine's original instruction list
  uint32_t offset = 0;  // original bytecode offset
  int line = -1;        // source line, -1 if unknown
  classfile::Op op = classfile::Op::nop;
};

struct BasicBlock {
  uint32_t id = 0;
  uint32_t first = 0, last = 0;          // instruction indices, inclusive
  std::span<const uint32_t> successors;  // block ids reached by fall-through, branch or switch
  std::span<const uint32_t> handlers;    // block ids of handlers covering this block
  bool isHandlerEntry = false;
  uint32_t size() const { return last - first + 1; }
};

// The blocks of a method; their successor and handler lists are views into `edges` (one
// allocation for all of them), valid while the graph lives and is not modified.
struct BlockGraph {
  classfile::PooledVector<BasicBlock> blocks;
  classfile::PooledVector<uint32_t> edges;
};

class Routine {
 public:
  Routine(classfile::ClassFile& cls, classfile::Member& method);

  std::string_view className() const { return cls_->name(); }
  std::string_view name() const { return cls_->memberName(*method_); }
  std::string_view descriptor() const { return cls_->memberDescriptor(*method_); }
  uint16_t access() const { return method_->access; }
  classfile::Member& member() { return *method_; }
  bool hasCode() const { return editor_.hasCode(); }
  // finalize()V whose code is a lone `return` (never modified: CodeEditor).
  bool isEmptyFinalizer() const { return editor_.isEmptyFinalizer(); }
  const classfile::ConstantPool& pool() const { return cls_->pool; }

  // Computed on first use (a tool that only needs blocks pays nothing for offsets/lines).
  const std::vector<Instruction>& instructions() const;
  const std::vector<BasicBlock>& blocks() const;
  const classfile::Insn& insn(uint32_t index) const { return editor_.insn(index); }

  // Each returns false (and inserts nothing) when the call does not fit the place: a
  // runtime argument that is not there (e.g. BranchOutcome at a non-branch), or "after"
  // an instruction that does not fall through.
  bool before(uint32_t index, const Call& call);
  bool after(uint32_t index, const Call& call);
  bool beforeBlock(const BasicBlock& b, const Call& call) { return before(b.first, call); }

  // `call` prepared for this routine's class (see PreparedCall), or nullopt when an
  // argument is not an Int constant, it returns a value, or it has more than
  // PreparedCall::kMaxArgs arguments. Nothing is added to the constant pool yet.
  std::optional<PreparedCall> prepare(const Call& call);
  // Inserts the prepared call with `values` as its arguments (one per argument) before
  // instruction `index`. False (nothing inserted) for a call prepared elsewhere (another
  // class), another number of values, or an index past the code. Throws ParseFailure when
  // the constant pool is full, as the Call form does.
  bool before(uint32_t index, const PreparedCall& call, std::span<const int32_t> values);
  bool beforeBlock(const BasicBlock& b, const PreparedCall& call, std::span<const int32_t> values) {
    return before(b.first, call, values);
  }
  bool atEntry(const Call& call, ConstructorEntry mode = ConstructorEntry::AfterSuperCall);
  bool beforeReturns(const Call& call);
  bool onExceptionalExit(const Call& call);

  // Inline code instead of a call, for probes too hot to be calls (e.g. a counter kept in
  // a local). The patch must be stack-neutral and branch-free (patch.h); build it with
  // newPatch(). Same places and results as the Call forms.
  Patch newPatch() { return Patch(cls_->pool); }
  bool before(uint32_t index, const Patch& code);
  bool after(uint32_t index, const Patch& code);
  bool atEntry(const Patch& code, ConstructorEntry mode = ConstructorEntry::AfterSuperCall);
  bool beforeReturns(const Patch& code);
  // `cover`: the handler over the whole original code, or all of it but the invokes
  // (ExitCover::AllButCalls, for a tool that does the exit's work before each call).
  bool onExceptionalExit(const Patch& code, ExitCover cover = ExitCover::Everything);

  // A local variable of type `desc` that lives through the whole method: the entry patch
  // must assign it (in constructors: the entry before super(), see CodeEditor), and every
  // other patch may read or write it. nullopt for a malformed descriptor or a full pool.
  std::optional<uint16_t> liveLocal(std::string_view desc);
  // A fresh local of `slots` slots (2 for long/double) for use within one patch only (a
  // patch may park operands there and load them back); no frame declares it.
  uint16_t scratchLocal(int slots) { return editor_.newLocal(slots); }

  EditOutcome commit() { return editor_.commit(); }

 private:
  // The patch for `call` at instruction `index` (-1: no instruction context), or false.
  bool build(const Call& call, int64_t index, Patch& out);
  // The Methodref of `call`'s analysis method, from the class-wide cache if the shape
  // matches the last call's. Throws ParseFailure if the pool is full.
  classfile::CpIndex methodref(const Call& call);
  bool runtimeArgFits(const Arg& a, uint32_t index);
  // before(i, what) at every return instruction; true if any was inserted.
  template <class What>
  bool beforeEachReturn(const What& what);

  // The patch being built; it is copied into the editor at once, so the routines of a
  // ClassInstrumenter share one (and its storage).
  Patch& patch() { return sharedPatch_ ? *sharedPatch_ : ownPatch_; }

  classfile::ClassFile* cls_;
  classfile::Member* method_;
  CodeEditor editor_;
  Patch ownPatch_;
  Patch* sharedPatch_ = nullptr;
  // The last analysis method called and its Methodref: a tool calls the same few methods
  // thousands of times, so most calls skip the constant-pool lookups.
  // Its shape is what the Methodref depends on: owner, name, result, and each argument's
  // kind (and text, for the kinds whose descriptor is their text). Kept as fields rather
  // than one key string: comparing them is a few length checks and three string compares
  // per probe, where matching a key piece by piece took a memcmp call per piece.
  struct CallCache {
    bool valid = false;
    std::string owner, name, returns;
    std::vector<std::pair<Arg::Kind, std::string>> args;
    classfile::CpIndex ref{};
    std::optional<int> peak;  // for calls without runtime arguments
    bool sameShape(const Call& call) const;
  };
  CallCache ownCache_;
  CallCache* cache_ = &ownCache_;  // shared by the routines of a ClassInstrumenter
  std::vector<PreparedShape> ownShapes_;
  std::vector<PreparedShape>* shapes_ = &ownShapes_;  // shared like cache_
  friend class ClassInstrumenter;
  mutable std::vector<Instruction> insns_;
  mutable BlockGraph graph_;
  mutable bool graphDone_ = false;
  std::optional<uint32_t> superCall_;  // constructors: index of the super()/this() call
};

struct RoutineOutcome {
  std::string name;  // "name(descriptor)"
  EditOutcome outcome;
};

class ClassInstrumenter {
 public:
  explicit ClassInstrumenter(classfile::ClassFile& cls);
  std::vector<Routine>& routines() { return routines_; }
  classfile::ClassFile& classFile() { return *cls_; }
  // Commits every routine; those that could not be rewritten stay as they were.
  std::vector<RoutineOutcome> commit();

 private:
  classfile::ClassFile* cls_;
  std::vector<Routine> routines_;
  Routine::CallCache cache_;
  std::vector<PreparedShape> shapes_;
  Patch patch_;
};

// Basic blocks of `code` (leaders: instruction 0, branch and switch targets, handler
// starts, and instructions after a branch, switch, return, athrow or jsr/ret).
BlockGraph basicBlocks(const classfile::CodeAttr& code);

}  // namespace dragnet::instrument
