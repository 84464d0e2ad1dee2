#include "alloc_test_support.h"

#include <utility>

#include "instrument/frame_state.h"

namespace dragnet::test::hard::alloc_case {

namespace {

std::string constant(const cf::ConstantPool& pool, cf::CpIndex i) {
  switch (pool.tag(i)) {
    case cf::Tag::Integer:
      return std::to_string(pool.integer(i));
    case cf::Tag::Long:
      return std::to_string(pool.longValue(i));
    case cf::Tag::Class:
      return std::string(pool.className(i));
    case cf::Tag::Fieldref: {
      auto m = pool.memberRef(i);
      return str(m.owner, ".", m.name, ":", m.descriptor);
    }
    case cf::Tag::Methodref:
    case cf::Tag::InterfaceMethodref: {
      auto m = pool.memberRef(i);
      return str(m.owner, ".", m.name, m.descriptor);
    }
    default:
      return str("#", cf::raw(i));
  }
}

// One line per instruction: its opcode and operands (constants resolved, branch targets as
// instruction indices).
std::string render(const cf::ClassFile& cls, const cf::Code& code, const cf::Insn& in) {
  std::string s(cf::opInfo(in.op).name);
  switch (cf::formatOf(in.op)) {
    case cf::Format::None:
      return s;
    case cf::Format::S1:
    case cf::Format::S2:
    case cf::Format::Local:
    case cf::Format::NewArray:
      return str(s, " ", in.a);
    case cf::Format::Iinc:
      return str(s, " ", in.a, " ", in.b);
    case cf::Format::Branch2:
    case cf::Format::Branch4:
      return str(s, " ->", code.position(in.target()));
    case cf::Format::MultiANewArray:
      return str(s, " ", constant(cls.pool, in.cp()), " ", in.b);
    default:
      return str(s, " ", constant(cls.pool, in.cp()));
  }
}

}  // namespace

const cf::CodeAttr& codeOf(const cf::ClassFile& cls, std::string_view name, std::string_view desc) {
  const cf::Member* m = findMethod(cls, name, desc);
  EXPECT_NE(m, nullptr) << name << desc;
  static const cf::CodeAttr kNone;
  const cf::CodeAttr* code = m ? m->code() : nullptr;
  return code ? *code : kNone;
}

Lines listing(const cf::ClassFile& cls, std::string_view name, std::string_view desc) {
  const cf::Code& code = codeOf(cls, name, desc).code;
  Lines out;
  for (const cf::Insn& in : code.insns) out.push_back(render(cls, code, in));
  return out;
}

// Concatenates line groups.
Lines join(std::initializer_list<Lines> groups) {
  Lines out;
  for (const Lines& g : groups) out.insert(out.end(), g.begin(), g.end());
  return out;
}

std::string local(std::string_view op, int slot) {
  return slot <= 3 ? str(op, "_", slot) : str(op, " ", slot);
}
std::string push(int v) {
  if (v >= -1 && v <= 5) return v < 0 ? "iconst_m1" : str("iconst_", v);
  return str(v <= 127 ? "bipush " : "sipush ", v);
}
std::string ldc(uint32_t v) { return str("ldc ", static_cast<int32_t>(v)); }
std::string rt(std::string_view nameDesc) {
  return str("invokestatic java/lang/DragnetRt.", nameDesc);
}

// S = DragnetRt.enter(id); D = S.sp - 1 (state in slot s, depth in d).
Lines enter(int id, int s, int d) {
  return {push(id),
          rt("enter(I)Ljava/lang/DragnetState;"),
          "dup",
          local("astore", s),
          "getfield " + kSp,
          "iconst_1",
          "isub",
          local("istore", d)};
}
// bytecodes=on's entry also sets N = S.node and C = 0.
Lines enterCounting(int id, int s, int d, int n, int c) {
  return join({enter(id, s, d),
               {local("aload", s), "getfield java/lang/DragnetState.node:I", local("istore", n),
                "lconst_0", local("lstore", c)}});
}
// S.sp = D: the caller's context is current again.
Lines exitCode(int s, int d) { return {local("aload", s), local("iload", d), "putfield " + kSp}; }
// S.insns[N] += C.
Lines flush(int s, int n, int c) {
  return {local("aload", s),
          "getfield java/lang/DragnetState.insns:[J",
          local("iload", n),
          "dup2",
          "laload",
          local("lload", c),
          "ladd",
          "lastore"};
}
Lines blockCount(int c, int size) {
  return {local("lload", c), str("ldc2_w ", size), "ladd", local("lstore", c)};
}

std::unique_ptr<Rewritten> rewrite(const Bytes& original, alloc::IdSource& ids, bool bytecodes,
                                   bool callSlots) {
  auto r = std::make_unique<Rewritten>();
  cf::ClassFile cls = parseOk(original);
  alloc::Options options;
  options.bytecodes = bytecodes;
  options.callSlots = callSlots;
  r->result = alloc::instrumentClass(cls, ids, options);
  r->bytes = writeOk(cls);
  r->cls = parseOk(r->bytes);
  return r;
}

// profile::SiteDef as one comparable line.
std::string siteLine(const profile::SiteDef& s) {
  return str("key=", std::hex, s.key, std::dec, " method=", s.method, " bci=", s.bci,
             " line=", s.line, " kind=", static_cast<int>(s.kind), " type=", s.type);
}
std::string siteLine(uint32_t key, uint32_t method, uint32_t bci, int line, SiteKind kind,
                     std::string type) {
  profile::SiteDef s;
  s.key = key;
  s.method = method;
  s.bci = bci;
  s.line = line;
  s.kind = kind;
  s.type = std::move(type);
  return siteLine(s);
}

cf::Insn cpInsn(Op op, cf::CpIndex i, int32_t b) { return insn(op, cf::raw(i), b); }

// A method of straight-line code (static unless `access` says otherwise).
void define(ModelBuilder& m, std::string_view name, std::string_view desc,
            std::vector<cf::Insn> insns, uint16_t maxStack, uint16_t maxLocals, uint16_t access) {
  cf::Member& meth = m.addMethod(access, name, desc);
  m.addCode(meth, maxStack, maxLocals).code.insns = std::move(insns);
}

// `new java/lang/Object` as a method.
std::vector<cf::Insn> newObject(cf::ConstantPool& pool) {
  return {cpInsn(Op::new_, pool.addClass("java/lang/Object")), insn(Op::dup),
          cpInsn(Op::invokespecial, pool.addMethodref("java/lang/Object", "<init>", "()V")),
          insn(Op::areturn)};
}

Bytes writeModel(const ModelBuilder& m) {
  auto w = m.write();
  EXPECT_TRUE(w.ok()) << (w.ok() ? "" : w.error().toString());
  return w.ok() ? w.value() : Bytes{};
}

// Calls of the natives that allocate a type known only at run time, and of
// Array.newInstance, which is Java code (its own call of newArray is probed in the JDK).
Bytes dynCases() {
  ModelBuilder m("DynCases");
  cf::ConstantPool& pool = m.cls.pool;
  const std::string obj = "Ljava/lang/Object;";
  auto call = [&](Op op, std::string_view owner, std::string_view name, const std::string& desc,
                  Op arg0, Op arg1) {
    return std::vector<cf::Insn>{insn(arg0), insn(arg1),
                                 cpInsn(op, pool.addMethodref(owner, name, desc)),
                                 insn(Op::areturn)};
  };
  define(m, "arr", "(Ljava/lang/Class;I)" + obj,
         call(Op::invokestatic, "java/lang/reflect/Array", "newArray", "(Ljava/lang/Class;I)" + obj,
              Op::aload_0, Op::iload_1));
  define(m, "multi", "(Ljava/lang/Class;[I)" + obj,
         call(Op::invokestatic, "java/lang/reflect/Array", "multiNewArray",
              "(Ljava/lang/Class;[I)" + obj, Op::aload_0, Op::aload_1));
  define(m, "inst", "(Ljdk/internal/misc/Unsafe;Ljava/lang/Class;)" + obj,
         call(Op::invokevirtual, "jdk/internal/misc/Unsafe", "allocateInstance",
              "(Ljava/lang/Class;)" + obj, Op::aload_0, Op::aload_1));
  define(m, "viaNewInstance", "(Ljava/lang/Class;I)" + obj,
         call(Op::invokestatic, "java/lang/reflect/Array", "newInstance",
              "(Ljava/lang/Class;I)" + obj, Op::aload_0, Op::iload_1));
  return writeModel(m);
}
}  // namespace dragnet::test::hard::alloc_case
