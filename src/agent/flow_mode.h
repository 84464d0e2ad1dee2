// The flow modes' base (copy, cost; docs/FLOW-DESIGN.md): the exact modes' calling
// contexts plus the flow engine's agent side: each class's layout noted and its tag field
// added before the analysis instruments it, the engine's runtime (DragnetFlow's side table
// of tags, DragnetFlowTable) configured at VM init, the intrinsics whose bodies keep their
// probes switched off, and the engine's totals.
#pragma once

#include <jni.h>

#include <initializer_list>
#include <map>
#include <string>
#include <vector>

#include "agent/binding.h"
#include "agent/contexts_mode.h"
#include "flow/ids.h"
#include "flow/tag_field.h"

namespace dragnet::agent {

class FlowMode : public ContextsMode {
 protected:
  // Before the analysis's probes: the class's fields noted (profile layouts) and the tag
  // field added to a root class (its constructors' probes set it).
  flow::TagFieldOutcome prepareClass(classfile::ClassFile& cls);
  bool ownVirtualTrees() const override { return true; }
  std::vector<std::string> moreDisabledIntrinsics(jvmtiEnv* jvmti) const override;
  // VM init: the engine's runtime bound and configured with `slots`, `on` set last; the
  // analysis's classes `own` get the runtime's Unsafe in their field `U` first (their other
  // settings must be made before). False with `error`.
  bool startEngine(JNIEnv* jni, uint32_t slots, std::initializer_list<const char*> own,
                   std::string& error);
  // The engine's End totals under `prefix` (".unknownTags", ".evictedTags").
  void engineTotals(JNIEnv* jni, const std::string& prefix,
                    std::map<std::string, std::string>& totals) const;
  // The entries of DragnetFlow's side table (an analysis may keep data per entry).
  static size_t sideTableEntries();
  // The size of a reference element (4 with compressed oops).
  int referenceBytes(JNIEnv* jni) const;

  flow::FlowIds flowIds_;
  uint32_t constructedBase_ = 0;  // sites of objects constructed without a visible `new`

 private:
  struct Runtime {
    binding::StaticField unsafe, elemSize, missed, evicted;
    binding::Class string;
    binding::Method fieldOffset;
  };
  bool bindRuntime(JNIEnv* jni, std::string& error);
  jlong stringTagOffset(JNIEnv* jni, jobject unsafe) const;

  Runtime rt_;
  uint64_t* table_ = nullptr;  // lives until the process ends: probes may run until then
};

}  // namespace dragnet::agent
