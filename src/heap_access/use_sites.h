// Mode lifetime: where a method uses objects (HUP's put/get approach, sec. 4.1, Table 9),
// and which of those uses need a probe.
//
// get: getfield, the xaload family, arraylength, checkcast, instanceof, monitorenter,
// monitorexit, athrow, and a call on the object as receiver; put: putfield, the xastore
// family. Calls are counted at the callee's entry (every instance method but constructors
// gets its receiver as a use there), except for calls whose callee runs no bytecode the
// agent sees: JDK natives and the JIT's intrinsics (System.arraycopy, Unsafe, Object's
// natives, Arrays.copyOf, the String intrinsics ...), whose object arguments are uses
// counted at the call site (kNativeUses in use_sites.cpp).
//
// Redundant probes are left out: on every path since the clock last could advance (a call
// or an allocation), a use of the same kind of the object held in the same local (or,
// within a block, the same value on the operand stack) has been probed, so a second one
// adds nothing: its time would be the same. Such paths cross
// block boundaries (a must-analysis over the control-flow graph); they start afresh at
// exception handlers, and for one local when it is stored to. Whether they run around a
// loop depends on the clock (`Clock`).
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "instrument/bit.h"

namespace dragnet::heap_access {

enum class UseKind : uint8_t { Get, Put };

// A use by the instruction itself; the object is its operand `operand` (FieldObject,
// ArrayObject, or Value for the top of the stack).
struct UseProbe {
  uint32_t index = 0;
  UseKind kind = UseKind::Get;
  instrument::Arg::Kind operand = instrument::Arg::Kind::Value;
};

// A call whose object arguments are uses at the call site. `param` -1 is the receiver.
struct CallUse {
  int param = 0;
  UseKind kind = UseKind::Get;
};
struct CallProbe {
  uint32_t index = 0;
  std::vector<CallUse> uses;
};

struct UsePlan {
  std::vector<UseProbe> uses;
  std::vector<CallProbe> calls;
};

// The clock a use's time is read from. PerThread (the exact variant: each thread's own
// allocations) stands still while a loop without calls or allocations runs, so a probe
// before the loop covers the uses in it. Global (the sampled variant: all threads'
// allocations) does not: every iteration's uses are probed (from the loop's first block).
enum class Clock : uint8_t { PerThread, Global };

// Whether the method's entry probe records `this` as used: instance methods other than
// constructors (a constructor's call is the object's allocation, not a use).
bool receiverUsedAtEntry(const instrument::Routine& r);

// `receiverUsedAtEntry`: the method's entry probe records `this` as used (instance
// methods other than constructors), so uses of local 0 right after entry are redundant.
UsePlan planUses(const instrument::Routine& r, bool receiverUsedAtEntry, Clock clock);

// Inserts, before the call `c`, code that parks the call's arguments in scratch locals,
// runs `probe` once per use with the used object on top of the stack (the probe must pop
// it), and pushes the arguments back. False if the call's descriptor does not parse.
bool probeCallUses(instrument::Routine& r, const CallProbe& c,
                   const std::function<void(instrument::Patch&, UseKind)>& probe);

}  // namespace dragnet::heap_access
