// Mode `alloc` (JP, Binder 2006): what the agent inserts into every class.
//
// A leaf method (no invoke, no allocation instruction) gets only DragnetRt.leaf(methodId)
// at entry, which counts the call in its context: nothing can happen under it, so it
// needs no frame on the shadow stack and no exit code (with bytecodes=on it is treated
// like any method, its blocks counted in its own context).
// Every other method with code (except java/lang/Object.<init>, which every constructor
// calls and which allocates nothing) gets method-wide locals (instrument::Routine::
// liveLocal): S, the thread's DragnetState, and D, the depth below the frame; and:
//   - at entry, before any super()/this() call (so that the arguments of super(...)/
//     this(...) are allocated in the constructor's context, JP Fig. 1):
//     S = DragnetRt.enter(methodId); D = S.sp - 1 (enterRoot for the two Thread methods
//     the JVM calls after an uncaught exception unwound the thread);
//   - before every return, inline, no call: S.sp = D;
//   - at the start of every exception handler, inline: S.sp = D + 1 (the frame that
//     catches an exception restores its depth, so frames the exception left need no exit
//     code; see DragnetState);
//   - before new: alloc(S, key); before newarray/anewarray: array(length, S, key); after
//     multianewarray: multi(array, dims, key) (JP sec. 5 counts, read back from the
//     allocated arrays); after array clone(): cloned(copy, key); after super.clone()
//     reaching Object.clone: dyn(copy, key) (the copy's class is the runtime class);
//   - after Array.newArray / Array.multiNewArray / Unsafe.allocateInstance calls
//     (reflection, method handles, lambda instances): dyn(result, key) /
//     dynMulti(result, key), recorded by the result's runtime class;
//   - with callSlots, in a method with call sites that pass their number (call_sites.h),
//     a local O = S.callSite at entry (the number of the call the frame runs in); before
//     each such invoke S.callSite = (D + 1) << 8 | number, after it and at the start of
//     every handler S.callSite = O (so that a number never outlives its call);
//   - with bytecodes=on two more locals, N (the frame's context, S.node after enter) and
//     C (a long count of the frame's instructions): each basic block adds its size to C
//     inline; C is added to S.insns[N] before every call, at every return and on
//     exceptional exit (a catch-all handler, which rethrows), so nothing is lost even
//     for a frame that never returns (System.exit).
// The probes live in runtime/agent/java/lang (DragnetRt, DragnetState).
#pragma once

#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

#include "classfile/class_file.h"
#include "instrument/bit.h"
#include "profile/format.h"

