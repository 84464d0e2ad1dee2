// Mode `lifetime` with sample=SIZE: what the agent inserts into every class.
//
// Only use probes: the objects themselves come from the JVM's allocation sampler (JVMTI
// SampledObjectAlloc, with the allocating stack), so there is no allocation probe, no
// shadow stack and no per-method state. Each use HUP counts (use_sites.h) gets
// DragnetSample.get(object) or put(object) before it; the entry of every instance method
// but constructors gets get(this) (the call is a use of its receiver); calls of natives and
// intrinsics get their object arguments probed at the call site. The probes are inlined by
// the JIT and cost one load and compare for an object that is not sampled
// (src/analyses/lifetime/runtime/java/lang/DragnetSample.java).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "classfile/class_file.h"
#include "profile/format.h"

namespace dragnet::analyses::lifetime {

inline constexpr const char* kSampleClass = "java/lang/DragnetSample";

struct SampledResult {
  bool changed = false;
  uint32_t methods = 0;                    // methods that got probes
  std::vector<profile::Failure> failures;  // methods left unchanged, with the reason
};

SampledResult instrumentSampled(classfile::ClassFile& cls);

}  // namespace dragnet::analyses::lifetime
