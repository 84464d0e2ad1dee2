#include "relax_gen.h"

#include <algorithm>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <string_view>

#include "classfile/class_file.h"
#include "instrument/class_hierarchy.h"
#include "instrument/frame_computer.h"

namespace dragnet::test::relax {
namespace {

namespace cf = classfile;
namespace inst = instrument;
using cf::Label;
using cf::Op;

// The locals of every method: the parameter, the accumulator (the result), the values live
// across the far branch, the loop count, the filler's array and jsr's return address.
constexpr int kP = 0, kA = 1, kL = 2, kD = 4, kR = 6, kR2 = 7, kT = 8, kCnt = 9, kArr = 10,
              kRet = 11;
constexpr int64_t kLong = 0x123456789A;  // (int) 0x3456789A
constexpr double kDouble = 2.5;          // (int) 2
constexpr std::string_view kString = "relax";
constexpr const char* kBuilder = "java/lang/StringBuilder";
constexpr int kSubroutineAdds = 1000;  // what jsr's subroutine adds to the accumulator
constexpr int kNonNullAdds = 100;      // what the epilogue adds when R2 is not null

// The Java int of a value (two's complement wrap-around).
int32_t jint(int64_t v) { return static_cast<int32_t>(static_cast<uint32_t>(v)); }

enum class Kind : uint8_t { Unary, Compare, RefCompare, Null, Goto, Jsr };

// A branch opcode and the operands that make it jump (`taken`) or not: the int operand
// (compared with 0 by if_icmp*), or which of R (the String) and null is R2.
struct BranchOp {
  Op op;
  const char* name;
  Kind kind;
  int taken = 0, notTaken = 1;
  bool takenR2IsString = true, notTakenR2IsString = true;
};

const std::vector<BranchOp>& branchOps() {
  static const std::vector<BranchOp> ops = {
      {Op::ifeq, "ifeq", Kind::Unary, 0, 1},
      {Op::ifne, "ifne", Kind::Unary, 1, 0},
      {Op::iflt, "iflt", Kind::Unary, -1, 0},
      {Op::ifge, "ifge", Kind::Unary, 0, -1},
      {Op::ifgt, "ifgt", Kind::Unary, 1, 0},
      {Op::ifle, "ifle", Kind::Unary, 0, 1},
      {Op::if_icmpeq, "if_icmpeq", Kind::Compare, 0, 1},
      {Op::if_icmpne, "if_icmpne", Kind::Compare, 1, 0},
      {Op::if_icmplt, "if_icmplt", Kind::Compare, -1, 0},
      {Op::if_icmpge, "if_icmpge", Kind::Compare, 0, -1},
      {Op::if_icmpgt, "if_icmpgt", Kind::Compare, 1, 0},
      {Op::if_icmple, "if_icmple", Kind::Compare, 0, 1},
      {Op::if_acmpeq, "if_acmpeq", Kind::RefCompare, 0, 1, true, false},
      {Op::if_acmpne, "if_acmpne", Kind::RefCompare, 0, 1, false, true},
      {Op::ifnull, "ifnull", Kind::Null, 0, 1, false, true},
      {Op::ifnonnull, "ifnonnull", Kind::Null, 0, 1, true, false},
      {Op::goto_, "goto", Kind::Goto, 0, 1},
      {Op::jsr, "jsr", Kind::Jsr, 0, 1},
  };
  return ops;
}

Op inverted(Op op) {
  switch (op) {
    case Op::ifnull:
      return Op::ifnonnull;
    case Op::ifnonnull:
      return Op::ifnull;
    default: {  // ifeq/ifne, iflt/ifge, ...: pairs from 0x99, differing in the lowest bit
      int v = static_cast<int>(op);
      return static_cast<Op>((v - 0x99) % 2 == 0 ? v + 1 : v - 1);
    }
  }
}

Op shortForm(Op base0, int local) {  // iload_0 + n etc.
  return static_cast<Op>(static_cast<int>(base0) + local);
}

// Appends instructions to a Code and keeps the byte offset.
class Asm {
 public:
  Asm(cf::ConstantPool& pool, cf::Code& code) : pool_(pool), code_(code) {}

