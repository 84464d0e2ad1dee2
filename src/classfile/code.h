// Decoded method code: an instruction list whose branch targets, exception ranges, line
// numbers, local-variable ranges and stack-map frames refer to labels, not offsets, so
// that code can be inserted or moved and every reference follows.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "classfile/constant_pool.h"
#include "classfile/opcodes.h"
#include "classfile/pooled_vector.h"

namespace dragnet::classfile {

// A position in the instruction list: the start of instruction `Code::labels[id]`, or the
// end of the code when that index equals insns.size(). In parsed code, label k is
// instruction k and label insns.size() the end (labels of edits and tools follow them);
// after an edit, labels keep their ids and follow their instructions.
enum class Label : uint32_t { None = 0xFFFFFFFF };

// One instruction. Operand use by format (see opcodes.h):
//   Local: a=index          Iinc: a=index, b=delta          S1/S2: a=value
//   Cp1/Cp2: a=pool index   Branch2/Branch4: a=label        switches: a=index in switches
//   InvokeInterface: a=pool index, b=count | zero-byte<<8   InvokeDynamic: a=index, b=zero u2
//   NewArray: a=atype       MultiANewArray: a=pool index, b=dimensions
// The zero/count bytes are kept as read so even unusual encodings round-trip exactly.
struct Insn {
  Op op = Op::nop;
  bool wide = false;  // encoded with the wide prefix
  int32_t a = 0;
  int32_t b = 0;

  Label target() const { return static_cast<Label>(a); }
  CpIndex cp() const { return CpIndex{static_cast<uint16_t>(a)}; }
};

struct Switch {
  Label defaultTarget = Label::None;
  int32_t low = 0;            // tableswitch: targets[i] is for key low + i
  std::vector<int32_t> keys;  // lookupswitch: sorted keys, parallel to targets
  std::vector<Label> targets;
  uint32_t padding = 0;  // the 0-3 padding bytes as read (nonzero only pre-51)
};

class Code {
 public:
  PooledVector<Insn> insns;
  std::vector<Switch> switches;
  PooledVector<uint32_t> labels;  // label id -> instruction index

  Label newLabel(uint32_t insnIndex) {
    labels.push_back(insnIndex);
    return static_cast<Label>(labels.size() - 1);
  }
  uint32_t position(Label l) const { return labels[static_cast<uint32_t>(l)]; }
};

// Byte offset of each instruction (plus a final entry: the code length), for the given
// layout. Used by the writer and by anyone who reports bytecode offsets.
std::vector<uint32_t> computeOffsets(const Code& code);
// The same into `offsets` (resized), for callers that reuse one vector across methods.
void computeOffsets(const Code& code, std::vector<uint32_t>& offsets);

// Encoded length of instruction i when it starts at `offset` (switch padding depends on it).
uint32_t encodedLength(const Code& code, const Insn& insn, uint32_t offset);

}  // namespace dragnet::classfile
