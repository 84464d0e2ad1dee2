#include "instrument/frame_state.h"

#include "instrument/descriptor.h"

namespace dragnet::instrument {

namespace cf = classfile;

namespace {

// A frame's declared locals entries after applying it to the previous declared entries.
std::optional<std::vector<cf::VType>> declaredLocals(const std::vector<cf::VType>& previous,
                                                     const cf::Frame& f) {
  if (f.type < 128 || f.type == 247 || f.type == 251) return previous;
  if (f.type >= 248 && f.type <= 250) {
    size_t chop = 251u - f.type;
    if (chop > previous.size()) return std::nullopt;
    return std::vector<cf::VType>(previous.begin(), previous.end() - static_cast<long>(chop));
  }
  if (f.type >= 252 && f.type <= 254) {
    std::vector<cf::VType> out = previous;
    out.insert(out.end(), f.locals.begin(), f.locals.end());
    return out;
  }
  if (f.type == 255) return f.locals;
  return std::nullopt;  // 128-246: reserved
}

}  // namespace

bool sameType(const cf::VType& a, const cf::VType& b, const cf::ConstantPool& pool,
              const cf::Code* code) {
  if (a.kind != b.kind) return false;
  if (a.kind == vtype::kObject) {
    return a.cls == b.cls || pool.className(a.cls) == pool.className(b.cls);
  }
  if (a.kind == vtype::kUninitialized) {
    if (a.newInsn == b.newInsn) return true;
    if (!code || a.newInsn == cf::Label::None || b.newInsn == cf::Label::None) return false;
    return code->position(a.newInsn) == code->position(b.newInsn);
  }
  return true;
}

std::optional<cf::VType> typeOfDescriptor(std::string_view desc, cf::ConstantPool& pool) {
  if (!isFieldDescriptor(desc)) return std::nullopt;
  switch (desc[0]) {
    case 'B':
    case 'C':
    case 'I':
    case 'S':
    case 'Z':
      return vtype::integer();
    case 'F':
      return vtype::floatType();
    case 'J':
      return vtype::longType();
    case 'D':
      return vtype::doubleType();
    default:
      return vtype::object(pool.addClass(classNameOf(desc)));
  }
}

std::vector<cf::VType> frameEntries(const std::vector<cf::VType>& words, bool trimTrailingTop) {
  std::vector<cf::VType> out;
  for (size_t i = 0; i < words.size(); ++i) {
    out.push_back(words[i]);
    if (vtype::isWide(words[i])) ++i;  // skip the second half
  }
  if (trimTrailingTop) {
    while (!out.empty() && out.back().kind == vtype::kTop) out.pop_back();
  }
  return out;
}

std::vector<cf::VType> wordsOf(const std::vector<cf::VType>& entries) {
  std::vector<cf::VType> out;
  for (const cf::VType& t : entries) {
    out.push_back(t);
    if (vtype::isWide(t)) out.push_back(vtype::top());
  }
  return out;
}

std::optional<FrameState> initialState(cf::ClassFile& cls, const cf::Member& method) {
  auto desc = parseMethodDescriptor(cls.memberDescriptor(method));
  if (!desc) return std::nullopt;
  FrameState s;
  try {
    if (!(method.access & cf::kAccStatic)) {
      bool uninit = cls.memberName(method) == "<init>" && cls.name() != "java/lang/Object";
      s.locals.push_back(uninit ? vtype::uninitializedThis() : vtype::object(cls.thisClass));
    }
    for (std::string_view p : desc->params) {
      auto t = typeOfDescriptor(p, cls.pool);
      if (!t) return std::nullopt;
      s.locals.push_back(*t);
      if (vtype::isWide(*t)) s.locals.push_back(vtype::top());
    }
  } catch (const cf::ParseFailure&) {
    return std::nullopt;  // constant pool full
  }
  if (const cf::CodeAttr* code = method.code()) {
    if (s.locals.size() < code->maxLocals) s.locals.resize(code->maxLocals, vtype::top());
  }
  return s;
}

std::optional<std::vector<DecodedFrame>> decodeFrames(const FrameState& initial,
                                                      const cf::StackMapTableAttr& table) {
  std::vector<DecodedFrame> out;
  std::vector<cf::VType> declared = frameEntries(initial.locals, true);
  for (const cf::Frame& f : table.frames) {
    auto locals = declaredLocals(declared, f);
    if (!locals) return std::nullopt;
    declared = std::move(*locals);
    DecodedFrame d;
    d.at = f.at;
    d.state.locals = wordsOf(declared);
    if (d.state.locals.size() < initial.locals.size()) {
      d.state.locals.resize(initial.locals.size(), vtype::top());
    }
    d.state.stack = wordsOf(f.stack);
    out.push_back(std::move(d));
  }
  return out;
}

bool isLocalStore(cf::Op op) {
  auto v = static_cast<uint8_t>(op);
  return v >= static_cast<uint8_t>(cf::Op::istore) && v <= static_cast<uint8_t>(cf::Op::astore_3);
}

std::optional<uint32_t> storedLocal(const cf::Insn& insn) {
  if (!isLocalStore(insn.op)) return std::nullopt;
  if (insn.op >= cf::Op::istore_0) {
    return static_cast<uint32_t>(static_cast<uint8_t>(insn.op) -
                                 static_cast<uint8_t>(cf::Op::istore_0)) %
           4;
  }
  return static_cast<uint32_t>(insn.a);
}

}  // namespace dragnet::instrument