  uint32_t offset() const { return offset_; }
  Label label() { return code_.newLabel(0xFFFFFFFF); }  // bound later
  void bind(Label l) {
    code_.labels[static_cast<uint32_t>(l)] = static_cast<uint32_t>(code_.insns.size());
  }
  void op(Op o, int32_t a = 0, int32_t b = 0) {
    cf::Insn in{o, false, a, b};
    offset_ += cf::encodedLength(code_, in, offset_);
    code_.insns.push_back(in);
  }
  void jump(Op o, Label l) { op(o, static_cast<int32_t>(l)); }

  void local(Op base, Op base0, int n) { n <= 3 ? op(shortForm(base0, n)) : op(base, n); }
  void iload(int n) { local(Op::iload, Op::iload_0, n); }
  void istore(int n) { local(Op::istore, Op::istore_0, n); }
  void aload(int n) { local(Op::aload, Op::aload_0, n); }
  void astore(int n) { local(Op::astore, Op::astore_0, n); }
  void iconst(int v) {
    if (v >= -1 && v <= 5) {
      op(static_cast<Op>(static_cast<int>(Op::iconst_0) + v));
    } else if (v >= -128 && v <= 127) {
      op(Op::bipush, v);
    } else {
      op(Op::sipush, v);
    }
  }
  void cp(Op o, cf::CpIndex i) { op(o, static_cast<int32_t>(cf::raw(i))); }
  void invoke(Op o, std::string_view owner, std::string_view name, std::string_view desc) {
    cp(o, pool_.addMethodref(owner, name, desc));
  }
  // R (the String) or null.
  void pushR2(bool isString) { isString ? aload(kR) : op(Op::aconst_null); }

  cf::ConstantPool& pool() { return pool_; }
  cf::Code& code() { return code_; }

