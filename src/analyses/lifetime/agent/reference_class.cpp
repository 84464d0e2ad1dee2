#include "analyses/lifetime/agent/reference_class.h"

#include <optional>
#include <span>
#include <vector>

#include "agent/runtime_bridge.h"
#include "classfile/class_file.h"

namespace dragnet::analyses::lifetime::tracking {
namespace {

bool gRefsByNew = false;

// The class with each `<init>()V` reduced to `return` (no super() call), or nothing if it
// does not parse or write. Why: since JDK 23 the JIT compiles Unsafe.allocateInstance into
// a call into the VM, which posts VMObjectAlloc, whenever an agent has that event enabled
// (ours always does); the exact lifetime helper made a phantom reference per registered
// object that way. `new` of a class whose constructor runs nothing is allocated inline
// instead, and runs no instrumented code (PhantomReference and Reference's constructors are
// instrumented; the helper sets the two fields itself). Such a constructor does not verify:
// boot classes are verified only when asked (-Xverify:all, -XX:+BytecodeVerificationLocal),
// which VerifyProbe, patched alike and linked first, tells.
std::optional<std::vector<uint8_t>> withEmptyConstructor(std::span<const uint8_t> bytes,
                                                         std::string_view name) {
  auto parsed = classfile::parseClass(bytes, {name});
  if (!parsed) return std::nullopt;
  classfile::ClassFile& cls = parsed.value();
  for (classfile::Member& m : cls.methods) {
    classfile::CodeAttr* code = m.code();
    if (!code || cls.memberName(m) != "<init>" || cls.memberDescriptor(m) != "()V") continue;
    code->code.insns.assign(1, classfile::Insn{classfile::Op::return_});
    code->code.switches.clear();
    code->code.labels.assign({0, 1});
    code->handlers.clear();
    code->attributes.clear();  // line numbers, local variables: of the removed code
  }
  auto out = classfile::writeClass(cls);
  if (!out) return std::nullopt;
  return std::move(out.value());
}

// Whether the JVM runs a boot class's constructor that calls no super(): VerifyProbe,
// defined with such a constructor and linked (GetMethodID initializes the class) before
// DragnetLife$Ref is defined; a VerifyError says the JVM verifies boot classes.
bool emptyConstructorsRun(JNIEnv* jni) {
  const EmbeddedFile* f = agent::findRuntimeFile(kProbeClass);
  auto patched = f ? withEmptyConstructor(f->bytes, kProbeClass) : std::nullopt;
  std::string ignored;
  jclass c = patched ? agent::defineRuntimeClass(jni, kProbeClass, *patched, ignored) : nullptr;
  if (!c) return false;
  bool linked = jni->GetMethodID(c, "<init>", "()V") != nullptr;
  if (!linked) jni->ExceptionClear();
  jni->DeleteLocalRef(c);
  return linked;
}

}  // namespace

bool defineReferenceClass(JNIEnv* jni, std::string& error) {
  const EmbeddedFile* ref = agent::findRuntimeFile(kRefClass);
  if (!ref) {
    error = "the runtime helper class " + std::string(kRefClass) + " is missing";
    return false;
  }
  std::optional<std::vector<uint8_t>> patched;
  if (emptyConstructorsRun(jni)) patched = withEmptyConstructor(ref->bytes, kRefClass);
  gRefsByNew = patched.has_value();
  jclass c = agent::defineRuntimeClass(
      jni, kRefClass, patched ? std::span<const uint8_t>(*patched) : ref->bytes, error);
  if (!c) return false;
  jni->DeleteLocalRef(c);
  return true;
}

bool referencesByNew() { return gRefsByNew; }

}  // namespace dragnet::analyses::lifetime::tracking
