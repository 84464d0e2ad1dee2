// The transfer function: the effect of each opcode on a FrameState (frame_state.h).
#include <string>
#include <tuple>

#include "instrument/descriptor.h"
#include "instrument/frame_state.h"
#include "instrument/stack_effect.h"

namespace dragnet::instrument {

namespace cf = classfile;
using cf::Op;
using cf::VType;

namespace {

// Thrown inside this file only; apply() turns it into a TransferResult.
struct Failure {
  TransferResult::Status status;
  std::string message;
};

[[noreturn]] void invalid(std::string message) {
  throw Failure{TransferResult::Status::Invalid, std::move(message)};
}

uint8_t raw(Op op) { return static_cast<uint8_t>(op); }
// Offset of `op` in a run of opcodes that starts at `first` (iload_0.., iaload.., ...).
int rel(Op op, Op first) { return raw(op) - raw(first); }

class Transfer {
 public:
  Transfer(FrameState& s, TransferContext& ctx) : s_(s), ctx_(ctx) {}

  void run(const cf::Insn& insn, uint32_t index);

 private:
  // ---- stack and locals -------------------------------------------------------------
  void push(const VType& t) {
    s_.stack.push_back(t);
    if (vtype::isWide(t)) s_.stack.push_back(vtype::top());
  }
  void pop(size_t words) {
    if (s_.stack.size() < words) invalid("operand stack underflow");
    s_.stack.resize(s_.stack.size() - words);
  }
  // Pops one value (1 or 2 words) and returns it.
  VType popValue() {
    if (s_.stack.empty()) invalid("operand stack underflow");
    if (s_.stack.back().kind == vtype::kTop) {
      if (s_.stack.size() < 2 || !vtype::isWide(s_.stack[s_.stack.size() - 2])) {
        invalid("Top on the operand stack");
      }
      s_.stack.pop_back();
    }
    VType t = s_.stack.back();
    s_.stack.pop_back();
    return t;
  }
  const VType& peek(size_t wordsFromTop) const {
    if (s_.stack.size() <= wordsFromTop) invalid("operand stack underflow");
    return s_.stack[s_.stack.size() - 1 - wordsFromTop];
  }
  VType load(uint32_t slot) const {
    if (slot >= s_.locals.size())
      invalid("load from local " + std::to_string(slot) + " beyond max_locals");
    return s_.locals[slot];
  }
  void store(uint32_t slot, const VType& t);
  void checkPairs() const;

  // ---- operand decoding ---------------------------------------------------------------
  VType descType(std::string_view desc) {
    auto t = typeOfDescriptor(desc, ctx_.pool);
    if (!t) invalid("malformed descriptor " + std::string(desc));
    return *t;
  }
  void pushDesc(std::string_view desc) {
    if (desc != "V") push(descType(desc));
  }
  void popDesc(std::string_view desc) { pop(static_cast<size_t>(slotSize(desc))); }
  void checkTag(cf::CpIndex i, std::initializer_list<cf::Tag> tags) const;
  VType classType(std::string_view nameOrDescriptor) {
    return vtype::object(ctx_.pool.addClass(nameOrDescriptor));
  }

  // ---- instruction groups -------------------------------------------------------------
  void ldc(const cf::Insn& insn);
  void arrayLoad(Op op);
  void arrayStore(Op op);
  void stackOp(Op op);
  void arithmetic(Op op);
  void conversion(Op op);
  void field(const cf::Insn& insn);
  void invoke(const cf::Insn& insn);
  void initialize(const VType& receiver, cf::CpIndex methodRef);
  void newArray(const cf::Insn& insn);
  void anewArray(const cf::Insn& insn);
  void multiANewArray(const cf::Insn& insn);
  bool localOp(const cf::Insn& insn);
  bool constantOp(const cf::Insn& insn);
  bool controlOp(Op op);