 private:
  cf::ConstantPool& pool_;
  cf::Code& code_;
  uint32_t offset_ = 0;
};

// Bytes `emit` appends (it may use labels of its own, jump to any, and bind none of the
// caller's).
template <class F>
uint32_t measure(cf::ConstantPool& pool, F emit) {
  cf::Code scratch;
  Asm a(pool, scratch);
  emit(a);
  return a.offset();
}

// ---- the filler --------------------------------------------------------------------------

constexpr uint32_t kArithBytes = 30, kAllocBytes = 18;
bool isAlloc(int unit) { return unit % 8 == 0; }
int16_t c1(int unit) { return static_cast<int16_t>((unit * 7919) % 20000 - 10000); }
int16_t c2(int unit) { return static_cast<int16_t>((unit * 31) % 200 - 100); }

// What one run of the filler does to the accumulator.
struct Filler {
  int units = 0;
  int32_t run(int32_t a) const {
    for (int k = 0; k < units; ++k) {
      if (isAlloc(k)) {
        a = jint(int64_t{a} + 7);  // arr[0] = A; A = arr[0] + 7
        continue;
      }
      a = jint(int64_t{a} + c1(k));
      a = jint(a ^ static_cast<int32_t>(static_cast<uint32_t>(a) << 5));
      a = jint(int64_t{a} * 31 + c2(k));
      if ((a & 3) == 0) a = jint(int64_t{a} + 1);
    }
    return a;
  }
};

// Exactly `bytes` bytes of filler: units (two basic blocks and a conditional each, or an
// allocation, a store and a load), then nops.
Filler emitFiller(Asm& a, int64_t bytes) {
  if (bytes < 0) throw std::runtime_error("relax_gen: negative filler");
  Filler f;
  uint32_t end = a.offset() + static_cast<uint32_t>(bytes);
  for (int k = 0;; ++k) {
    uint32_t size = isAlloc(k) ? kAllocBytes : kArithBytes;
    if (a.offset() + size > end) break;
    uint32_t start = a.offset();
    if (isAlloc(k)) {
      a.op(Op::iconst_2);
      a.op(Op::newarray, 10);  // T_INT
      a.astore(kArr);
      a.aload(kArr);
      a.op(Op::iconst_0);
      a.iload(kA);
      a.op(Op::iastore);
      a.aload(kArr);
      a.op(Op::iconst_0);
      a.op(Op::iaload);
      a.iconst(7);
      a.op(Op::iadd);
      a.istore(kA);
    } else {
      Label next = a.label();
      a.iload(kA);
      a.op(Op::sipush, c1(k));
      a.op(Op::iadd);
      a.istore(kA);
      a.iload(kA);
      a.iload(kA);
      a.op(Op::iconst_5);
      a.op(Op::ishl);
      a.op(Op::ixor);
      a.istore(kA);
      a.iload(kA);
      a.op(Op::bipush, 31);
      a.op(Op::imul);
      a.op(Op::sipush, c2(k));
      a.op(Op::iadd);
      a.istore(kA);
      a.iload(kA);
      a.op(Op::iconst_3);
      a.op(Op::iand);
      a.jump(Op::ifne, next);
      a.op(Op::iinc, kA, 1);
      a.bind(next);
    }
    if (a.offset() - start != size) throw std::runtime_error("relax_gen: unit size");
    f.units = k + 1;
  }
  while (a.offset() < end) a.op(Op::nop);
  return f;
}

// ---- methods -----------------------------------------------------------------------------

// Where the uninitialized StringBuilder (with a double under it) is made: not at all, before
// the closest frame preceding the far branch (the frame holds it), or after that frame (the
// branch's new frame gets it from the transfer function).
enum class Uninit : uint8_t { None, BeforeFrame, AfterFrame };

struct Variant {
  bool backward = false;
  int distance = 0;  // bytes from the far branch instruction to its target
  Uninit uninit = Uninit::None;
  bool wide() const { return distance > (backward ? 32768 : 32767); }
  std::string name() const {
    return std::string(backward ? "bwd" : "fwd") + std::to_string(distance) + (wide() ? "w" : "") +
           (uninit == Uninit::None ? "" : "u");
  }
};

std::vector<Variant> variants(const BranchOp& b, int major) {
  bool oldVerifier = major < 50;
  std::vector<Variant> v = {{false, 32700}, {false, 32767}, {false, 32768},
                            {true, 32700},  {true, 32768},  {true, 32769}};
  if (b.kind != Kind::Jsr) {
    v.push_back({false, 32700, Uninit::AfterFrame});
    v.push_back({false, 32767, Uninit::BeforeFrame});
    // The old verifier refuses an uninitialized object across a backward branch.
    if (!oldVerifier) v.push_back({true, 32700, Uninit::BeforeFrame});
  }
  std::sort(v.begin(), v.end(), [](const Variant& x, const Variant& y) {
    return x.name() < y.name();
  });  // RelaxMain runs them by name
  return v;
}

// What the method returns for p, simulated.
struct Outcome {
  int32_t a = 0;
  bool r2IsString = true;
  int32_t t = 0;
};

class MethodGen {
 public:
  MethodGen(cf::ClassFile& cls, const BranchOp& b, const Variant& v, cf::Code& code)
      : cls_(cls), b_(b), v_(v), a_(cls.pool, code) {}

  void emit() {
    if (v_.backward && b_.kind == Kind::Jsr) {
      backwardJsr();
    } else if (v_.backward) {
      backward();
    } else {
      forward();
    }
  }

  int32_t result(int p) const {
    Outcome o;
    o.a = p;
    o.r2IsString = p == 0 ? b_.takenR2IsString : b_.notTakenR2IsString;
    if (!v_.backward) {
      o.t = p == 0 ? b_.taken : b_.notTaken;
      if (b_.kind == Kind::Jsr) {  // the subroutine, then the filler
        o.a = filler_.run(jint(int64_t{o.a} + kSubroutineAdds));
      } else if (p == 1) {  // not taken: through the filler
        o.a = filler_.run(o.a);
      }
    } else if (b_.kind == Kind::Jsr) {
      o.t = p == 0 ? b_.taken : b_.notTaken;
      o.a = filler_.run(o.a);
      o.a = jint(int64_t{o.a} + kSubroutineAdds);
    } else {  // two rounds: the branch jumps back after the first
      o.a = filler_.run(filler_.run(o.a));
      o.t = b_.notTaken;
      if (b_.kind == Kind::RefCompare || b_.kind == Kind::Null)
        o.r2IsString = b_.notTakenR2IsString;
    }
    return epilogueResult(o);
  }

