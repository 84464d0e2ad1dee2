#include "flow/tag_field.h"

#include <array>
#include <optional>
#include <vector>

#include "instrument/class_hierarchy.h"
#include "instrument/code_editor.h"
#include "instrument/frame_computer.h"
#include "instrument/patch.h"

namespace dragnet::flow {

namespace cf = classfile;
using cf::Insn;
using cf::Op;

namespace {

constexpr uint16_t kAccInterface = 0x0200;

// The classes denied the field, each with what the JVM does with its instances. Only the
// class itself: its subclasses (WeakReference, SoftReference, ...) are roots and get the
// field as any class with fields of its own. java/lang/Object is denied too (below).
// HotSpot 17 to 25 computes the offsets of the fields it knows by name
// (javaClasses.cpp, compute_offsets), so an added field moves nothing it reads; what it
// cannot take is a layout it sizes or allocates from a fixed plan:
constexpr std::array<std::string_view, 4> kDeniedClasses{
    // Mirrors: only the VM allocates them, and sizes each one as Class's instance size
    // plus the mirrored class's static fields, which start right after Class's own
    // fields (InstanceMirrorKlass::offset_of_static_fields).
    "java/lang/Class",
    // The VM rewrites its oop map by hand so that the collectors skip referent and
    // discovered: one block of exactly queue and next, the four fields assumed consecutive
    // and alone in the map (asserted in debug builds; InstanceRefKlass::
    // update_nonstatic_oop_maps).
    "java/lang/ref/Reference",
    // JDK 19+: the collectors fill gaps of the minimum fill size with instances of it
    // (CollectedHeap::fill_with_object_impl); with a field it is larger than that size
    // under compact object headers (JDK 24+), and the heap is no longer parsable.
    "jdk/internal/vm/FillerObject",
    // JDK 19+: only the VM allocates them, each sized for its frames, which start right
    // after the instance fields (InstanceStackChunkKlass::offset_of_stack).
    "jdk/internal/vm/StackChunk",
};

}  // namespace

bool isDeniedTagClass(std::string_view name) {
  if (name == "java/lang/Object") return true;  // arrays have no fields; every class is one
  for (std::string_view c : kDeniedClasses) {
    if (name == c) return true;
  }
  return false;
}

TagFieldOutcome addTagField(cf::ClassFile& cls) { return addTagField(cls, isDeniedTagClass); }

TagFieldOutcome addTagField(cf::ClassFile& cls, DenyPredicate denied) {
  TagFieldOutcome out;
  if (cls.superClass == cf::CpIndex{} || (cls.access & kAccInterface) != 0) return out;
  std::string_view name = cls.name();
  if (denied(name) || name == "java/lang/Object") return out;
  if (!denied(cls.pool.className(cls.superClass))) return out;
  out.root = true;
  for (const cf::Member& f : cls.fields) {
    if (cls.memberName(f) == kTagField && cls.memberDescriptor(f) == kTagFieldDescriptor) {
      return out;
    }
  }
  cf::Member f;
  f.access = kTagFieldAccess;
  f.name = cls.pool.addUtf8(kTagField);
  f.descriptor = cls.pool.addUtf8(kTagFieldDescriptor);
  cls.fields.push_back(std::move(f));
  out.added = true;
  return out;
}

namespace {

constexpr std::string_view kFilterFields = "filterFields";
constexpr std::string_view kFilterFieldsDesc =
    "(Ljava/lang/Class;[Ljava/lang/reflect/Field;)[Ljava/lang/reflect/Field;";
constexpr std::string_view kHideFields = "dragnet$hideFields";
constexpr std::string_view kHideFieldsDesc =
    "([Ljava/lang/reflect/Field;)[Ljava/lang/reflect/Field;";
constexpr uint16_t kPrivateStaticSynthetic = 0x0002 | 0x0008 | 0x1000;

// Appends instructions whose branch operands are instruction indices (the code's labels
// are bound one per instruction, as the reader binds them).
class Asm {
 public:
  explicit Asm(cf::ConstantPool& pool) : pool_(pool) {}
  uint32_t here() const { return static_cast<uint32_t>(insns_.size()); }
  uint32_t op(Op o, int32_t a = 0, int32_t b = 0) {
    insns_.push_back(Insn{o, false, a, b});
    return here() - 1;
  }
  uint32_t cp(Op o, cf::CpIndex index) { return op(o, static_cast<int32_t>(raw(index))); }
  void bind(uint32_t branch, uint32_t target) { insns_[branch].a = static_cast<int32_t>(target); }
  cf::CodeAttr finish(uint16_t maxLocals) {
    cf::CodeAttr code;
    code.maxLocals = maxLocals;
    for (const Insn& i : insns_) code.code.insns.push_back(i);
    for (uint32_t k = 0; k <= here(); ++k) code.code.labels.push_back(k);
    return code;
  }
  cf::ConstantPool& pool() { return pool_; }

