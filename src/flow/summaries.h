// The flow engine's summaries (docs/FLOW-DESIGN.md, "Summaries"): calls whose callee runs
// no bytecode the agent sees (natives), or runs it only in the interpreter and C1 (the JIT's
// library intrinsics), and what such a call does to the data flow instead. Their Java bodies
// get no flow probes, so that results do not depend on the JIT tier; each call site applies
// the summary.
//
// Argument positions count the receiver of an instance method as argument 0 (the transfer
// area's order), then the descriptor's parameters, one position each whatever their size.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

namespace dragnet::flow {

using ArgMask = uint32_t;  // bit a: argument a
constexpr int8_t kNone = -1;

struct Summary {
  enum class Kind : uint8_t {
    // `length` element copies (tag(src), ELM) -> (tag(dst), ELM), each of the destination's
    // element size. With `rawUnits` (Unsafe.copyMemory0) positions are byte offsets from the
    // object's start and `length` counts bytes: length / element size copies when both
    // bases are arrays of the same element size; a null base is native memory (a copy into
    // it consumes the elements, a copy out of it copies nothing).
    ArrayCopy,
    // Object.clone of argument `src`: an array as `length(src)` element copies into the
    // result, an instance as one copy (tag(src), f) -> (tag(result), f) per instance field.
    CloneObject,
    // Arrays.copyOf / copyOfRange: min(length(src) - from, length(result)) element copies
    // (tag(src), ELM) -> (tag(result), ELM); from = argument `srcPos` (0 when kNone).
    CopyOf,
    // The result is a new object (reflective and Unsafe allocation); nothing else flows.
    Allocate,
    // The result is the value of `field` of argument `src` (Reference.get): its shadow is
    // the node (tag(src), field).
    LoadField,
    // The result is argument `src` unmodified (Class.cast): its shadow is that argument's.
    PassThrough,
    // A heap access by offset (Unsafe get/put/CAS, VarHandle access modes). A precise summary
    // maps (class of `base`, argument `offset`) to a field, or to ELM when the base is an
    // array; a get's result would be the node (tag(base), field), a put's value an edge into
    // it. Here: the `consumed` values (stored, expected, added) reach C, the result is
    // bottom, and the engine counts the call as an unmodelled heap access.
    Accessor,
    // A computation: the `consumed` arguments reach C, and so do the elements of the
    // `elements` arrays, (tag(a), ELM) -> C once per call. The result is bottom, or with
    // `resultIsObject` the allocation node of the object returned (an array the callee made).
    Consume,
    // Nothing recorded; the result is bottom (reads of an object's header: its identity
    // hash, class or monitor; clocks, threads, fences).
    Opaque,
  };
  Kind kind = Kind::Opaque;
  int8_t src = kNone;     // ArrayCopy, CopyOf, CloneObject, LoadField, PassThrough
  int8_t srcPos = kNone;  // ArrayCopy, CopyOf
  int8_t dst = kNone;     // ArrayCopy
  int8_t dstPos = kNone;  // ArrayCopy
  int8_t length = kNone;  // ArrayCopy
  int8_t base = kNone;    // Accessor: the object accessed (kNone: known only at run time)
  int8_t offset = kNone;  // Accessor
  bool rawUnits = false;  // ArrayCopy
  // CloneObject, CopyOf, Allocate: the result is a new object made by the call; the call
  // site is its allocation site (the engine tags it after the call, in the caller's context)
  // and the result's shadow is its allocation node.
  bool newObject = false;
  bool resultIsObject = false;  // Consume
  ArgMask consumed = 0;         // Accessor, Consume: arguments whose values reach C
  ArgMask elements = 0;         // Consume: array arguments whose elements the callee reads
  std::string_view field;       // LoadField: "owner.name:descriptor"
};

// The summary of a call of owner.name(descriptor) as its Methodref (or InterfaceMethodref)
// names it, or nullopt: the call is an ordinary one and uses the transfer area. The owner
// must be the class that declares the method: a call that dispatches to a summarised method
// through another owner (String.equals called as Object.equals, Object.clone called as
// Super.clone where Super does not override it) is ordinary, its cut is counted at run time
// like any uninstrumented callee's. Exceptions: the final methods of java/lang/Object
// (getClass, notify, notifyAll, wait) match under any owner, and Object's hashCode and clone
// also under an array type ("[I"), which the constant pool names as the owner of calls on
// arrays. Conversely a call of a summarised non-final method that dispatches to an override
// still applies the summary (the override runs with its parameters cut and its result's
// shadow is the summary's): of the summarised methods only Object.hashCode, Object.clone and
// Reference.get have overrides, and only PhantomReference.get differs in flow (it returns
// null, where the summary says the referent).
// Signature-polymorphic methods (VarHandle's access modes) match whatever the descriptor.
// `isStatic`: the call is an invokestatic; a call whose kind contradicts the method's gets
// no summary.
std::optional<Summary> summaryAt(std::string_view owner, std::string_view name,
                                 std::string_view descriptor, bool isStatic);

// Whether the body of cls.name(descriptor) gets no flow probes: every method with a summary
// (its calls apply the summary; probes in its body would count the same flow twice), and
// with `intrinsicCandidate` (the method carries @IntrinsicCandidate in its class file) every
// other marked method that is not excluded below, so that an intrinsic a newer JDK adds is
// tier-independent too (its calls, without a summary, are cut and counted).
bool bodyUnshadowed(std::string_view cls, std::string_view name, std::string_view descriptor,
                    bool intrinsicCandidate = false);

// Why an @IntrinsicCandidate method gets no summary and keeps a shadowed body, or empty
// when it is not excluded.
std::string_view exclusionReason(std::string_view cls, std::string_view name,
                                 std::string_view descriptor);

// HotSpot intrinsic ids (as DisableIntrinsic takes them) the flow modes must keep off, so
// that the bodies excluded for that reason run at every tier. Each exists only in some
// JDKs (`sinceJdk` the first feature release known to have it): pass only those the
// running JVM has.
struct IntrinsicToDisable {
  std::string_view id;
  int sinceJdk;
};
std::vector<IntrinsicToDisable> intrinsicsToDisable();

}  // namespace dragnet::flow