 private:
  cf::ConstantPool& pool() { return cls_.pool; }

  // A = p, L, D, R; R2 = p == 0 ? (taken R2) : (not-taken R2); H: a frame.
  void prologue(bool uninitBeforeFrame) {
    a_.iload(kP);
    a_.istore(kA);
    a_.cp(Op::ldc2_w, pool().addLong(kLong));
    a_.op(Op::lstore, kL);
    a_.cp(Op::ldc2_w, pool().addDouble(kDouble));
    a_.op(Op::dstore, kD);
    a_.cp(Op::ldc, pool().addString(kString));
    a_.astore(kR);
    if (uninitBeforeFrame) newBuilder();
    Label h = a_.label();
    a_.pushR2(b_.takenR2IsString);
    a_.astore(kR2);
    a_.iload(kP);
    a_.jump(Op::ifeq, h);
    a_.pushR2(b_.notTakenR2IsString);
    a_.astore(kR2);
    a_.bind(h);
  }

  void newBuilder() {
    a_.op(Op::dload, kD);
    a_.cp(Op::new_, pool().addClass(kBuilder));
    a_.op(Op::dup);
  }

  // T = taken + x * (notTaken - taken), x the local `from` (p, or the loop count - 1).
  void assignT(Asm& a, int from, bool minusOne) {
    a.iload(from);
    if (minusOne) {
      a.op(Op::iconst_1);
      a.op(Op::isub);
    }
    a.iconst(b_.notTaken - b_.taken);
    a.op(Op::imul);
    a.iconst(b_.taken);
    a.op(Op::iadd);
    a.istore(kT);
  }

  void operands(Asm& a) {
    switch (b_.kind) {
      case Kind::Unary:
        a.iload(kT);
        break;
      case Kind::Compare:
        a.iload(kT);
        a.op(Op::iconst_0);
        break;
      case Kind::RefCompare:
        a.aload(kR);
        a.aload(kR2);
        break;
      case Kind::Null:
        a.aload(kR2);
        break;
      default:
        break;
    }
  }

  // The far conditional (after its operands): `op target`, or javac's far form. Returns the
  // bytes from the instruction that reaches `target` to the end of the branch.
  uint32_t farConditional(Asm& a, Label target) {
    if (!v_.wide()) {
      a.jump(b_.op, target);
      return 3;
    }
    Label skip = a.label();
    a.jump(inverted(b_.op), skip);
    a.jump(Op::goto_w, target);
    a.bind(skip);
    return 5;
  }

  void forward() {
    prologue(v_.uninit == Uninit::BeforeFrame);
    if (v_.uninit == Uninit::AfterFrame) newBuilder();
    assignT(a_, kP, false);
    Label far = a_.label();
    if (b_.kind == Kind::Jsr) {
      Label sub = a_.label(), after = a_.label();
      a_.jump(v_.wide() ? Op::jsr_w : Op::jsr, sub);
      uint32_t len = v_.wide() ? 5 : 3;
      filler_ = emitFiller(a_, v_.distance - len - 3);
      a_.jump(Op::goto_, after);
      a_.bind(sub);
      subroutine();
      a_.bind(after);
    } else if (b_.kind == Kind::Goto) {
      Label fill = a_.label();
      a_.iload(kT);
      a_.jump(Op::ifne, fill);
      a_.jump(v_.wide() ? Op::goto_w : Op::goto_, far);
      a_.bind(fill);
      filler_ = emitFiller(a_, v_.distance - (v_.wide() ? 5 : 3));
    } else {
      operands(a_);
      uint32_t len = farConditional(a_, far);
      filler_ = emitFiller(a_, v_.distance - len);
    }
    a_.bind(far);
    epilogue();
  }

