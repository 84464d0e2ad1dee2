// Helpers of the alloc instrumenter's unit tests (alloc_instrumenter_test.cpp,
// alloc_model_test.cpp): instruction listings of rewritten methods, the probe sequences
// mode alloc inserts, and small classes made with the class-file library.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "../../e2e_hard/hard_cases.h"
#include "contexts/probes.h"
#include "profile/format.h"

namespace dragnet::test::hard::alloc_case {

namespace alloc = dragnet::contexts;
using cf::Op;
using profile::ElemKind;
using profile::SiteKind;
using Lines = std::vector<std::string>;

// ---- listings ----------------------------------------------------------------------------------

// One line per instruction of method `name` (`desc`: any if empty): its opcode and operands,
// constants resolved ("ldc -2147483616", "getfield java/lang/DragnetState.sp:I",
// "invokestatic java/lang/DragnetRt.leaf(I)V"), branch targets as instruction indices
// ("goto ->6").
Lines listing(const cf::ClassFile& cls, std::string_view name, std::string_view desc = {});
// The method's Code attribute (fails the test if there is none).
const cf::CodeAttr& codeOf(const cf::ClassFile& cls, std::string_view name,
                           std::string_view desc = {});
// Concatenates line groups.
Lines join(std::initializer_list<Lines> groups);

// Single instructions as listed: a local's load or store ("aload_2", "istore 4"), an int
// pushed ("iconst_3", "bipush 10"), an int constant, a call of DragnetRt.
std::string local(std::string_view op, int slot);
std::string push(int v);
std::string ldc(uint32_t v);
std::string rt(std::string_view nameDesc);
inline const std::string kSp = "java/lang/DragnetState.sp:I";

// Mode alloc's inline code, with the state S, the depth D, the context N and the count C
// in the given slots: S = DragnetRt.enter(id); D = S.sp - 1 (and with bytecodes=on,
// N = S.node; C = 0); the exit S.sp = D; the flush S.insns[N] += C; a block's C += size.
Lines enter(int id, int s, int d);
Lines enterCounting(int id, int s, int d, int n, int c);
Lines exitCode(int s, int d);
Lines flush(int s, int n, int c);
Lines blockCount(int c, int size);

// ---- instrumenting ----------------------------------------------------------------------------

// One class instrumented, written and parsed back (`cls` refers into `bytes`).
struct Rewritten {
  alloc::ClassResult result;
  Bytes bytes;
  cf::ClassFile cls;
};
std::unique_ptr<Rewritten> rewrite(const Bytes& original, alloc::IdSource& ids,
                                   bool bytecodes = false, bool callSlots = false);

// A profile::SiteDef as one comparable line.
std::string siteLine(const profile::SiteDef& s);
std::string siteLine(uint32_t key, uint32_t method, uint32_t bci, int line, SiteKind kind,
                     std::string type);

// ---- classes made with the class-file library -------------------------------------------------

cf::Insn cpInsn(Op op, cf::CpIndex i, int32_t b = 0);
// A method of straight-line code (static unless `access` says otherwise).
void define(ModelBuilder& m, std::string_view name, std::string_view desc,
            std::vector<cf::Insn> insns, uint16_t maxStack = 2, uint16_t maxLocals = 2,
            uint16_t access = 0x9);
// new java/lang/Object; dup; invokespecial <init>; areturn.
std::vector<cf::Insn> newObject(cf::ConstantPool& pool);
Bytes writeModel(const ModelBuilder& m);
// Class DynCases: calls of the natives that allocate a type known only at run time
// (arr: Array.newArray, multi: Array.multiNewArray, inst: Unsafe.allocateInstance) and of
// Array.newInstance (viaNewInstance), which is Java code (its own call of newArray is
// probed in the JDK).
Bytes dynCases();

}  // namespace dragnet::test::hard::alloc_case
