// Branch relaxation's new frame (instrument/code_editor.cpp, `relax`): a conditional that an
// insertion pushes past 16 bits becomes `if<!cond> skip; goto_w L; skip:`, and in a class
// with frames `skip` gets a full frame. Small methods built in memory, edited with
// CodeEditor, written, parsed back; their StackMapTable is decoded and compared with the
// states the verifier computes. tests/relax runs such methods on the JVM.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "../support/class_builder.h"
#include "instrument/code_editor.h"
#include "instrument/frame_state.h"

namespace dragnet::test {
namespace {

namespace inst = dragnet::instrument;
using cf::Label;
using cf::Op;
using cf::VType;

constexpr int kNops = 32700;  // the far conditional's original reach: just under 32 KiB

struct Method {
  ModelBuilder mb{"p/Relax", 52};
  cf::Member* m = nullptr;
  cf::CodeAttr* code = nullptr;

  Method(uint16_t maxStack, uint16_t maxLocals) {
    m = &mb.addMethod(0x0009, "m", "(I)I");
    code = &mb.addCode(*m, maxStack, maxLocals);
  }
  cf::Code& c() { return code->code; }
  Label label() { return c().newLabel(0xFFFFFFFF); }
  void bind(Label l) {
    c().labels[static_cast<uint32_t>(l)] = static_cast<uint32_t>(c().insns.size());
  }
  uint32_t emit(Op op, int32_t a = 0, int32_t b = 0) {
    c().insns.push_back(insn(op, a, b));
    return static_cast<uint32_t>(c().insns.size() - 1);
  }
  uint32_t jump(Op op, Label l) { return emit(op, static_cast<int32_t>(l)); }
  void nops(int n) {
    for (int i = 0; i < n; ++i) emit(Op::nop);
  }
  cf::StackMapTableAttr& frames() {
    code->attributes.push_back({mb.cls.pool.addUtf8("StackMapTable"), cf::StackMapTableAttr{}});
    return std::get<cf::StackMapTableAttr>(code->attributes.back().body);
  }
};

cf::Frame frame(uint8_t type, Label at, std::vector<VType> locals = {},
                std::vector<VType> stack = {}) {
  cf::Frame f;
  f.type = type;
  f.at = at;
  for (const VType& v : locals) f.locals.push_back(v);
  for (const VType& v : stack) f.stack.push_back(v);
  return f;
}

// The method as written and parsed back, with its frames decoded.
struct Written {
  Bytes bytes;
  cf::ClassFile cls;
  const cf::CodeAttr* code = nullptr;
  const cf::StackMapTableAttr* table = nullptr;
  std::vector<inst::DecodedFrame> decoded;

