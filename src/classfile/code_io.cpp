// The Code attribute: decoding bytecode into the label-based instruction list and back.
#include <algorithm>
#include <array>
#include <bit>
#include <cstddef>
#include <cstring>
#include <memory>
#include <numeric>
#include <string>

#include "classfile/scratch.h"
#include "classfile/serial.h"

namespace dragnet::classfile {

namespace {
uint32_t switchPadding(uint32_t offset) { return (4 - (offset + 1) % 4) % 4; }
}  // namespace

uint32_t encodedLength(const Code& code, const Insn& insn, uint32_t offset) {
  Format f = formatOf(insn.op);
  if (f == Format::TableSwitch || f == Format::LookupSwitch) {
    const Switch& sw = code.switches[static_cast<size_t>(insn.a)];
    uint32_t fixed = 1 + switchPadding(offset) + (f == Format::TableSwitch ? 12 : 8);
    uint32_t perTarget = f == Format::TableSwitch ? 4 : 8;
    return fixed + perTarget * static_cast<uint32_t>(sw.targets.size());
  }
  return static_cast<uint32_t>(fixedLength(f, insn.wide));
}

void computeOffsets(const Code& code, std::vector<uint32_t>& offsets) {
  offsets.resize(code.insns.size() + 1);
  uint32_t off = 0;
  for (size_t i = 0; i < code.insns.size(); ++i) {
    offsets[i] = off;
    off += encodedLength(code, code.insns[i], off);
  }
  offsets[code.insns.size()] = off;
}

std::vector<uint32_t> computeOffsets(const Code& code) {
  std::vector<uint32_t> offsets;
  computeOffsets(code, offsets);
  return offsets;
}

namespace detail {

// Called by labelFor when `offset` is not an instruction boundary it may refer to.
void CodeLabels::failLabel(uint32_t offset, size_t errAt) const {
  auto length = static_cast<uint32_t>(insnAt.size() - 1);
  if (offset >= length) {
    fail(errAt, "code offset " + std::to_string(offset) + " is outside the code (length " +
                    std::to_string(length) + ")");
  }
  fail(errAt, "code offset " + std::to_string(offset) + " is inside an instruction");
}

namespace {

constexpr TagSet cpOperandTags(Op op) {
  switch (op) {
    case Op::ldc:
    case Op::ldc_w:
      return {Tag::Integer,    Tag::Float,        Tag::String, Tag::Class,
              Tag::MethodType, Tag::MethodHandle, Tag::Dynamic};
    case Op::ldc2_w:
      return {Tag::Long, Tag::Double, Tag::Dynamic};
    case Op::getstatic:
    case Op::putstatic:
    case Op::getfield:
    case Op::putfield:
      return {Tag::Fieldref};
    case Op::invokevirtual:
      return {Tag::Methodref};
    case Op::invokespecial:
    case Op::invokestatic:
      return {Tag::Methodref, Tag::InterfaceMethodref};
    case Op::invokeinterface:
      return {Tag::InterfaceMethodref};
    case Op::invokedynamic:
      return {Tag::InvokeDynamic};
    default:
      return {Tag::Class};  // new, anewarray, checkcast, instanceof, multianewarray
  }
}

constexpr std::array<TagSet, 256> makeCpOperandTags() {
  std::array<TagSet, 256> t{};
  for (unsigned op = 0; op < 256; ++op) t[op] = cpOperandTags(static_cast<Op>(op));
  return t;
}
// cpOperandTags per opcode, looked up once per instruction with a pool operand.
constexpr std::array<TagSet, 256> kCpOperandTags = makeCpOperandTags();

// Decodes one instruction at code[pc]; branch and switch targets are left as absolute
// offsets (in Insn::a / Switch fields) to be turned into labels once all boundaries are
// known. Returns the instruction length.
// Inlined into its one caller: the call and its register saves cost a third as much as
// decoding a typical instruction.
[[gnu::always_inline]] inline uint32_t decodeInsn(Reader& r, uint32_t pc, const ConstantPool& pool,
                                                  Code& code, Insn& insn) {
  size_t at = r.offset();
  uint8_t opByte = r.u1();
  insn.op = static_cast<Op>(opByte);
  Format f = formatOf(opByte);
  if (f == Format::Wide) {
    uint8_t inner = r.u1();
    insn.op = static_cast<Op>(inner);
    insn.wide = true;
    if (!isWidenable(insn.op)) {
      fail(at, "wide applied to " + std::string(opInfo(inner).name) + " at code offset " +
                   std::to_string(pc));
    }
    f = formatOf(inner);
  }
  auto cpOperand = [&](uint16_t index) {
    insn.a = index;
    pool.check(CpIndex{index}, kCpOperandTags[static_cast<uint8_t>(insn.op)], at);
  };
  switch (f) {
    case Format::None:
      break;
    case Format::S1:
      insn.a = r.s1();
      break;
    case Format::S2:
      insn.a = r.s2();
      break;
    case Format::NewArray:
      insn.a = r.u1();
      break;
    case Format::Cp1:
      cpOperand(r.u1());
      break;
    case Format::Cp2:
      cpOperand(r.u2());
      break;
    case Format::Local:
      insn.a = insn.wide ? r.u2() : r.u1();
      break;
    case Format::Iinc:
      insn.a = insn.wide ? r.u2() : r.u1();
      insn.b = insn.wide ? r.s2() : r.s1();
      break;
    case Format::Branch2:
      insn.a = static_cast<int32_t>(pc) + r.s2();
      break;
    case Format::Branch4:
      insn.a = static_cast<int32_t>(pc + static_cast<uint32_t>(r.s4()));
      break;
    case Format::InvokeInterface:
      cpOperand(r.u2());
      insn.b = r.u1();
      insn.b |= r.u1() << 8;
      break;
    case Format::InvokeDynamic:
      cpOperand(r.u2());
      insn.b = r.u2();
      break;
    case Format::MultiANewArray:
      cpOperand(r.u2());
      insn.b = r.u1();
      break;
    case Format::TableSwitch:
    case Format::LookupSwitch: {
      Switch sw;
      uint32_t pad = switchPadding(pc);
      for (uint32_t i = 0; i < pad; ++i) sw.padding = sw.padding << 8 | r.u1();
      sw.defaultTarget = static_cast<Label>(pc + static_cast<uint32_t>(r.s4()));
      if (f == Format::TableSwitch) {
        sw.low = r.s4();
        int32_t high = r.s4();
        if (high < sw.low) {
          fail(at, "tableswitch high " + std::to_string(high) + " < low " + std::to_string(sw.low));
        }
        uint64_t n = static_cast<uint64_t>(int64_t{high} - sw.low) + 1;
        r.needArray(n, 4);
        sw.targets.resize(n);
        for (auto& t : sw.targets) t = static_cast<Label>(pc + static_cast<uint32_t>(r.s4()));
      } else {
        int32_t n = r.s4();
        if (n < 0) fail(at, "lookupswitch npairs " + std::to_string(n) + " < 0");
        r.needArray(static_cast<size_t>(n), 8);
        sw.keys.resize(static_cast<size_t>(n));
        sw.targets.resize(static_cast<size_t>(n));
        for (int32_t i = 0; i < n; ++i) {
          sw.keys[i] = r.s4();
          sw.targets[i] = static_cast<Label>(pc + static_cast<uint32_t>(r.s4()));
        }
      }
      insn.a = static_cast<int32_t>(code.switches.size());
      code.switches.push_back(std::move(sw));
      break;
    }
    default:
      fail(at,
           "invalid opcode " + std::to_string(opByte) + " at code offset " + std::to_string(pc));
  }
  return static_cast<uint32_t>(r.offset() - at);
}

// Turns the absolute target offsets left by decodeInsn into labels, for the instructions
// listed in `jumps` (the branches and switches, in order).
void resolveTargets(CodeLabels& cl, const UninitVector<uint32_t>& jumps,
                    const UninitVector<uint32_t>& insnOffsets, size_t codeStart) {
  Code& code = *cl.mutableCode;
  auto target = [&](uint32_t raw, size_t insnIndex) {
    size_t errAt = codeStart + insnOffsets[insnIndex];
    uint32_t length = static_cast<uint32_t>(cl.insnAt.size() - 1);
    if (raw >= length) {
      fail(errAt, "branch target " + std::to_string(static_cast<int32_t>(raw)) +
                      " outside the code (length " + std::to_string(length) + ")");
    }
    return cl.labelFor(raw, errAt);
  };
  for (uint32_t i : jumps) {
    Insn& insn = code.insns[i];
    Format f = formatOf(insn.op);
    if (f == Format::Branch2 || f == Format::Branch4) {
      insn.a = static_cast<int32_t>(target(static_cast<uint32_t>(insn.a), i));
    } else {
      Switch& sw = code.switches[static_cast<size_t>(insn.a)];
      sw.defaultTarget = target(static_cast<uint32_t>(sw.defaultTarget), i);
      for (auto& t : sw.targets) t = target(static_cast<uint32_t>(t), i);
    }
  }
}

bool hasTargets(Format f) {
  return f == Format::Branch2 || f == Format::Branch4 || f == Format::TableSwitch ||
         f == Format::LookupSwitch;
}

constexpr std::array<uint8_t, 256> makeFastLengths() {
  std::array<uint8_t, 256> t{};
  for (unsigned op = 0; op < 256; ++op) {
    Format f = formatOf(static_cast<uint8_t>(op));
    bool fixed = f != Format::TableSwitch && f != Format::LookupSwitch && f != Format::Wide &&
                 f != Format::Invalid;
    t[op] = fixed ? static_cast<uint8_t>(fixedLength(f, false)) : 0;
  }
  return t;
}
// The length of each opcode that decodeFast reads, 0 for those left to decodeInsn: wide,
// the switches and the invalid opcodes.
constexpr std::array<uint8_t, 256> kFastLengths = makeFastLengths();
constexpr size_t kMaxFastLength = 5;

// Stores a decoded instruction (not wide) with two stores instead of one per field.
inline void putInsn(Insn& dst, uint8_t op, int32_t a, int32_t b = 0) {
  static_assert(sizeof(Insn) == 12 && offsetof(Insn, op) == 0 && offsetof(Insn, wide) == 1 &&
                offsetof(Insn, a) == 4 && offsetof(Insn, b) == 8);
  const uint64_t ua = static_cast<uint32_t>(a);
  // op, wide = false, two bytes of padding, a.
  const uint64_t head = std::endian::native == std::endian::little ? uint64_t{op} | ua << 32
                                                                   : uint64_t{op} << 56 | ua;
  // Insn is trivially copyable (its default member initialisers only make it non-trivial).
  auto* bytes = static_cast<unsigned char*>(static_cast<void*>(&dst));
  std::memcpy(bytes, &head, 8);
  std::memcpy(bytes + 8, &b, 4);
}

// Tables reused from one method to the next (classfile/scratch.h). Sized for the most
// instructions (and jumps) `length` bytes of code can hold, one byte each, and only ever
// grown: the decoder stores by index, without a capacity check or a call (see decodeAll),
// and no table is value-initialised for every method.
struct ReadScratch {
  CodeLabels labels;
  UninitVector<uint32_t> jumps;  // instructions with branch or switch targets
  std::vector<Insn> insns;       // the instructions, copied to the model at the end
};

// What decodeAll's paths for instructions with operands need. A local of decodeAll's
// frame, read there when needed: in registers, these crowded out the main loop's values.
struct DecodeState {
  Reader& code;
  const ConstantPool& pool;
  Code& out;
  ReadScratch& s;
  size_t codeStart;  // file offset of the code
  uint32_t* jumps;   // s.jumps, the first `nj` set
  uint32_t nj = 0;
};

// Decodes instruction n at p[0] (code offset pc), of a fixed-size format with operands
// (kFastLengths) whose bytes are all within the code, from the bytes directly: no bounds
// check per operand, and the instruction built in registers. The same values and pool
// checks as decodeInsn.
[[gnu::always_inline]] inline void decodeFast(const uint8_t* p, uint32_t pc, Format f,
                                              DecodeState& st, Insn& insn, uint32_t n) {
  const uint8_t op = p[0];
  auto cp = [&](uint16_t index) {
    st.pool.check(CpIndex{index}, kCpOperandTags[op], st.codeStart + pc);
    return int32_t{index};
  };
  switch (f) {
    case Format::S1:
      return putInsn(insn, op, static_cast<int8_t>(p[1]));
    case Format::S2:
      return putInsn(insn, op, static_cast<int16_t>(loadU2(p + 1)));
    case Format::NewArray:
    case Format::Local:
      return putInsn(insn, op, p[1]);
    case Format::Cp1:
      return putInsn(insn, op, cp(p[1]));
    case Format::Cp2:
      return putInsn(insn, op, cp(loadU2(p + 1)));
    case Format::Iinc:
      return putInsn(insn, op, p[1], static_cast<int8_t>(p[2]));
    case Format::Branch2:
      st.jumps[st.nj++] = n;
      return putInsn(insn, op, static_cast<int32_t>(pc) + static_cast<int16_t>(loadU2(p + 1)));
    case Format::Branch4:
      st.jumps[st.nj++] = n;
      return putInsn(insn, op, static_cast<int32_t>(pc + loadU4(p + 1)));
    case Format::InvokeInterface:
      return putInsn(insn, op, cp(loadU2(p + 1)), p[3] | p[4] << 8);
    case Format::InvokeDynamic:
      return putInsn(insn, op, cp(loadU2(p + 1)), loadU2(p + 3));
    case Format::MultiANewArray:
      return putInsn(insn, op, cp(loadU2(p + 1)), p[3]);
    default:  // not in kFastLengths
      __builtin_unreachable();
  }
}

// Decodes instruction n, at code offset `pc`, with the checked reader (decodeInsn): the
// formats decodeFast leaves, and instructions cut off by the end of the code (for their
// errors). Marks the instruction's other bytes in insnAt; returns the next offset.
[[gnu::noinline]] uint32_t decodeChecked(DecodeState& st, uint32_t pc, uint32_t n) {
  st.code.seek(pc);
  Insn& insn = st.s.insns[n];
  insn = Insn{};
  decodeInsn(st.code, pc, st.pool, st.out, insn);
  if (hasTargets(formatOf(insn.op))) st.jumps[st.nj++] = n;
  auto end = static_cast<uint32_t>(st.code.pos());
  uint32_t* insnAt = st.s.labels.insnAt.data();
  std::fill(insnAt + pc + 1, insnAt + end, kNoIndex);
  return end;
}

// The bytes of an instruction after its first are marked kNoIndex in insnAt, for one
// decoded by decodeFast (at most 5 bytes long) with one 16-byte store of 4 marks: the
// next instructions overwrite the marks past its end.
constexpr std::array<uint32_t, kMaxFastLength - 1> kMarks = {kNoIndex, kNoIndex, kNoIndex,
                                                             kNoIndex};

// Decodes `length` (> 0) bytes of code into s.insns, s.labels (insnAt, offsets) and
// s.jumps; returns the instruction count. Targets are left as absolute offsets.
//
// The inner loop makes no call (decodeChecked is called from the outer one): a call in it
// made the compiler keep its tables' addresses on the stack, reloaded per instruction.
[[gnu::noinline]] uint32_t decodeAll(Reader& code, const uint8_t* const bytes, size_t length,
                                     const ConstantPool& pool, Code& out, ReadScratch& s) {
  // insnAt has room for a kNoIndex block past the last instruction. The tables are not
  // value-initialised (UninitVector, or grown only): every element below their final sizes
  // is written here before it is read.
  s.labels.insnAt.resize(length + 1 + kMaxFastLength);
  s.labels.offsets.resize(length + 1);
  s.jumps.resize(length);
  if (s.insns.size() < length) s.insns.resize(length);
  // `code` has read past the bytes: its offset is the end of the code.
  DecodeState st{code, pool, out, s, code.offset() - length, s.jumps.data()};
  uint32_t* const insnAt = s.labels.insnAt.data();
  uint32_t* const offsets = s.labels.offsets.data();
  Insn* const insns = s.insns.data();
  // size_t, not uint32_t: as indexes, 32-bit values cost a zero extension each.
  size_t pc = 0, n = 0;
  while (pc < length) {
    for (; pc < length; ++n) {
      insnAt[pc] = static_cast<uint32_t>(n);
      offsets[n] = static_cast<uint32_t>(pc);
      const uint8_t op = bytes[pc];
      const Format f = formatOf(op);
      if (f == Format::None) {  // half of all instructions: one byte
        putInsn(insns[n], op, 0);
        ++pc;
        continue;
      }
      const size_t len = kFastLengths[op];
      if (len == 0 || len > length - pc) [[unlikely]]
        break;
      decodeFast(bytes + pc, static_cast<uint32_t>(pc), f, st, insns[n], static_cast<uint32_t>(n));
      std::memcpy(insnAt + pc + 1, kMarks.data(), sizeof kMarks);
      pc += len;
    }
    if (pc == length) break;
    pc = decodeChecked(st, static_cast<uint32_t>(pc), static_cast<uint32_t>(n));
    ++n;
  }
  insnAt[length] = static_cast<uint32_t>(n);
  offsets[n] = static_cast<uint32_t>(length);
  s.labels.insnAt.resize(length + 1);
  s.labels.offsets.resize(n + 1);
  s.jumps.resize(st.nj);
  return static_cast<uint32_t>(n);
}

// 0, 1, 2, ..., 65536: the label table of any parsed code (label k is instruction k, the
// last the end), copied rather than generated for each method.
const uint32_t* identityLabels() {
  static const std::unique_ptr<uint32_t[]> table = [] {
    auto t = std::make_unique<uint32_t[]>(65536 + 1);
    std::iota(t.get(), t.get() + 65536 + 1, 0u);
    return t;
  }();
  return table.get();
}

bool oldCodeLayout(const Context& ctx) { return ctx.major == 45 && ctx.minor < 3; }

}  // namespace

void readCode(Reader& r, Context& ctx, CodeAttr& out) {
  size_t at = r.offset();
  uint32_t length;
  if (oldCodeLayout(ctx)) {  // JVMS 4.7.3 footnote: 45.0-45.2 use u1, u1, u2
    out.maxStack = r.u1();
    out.maxLocals = r.u1();
    length = r.u2();
  } else {
    out.maxStack = r.u2();
    out.maxLocals = r.u2();
    length = r.u4();
  }
  if (length == 0 || length > 65535) {
    fail(at, "code_length " + std::to_string(length) + " is not in 1..65535");
  }
  size_t codeStart = r.offset();
  Reader code = r.sub(length);

  Scratch<ReadScratch> scratch;
  CodeLabels& cl = scratch->labels;
  cl.mutableCode = &out.code;
  cl.code = &out.code;
  // The code's bytes, read past (decodeAll's checked path seeks back).
  const uint8_t* bytes = code.bytes(length).data();
  uint32_t n = decodeAll(code, bytes, length, *ctx.pool, out.code, *scratch);
  // Copied with memcpy: assign copies Insn by Insn (its default member initialisers make it
  // non-trivial, so the library does not use memmove), at several times the cost.
  out.code.insns.reuse();
  out.code.insns.resize(n);
  std::memcpy(out.code.insns.data(), scratch->insns.data(), n * sizeof(Insn));
  // Label k is instruction k, label n the end (CodeLabels::labelFor).
  out.code.labels.reuse();
  out.code.labels.assign(identityLabels(), identityLabels() + n + 1);  // n < 65536
  resolveTargets(cl, scratch->jumps, cl.offsets, codeStart);

  CodeLabels* outer = ctx.labels;
  ctx.labels = &cl;
  In in(r, ctx);
  in.list(out.handlers, 2, 8, [&](ExceptionHandler& h) {
    size_t hAt = r.offset();
    in.label(h.start);
    size_t endAt = r.offset();
    h.end = cl.labelFor(r.u2(), endAt, /*allowEnd=*/true);
    in.label(h.handler);
    in.cpOrZero(h.catchType, {Tag::Class});
    if (cl.offsetOf(h.start) >= cl.offsetOf(h.end)) {
      fail(hAt, "exception handler range is empty or reversed");
    }
  });
  out.attributes.reuse();
  readAttributes(r, ctx, Where::Code, out.attributes);
  ctx.labels = outer;
}

namespace {

bool fits(int64_t v, int64_t lo, int64_t hi) { return v >= lo && v <= hi; }

// An instruction of a fixed-size format is at most 8 bytes (wide iinc: 6), assembled in
// one 64-bit word, byte k of the encoding in bits 8k..8k+7, and stored with one memcpy.
// Built in a register, not in a byte array: byte stores followed by a word load of the
// same bytes defeat store-to-load forwarding, which cost half of encodeCode's time.
constexpr size_t kMaxFixed = 8;

// A big-endian u2 as the two bytes of a word's low 16 bits.
uint64_t be2(uint32_t v) { return (v >> 8 & 0xFF) | (v & 0xFF) << 8; }

// The wide forms (JVMS 6.5.wide): wide, opcode, u2 index [, s2 increment].
size_t encodeWide(uint64_t& word, const Insn& insn, Format f) {
  if (!isWidenable(insn.op)) return 0;
  const auto ua = static_cast<uint32_t>(insn.a), ub = static_cast<uint32_t>(insn.b);
  word =
      static_cast<uint8_t>(Op::wide) | uint64_t{static_cast<uint8_t>(insn.op)} << 8 | be2(ua) << 16;
  if (f == Format::Iinc) {
    word |= be2(ub) << 32;
    return fits(insn.a, 0, 0xFFFF) && fits(insn.b, INT16_MIN, INT16_MAX) ? 6 : 0;
  }
  return fits(insn.a, 0, 0xFFFF) ? 4 : 0;
}

// Encodes an instruction of a fixed-size format (not a switch) into `word`; returns its
// length, or 0 if its operands do not fit its encoding (an edited model may carry an ldc
// of pool index 300, or iload 300 without wide: refused rather than truncated). Branch
// targets are written as zeros and filled in by patchTargets once every offset is known,
// so that the code is checked and encoded in a single pass.
size_t encodeFixed(uint64_t& word, const Insn& insn, Format f) {
  if (insn.wide) [[unlikely]]
    return encodeWide(word, insn, f);
  const int64_t a = insn.a, b = insn.b;
  const auto ua = static_cast<uint32_t>(insn.a), ub = static_cast<uint32_t>(insn.b);
  const uint64_t op = static_cast<uint8_t>(insn.op);
  switch (f) {
    case Format::None:
      word = op;
      return 1;
    case Format::S1:
    case Format::NewArray:
    case Format::Cp1:
    case Format::Local:
      word = op | uint64_t{ua & 0xFF} << 8;
      if (f == Format::S1) return fits(a, INT8_MIN, INT8_MAX) ? 2 : 0;
      return fits(a, f == Format::Cp1, 0xFF) ? 2 : 0;
    case Format::S2:
    case Format::Cp2:
      word = op | be2(ua) << 8;
      return (f == Format::S2 ? fits(a, INT16_MIN, INT16_MAX) : fits(a, 1, 0xFFFF)) ? 3 : 0;
    case Format::Iinc:
      word = op | uint64_t{ua & 0xFF} << 8 | uint64_t{ub & 0xFF} << 16;
      return fits(a, 0, 0xFF) && fits(b, INT8_MIN, INT8_MAX) ? 3 : 0;
    case Format::Branch2:  // offsets are checked when patched
      word = op;
      return 3;
    case Format::Branch4:
      word = op;
      return 5;
    case Format::InvokeInterface:
      word = op | be2(ua) << 8 | uint64_t{ub & 0xFF} << 24 | uint64_t{ub >> 8 & 0xFF} << 32;
      return fits(a, 1, 0xFFFF) && fits(b, 0, 0xFFFF) ? 5 : 0;
    case Format::InvokeDynamic:
      word = op | be2(ua) << 8 | be2(ub) << 24;
      return fits(a, 1, 0xFFFF) && fits(b, 0, 0xFFFF) ? 5 : 0;
    case Format::MultiANewArray:
      word = op | be2(ua) << 8 | uint64_t{ub & 0xFF} << 24;
      return fits(a, 1, 0xFFFF) && fits(b, 0, 0xFF) ? 4 : 0;
    default:
      return 0;  // wide as an opcode of its own, reserved opcodes
  }
}

// A big-endian u4 at a local cursor (see encodeCode); returns the cursor past it.
uint8_t* put4(uint8_t* p, uint32_t v) {
  storeU4(p, v);
  return p + 4;
}

// Most bytes a switch instruction can take: opcode, 3 padding, default, low and high (or
// npairs), and 8 per target.
size_t switchBound(const Switch& sw) { return 16 + 8 * sw.targets.size(); }

// Writes a tableswitch or lookupswitch at code offset `pc` to `p` (room: switchBound),
// targets as zeros (see above); returns the end.
uint8_t* encodeSwitch(uint8_t* p, const Code& code, const Insn& insn, uint32_t pc) {
  const Switch& sw = code.switches[static_cast<size_t>(insn.a)];
  *p++ = static_cast<uint8_t>(insn.op);
  uint32_t pad = switchPadding(pc);
  for (uint32_t i = pad; i > 0; --i) *p++ = static_cast<uint8_t>(sw.padding >> (8 * (i - 1)));
  p = put4(p, 0);  // default
  if (insn.op == Op::tableswitch) {
    p = put4(p, static_cast<uint32_t>(sw.low));
    // high = low + n - 1 in unsigned arithmetic: high may be INT32_MAX (no signed overflow).
    p = put4(p, static_cast<uint32_t>(sw.low) + static_cast<uint32_t>(sw.targets.size()) - 1u);
    for (size_t i = 0; i < sw.targets.size(); ++i) p = put4(p, 0);
  } else {
    p = put4(p, static_cast<uint32_t>(sw.targets.size()));
    for (size_t i = 0; i < sw.targets.size(); ++i) {
      p = put4(p, static_cast<uint32_t>(sw.keys[i]));
      p = put4(p, 0);
    }
  }
  return p;
}

// Fills in the target fields of the branch or switch at code offset `pc`, whose opcode
// byte was written at `at` in the output.
void patchTargets(Writer& w, const Code& code, const CodeLabels& cl, const Insn& insn, uint32_t pc,
                  size_t at) {
  Format f = formatOf(insn.op);
  auto branch = [&](Label l) { return static_cast<int64_t>(cl.offsetOf(l)) - pc; };
  if (f == Format::Branch2) {
    int64_t d = branch(insn.target());
    if (d < INT16_MIN || d > INT16_MAX) {
      fail(std::nullopt, std::string(opInfo(insn.op).name) + " at code offset " +
                             std::to_string(pc) + " cannot reach offset " +
                             std::to_string(cl.offsetOf(insn.target())) + " with a 16-bit branch");
    }
    w.patchU2(at + 1, static_cast<uint16_t>(d));
    return;
  }
  if (f == Format::Branch4) {
    w.patchU4(at + 1, static_cast<uint32_t>(branch(insn.target())));
    return;
  }
  const Switch& sw = code.switches[static_cast<size_t>(insn.a)];
  size_t p = at + 1 + switchPadding(pc);
  w.patchU4(p, static_cast<uint32_t>(branch(sw.defaultTarget)));
  // The first target follows default, low and high (tableswitch: 4 bytes apart), or
  // default, npairs and the first key (lookupswitch: in pairs, 8 bytes apart).
  p += 12;
  size_t stride = f == Format::TableSwitch ? 4 : 8;
  for (Label t : sw.targets) {
    w.patchU4(p, static_cast<uint32_t>(branch(t)));
    p += stride;
  }
}

// An edited model may carry inconsistent switch tables: refused like unencodable operands.
void checkSwitch(const Code& code, const Insn& insn) {
  if (insn.a < 0 || static_cast<size_t>(insn.a) >= code.switches.size()) {
    fail(std::nullopt,
         "switch instruction refers to missing switch table " + std::to_string(insn.a));
  }
  const Switch& sw = code.switches[static_cast<size_t>(insn.a)];
  bool table = insn.op == Op::tableswitch;
  if (table ? sw.targets.empty() : sw.keys.size() != sw.targets.size()) {
    fail(std::nullopt, std::string(opInfo(insn.op).name) + " with inconsistent targets");
  }
}

void failOperands(const Insn& insn, size_t i) {
  fail(std::nullopt, "instruction " + std::to_string(i) + " (" + std::string(opInfo(insn.op).name) +
                         (insn.wide ? ", wide" : "") + ") has operands its encoding cannot hold: " +
                         std::to_string(insn.a) + ", " + std::to_string(insn.b));
}

// Encodes the instructions in one pass, checking on the way that each can be encoded and
// recording its offset in cl.offsets (size insns + 1); returns the code length. Targets
// are patched afterwards (patchTargets). The checks fail in the order a separate checking
// pass would: operands in instruction order, then the length, then the targets.
//
// The bytes go through a local cursor into room made up front (kMaxFixed per instruction,
// made again at each switch): a store through a byte pointer may alias anything, and
// through the Writer it made the compiler reload the writer's and the model's fields after
// every instruction.
uint32_t encodeCode(Writer& w, const Code& code, CodeLabels& cl, std::vector<uint32_t>& jumps) {
  const size_t n = code.insns.size();
  const size_t codeStart = w.size();
  cl.offsets.resize(n + 1);
  jumps.clear();
  const Insn* const insns = code.insns.data();
  uint32_t* const offsets = cl.offsets.data();
  uint8_t* base = w.room(kMaxFixed * (n + 1));
  uint8_t* out = base;
  uint32_t baseOffset = 0;  // code offset of `base`
  for (size_t i = 0; i < n; ++i) {
    const Insn& insn = insns[i];
    const Format f = formatOf(insn.op);
    const auto pc = static_cast<uint32_t>(baseOffset + (out - base));
    offsets[i] = pc;
    if (f == Format::None && !insn.wide) {  // half of all instructions: one byte, no operands
      *out++ = static_cast<uint8_t>(insn.op);
      continue;
    }
    if (hasTargets(f)) jumps.push_back(static_cast<uint32_t>(i));
    if (f == Format::TableSwitch || f == Format::LookupSwitch) {
      checkSwitch(code, insn);
      if (insn.wide) failOperands(insn, i);
      w.advance(static_cast<size_t>(out - base));
      const Switch& sw = code.switches[static_cast<size_t>(insn.a)];
      base = w.room(switchBound(sw) + kMaxFixed * (n - i));
      baseOffset = pc;
      out = encodeSwitch(base, code, insn, pc);
      continue;
    }
    // Assembled in a register and stored as one word (see encodeFixed).
    uint64_t le = 0;
    size_t len = encodeFixed(le, insn, f);
    if (len == 0) failOperands(insn, i);
    if constexpr (std::endian::native == std::endian::big) le = __builtin_bswap64(le);
    std::memcpy(out, &le, kMaxFixed);
    out += len;
  }
  w.advance(static_cast<size_t>(out - base));
  auto length = static_cast<uint32_t>(w.size() - codeStart);
  offsets[n] = length;
  return length;
}

struct WriteScratch {
  CodeLabels labels;
  std::vector<uint32_t> jumps;  // instructions with branch or switch targets
};

}  // namespace

void writeCode(Writer& w, Context& ctx, const CodeAttr& attr) {
  const Code& code = attr.code;
  Scratch<WriteScratch> scratch;
  CodeLabels& cl = scratch->labels;
  cl.code = &code;
  const bool old = oldCodeLayout(ctx);
  // The header is written with the code length left open: known only after encoding.
  size_t header = w.size();
  if (old) {
    w.u4(0);  // u1 max_stack, u1 max_locals, u2 code_length
  } else {
    w.u2(attr.maxStack);
    w.u2(attr.maxLocals);
    w.u4(0);
  }
  const size_t codeStart = w.size();
  uint32_t length = encodeCode(w, code, cl, scratch->jumps);
  if (length == 0 || length > 65535) {
    fail(std::nullopt, "code length " + std::to_string(length) + " is not in 1..65535");
  }
  if (old) {
    if (attr.maxStack > 0xFF || attr.maxLocals > 0xFF) {
      fail(std::nullopt, "max_stack " + std::to_string(attr.maxStack) + " or max_locals " +
                             std::to_string(attr.maxLocals) +
                             " does not fit the one-byte fields of a 45.0-45.2 class");
    }
    w.patchU2(header, static_cast<uint16_t>(attr.maxStack << 8 | attr.maxLocals));
    w.patchU2(header + 2, static_cast<uint16_t>(length));
  } else {
    w.patchU4(header + 4, length);
  }
  for (uint32_t i : scratch->jumps) {
    const Insn& insn = code.insns[i];
    uint32_t pc = cl.offsets[i];
    patchTargets(w, code, cl, insn, pc, codeStart + pc);  // never wide (encodeFixed)
  }

  CodeLabels* outer = ctx.labels;
  ctx.labels = &cl;
  Out out(w, ctx);
  out.list(attr.handlers, 2, 8, [&](const ExceptionHandler& h) {
    out.label(h.start);
    out.label(h.end);
    out.label(h.handler);
    out.cpOrZero(h.catchType, {});
  });
  writeAttributes(w, ctx, attr.attributes);
  ctx.labels = outer;
}

}  // namespace detail
}  // namespace dragnet::classfile