 private:
  cf::ConstantPool& pool_;
  std::vector<Insn> insns_;
};

// Emits `if (fs[i].getName().startsWith("dragnet$")) goto <returned branch>` (locals: 0 fs,
// 2 i); the caller binds the branch.
uint32_t emitHiddenTest(Asm& a, Op branchIfHidden) {
  cf::ConstantPool& p = a.pool();
  a.op(Op::aload_0);
  a.op(Op::iload_2);
  a.op(Op::aaload);
  a.cp(Op::invokevirtual,
       p.addMethodref("java/lang/reflect/Field", "getName", "()Ljava/lang/String;"));
  a.cp(Op::ldc_w, p.addString(kHiddenFieldPrefix));
  a.cp(Op::invokevirtual,
       p.addMethodref("java/lang/String", "startsWith", "(Ljava/lang/String;)Z"));
  return a.op(branchIfHidden);
}

// static Field[] dragnet$hideFields(Field[] fs) {
//   if (fs == null) return fs;
//   int n = fs.length;                                    // local 1: fields kept
//   for (int i = 0; i < fs.length; i++) if (hidden(fs[i])) n--;
//   if (n == fs.length) return fs;                        // the same array: nothing hidden
//   Field[] out = new Field[n];                           // local 3
//   for (int i = 0, j = 0; i < fs.length; i++) if (!hidden(fs[i])) out[j++] = fs[i];
//   return out;                                           // local 4: j
// }
cf::CodeAttr hideFieldsCode(cf::ConstantPool& pool) {
  Asm a(pool);
  a.op(Op::aload_0);
  uint32_t notNull = a.op(Op::ifnonnull);
  a.op(Op::aload_0);
  a.op(Op::areturn);
  a.bind(notNull, a.here());
  a.op(Op::aload_0);
  a.op(Op::arraylength);
  a.op(Op::istore_1);
  a.op(Op::iconst_0);
  a.op(Op::istore_2);
  uint32_t count = a.here();
  a.op(Op::iload_2);
  a.op(Op::aload_0);
  a.op(Op::arraylength);
  uint32_t counted = a.op(Op::if_icmpge);
  uint32_t keep = emitHiddenTest(a, Op::ifeq);
  a.op(Op::iinc, 1, -1);
  a.bind(keep, a.here());
  a.op(Op::iinc, 2, 1);
  a.op(Op::goto_, static_cast<int32_t>(count));
  a.bind(counted, a.here());
  a.op(Op::iload_1);
  a.op(Op::aload_0);
  a.op(Op::arraylength);
  uint32_t copy = a.op(Op::if_icmpne);
  a.op(Op::aload_0);
  a.op(Op::areturn);
  a.bind(copy, a.here());
  a.op(Op::iload_1);
  a.cp(Op::anewarray, pool.addClass("java/lang/reflect/Field"));
  a.op(Op::astore_3);
  a.op(Op::iconst_0);
  a.op(Op::istore_2);
  a.op(Op::iconst_0);
  a.op(Op::istore, 4);
  uint32_t loop = a.here();
  a.op(Op::iload_2);
  a.op(Op::aload_0);
  a.op(Op::arraylength);
  uint32_t done = a.op(Op::if_icmpge);
  uint32_t skip = emitHiddenTest(a, Op::ifne);
  a.op(Op::aload_3);
  a.op(Op::iload, 4);
  a.op(Op::aload_0);
  a.op(Op::iload_2);
  a.op(Op::aaload);
  a.op(Op::aastore);
  a.op(Op::iinc, 4, 1);
  a.bind(skip, a.here());
  a.op(Op::iinc, 2, 1);
  a.op(Op::goto_, static_cast<int32_t>(loop));
  a.bind(done, a.here());
  a.op(Op::aload_3);
  a.op(Op::areturn);
  return a.finish(5);
}

cf::Member* findMethod(cf::ClassFile& cls, std::string_view name, std::string_view desc) {
  for (cf::Member& m : cls.methods) {
    if (cls.memberName(m) == name && cls.memberDescriptor(m) == desc) return &m;
  }
  return nullptr;
}

}  // namespace

bool hideDragnetFields(cf::ClassFile& cls) {
  if (cls.name() != kReflectionClass || cls.major < 50) return false;
  if (findMethod(cls, kHideFields, kHideFieldsDesc)) return false;  // done already
  cf::Member* filter = findMethod(cls, kFilterFields, kFilterFieldsDesc);
  if (!filter || !filter->code() || (filter->access & cf::kAccStatic) == 0) return false;
  cf::Member hide;
  hide.access = kPrivateStaticSynthetic;
  hide.name = cls.pool.addUtf8(kHideFields);
  hide.descriptor = cls.pool.addUtf8(kHideFieldsDesc);
  hide.attributes.push_back({cls.pool.addUtf8("Code"), hideFieldsCode(cls.pool)});
  cls.methods.push_back(std::move(hide));
  // On a failure below the method goes again (the pool keeps its new, unused entries).
  auto undo = [&] {
    cls.methods.pop_back();
    return false;
  };
  // The frames name no class but Field[]: a hierarchy without a source answers all merges.
  instrument::ClassHierarchy hierarchy(
      [](std::string_view) -> std::optional<std::vector<uint8_t>> { return std::nullopt; });
  if (!instrument::computeFrames(cls, cls.methods.back(), hierarchy).ok()) return undo();
  // fields = dragnet$hideFields(fields), before anything else in filterFields.
  instrument::CodeEditor editor(cls, *findMethod(cls, kFilterFields, kFilterFieldsDesc));
  instrument::Patch patch(cls.pool);
  patch.add(Op::aload_1)
      .invokeStatic(kReflectionClass, kHideFields, kHideFieldsDesc)
      .add(Op::astore_1);
  editor.insertAtEntry(patch);
  if (!editor.commit().changed) return undo();
  return true;
}

}  // namespace dragnet::flow