  // The tail of a loop round after the filler: T and R2 for the round, the far branch back
  // to `top` (for goto: if the count is 2, out; else goto top).
  void loopTail(Asm& a, Label top) {
    assignT(a, kCnt, true);
    if (b_.kind == Kind::RefCompare || b_.kind == Kind::Null) {
      Label second = a.label(), done = a.label();
      a.iload(kCnt);
      a.op(Op::iconst_1);
      a.jump(Op::if_icmpne, second);
      a.pushR2(b_.takenR2IsString);
      a.astore(kR2);
      a.jump(Op::goto_, done);
      a.bind(second);
      a.pushR2(b_.notTakenR2IsString);
      a.astore(kR2);
      a.bind(done);
    }
    if (b_.kind == Kind::Goto) {
      Label out = a.label();
      a.iload(kCnt);
      a.op(Op::iconst_2);
      a.jump(Op::if_icmpge, out);
      a.jump(v_.wide() ? Op::goto_w : Op::goto_, top);
      a.bind(out);
      return;
    }
    operands(a);
    farConditional(a, top);
  }

  // Bytes of loopTail up to the instruction that reaches `top` (the last goto or goto_w, or
  // the conditional).
  uint32_t tailToBranch() {
    uint32_t all = measure(pool(), [&](Asm& a) { loopTail(a, Label::None); });
    return all - (v_.wide() ? 5 : 3);
  }

  void backward() {
    prologue(false);
    a_.iconst(0);
    a_.istore(kCnt);
    if (v_.uninit != Uninit::None) newBuilder();
    Label top = a_.label();
    a_.bind(top);
    uint32_t start = a_.offset();
    a_.op(Op::iinc, kCnt, 1);
    int64_t tail = tailToBranch();
    filler_ = emitFiller(a_, v_.distance - (a_.offset() - start) - tail);
    loopTail(a_, top);
    epilogue();
  }

  void backwardJsr() {
    Label start = a_.label(), sub = a_.label();
    a_.jump(Op::goto_, start);
    a_.bind(sub);
    uint32_t subAt = a_.offset();
    subroutine();
    a_.bind(start);
    prologue(false);
    assignT(a_, kP, false);
    filler_ = emitFiller(a_, v_.distance - (a_.offset() - subAt));
    a_.jump(v_.wide() ? Op::jsr_w : Op::jsr, sub);
    epilogue();
  }

  void subroutine() {
    a_.astore(kRet);
    a_.iload(kA);
    a_.iconst(kSubroutineAdds);
    a_.op(Op::iadd);
    a_.istore(kA);
    a_.op(Op::ret, kRet);
  }

  // A += the builder's length and the stack's double (uninit), (int) L, (int) D, R.length(),
  // 100 if R2 is not null, T; return A.
  void epilogue() {
    if (v_.uninit != Uninit::None) {
      a_.invoke(Op::invokespecial, kBuilder, "<init>", "()V");
      a_.iload(kA);
      a_.invoke(Op::invokevirtual, kBuilder, "append", "(I)Ljava/lang/StringBuilder;");
      a_.invoke(Op::invokevirtual, kBuilder, "toString", "()Ljava/lang/String;");
      a_.invoke(Op::invokevirtual, "java/lang/String", "length", "()I");
      a_.op(Op::i2d);
      a_.op(Op::dadd);
      a_.op(Op::d2i);
      a_.iload(kA);
      a_.op(Op::iadd);
      a_.istore(kA);
    }
    a_.iload(kA);
    a_.op(Op::lload, kL);
    a_.op(Op::l2i);
    a_.op(Op::iadd);
    a_.istore(kA);
    a_.iload(kA);
    a_.op(Op::dload, kD);
    a_.op(Op::d2i);
    a_.op(Op::iadd);
    a_.istore(kA);
    a_.iload(kA);
    a_.aload(kR);
    a_.invoke(Op::invokevirtual, "java/lang/String", "length", "()I");
    a_.op(Op::iadd);
    a_.istore(kA);
    Label isNull = a_.label();
    a_.aload(kR2);
    a_.jump(Op::ifnull, isNull);
    a_.op(Op::iinc, kA, kNonNullAdds);
    a_.bind(isNull);
    a_.iload(kA);
    a_.iload(kT);
    a_.op(Op::iadd);
    a_.op(Op::ireturn);
  }

