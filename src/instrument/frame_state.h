// The verifier's type state at one instruction and the per-instruction transfer function
// (JVMS 4.10.1), over classfile::VType so that states convert directly to and from
// StackMapTable frames.
//
// Representation: one VType per *word*, in locals and on the stack alike. A Long or Double
// takes two words: the Long/Double entry, then a Top entry that is its second half. (In a
// StackMapTable a Long/Double is one entry that implies the second slot; frameEntries() and
// stateFromEntries() convert.) So `stack.size()` is the depth in words, as max_stack counts
// it, and a Top on the stack is always the second half of the value below it (the verifier
// never pushes Top). Locals are indexed by slot; a Top local is unusable (never written, or
// merged from incompatible types, or the second half of a Long/Double at the slot before).
//
// Uninitialized(newInsn) types created by `new` take their label from the caller (an Insn
// has no label of its own); two Uninitialized types are the same when their labels are, or,
// when a Code is supplied, when the labels are at the same instruction.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "classfile/class_file.h"

namespace dragnet::instrument {

// VType::kind values (JVMS 4.7.4 verification_type_info tags).
namespace vtype {
inline constexpr uint8_t kTop = 0, kInteger = 1, kFloat = 2, kDouble = 3, kLong = 4, kNull = 5,
                         kUninitializedThis = 6, kObject = 7, kUninitialized = 8;

inline classfile::VType top() { return {kTop, {}, classfile::Label::None}; }
inline classfile::VType integer() { return {kInteger, {}, classfile::Label::None}; }
inline classfile::VType floatType() { return {kFloat, {}, classfile::Label::None}; }
inline classfile::VType longType() { return {kLong, {}, classfile::Label::None}; }
inline classfile::VType doubleType() { return {kDouble, {}, classfile::Label::None}; }
inline classfile::VType null() { return {kNull, {}, classfile::Label::None}; }
inline classfile::VType uninitializedThis() {
  return {kUninitializedThis, {}, classfile::Label::None};
}
inline classfile::VType object(classfile::CpIndex cls) {
  return {kObject, cls, classfile::Label::None};
}
inline classfile::VType uninitialized(classfile::Label newInsn) {
  return {kUninitialized, {}, newInsn};
}
inline bool isWide(const classfile::VType& t) { return t.kind == kLong || t.kind == kDouble; }
// Object, Null, Uninitialized, UninitializedThis.
inline bool isReference(const classfile::VType& t) { return t.kind >= kNull; }
}  // namespace vtype

// Same verification type: same kind; Object types by class *name* (a parsed pool may hold
// one class under several indices); Uninitialized by label, or by the labels' instruction
// when `code` is given.
bool sameType(const classfile::VType& a, const classfile::VType& b,
              const classfile::ConstantPool& pool, const classfile::Code* code = nullptr);

// The verification type of a field descriptor ("I", "J", "Ljava/lang/String;", "[I"),
// adding a Class entry to `pool` for reference types (reusing an equal one). nullopt for
// "V" or a malformed descriptor. May throw classfile::ParseFailure if the pool is full.
std::optional<classfile::VType> typeOfDescriptor(std::string_view fieldDesc,
                                                 classfile::ConstantPool& pool);

struct FrameState {
  std::vector<classfile::VType> locals;  // one per slot (see above)
  std::vector<classfile::VType> stack;   // one per word, bottom first

  size_t stackWords() const { return stack.size(); }
};

// StackMapTable entries (one per value) of a list of words; for locals pass
// `trimTrailingTop` to drop the Top slots at the end, as frames leave them implicit.
std::vector<classfile::VType> frameEntries(const std::vector<classfile::VType>& words,
                                           bool trimTrailingTop);
// Words of a list of StackMapTable entries (a Long/Double gets its Top second half).
std::vector<classfile::VType> wordsOf(const std::vector<classfile::VType>& entries);

// The implicit initial frame of a method (JVMS 4.10.1.6): `this` (UninitializedThis in an
// <init> other than java/lang/Object's, else the class type) unless static, then the
// parameters; padded with Top to the Code attribute's max_locals. nullopt if the
// descriptor is malformed or the pool is full. Class entries for parameter types are added.
std::optional<FrameState> initialState(classfile::ClassFile& cls, const classfile::Member& method);

// The full states at the frames of a StackMapTable, decoding each frame relative to the one
// before it (the first relative to `initial`, from initialState()). Locals are padded with
// Top to initial.locals.size(). nullopt if a frame does not fit (chops more locals than
// there are, a Long/Double without room for its second half).
struct DecodedFrame {
  classfile::Label at = classfile::Label::None;
  FrameState state;
};
std::optional<std::vector<DecodedFrame>> decodeFrames(const FrameState& initial,
                                                      const classfile::StackMapTableAttr& table);

// What the transfer function needs besides the instruction.
struct TransferContext {
  classfile::ConstantPool& pool;
  classfile::CpIndex thisClass;  // replaces UninitializedThis after super()/this()
  // Gives the label for the Uninitialized type made by the `new` at this instruction index.
  // If unset, Label(insnIndex) is used (only meaningful to a caller that maps it back).
  std::function<classfile::Label(uint32_t insnIndex)> labelFor;
  // If set, Uninitialized types are compared by instruction position (see sameType).
  const classfile::Code* code = nullptr;
};

struct TransferResult {
  enum class Status : uint8_t {
    Ok,
    Unsupported,  // jsr, jsr_w, ret: only in class versions < 50, which have no frames
    Invalid,      // stack underflow, a split Long/Double, a bad operand or local index
  };
  Status status = Status::Ok;
  std::string message;

  bool ok() const { return status == Status::Ok; }
  explicit operator bool() const { return ok(); }
};

// Applies the effect of `insn` (at index `insnIndex` of its Code) to `state`. Types follow
// the verifier: aload pushes the local's actual type, aaload the component type of the
// array on the stack (Null for a null array), new an Uninitialized, invokespecial <init>
// replaces every copy of the receiver's uninitialized type in locals and stack by the class
// type. It checks only what it needs to compute the result (stack depth, word pairing,
// operands, local indices); it is not a verifier. Stores past the end of `locals` grow it.
// Control flow is not followed: after a branch, return or athrow the state is the one the
// successors would see (for athrow/return: the stack after the pop).
// On failure `state` is unspecified.
TransferResult apply(FrameState& state, const classfile::Insn& insn, uint32_t insnIndex,
                     TransferContext& ctx);

// True for istore..astore_3 and their wide forms (HotSpot checks exception handlers against
// the state *before* these, and after every other instruction).
bool isLocalStore(classfile::Op op);
// The local slot an istore..astore_3 (or wide form) writes; nullopt for other instructions.
std::optional<uint32_t> storedLocal(const classfile::Insn& insn);

}  // namespace dragnet::instrument
