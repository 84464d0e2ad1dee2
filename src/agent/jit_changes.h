// What the exact modes change in HotSpot's JIT so that compiled code runs every allocation
// of the bytecode (jit_settings.h applies it; docs/ARCHITECTURE.md, "Allocations the JIT
// would skip"). No JNI here: the corpus test checks the list against the JDKs' own
// @IntrinsicCandidate methods.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace dragnet::agent {

// An intrinsic kept off: C2's replacement skips allocations its Java body makes.
struct DisabledIntrinsic {
  const char* id;      // HotSpot's name (vmIntrinsics), as DisableIntrinsic takes it
  const char* cls;     // the intrinsified method's class (internal name)
  const char* method;  // its name
  const char* allocates;
};
const std::vector<DisabledIntrinsic>& disabledIntrinsics();

// A C2 transformation switched off (a bool flag set to false) and what it would skip,
// with the classes whose @IntrinsicCandidate methods it concerns (prefixes of internal
// names, for the corpus check).
struct DisabledTransformation {
  const char* flag;
  const char* skips;
  std::vector<std::string_view> methodsOf;  // "java/lang/Integer.valueOf" or a class prefix
};
const std::vector<DisabledTransformation>& disabledTransformations();

// disabledIntrinsics()' ids, comma-separated.
std::string disabledIntrinsicList();

// The DisableIntrinsic value that keeps `current` (the user's own list, may be empty) and
// adds `ours` (comma-separated), without duplicates.
std::string mergeIntrinsicList(std::string_view current, std::string_view ours);

}  // namespace dragnet::agent