  int32_t epilogueResult(Outcome o) const {
    int32_t a = o.a;
    if (v_.uninit != Uninit::None) {
      auto digits = static_cast<int32_t>(std::to_string(a).size());
      a = jint(int64_t{static_cast<int32_t>(kDouble + digits)} + a);
    }
    a = jint(int64_t{a} + jint(kLong));
    a = jint(int64_t{a} + static_cast<int32_t>(kDouble));
    a = jint(int64_t{a} + static_cast<int32_t>(kString.size()));
    if (o.r2IsString) a = jint(int64_t{a} + kNonNullAdds);
    return jint(int64_t{a} + o.t);
  }

  cf::ClassFile& cls_;
  const BranchOp& b_;
  Variant v_;
  Asm a_;
  Filler filler_;
};

cf::Member& addMethod(cf::ClassFile& cls, std::string_view name, std::string_view desc) {
  cf::Member m;
  m.access = 0x0009;  // public static
  m.name = cls.pool.addUtf8(name);
  m.descriptor = cls.pool.addUtf8(desc);
  cf::CodeAttr code;
  m.attributes.push_back(cf::Attribute{cls.pool.addUtf8("Code"), std::move(code)});
  cls.methods.push_back(std::move(m));
  return cls.methods.back();
}

GeneratedClass generateClass(const BranchOp& b, int major, Generated& out) {
  cf::ClassFile cls;
  cls.major = static_cast<uint16_t>(major);
  cls.access = 0x0021;
  std::string name = "Relax" + std::to_string(major) + "_" + b.name;
  cls.thisClass = cls.pool.addClass(name);
  cls.superClass = cls.pool.addClass("java/lang/Object");
  inst::ClassHierarchy hierarchy([](std::string_view) { return std::nullopt; });
  hierarchy.define("java/lang/String", "java/lang/Object", false);
  hierarchy.define(kBuilder, "java/lang/Object", false);
  for (const Variant& v : variants(b, major)) {
    cf::Member& m = addMethod(cls, v.name(), "(I)I");
    cf::CodeAttr& code = *m.code();
    MethodGen gen(cls, b, v, code.code);
    gen.emit();
    code.maxLocals = kRet + 1;
    if (major >= 50) {
      code.maxLocals = kArr + 1;  // as small as it can be: a frame with one local too many fails
      inst::FrameComputation f = inst::computeFrames(cls, m, hierarchy);
      if (!f.ok())
        throw std::runtime_error("relax_gen: frames of " + name + "." + v.name() + ": " +
                                 f.errors.front());
    } else {
      code.maxStack = 8;
    }
    for (int p = 0; p < 2; ++p) {
      out.expected += name + "." + v.name() + "(" + std::to_string(p) +
                      ") = " + std::to_string(gen.result(p)) + "\n";
    }
    if (!v.wide()) out.near.push_back({name, v.name()});
    ++out.methods;
  }
  auto bytes = cf::writeClass(cls);
  if (!bytes) throw std::runtime_error("relax_gen: " + name + ": " + bytes.error().message);
  return {name, std::move(bytes.value())};
}

}  // namespace

Generated generate() {
  Generated g;
  for (int major : {52, 49}) {
    for (const BranchOp& b : branchOps()) {
      if (b.kind == Kind::Jsr && major >= 50) continue;  // jsr needs a class without frames
      g.classes.push_back(generateClass(b, major, g));
    }
  }
  return g;
}

bool writeGenerated(const Generated& g, const std::filesystem::path& dir, std::string& error) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) {
    error = dir.string() + ": " + ec.message();
    return false;
  }
  auto write = [&](const std::filesystem::path& p, const char* data, size_t n) {
    std::ofstream f(p, std::ios::binary);
    f.write(data, static_cast<std::streamsize>(n));
    if (!f) error = p.string() + ": cannot write";
    return static_cast<bool>(f);
  };
  std::string list;
  for (const GeneratedClass& c : g.classes) {
    list += c.name + "\n";
    if (!write(dir / (c.name + ".class"), reinterpret_cast<const char*>(c.bytes.data()),
               c.bytes.size()))
      return false;
  }
  return write(dir / "classes.txt", list.data(), list.size()) &&
         write(dir / "expected.txt", g.expected.data(), g.expected.size());
}

std::vector<uint8_t> readBytes(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::vector<uint8_t>(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

}  // namespace dragnet::test::relax