  FrameState& s_;
  TransferContext& ctx_;
};

void Transfer::store(uint32_t slot, const VType& t) {
  uint32_t words = vtype::isWide(t) ? 2 : 1;
  if (slot + words > 0xFFFF + 1u) invalid("local index out of range");
  if (s_.locals.size() < slot + words) s_.locals.resize(slot + words, vtype::top());
  // Overwriting the second half of a Long/Double invalidates the value (JVMS 4.10.1.2).
  if (slot > 0 && vtype::isWide(s_.locals[slot - 1])) s_.locals[slot - 1] = vtype::top();
  s_.locals[slot] = t;
  if (words == 2) s_.locals[slot + 1] = vtype::top();
}

// After word shuffles (dup_x2, pop2, ...): every Long/Double is followed by its Top half and
// every Top follows one, i.e. no instruction split a two-word value.
void Transfer::checkPairs() const {
  const auto& st = s_.stack;
  for (size_t i = 0; i < st.size(); ++i) {
    bool pairOk = vtype::isWide(st[i]) ? i + 1 < st.size() && st[i + 1].kind == vtype::kTop
                                       : st[i].kind != vtype::kTop;
    if (!pairOk) invalid("instruction splits a long or double on the operand stack");
    if (vtype::isWide(st[i])) ++i;
  }
}

void Transfer::checkTag(cf::CpIndex i, std::initializer_list<cf::Tag> tags) const {
  cf::Tag t = ctx_.pool.tag(i);
  for (cf::Tag ok : tags) {
    if (t == ok) return;
  }
  invalid("unexpected constant pool entry #" + std::to_string(cf::raw(i)));
}

void Transfer::ldc(const cf::Insn& insn) {
  cf::CpIndex i = insn.cp();
  switch (ctx_.pool.tag(i)) {
    case cf::Tag::Integer:
      return push(vtype::integer());
    case cf::Tag::Float:
      return push(vtype::floatType());
    case cf::Tag::Long:
      return push(vtype::longType());
    case cf::Tag::Double:
      return push(vtype::doubleType());
    case cf::Tag::String:
      return push(classType("java/lang/String"));
    case cf::Tag::Class:
      return push(classType("java/lang/Class"));
    case cf::Tag::MethodType:
      return push(classType("java/lang/invoke/MethodType"));
    case cf::Tag::MethodHandle:
      return push(classType("java/lang/invoke/MethodHandle"));
    case cf::Tag::Dynamic:
      return push(descType(ctx_.pool.nameAndType(cf::CpIndex{ctx_.pool[i].b}).second));
    default:
      invalid("ldc of an unloadable constant #" + std::to_string(cf::raw(i)));
  }
}

void Transfer::arrayLoad(Op op) {
  pop(1);  // index
  VType array = popValue();
  switch (op) {
    case Op::laload:
      return push(vtype::longType());
    case Op::faload:
      return push(vtype::floatType());
    case Op::daload:
      return push(vtype::doubleType());
    case Op::aaload:
      break;
    default:
      return push(vtype::integer());  // iaload, baload, caload, saload
  }
  if (array.kind == vtype::kNull) return push(vtype::null());  // as HotSpot: null[i] is null
  if (array.kind != vtype::kObject) invalid("aaload on a non-array");
  std::string_view name = ctx_.pool.className(array.cls);
  if (name.size() < 2 || name[0] != '[' || (name[1] != '[' && name[1] != 'L')) {
    invalid("aaload on " + std::string(name));
  }
  push(descType(name.substr(1)));
}

void Transfer::arrayStore(Op op) {
  pop(op == Op::lastore || op == Op::dastore ? 2 : 1);  // value
  pop(2);                                               // index, array
}

// Word-level shuffles (JVMS 6.5 describes them in categories; on words they are uniform).
void Transfer::stackOp(Op op) {
  auto& st = s_.stack;
  auto copyTop = [&](size_t n) {
    return std::vector<VType>(st.end() - static_cast<long>(n), st.end());
  };
  auto insertBelow = [&](const std::vector<VType>& v, size_t depth) {
    if (st.size() < depth) invalid("operand stack underflow");
    st.insert(st.end() - static_cast<long>(depth), v.begin(), v.end());
  };
  switch (op) {
    case Op::pop:
      pop(1);
      break;
    case Op::pop2:
      pop(2);
      break;
    case Op::dup:
    case Op::dup_x1:
    case Op::dup_x2: {
      peek(0);
      auto v = copyTop(1);
      insertBelow(v, 1 + static_cast<size_t>(rel(op, Op::dup)));
      break;
    }
    case Op::dup2:
    case Op::dup2_x1:
    case Op::dup2_x2: {
      peek(1);
      auto v = copyTop(2);
      insertBelow(v, 2 + static_cast<size_t>(rel(op, Op::dup2)));
      break;
    }
    default: {  // swap
      peek(1);
      std::swap(st[st.size() - 1], st[st.size() - 2]);
      break;
    }
  }
  checkPairs();
}

void Transfer::arithmetic(Op op) {
  if (op >= Op::ishl && op <= Op::lushr) {
    pop(1);  // the shift distance is an int
    VType v = popValue();
    return push(v);
  }
  if (op >= Op::ineg && op <= Op::dneg) {
    VType v = popValue();
    return push(v);
  }
  // iadd..drem and iand..lxor: the type repeats with period 4 (i, l, f, d) / 2 (i, l).
  int kind = op >= Op::iand ? rel(op, Op::iand) % 2 : rel(op, Op::iadd) % 4;
  static const VType kTypes[] = {vtype::integer(), vtype::longType(), vtype::floatType(),
                                 vtype::doubleType()};
  const VType& t = kTypes[kind];
  size_t words = vtype::isWide(t) ? 2 : 1;
  pop(2 * words);
  push(t);
}

void Transfer::conversion(Op op) {
  switch (op) {
    case Op::i2l:
    case Op::f2l:
    case Op::d2l:
      popValue();
      return push(vtype::longType());
    case Op::i2f:
    case Op::l2f:
    case Op::d2f:
      popValue();
      return push(vtype::floatType());
    case Op::i2d:
    case Op::l2d:
    case Op::f2d:
      popValue();
      return push(vtype::doubleType());
    case Op::lcmp:
    case Op::dcmpl:
    case Op::dcmpg:
      pop(4);
      return push(vtype::integer());
    case Op::fcmpl:
    case Op::fcmpg:
      pop(2);
      return push(vtype::integer());
    default:  // l2i, f2i, d2i, i2b, i2c, i2s
      popValue();
      return push(vtype::integer());
  }
}

void Transfer::field(const cf::Insn& insn) {
  checkTag(insn.cp(), {cf::Tag::Fieldref});
  std::string_view desc = ctx_.pool.memberRef(insn.cp()).descriptor;
  switch (insn.op) {
    case Op::getstatic:
      return pushDesc(desc);
    case Op::putstatic:
      return popDesc(desc);
    case Op::getfield:
      pop(1);
      return pushDesc(desc);
    default:  // putfield
      popDesc(desc);
      return pop(1);
  }
}

void Transfer::invoke(const cf::Insn& insn) {
  cf::CpIndex ref = insn.cp();
  std::string_view name, desc;
  if (insn.op == Op::invokedynamic) {
    checkTag(ref, {cf::Tag::InvokeDynamic});
    std::tie(name, desc) = ctx_.pool.nameAndType(cf::CpIndex{ctx_.pool[ref].b});
  } else {
    checkTag(ref, {cf::Tag::Methodref, cf::Tag::InterfaceMethodref});
    auto m = ctx_.pool.memberRef(ref);
    name = m.name;
    desc = m.descriptor;
  }
  auto md = parseMethodDescriptor(desc);
  if (!md) invalid("malformed method descriptor " + std::string(desc));
  pop(static_cast<size_t>(md->argumentSlots()));
  if (insn.op != Op::invokestatic && insn.op != Op::invokedynamic) {
    VType receiver = popValue();
    if (insn.op == Op::invokespecial && name == "<init>") initialize(receiver, ref);
  }
  pushDesc(md->ret);
}

// invokespecial <init>: every copy of the receiver's uninitialized type, in locals and on
// the stack, becomes the initialized class type. For `new C` the class is the method
// reference's class (the verifier requires it to be the `new`'s class); for
// UninitializedThis it is the current class (super() names the superclass).
void Transfer::initialize(const VType& receiver, cf::CpIndex methodRef) {
  VType done;
  if (receiver.kind == vtype::kUninitializedThis) {
    done = vtype::object(ctx_.thisClass);
  } else if (receiver.kind == vtype::kUninitialized) {
    done = vtype::object(cf::CpIndex{ctx_.pool[methodRef].a});
  } else {
    return;  // the verifier rejects this; nothing to replace
  }
  for (auto* list : {&s_.locals, &s_.stack}) {
    for (VType& t : *list) {
      if (sameType(t, receiver, ctx_.pool, ctx_.code)) t = done;
    }
  }
}

void Transfer::newArray(const cf::Insn& insn) {
  static constexpr std::string_view kArrays[] = {"[Z", "[C", "[F", "[D", "[B", "[S", "[I", "[J"};
  if (insn.a < 4 || insn.a > 11) invalid("newarray of unknown type " + std::to_string(insn.a));
  pop(1);
  push(classType(kArrays[insn.a - 4]));
}

void Transfer::anewArray(const cf::Insn& insn) {
  checkTag(insn.cp(), {cf::Tag::Class});
  std::string_view c = ctx_.pool.className(insn.cp());
  pop(1);
  // Built by appending: GCC 12 misreports -Wrestrict on "literal" + std::string.
  std::string array("[");
  if (c.starts_with('[')) {
    array.append(c);
  } else {
    array.append("L").append(c).append(";");
  }
  push(classType(array));
}

void Transfer::multiANewArray(const cf::Insn& insn) {
  checkTag(insn.cp(), {cf::Tag::Class});
  pop(static_cast<size_t>(insn.b));
  push(vtype::object(insn.cp()));
}

// Loads, stores and iinc. Returns false if `insn` is none of them.
bool Transfer::localOp(const cf::Insn& insn) {
  static const VType kTypes[] = {vtype::integer(), vtype::longType(), vtype::floatType(),
                                 vtype::doubleType()};
  Op op = insn.op;
  auto slot = static_cast<uint32_t>(insn.a);
  if (op >= Op::iload && op <= Op::aload) {
    if (op == Op::aload) return push(load(slot)), true;
    return push(kTypes[rel(op, Op::iload)]), true;
  }
  if (op >= Op::iload_0 && op <= Op::aload_3) {
    int k = rel(op, Op::iload_0);
    if (k >= 16) return push(load(static_cast<uint32_t>(k - 16))), true;
    return push(kTypes[k / 4]), true;
  }
  if (std::optional<uint32_t> stored = storedLocal(insn)) {
    store(*stored, popValue());
    return true;
  }
  return op == Op::iinc;  // an int stays an int
}

// Constants and ldc. Returns false if `insn` is none of them.
bool Transfer::constantOp(const cf::Insn& insn) {
  Op op = insn.op;
  if (op == Op::aconst_null) return push(vtype::null()), true;
  if ((op >= Op::iconst_m1 && op <= Op::iconst_5) || op == Op::bipush || op == Op::sipush) {
    return push(vtype::integer()), true;
  }
  if (op == Op::lconst_0 || op == Op::lconst_1) return push(vtype::longType()), true;
  if (op >= Op::fconst_0 && op <= Op::fconst_2) return push(vtype::floatType()), true;
  if (op == Op::dconst_0 || op == Op::dconst_1) return push(vtype::doubleType()), true;
  if (op >= Op::ldc && op <= Op::ldc2_w) return ldc(insn), true;
  return false;
}

// Branches, switches, returns, athrow, monitors. Returns false for other opcodes.
bool Transfer::controlOp(Op op) {
  if ((op >= Op::ifeq && op <= Op::ifle) || op == Op::ifnull || op == Op::ifnonnull ||
      op == Op::tableswitch || op == Op::lookupswitch || op == Op::monitorenter ||
      op == Op::monitorexit || op == Op::athrow || op == Op::ireturn || op == Op::freturn ||
      op == Op::areturn) {
    return pop(1), true;
  }
  if (op >= Op::if_icmpeq && op <= Op::if_acmpne) return pop(2), true;
  if (op == Op::lreturn || op == Op::dreturn) return pop(2), true;
  return op == Op::goto_ || op == Op::goto_w || op == Op::return_ || op == Op::nop;
}

void Transfer::run(const cf::Insn& insn, uint32_t index) {
  Op op = insn.op;
  if (op == Op::jsr || op == Op::jsr_w || op == Op::ret) {
    throw Failure{TransferResult::Status::Unsupported,
                  "jsr/ret subroutines (class versions < 50) are not supported"};
  }
  if (constantOp(insn) || localOp(insn) || controlOp(op)) return;
  if (op >= Op::iaload && op <= Op::saload) return arrayLoad(op);
  if (op >= Op::iastore && op <= Op::sastore) return arrayStore(op);
  if (op >= Op::pop && op <= Op::swap) return stackOp(op);
  if (op >= Op::iadd && op <= Op::lxor) return arithmetic(op);
  if (op >= Op::i2l && op <= Op::dcmpg) return conversion(op);
  if (op >= Op::getstatic && op <= Op::putfield) return field(insn);
  if (isInvoke(op)) return invoke(insn);
  switch (op) {
    case Op::new_:
      checkTag(insn.cp(), {cf::Tag::Class});
      return push(vtype::uninitialized(ctx_.labelFor ? ctx_.labelFor(index)
                                                     : static_cast<cf::Label>(index)));
    case Op::newarray:
      return newArray(insn);
    case Op::anewarray:
      return anewArray(insn);
    case Op::arraylength:
    case Op:: instanceof:
      pop(1);
      return push(vtype::integer());
    case Op::checkcast:
      checkTag(insn.cp(), {cf::Tag::Class});
      pop(1);
      return push(vtype::object(insn.cp()));
    case Op::multianewarray:
      return multiANewArray(insn);
    default:
      invalid("invalid opcode " + std::to_string(raw(op)));
  }
}

}  // namespace

TransferResult apply(FrameState& state, const cf::Insn& insn, uint32_t insnIndex,
                     TransferContext& ctx) {
  try {
    Transfer(state, ctx).run(insn, insnIndex);
    return {};
  } catch (const Failure& f) {
    return {f.status, f.message};
  } catch (const cf::ParseFailure& f) {  // the constant pool is full
    return {TransferResult::Status::Invalid, f.what()};
  }
}

}  // namespace dragnet::instrument
