// Mode `lifetime` (HUP, Pan 2001): what the agent inserts into every class.
//
// Everything mode alloc inserts (the calling contexts that name nested allocation sites,
// and the allocation counts), plus:
//   - java/lang/Object.<init>: DragnetLife.constructed(this) first. Every constructor chain
//     ends there before any constructor body runs, so an object is registered at its
//     allocation (time and size), before the uses its constructors make; the allocation
//     probe before `new` (alloc's, which in this mode also notes the pending site) tells
//     the runtime which `new` made it. Objects constructed without a `new` that the agent
//     saw (reflection, JNI NewObject, deserialization) are registered by runtime class.
//   - newarray/anewarray: DragnetLife.array(array, S, key) after the allocation (counted
//     and registered); multianewarray, clone and reflective allocations keep alloc's
//     probes, whose runtime registers the objects in this mode.
//   - the entry of every instance method but constructors: enter(this, methodId) (or
//     leaf(this, methodId)): the call is a use of its receiver (HUP Table 9: invokevirtual,
//     invokeinterface, invokespecial), counted where the callee starts, for any caller.
//   - before every other use (use_sites.h): get(object, S) or put(object, S); calls of
//     natives and intrinsics: their object arguments, at the call site.
// Method ids of constructors carry contexts::kConstructorBit, so the runtime can tell a
// constructor chain on its shadow stack.
#pragma once

#include <cstdint>

#include "contexts/probes.h"

namespace dragnet::analyses::lifetime {

inline constexpr const char* kLifeClass = "java/lang/DragnetLife";

struct Options {
  bool bytecodes = false;
};

contexts::ClassResult instrumentClass(classfile::ClassFile& cls, contexts::IdSource& ids,
                                      const Options& options);

}  // namespace dragnet::analyses::lifetime