namespace dragnet::contexts {

inline constexpr const char* kRuntimeClass = "java/lang/DragnetRt";
inline constexpr const char* kStateDesc = "Ljava/lang/DragnetState;";  // a thread's state
// Site indices of dynamic-type allocations count down from here (DragnetRt.DYN_TOP); the
// instrumenter's count up from 1.
inline constexpr uint32_t kDynamicTop = (1u << 27) - 1;
// An extension that matches objects to their constructor chains on the shadow stack marks
// constructors' method ids with this bit (Extension::methodId; DragnetState.INIT_BIT).
inline constexpr uint32_t kConstructorBit = 1u << 30;

class Extension;

struct Options {
  bool bytecodes = false;  // count executed bytecode instructions per context
  // List the invokes (ClassResult::callSites) and at those that need it (call_sites.h)
  // pass the site's number to the entries the call makes (DragnetState.callSite), which key
  // their contexts by it.
  bool callSlots = false;
  // The analyses that build on these contexts, in order: their probes go into the same
  // rewrite (Extension says how several share a method).
  std::vector<Extension*> extensions;
};

// Method ids and site indices, shared by every class load (which may run concurrently).
struct IdSource {
  std::atomic<uint32_t> nextMethod{1};
  std::atomic<uint32_t> nextSite{1};
};

// What instrumenting one class produced.
struct ClassResult {
  bool changed = false;
  std::vector<profile::MethodDef> methods;
  std::vector<profile::SiteDef> sites;
  std::vector<profile::CallSite> callSites;  // the invokes of the rewritten methods
  std::vector<profile::Failure> failures;    // methods left unchanged, with the reason
  // Calls to natives that allocate (Object.clone, Array.newArray, ...) followed by a
  // probe that counts the result, at their offsets in the rewritten code: the agent
  // ignores the JVM's VMObjectAlloc events for them.
  struct ProbedCall {
    std::string method;  // name
    std::string descriptor;
    uint32_t bci = 0;
  };
  std::vector<ProbedCall> probedCalls;
};

// The probes of an analysis built on the calling contexts (src/analyses/lifetime): the base
// instruments each method as usual and lets each extension add to the same edit. With
// several extensions, in their order: the method id goes through each; a leaf keeps a
// frame if any needs one; the first that takes a leaf's entry, a receiver entry or an
// array site takes it (the later ones are not asked); all add to a method; a method over
// the limit is lightened by every extension that can.
class Extension {
 public:
  virtual ~Extension() = default;
  // The method's id: alloc's sequential id, which the extension may mark (e.g. a flag bit
  // for constructors).
  virtual uint32_t methodId(instrument::Routine& r, uint32_t id) = 0;
  // Whether a leaf method still needs a frame (the extension probes something in it).
  virtual bool needsFrame(instrument::Routine& r) = 0;
  // Entry of a leaf method: true if the extension inserted its own call instead of
  // DragnetRt.leaf(methodId).
  virtual bool leafEntry(instrument::Routine& r, uint32_t methodId) = 0;
  // Entry of a method with a frame: the class whose enter(Object receiver, int methodId)
  // to call instead of DragnetRt.enter(methodId), or null (never asked for the two Thread
  // methods that enter at the root).
  virtual const char* receiverEnter(instrument::Routine& r) = 0;
  // A newarray/anewarray site with its key: true if the extension inserted the site's
  // probes (alloc inserts nothing then). `state` is the frame's DragnetState local. (The
  // other sites keep alloc's probes, whose runtime hands their objects on.)
  virtual bool site(instrument::Routine& r, const instrument::Instruction& in, uint32_t key,
                    uint16_t state) = 0;
  // A call whose result the extension names as a new object of its own (a summarised copy
  // such as Arrays.copyOf): true to make an allocation site at the call, of type `type` (an
  // array descriptor, or empty: the runtime class). The base counts nothing there (the
  // callee's own allocation is counted where it happens); the site comes to allocation().
  virtual bool callSite(instrument::Routine&, const instrument::Instruction&, std::string&) {
    return false;
  }
  // Every allocation site of the method (new, newarray, anewarray, the first dimension of
  // multianewarray, clone and reflective allocations), with its key, before method().
  virtual void allocation(instrument::Routine&, const instrument::Instruction&, uint32_t) {}
  // After alloc's probes, with the frame's state local.
  virtual void method(instrument::Routine& r, uint16_t state) = 0;
  // A method alloc leaves without probes (java/lang/Object.<init>).
  virtual void unframed(instrument::Routine& r) = 0;
  // The method came out over the JVM's 64 KB code limit: true if the extension leaves
  // out what it can spare when the method is instrumented again (asked once per method);
  // `what` says what that is, for the profile's list of partly rewritten methods.
  virtual bool lighten(instrument::Routine& r, std::string& what) = 0;
};

// True for the classes that must never be instrumented: the runtime helper itself.
bool isRuntimeClass(std::string_view internalName);

// True if `insn` (an instruction of a class with `pool`) is an invokevirtual or
// invokespecial of clone()Ljava/lang/Object;, the calls that may end in the native
// Object.clone.
bool isCloneCall(const classfile::ConstantPool& pool, const classfile::Insn& insn);

// Instruments every method of `cls` in place.
ClassResult instrumentClass(classfile::ClassFile& cls, IdSource& ids, const Options& options);

// The element kind of the elements of array type `desc` ("[I" -> Int, "[[I" -> Ref).
profile::ElemKind elementKind(std::string_view arrayDesc);

}  // namespace dragnet::contexts