  uint32_t position(Label l) const { return code->code.position(l); }
  // The decoded frame at instruction `pos`; fails the test if there is none.
  const inst::DecodedFrame* at(uint32_t pos) const {
    for (const auto& d : decoded) {
      if (position(d.at) == pos) return &d;
    }
    ADD_FAILURE() << "no frame at instruction " << pos;
    return nullptr;
  }
  uint32_t find(Op op, uint32_t from = 0) const {
    for (uint32_t i = from; i < code->code.insns.size(); ++i) {
      if (code->code.insns[i].op == op) return i;
    }
    ADD_FAILURE() << "no " << cf::opInfo(op).name;
    return 0;
  }
};

void writeAndDecode(Method& method, Written& w) {
  auto bytes = method.mb.write();
  ASSERT_TRUE(bytes) << bytes.error().message;
  w.bytes = std::move(bytes.value());
  w.cls = parseOk(w.bytes);
  const cf::Member& m = w.cls.methods.at(0);
  w.code = m.code();
  w.table = cf::findAttr<cf::StackMapTableAttr>(w.code->attributes);
  ASSERT_NE(w.table, nullptr);
  auto init = inst::initialState(w.cls, m);
  ASSERT_TRUE(init);
  auto decoded = inst::decodeFrames(*init, *w.table);
  ASSERT_TRUE(decoded) << "the frames do not decode";
  w.decoded = std::move(*decoded);
  // What HotSpot checks first ("bad type array size"): no frame names more locals or stack
  // words than the method has.
  for (const auto& d : w.decoded) {
    EXPECT_LE(d.state.locals.size(), w.code->maxLocals) << "frame at " << w.position(d.at);
    EXPECT_LE(d.state.stack.size(), w.code->maxStack) << "frame at " << w.position(d.at);
  }
}

std::vector<uint8_t> kinds(const std::vector<VType>& words) {
  std::vector<uint8_t> out;
  for (const VType& v : words) out.push_back(v.kind);
  return out;
}

// javac's encoding: the frame after the far branch appends a local to the frame before it,
// which the new frame at `skip` already declares. That frame must be encoded again, relative
// to the new one: left as it is, the append frame would declare four locals (max_locals 3),
// which HotSpot refuses ("StackMapTable format error: bad type array size").
TEST(RelaxFrame, FrameAfterTheNewOneIsEncodedRelativeToIt) {
  Method x(2, 3);
  cf::StackMapTableAttr& smt = x.frames();
  Label l1 = x.label(), l2 = x.label(), far = x.label();
  x.emit(Op::iload_0);
  x.emit(Op::istore_1);
  x.emit(Op::iload_0);
  x.jump(Op::ifeq, l1);
  x.emit(Op::iinc, 1, 1);
  x.bind(l1);  // frame: [I, I], appended to the initial [I]
  x.emit(Op::iload_1);
  x.emit(Op::istore_2);  // local 2 first assigned just before the far branch
  x.emit(Op::iload_2);
  x.jump(Op::ifeq, far);
  x.emit(Op::iload_2);
  x.jump(Op::ifne, l2);
  x.emit(Op::iinc, 1, 1);
  x.bind(l2);  // frame: [I, I, I], appended to l1's
  uint32_t afterL2 = x.emit(Op::nop);
  x.nops(kNops);
  x.bind(far);  // frame: same as l2's
  x.emit(Op::iload_1);
  x.emit(Op::ireturn);
  smt.frames.push_back(frame(252, l1, {inst::vtype::integer()}));
  smt.frames.push_back(frame(252, l2, {inst::vtype::integer()}));
  smt.frames.push_back(frame(0, far));

  inst::CodeEditor ed(x.mb.cls, *x.m);
  std::vector<cf::Insn> grow(100, insn(Op::nop));
  ed.insertBefore(afterL2, grow, 0);
  inst::EditOutcome o = ed.commit();
  ASSERT_TRUE(o.changed) << o.reason;

  Written w;
  writeAndDecode(x, w);
  if (HasFatalFailure()) return;
  uint32_t cond = w.find(Op::ifne);  // the inverted ifeq
  ASSERT_EQ(w.code->code.insns[cond + 1].op, Op::goto_w);
  uint32_t skip = cond + 2;
  ASSERT_EQ(w.decoded.size(), 4u);
  const std::vector<uint8_t> three = {1, 1, 1};
  const auto* s = w.at(skip);
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(kinds(s->state.locals), three);
  EXPECT_TRUE(s->state.stack.empty());
  EXPECT_EQ(w.table->frames[1].type, 255);  // full, at skip
  // The frame at l2 (now before the inserted nops): the same locals as at skip, encoded as
  // `same`, not as an append to them.
  const auto* f2 = &w.decoded[2];
  EXPECT_EQ(kinds(f2->state.locals), three);
  EXPECT_LT(w.table->frames[2].type, 64);
  EXPECT_EQ(kinds(w.decoded[3].state.locals), three);  // far: unchanged
  EXPECT_EQ(kinds(w.decoded[0].state.locals), (std::vector<uint8_t>{1, 1, 0}));
}

// A live local (CodeEditor::newLiveLocal, as mode alloc's state) that a patch between the
// closest frame and the far branch loads, and a `new` there: the state carried to `skip`
// must have the editor's new locals (without them the derivation stops at the load, "load
// from local 1 beyond max_locals", and the method is left unchanged), and the frame at skip
// holds the live local and the uninitialized object, named by the `new` itself.
TEST(RelaxFrame, NewFrameHasLiveLocalsAndUninitialized) {
  Method x(3, 1);
  cf::StackMapTableAttr& smt = x.frames();
  Label l1 = x.label(), far = x.label();
  int object = cf::raw(x.mb.cls.pool.addClass("java/lang/Object"));
  x.emit(Op::iload_0);
  x.jump(Op::ifeq, l1);
  x.emit(Op::iinc, 0, 1);
  x.bind(l1);  // frame: [I]
  uint32_t newAt = x.emit(Op::new_, object);
  x.emit(Op::dup);
  x.emit(Op::iload_0);
  x.jump(Op::ifeq, far);
  uint32_t fill = x.emit(Op::nop);
  x.nops(kNops);
  x.bind(far);
  x.emit(Op::invokespecial,
         cf::raw(x.mb.cls.pool.addMethodref("java/lang/Object", "<init>", "()V")));
  x.emit(Op::pop);
  x.emit(Op::iload_0);
  x.emit(Op::ireturn);
  Label newLabel = x.c().newLabel(newAt);
  VType uninit = inst::vtype::uninitialized(newLabel);
  smt.frames.push_back(frame(0, l1));
  smt.frames.push_back(frame(255, far, {inst::vtype::integer()}, {uninit, uninit}));

  inst::CodeEditor ed(x.mb.cls, *x.m);
  // A reference, as the alloc mode's thread state: its load pushes the local's type.
  uint16_t live = ed.newLiveLocal(inst::vtype::object(x.mb.cls.pool.addClass("java/lang/String")));
  std::vector<cf::Insn> use = {insn(Op::aload, live), insn(Op::pop)};
  std::vector<cf::Insn> grow(100, insn(Op::nop));
  ed.insertAtEntry(inst::Patch(x.mb.cls.pool).add(Op::aconst_null).add(Op::astore, live));
  ed.insertBefore(newAt, use, 1);
  ed.insertBefore(fill, grow, 0);
  inst::EditOutcome o = ed.commit();
  ASSERT_TRUE(o.changed) << o.reason;

  Written w;
  writeAndDecode(x, w);
  if (HasFatalFailure()) return;
  uint32_t cond = w.find(Op::ifne);
  ASSERT_EQ(w.code->code.insns[cond + 1].op, Op::goto_w);
  const auto* s = w.at(cond + 2);
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(kinds(s->state.locals), (std::vector<uint8_t>{1, 7}));  // p and the live local
  EXPECT_EQ(w.cls.pool.className(s->state.locals[1].cls), "java/lang/String");
  ASSERT_EQ(s->state.stack.size(), 2u);
  uint32_t newInsn = w.find(Op::new_);
  for (const VType& v : s->state.stack) {
    EXPECT_EQ(v.kind, inst::vtype::kUninitialized);
    EXPECT_EQ(w.position(v.newInsn), newInsn);
  }
}

}  // namespace
}  // namespace dragnet::test
