#include "flow/probe_code.h"

#include "contexts/probes.h"
#include "flow/tag_field.h"
#include "instrument/descriptor.h"

namespace dragnet::flow {

using classfile::Op;
using instrument::Patch;

uint16_t MethodProbes::scratch(std::string_view desc, char role) {
  std::string key(desc);
  key.push_back(role);
  auto& slot = scratch_[key];
  if (slot == 0) slot = r.scratchLocal(instrument::slotSize(desc)) + 1;
  return static_cast<uint16_t>(slot - 1);
}

uint16_t MethodProbes::fresh(std::string_view desc) {
  return r.scratchLocal(instrument::slotSize(desc));
}

Shadow MethodProbes::operand(uint32_t i, size_t fromTop) const {
  const auto& s = plan.stack[i];
  return fromTop <= s.size() ? s[s.size() - fromTop] : Shadow::bottom();
}

Patch& loadState(Patch& p, const MethodProbes& m) { return p.load(kObjectDesc, m.state); }

Patch& pushShadow(Patch& p, const Shadow& s, const MethodProbes& m) {
  switch (s.kind) {
    case Shadow::Kind::Local:
      return p.load("J", s.local);
    case Shadow::Kind::Const:
      return p.pushLong(static_cast<int64_t>(s.value));
    case Shadow::Kind::Frame:
      p.pushLong(static_cast<int64_t>(s.value));
      return pushContext(p, m).add(Op::i2l).add(Op::lor);
    default:
      return p.add(Op::lconst_0);
  }
}

Patch& pushTag(Patch& p, std::string_view cls, const MethodProbes& m) {
  if (!cls.starts_with("[") && !isDeniedTagClass(cls)) {
    return p.getField(cls, kTagField, "I");
  }
  loadState(p, m);
  return p.invokeStatic(kFlowClass, "tagOf",
                        std::string("(Ljava/lang/Object;") + contexts::kStateDesc + ")I");
}

Patch& pushElementNode(Patch& p, const MethodProbes& m) {
  loadState(p, m);
  return p.invokeStatic(kFlowClass, "elm",
                        std::string("(Ljava/lang/Object;") + contexts::kStateDesc + ")J");
}

Patch& composeNode(Patch& p, uint32_t field) {
  p.pushLong(static_cast<int64_t>(fieldBits(field)));
  return p.invokeStatic(kFlowClass, "field", "(IJ)J");
}

Patch& pushContext(Patch& p, const MethodProbes& m) {
  return m.context == kNoLocal ? p.add(Op::iconst_0) : p.load("I", m.context);
}

uint16_t parkFieldStoreObject(MethodProbes& m, uint32_t i, std::string_view fieldDesc) {
  std::string desc(fieldDesc[0] == 'L' || fieldDesc[0] == '[' ? kObjectDesc : fieldDesc);
  uint16_t val = m.scratch(desc, 'v'), x = m.scratch(kObjectDesc);
  Patch before = m.r.newPatch();
  before.store(desc, val).add(Op::dup).store(kObjectDesc, x).load(desc, val);
  m.r.before(i, before);
  return x;
}

CallArgs callArgs(const MethodProbes& m, uint32_t i) {
  CallArgs a;
  const classfile::Insn& in = m.r.insn(i);
  auto ref = m.r.pool().memberRef(in.cp());
  auto md = instrument::parseMethodDescriptor(ref.descriptor);
  if (!md) return a;
  if (in.op != Op::invokestatic) a.desc.emplace_back(kObjectDesc);
  for (std::string_view p : md->params) {
    a.desc.emplace_back(p[0] == 'L' || p[0] == '[' ? std::string_view(kObjectDesc) : p);
  }
  size_t depth = 0;
  a.shadow.resize(a.desc.size());
  for (size_t k = a.desc.size(); k-- > 0;) {
    depth += static_cast<size_t>(instrument::slotSize(a.desc[k]));
    a.shadow[k] = m.operand(i, depth);
  }
  a.ok = true;
  return a;
}

std::vector<uint16_t> parkArgs(MethodProbes& m, uint32_t i, const CallArgs& a) {
  std::vector<uint16_t> locals(a.desc.size());
  Patch p = m.r.newPatch();
  for (size_t k = a.desc.size(); k-- > 0;) {
    locals[k] = m.fresh(a.desc[k]);
    p.store(a.desc[k], locals[k]);
  }
  for (size_t k = 0; k < a.desc.size(); ++k) p.load(a.desc[k], locals[k]);
  m.r.before(i, p);
  return locals;
}

bool hasArg(int8_t pos, const CallArgs& a) {
  return pos >= 0 && static_cast<size_t>(pos) < a.desc.size();
}
bool isRefArg(int8_t pos, const CallArgs& a) {
  return hasArg(pos, a) && a.desc[static_cast<size_t>(pos)] == kObjectDesc;
}

}  // namespace dragnet::flow
