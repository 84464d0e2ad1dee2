#include "agent/flow_mode.h"

#include <cstdlib>
#include <utility>

#include "flow/summaries.h"

namespace dragnet::agent {
namespace {

// The side table of tags (DragnetFlow: arrays and denied classes' objects): 2^22 slots of
// 16 bytes; untouched pages cost nothing.
constexpr int kTableBits = 22;
constexpr int kTableWays = 4;  // DragnetFlow.WAYS

// The class's superclass and declared instance fields, for the profile's class layouts
// (what Object.clone copies; the declaring class of a field named through a subclass).
// The agent's own fields (dragnet$tag, the core's) are no fields of the program.
void noteClassFields(const classfile::ClassFile& cls, flow::FlowIds& ids) {
  constexpr uint16_t kAccInterface = 0x0200;
  if ((cls.access & kAccInterface) != 0) return;
  std::vector<std::pair<std::string, std::string>> fields;
  for (const classfile::Member& f : cls.fields) {
    std::string_view name = cls.memberName(f);
    if ((f.access & classfile::kAccStatic) != 0 || name.starts_with(flow::kHiddenFieldPrefix)) {
      continue;
    }
    fields.emplace_back(name, cls.memberDescriptor(f));
  }
  std::string_view super = cls.superClass == classfile::CpIndex{}
                               ? std::string_view()
                               : cls.pool.className(cls.superClass);
  ids.classFields(cls.name(), super, fields);
}

}  // namespace

flow::TagFieldOutcome FlowMode::prepareClass(classfile::ClassFile& cls) {
  noteClassFields(cls, flowIds_);
  return flow::addTagField(cls);
}

// The intrinsics whose Java bodies keep their flow probes (flow/summaries.h) and that this
// JDK has.
std::vector<std::string> FlowMode::moreDisabledIntrinsics(jvmtiEnv* jvmti) const {
  char* version = nullptr;
  int feature = 0;
  if (jvmti->GetSystemProperty("java.specification.version", &version) == JVMTI_ERROR_NONE &&
      version) {
    feature = std::atoi(version);
    jvmti->Deallocate(reinterpret_cast<unsigned char*>(version));
  }
  std::vector<std::string> out;
  for (const flow::IntrinsicToDisable& d : flow::intrinsicsToDisable()) {
    if (feature >= d.sinceJdk) out.emplace_back(d.id);
  }
  return out;
}

bool FlowMode::bindRuntime(JNIEnv* jni, std::string& error) {
  const binding::Member members[] = {
      {"java/lang/DragnetState", "U", "Ljdk/internal/misc/Unsafe;", &rt_.unsafe},
      {"java/lang/DragnetRt", "ELEM_SIZE", "[I", &rt_.elemSize},
      {"java/lang/DragnetFlow", "missed", "J", &rt_.missed},
      {"java/lang/DragnetFlow", "evicted", "J", &rt_.evicted},
      {"java/lang/String", nullptr, nullptr, &rt_.string},
      {"jdk/internal/misc/Unsafe", "objectFieldOffset", "(Ljava/lang/Class;Ljava/lang/String;)J",
       &rt_.fieldOffset},
  };
  return binding::bind(jni, members, error);
}

bool FlowMode::startEngine(JNIEnv* jni, uint32_t slots, std::initializer_list<const char*> own,
                           std::string& error) {
  using binding::Setting;
  constructedBase_ = recorder_->addNativeBase(ids_, profile::SiteKind::Reflect);
  if (!bindRuntime(jni, error)) return false;
  jobject unsafe = jni->GetStaticObjectField(rt_.unsafe.cls, rt_.unsafe);
  table_ = static_cast<uint64_t*>(std::calloc(2 * sideTableEntries(), sizeof(uint64_t)));
  if (!table_) {
    error = "no memory for the tag table";
    return false;
  }
  for (const char* cls : own) {
    if (!binding::configure(jni, cls, {Setting("U", "Ljdk/internal/misc/Unsafe;", unsafe)}, error))
      return false;
  }
  if (!binding::configure(jni, "java/lang/DragnetFlowTable",
                          {Setting("U", "Ljdk/internal/misc/Unsafe;", unsafe)}, error)) {
    return false;
  }
  return binding::configure(
      jni, "java/lang/DragnetFlow",
      {Setting("U", "Ljdk/internal/misc/Unsafe;", unsafe),
       Setting("slots", "I", static_cast<jint>(slots)),
       Setting("table", "J", static_cast<jlong>(reinterpret_cast<uintptr_t>(table_))),
       Setting("mask", "I", static_cast<jint>((1 << kTableBits) - 1)),
       Setting("constructedBase", "I", static_cast<jint>(constructedBase_)),
       Setting("stringTag", "J", stringTagOffset(jni, unsafe)), Setting("on", "Z", true)},
      error);
}

size_t FlowMode::sideTableEntries() { return (size_t{1} << kTableBits) + kTableWays; }

void FlowMode::engineTotals(JNIEnv* jni, const std::string& prefix,
                            std::map<std::string, std::string>& totals) const {
  totals[prefix + ".unknownTags"] =
      std::to_string(jni->GetStaticLongField(rt_.missed.cls, rt_.missed));
  totals[prefix + ".evictedTags"] =
      std::to_string(jni->GetStaticLongField(rt_.evicted.cls, rt_.evicted));
}

// DragnetRt.ELEM_SIZE[ELEM_REF], as the runtime measured the array layout.
int FlowMode::referenceBytes(JNIEnv* jni) const {
  jint size = 4;
  auto sizes = static_cast<jintArray>(jni->GetStaticObjectField(rt_.elemSize.cls, rt_.elemSize));
  if (sizes && jni->GetArrayLength(sizes) > 1) jni->GetIntArrayRegion(sizes, 1, 1, &size);
  return size > 0 ? size : 4;
}

// Unsafe.objectFieldOffset(String.class, "dragnet$tag"), or 0 (then Strings an
// invokedynamic returns are looked up in the side table, where they are not).
jlong FlowMode::stringTagOffset(JNIEnv* jni, jobject unsafe) const {
  jstring name = jni->NewStringUTF(std::string(flow::kTagField).c_str());
  jlong out = name ? jni->CallLongMethod(unsafe, rt_.fieldOffset, rt_.string.ref, name) : 0;
  if (jni->ExceptionCheck()) {
    jni->ExceptionClear();
    out = 0;
  }
  return out;
}

}  // namespace dragnet::agent
