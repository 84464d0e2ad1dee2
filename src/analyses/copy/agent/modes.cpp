#include "analyses/copy/agent/modes.h"

#include <cstdlib>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "agent/contexts_mode.h"
#include "agent/jni_table.h"
#include "analyses/copy/agent/flow_records.h"
#include "analyses/copy/options.h"
#include "analyses/copy/probes/instrumenter.h"
#include "flow/summaries.h"
#include "flow/tag_field.h"

namespace dragnet::analyses::copy {
namespace {

using agent::AgentScope;
using agent::Host;
using agent::ModeEvents;

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

class CopyMode : public agent::ContextsMode {
 public:
  std::string startLine(const Host& host) const override {
    return "recording copies (slots=" + std::to_string(slots(host)) + ") to " + host.outPath;
  }

 protected:
  static uint32_t slots(const Host& host) { return optionValues(host.options->values).slots; }

  contexts::ClassResult instrument(classfile::ClassFile& cls, contexts::IdSource& ids,
                                   bool bytecodes) override {
    noteClassFields(cls, flowIds_);
    // The field first: the constructors' probes set it.
    flow::TagFieldOutcome tag = flow::addTagField(cls);
    contexts::ClassResult r = instrumentClass(
        cls, ids, flowIds_, ProbeOptions{.bytecodes = bytecodes, .rootClass = tag.root});
    if (tag.added) r.changed = true;
    return r;
  }
  bool loadExtension(Host&, std::map<std::string, std::string>&, ModeEvents&,
                     std::string&) override {
    records_ = std::make_unique<FlowRecords>(*host_->writer, flowIds_);
    recorder_->observeStates([this](JNIEnv* jni, jobject state, uint32_t thread, bool ended) {
      if (ready_) records_->flushState(jni, state, thread, ended);
    });
    return true;
  }
  bool ownVirtualTrees() const override { return true; }
  void started(JNIEnv* jni) override {
    std::string error;
    constructedBase_ = recorder_->addNativeBase(ids_, profile::SiteKind::Reflect);
    if (!records_->init(jni, error) || !bindRuntime(jni, error) || !configure(jni, error)) {
      host_->say("error: " + error + "; no copies will be recorded");
      return;
    }
    ready_ = true;
    host_->writer->meta({{"flow.refBytes", std::to_string(referenceBytes(jni))}});
  }
  void flushExtension(JNIEnv* jni) override {
    AgentScope scope;
    if (ready_) records_->flushDefinitions(jni);
  }
  std::string finish(JNIEnv* jni, std::map<std::string, std::string>& totals) override {
    if (!ready_) return "";
    records_->flushDefinitions(jni);
    totals["flow.unknownTags"] =
        std::to_string(jni->GetStaticLongField(rt_.missed.cls, rt_.missed));
    totals["flow.evictedTags"] =
        std::to_string(jni->GetStaticLongField(rt_.evicted.cls, rt_.evicted));
    totals["flow.tableBytes"] = std::to_string(records_->peakTableBytes());
    return "copy profile written";
  }
  // The intrinsics whose Java bodies keep their flow probes (flow/summaries.h) and that
  // this JDK has.
  std::vector<std::string> moreDisabledIntrinsics(jvmtiEnv* jvmti) const override {
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
  std::string vmDeath(JNIEnv* jni) override {
    std::string line = agent::ContextsMode::vmDeath(jni);
    if (!ready_) return line;
    return line + ": " + std::to_string(records_->copies()) + " heap-to-heap copies, " +
           std::to_string(records_->edges()) + " copy-graph edges, " +
           std::to_string(records_->cuts()) + " flows cut, tables " +
           std::to_string((records_->peakTableBytes() + (1 << 19)) >> 20) + " MB" +
           (records_->dropped() ? ", " + std::to_string(records_->dropped()) + " dropped" : "");
  }

 private:
  // The runtime's members the mode reads, and what it needs of the JDK (binding.h).
  struct Runtime {
    agent::binding::StaticField unsafe, elemSize, missed, evicted;
    agent::binding::Class string;
    agent::binding::Method fieldOffset;
  };

  bool bindRuntime(JNIEnv* jni, std::string& error) {
    using agent::binding::Member;
    const Member members[] = {
        {"java/lang/DragnetState", "U", "Ljdk/internal/misc/Unsafe;", &rt_.unsafe},
        {"java/lang/DragnetRt", "ELEM_SIZE", "[I", &rt_.elemSize},
        {"java/lang/DragnetFlow", "missed", "J", &rt_.missed},
        {"java/lang/DragnetFlow", "evicted", "J", &rt_.evicted},
        {"java/lang/String", nullptr, nullptr, &rt_.string},
        {"jdk/internal/misc/Unsafe", "objectFieldOffset", "(Ljava/lang/Class;Ljava/lang/String;)J",
         &rt_.fieldOffset},
    };
    return agent::binding::bind(jni, members, error);
  }

  bool configure(JNIEnv* jni, std::string& error) {
    using agent::binding::Setting;
    jobject unsafe = jni->GetStaticObjectField(rt_.unsafe.cls, rt_.unsafe);
    size_t entries = (size_t{1} << kTableBits) + kTableWays;
    table_ = static_cast<uint64_t*>(std::calloc(2 * entries, sizeof(uint64_t)));  // 16 B each
    if (!table_) {
      error = "no memory for the tag table";
      return false;
    }
    for (const char* cls : {"java/lang/DragnetCopy", "java/lang/DragnetFlowTable"}) {
      if (!agent::binding::configure(jni, cls, {Setting("U", "Ljdk/internal/misc/Unsafe;", unsafe)},
                                     error)) {
        return false;
      }
    }
    return agent::binding::configure(
        jni, "java/lang/DragnetFlow",
        {Setting("U", "Ljdk/internal/misc/Unsafe;", unsafe),
         Setting("slots", "I", static_cast<jint>(slots(*host_))),
         Setting("table", "J", static_cast<jlong>(reinterpret_cast<uintptr_t>(table_))),
         Setting("mask", "I", static_cast<jint>((1 << kTableBits) - 1)),
         Setting("constructedBase", "I", static_cast<jint>(constructedBase_)),
         Setting("stringTag", "J", stringTagOffset(jni, unsafe)), Setting("on", "Z", true)},
        error);
  }

  // The size of a reference element as the runtime measured the array layout
  // (DragnetRt.ELEM_SIZE[ELEM_REF]): 4 with compressed oops.
  int referenceBytes(JNIEnv* jni) const {
    jint size = 4;
    auto sizes = static_cast<jintArray>(jni->GetStaticObjectField(rt_.elemSize.cls, rt_.elemSize));
    if (sizes && jni->GetArrayLength(sizes) > 1) jni->GetIntArrayRegion(sizes, 1, 1, &size);
    return size > 0 ? size : 4;
  }

  // Unsafe.objectFieldOffset(String.class, "dragnet$tag"), or 0 (then Strings an
  // invokedynamic returns are looked up in the side table, where they are not).
  jlong stringTagOffset(JNIEnv* jni, jobject unsafe) const {
    jstring name = jni->NewStringUTF(std::string(flow::kTagField).c_str());
    jlong out = name ? jni->CallLongMethod(unsafe, rt_.fieldOffset, rt_.string.ref, name) : 0;
    if (jni->ExceptionCheck()) {
      jni->ExceptionClear();
      out = 0;
    }
    return out;
  }

  Runtime rt_;
  flow::FlowIds flowIds_;
  std::unique_ptr<FlowRecords> records_;
  uint32_t constructedBase_ = 0;  // sites of objects constructed without a visible `new`
  uint64_t* table_ = nullptr;     // lives until the process ends: probes may run until then
  bool ready_ = false;
};

std::unique_ptr<agent::Mode> makeCopy() { return std::make_unique<CopyMode>(); }

}  // namespace

agent::ModeInfo copyMode() { return {"copy", false, makeCopy}; }

}  // namespace dragnet::analyses::copy
