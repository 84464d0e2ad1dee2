// The property checked by fuzz/classfile_fuzzer.cpp and tests/unit/classfile/fuzz_regression_test.cpp:
//
//   1. parseClass(bytes) either returns an Error or a model;
//   2. if it returns a model, the model is internally consistent (every pool index, label,
//      switch table and raw-attribute span it holds can be used through the read accessors
//      without going out of bounds), and
//   3. writeClass(model) succeeds and returns exactly `bytes` (losslessness), and
//   4. after appending constants to the pool the model still writes, and what it writes
//      parses again (the writer serializes from the model, never copies the input).
//
// Crashes, hangs and sanitizer reports are caught by the fuzzer / sanitizer runtime; a
// violation of 2-4 is reported as a non-empty `violation` string.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "classfile/class_file.h"
#include "classfile/mutf8.h"
#include "classfile/opcodes.h"

namespace dragnet::fuzz {

struct PropertyResult {
  bool parsed = false;
  std::string error;      // the parse error (Error::toString) when !parsed
  std::string violation;  // non-empty: the contract is broken (a library bug)
};

namespace detail {

using namespace dragnet::classfile;

// Instantiates ElementValue's special members before std::pair<CpIndex, ElementValue> is
// (clang 14 + libstdc++ 12 otherwise trip over the recursive Annotation/ElementValue types).
inline void instantiateAnnotationTypes() {
  ElementValue v;
  Annotation a;
  (void)v, (void)a;
}

class ModelChecker {
 public:
  ModelChecker(const ClassFile& c, std::span<const uint8_t> input) : c_(c), input_(input) {}

  // Returns an empty string if consistent, else the first inconsistency found.
  std::string run() {
    checkPool();
    cp(c_.thisClass, {Tag::Class}, "this_class");
    if (ok()) sink(c_.name());
    if (c_.superClass != CpIndex::None) {
      cp(c_.superClass, {Tag::Class}, "super_class");
      if (ok()) sink(c_.pool.className(c_.superClass));
    }
    for (CpIndex i : c_.interfaces) cp(i, {Tag::Class}, "interface");
    for (const Member& m : c_.fields) member(m);
    for (const Member& m : c_.methods) member(m);
    attributes(c_.attributes, nullptr);
    return violation_;
  }

 private:
  bool ok() const { return violation_.empty(); }
  void bad(std::string what) {
    if (ok()) violation_ = std::move(what);
  }
  // Keeps the optimizer from discarding accessor calls.
  void sink(std::string_view s) { hash_ = hash_ * 31 + s.size() + (s.empty() ? 0u : uint8_t(s[0])); }

  void cp(CpIndex i, TagSet allowed, const char* what) {
    if (!c_.pool.valid(i)) return bad(std::string(what) + ": invalid pool index " + std::to_string(raw(i)));
    if (!allowed.has(c_.pool.tag(i))) {
      bad(std::string(what) + ": pool #" + std::to_string(raw(i)) + " is " + tagName(c_.pool.tag(i)) +
          ", expected " + allowed.describe());
    }
  }
  void cpOrZero(CpIndex i, TagSet allowed, const char* what) {
    if (i != CpIndex::None) cp(i, allowed, what);
  }

  void checkPool() {
    const ConstantPool& pool = c_.pool;
    for (uint32_t n = 1; n < pool.count() && ok(); ++n) {
      CpIndex i{static_cast<uint16_t>(n)};
      if (!pool.valid(i)) continue;
      const CpEntry& e = pool[i];
      switch (e.tag) {
        case Tag::Utf8: {
          std::string u = mutf8::toUtf8(e.utf8);
          if (mutf8::isPlainAscii(e.utf8) && u != e.utf8) bad("toUtf8 changed a plain-ASCII constant");
          sink(u);
          if (!within(e.utf8.data(), e.utf8.size())) bad("Utf8 constant does not point into the input");
          break;
        }
        case Tag::Class:
          cp(CpIndex{e.a}, {Tag::Utf8}, "Class.name");
          if (ok()) sink(pool.className(i));
          break;
        case Tag::String:
        case Tag::MethodType:
        case Tag::Module:
        case Tag::Package: cp(CpIndex{e.a}, {Tag::Utf8}, "constant.utf8"); break;
        case Tag::Fieldref:
        case Tag::Methodref:
        case Tag::InterfaceMethodref:
          cp(CpIndex{e.a}, {Tag::Class}, "ref.class");
          cp(CpIndex{e.b}, {Tag::NameAndType}, "ref.name_and_type");
          if (ok()) {
            auto m = pool.memberRef(i);
            sink(m.owner), sink(m.name), sink(m.descriptor);
          }
          break;
        case Tag::NameAndType:
          cp(CpIndex{e.a}, {Tag::Utf8}, "NameAndType.name");
          cp(CpIndex{e.b}, {Tag::Utf8}, "NameAndType.descriptor");
          if (ok()) sink(pool.nameAndType(i).first);
          break;
        case Tag::Dynamic:
        case Tag::InvokeDynamic:
          cp(CpIndex{e.b}, {Tag::NameAndType}, "dynamic.name_and_type");
          break;
        case Tag::MethodHandle:
          cp(CpIndex{e.a}, {Tag::Fieldref, Tag::Methodref, Tag::InterfaceMethodref}, "MethodHandle.reference");
          break;
        case Tag::Integer: hash_ += static_cast<uint32_t>(pool.integer(i)); break;
        case Tag::Long: hash_ += static_cast<uint64_t>(pool.longValue(i)); break;
        case Tag::Float: hash_ += pool.floatValue(i) == 0.0f; break;
        case Tag::Double: hash_ += pool.doubleValue(i) == 0.0; break;
        default: bad("pool entry with unexpected tag"); break;
      }
      // Lookup finds the first equal entry: at or before this one, with the same tag.
      if (auto found = pool.find(e)) {
        if (raw(*found) > n || pool.tag(*found) != e.tag) bad("ConstantPool::find returned a wrong entry");
      } else {
        bad("ConstantPool::find does not find pool #" + std::to_string(n));
      }
    }
  }

  bool within(const void* p, size_t n) const {
    auto* b = static_cast<const uint8_t*>(p);
    if (n == 0) return true;
    return b >= input_.data() && b + n <= input_.data() + input_.size();
  }

  void member(const Member& m) {
    cp(m.name, {Tag::Utf8}, "member.name");
    cp(m.descriptor, {Tag::Utf8}, "member.descriptor");
    if (!ok()) return;
    sink(c_.memberName(m));
    sink(c_.memberDescriptor(m));
    if (const CodeAttr* code = m.code()) sink(code->code.insns.empty() ? "" : "x");
    attributes(m.attributes, nullptr);
  }

  // Label must name a position in `code`; `allowEnd`: may be the end of the code.
  void label(const Code* code, Label l, bool allowEnd, const char* what) {
    if (!code) return bad(std::string(what) + ": label outside a Code attribute");
    auto id = static_cast<uint32_t>(l);
    if (id >= code->labels.size()) return bad(std::string(what) + ": unknown label " + std::to_string(id));
    uint32_t pos = code->position(l);
    if (pos > code->insns.size() || (pos == code->insns.size() && !allowEnd)) {
      bad(std::string(what) + ": label " + std::to_string(id) + " is past the code");
    }
  }

  void codeAttr(const CodeAttr& a) {
    const Code& code = a.code;
    if (code.insns.empty()) return bad("Code without instructions");
    for (uint32_t pos : code.labels) {
      if (pos > code.insns.size()) return bad("label bound past the end of the code");
    }
    for (const Insn& insn : code.insns) {
      Format f = opInfo(insn.op).format;
      switch (f) {
        case Format::Wide:
        case Format::Invalid: return bad("instruction with invalid opcode in the model");
        case Format::Cp1:
        case Format::Cp2:
        case Format::InvokeInterface:
        case Format::InvokeDynamic:
        case Format::MultiANewArray: {
          cp(insn.cp(), TagSet{Tag::Integer, Tag::Float, Tag::Long, Tag::Double, Tag::String, Tag::Class,
                               Tag::MethodType, Tag::MethodHandle, Tag::Dynamic, Tag::Fieldref,
                               Tag::Methodref, Tag::InterfaceMethodref, Tag::InvokeDynamic},
             "instruction operand");
          if (!ok()) return;
          Tag t = c_.pool.tag(insn.cp());
          if (t == Tag::Fieldref || t == Tag::Methodref || t == Tag::InterfaceMethodref) {
            sink(c_.pool.memberRef(insn.cp()).name);
          } else if (t == Tag::Class) {
            sink(c_.pool.className(insn.cp()));
          }
          break;
        }
        case Format::Branch2:
        case Format::Branch4: label(&code, insn.target(), false, "branch target"); break;
        case Format::TableSwitch:
        case Format::LookupSwitch: {
          if (insn.a < 0 || static_cast<size_t>(insn.a) >= code.switches.size()) {
            return bad("switch instruction without its table");
          }
          const Switch& sw = code.switches[static_cast<size_t>(insn.a)];
          label(&code, sw.defaultTarget, false, "switch default");
          for (Label t : sw.targets) label(&code, t, false, "switch target");
          if (f == Format::LookupSwitch && sw.keys.size() != sw.targets.size()) {
            bad("lookupswitch keys and targets differ in size");
          }
          if (f == Format::TableSwitch && sw.targets.empty()) bad("empty tableswitch");
          break;
        }
        default: break;
      }
      if (!ok()) return;
    }
    std::vector<uint32_t> offsets = computeOffsets(code);
    if (offsets.size() != code.insns.size() + 1) return bad("computeOffsets returned a wrong size");
    for (size_t i = 1; i < offsets.size(); ++i) {
      if (offsets[i] <= offsets[i - 1]) return bad("instruction offsets are not increasing");
    }
    if (offsets.back() > 65535) return bad("code longer than 65535 bytes");
    for (const ExceptionHandler& h : a.handlers) {
      label(&code, h.start, false, "handler start");
      label(&code, h.end, true, "handler end");
      label(&code, h.handler, false, "handler pc");
      cpOrZero(h.catchType, {Tag::Class}, "catch_type");
      if (!ok()) return;
      if (code.position(h.start) >= code.position(h.end)) bad("empty exception range");
    }
    attributes(a.attributes, &code);
  }

  void typeAnnotation(const TypeAnnotation& t, const Code* code) {
    if (t.targetType >= 0x43 && t.targetType <= 0x4B) label(code, t.offset, false, "type annotation offset");
    for (const LocalVarTarget& v : t.localVars) {
      label(code, v.start, false, "localvar target start");
      label(code, v.end, true, "localvar target end");
    }
    annotation(t.annotation);
  }
  void annotation(const Annotation& a) {
    cp(a.type, {Tag::Utf8}, "annotation type");
    for (const auto& pair : a.pairs) {
      cp(pair.first, {Tag::Utf8}, "element name");
      elementValue(pair.second);
    }
  }
  void elementValue(const ElementValue& v) {
    if (v.tag == '@') {
      if (v.nested.size() != 1) return bad("'@' element value without exactly one annotation");
      annotation(v.nested[0]);
    } else if (v.tag == '[') {
      for (const ElementValue& e : v.values) elementValue(e);
    } else {
      if (!c_.pool.valid(v.a)) bad("element value with invalid pool index");
    }
  }

  void attributes(const std::vector<Attribute>& attrs, const Code* code) {
    for (const Attribute& attr : attrs) {
      if (!ok()) return;
      cp(attr.name, {Tag::Utf8}, "attribute name");
      if (!ok()) return;
      sink(c_.pool.utf8(attr.name));
      std::visit([&](const auto& body) { attribute(body, code); }, attr.body);
    }
  }

  template <class T>
  void attribute(const T& a, const Code* code) {
    if constexpr (std::is_same_v<T, RawAttr>) {
      if (!within(a.bytes.data(), a.bytes.size())) bad("raw attribute does not point into the input");
    } else if constexpr (std::is_same_v<T, CodeAttr>) {
      if (code) return bad("Code attribute nested in a Code attribute");
      codeAttr(a);
    } else if constexpr (std::is_same_v<T, LineNumberTableAttr>) {
      for (const auto& e : a.lines) label(code, e.start, false, "LineNumberTable start");
    } else if constexpr (std::is_base_of_v<LocalVariableTableAttr, T>) {
      for (const auto& e : a.vars) {
        label(code, e.start, false, "LocalVariableTable start");
        label(code, e.end, true, "LocalVariableTable end");
        cp(e.name, {Tag::Utf8}, "local variable name");
        cp(e.descriptor, {Tag::Utf8}, "local variable descriptor");
      }
    } else if constexpr (std::is_same_v<T, StackMapTableAttr>) {
      for (const Frame& f : a.frames) {
        label(code, f.at, false, "stack-map frame");
        for (const auto* list : {&f.locals, &f.stack}) {
          for (const VType& v : *list) {
            if (v.kind == 7) cp(v.cls, {Tag::Class}, "verification type class");
            if (v.kind == 8) label(code, v.newInsn, false, "uninitialized(new)");
            if (v.kind > 8) bad("verification type with unknown kind");
          }
        }
      }
    } else if constexpr (std::is_base_of_v<AnnotationsAttr, T>) {
      for (const Annotation& x : a.annotations) annotation(x);
    } else if constexpr (std::is_base_of_v<ParameterAnnotationsAttr, T>) {
      for (const auto& p : a.parameters) {
        for (const Annotation& x : p) annotation(x);
      }
    } else if constexpr (std::is_base_of_v<TypeAnnotationsAttr, T>) {
      for (const TypeAnnotation& x : a.annotations) typeAnnotation(x, code);
    } else if constexpr (std::is_same_v<T, AnnotationDefaultAttr>) {
      elementValue(a.value);
    } else if constexpr (std::is_same_v<T, BootstrapMethodsAttr>) {
      for (const auto& m : a.methods) {
        cp(m.handle, {Tag::MethodHandle}, "bootstrap method handle");
        for (CpIndex arg : m.args) {
          if (!c_.pool.valid(arg)) bad("bootstrap argument with invalid pool index");
        }
      }
    } else if constexpr (std::is_same_v<T, InnerClassesAttr>) {
      for (const auto& e : a.classes) {
        cp(e.inner, {Tag::Class}, "inner class");
        cpOrZero(e.outer, {Tag::Class}, "outer class");
        cpOrZero(e.name, {Tag::Utf8}, "inner name");
      }
    } else if constexpr (std::is_base_of_v<ClassListAttr, T>) {
      for (CpIndex i : a.entries) cp(i, {Tag::Class, Tag::Package}, "class list entry");
    } else if constexpr (std::is_same_v<T, RecordAttr>) {
      for (const auto& comp : a.components) {
        cp(comp.name, {Tag::Utf8}, "record component name");
        cp(comp.descriptor, {Tag::Utf8}, "record component descriptor");
        attributes(comp.attributes, nullptr);
      }
    } else if constexpr (std::is_same_v<T, SourceDebugExtensionAttr>) {
      if (!within(a.bytes.data(), a.bytes.size())) bad("SourceDebugExtension does not point into the input");
    } else if constexpr (std::is_same_v<T, SignatureAttr>) {
      cp(a.signature, {Tag::Utf8}, "Signature");
    } else if constexpr (std::is_same_v<T, SourceFileAttr>) {
      cp(a.file, {Tag::Utf8}, "SourceFile");
    } else if constexpr (std::is_same_v<T, ConstantValueAttr>) {
      cp(a.value, {Tag::Integer, Tag::Float, Tag::Long, Tag::Double, Tag::String}, "ConstantValue");
    }
    (void)code;
  }

  const ClassFile& c_;
  std::span<const uint8_t> input_;
  std::string violation_;
  uint64_t hash_ = 0;
};

inline std::string hexPrefix(std::span<const uint8_t> b, size_t at) {
  static const char* kHex = "0123456789abcdef";
  std::string s;
  for (size_t i = at; i < b.size() && i < at + 16; ++i) {
    s += kHex[b[i] >> 4];
    s += kHex[b[i] & 15];
    s += ' ';
  }
  return s;
}

}  // namespace detail

inline PropertyResult checkClassFile(std::span<const uint8_t> bytes) {
  using namespace dragnet::classfile;
  PropertyResult result;
  Result<ClassFile> parsed = parseClass(bytes);
  if (!parsed) {
    result.error = parsed.error().toString();
    return result;
  }
  result.parsed = true;
  ClassFile& cls = parsed.value();

  if (std::string v = detail::ModelChecker(cls, bytes).run(); !v.empty()) {
    result.violation = "inconsistent model: " + v;
    return result;
  }

  Result<std::vector<uint8_t>> written = writeClass(cls);
  if (!written) {
    result.violation = "losslessness: the class parses but writeClass fails: " + written.error().toString();
    return result;
  }
  const std::vector<uint8_t>& out = written.value();
  if (out.size() != bytes.size() || !std::equal(out.begin(), out.end(), bytes.begin())) {
    size_t at = 0;
    while (at < out.size() && at < bytes.size() && out[at] == bytes[at]) ++at;
    result.violation = "losslessness: writeClass output differs from the input: input " +
                       std::to_string(bytes.size()) + " bytes, output " + std::to_string(out.size()) +
                       " bytes, first difference at offset " + std::to_string(at) + " (input: " +
                       detail::hexPrefix(bytes, at) + "| output: " + detail::hexPrefix(out, at) + ")";
    return result;
  }

  // Edit the model: append constants (a full pool may refuse them), write and re-parse.
  std::string name(cls.name());
  try {
    CpIndex added = cls.pool.addClass("dragnet/fuzz/Added");
    cls.pool.addLong(0x0123456789abcdefLL);
    cls.pool.addMethodref(name, "fuzz", "()V");
    Result<std::vector<uint8_t>> edited = writeClass(cls);
    if (!edited) {
      result.violation = "after adding constants, writeClass fails: " + edited.error().toString();
      return result;
    }
    Result<ClassFile> again = parseClass(edited.value());
    if (!again) {
      result.violation = "after adding constants, the written class does not parse: " +
                         again.error().toString();
      return result;
    }
    if (again.value().name() != name || !again.value().pool.valid(added) ||
        again.value().pool.className(added) != "dragnet/fuzz/Added") {
      result.violation = "after adding constants, the re-parsed class differs";
      return result;
    }
  } catch (const ParseFailure& e) {
    // ConstantPool::add throws when the pool is full; anything else is a bug.
    if (e.error().message.find("constant pool full") == std::string::npos) {
      result.violation = "ConstantPool::add threw: " + e.error().message;
    }
  }
  return result;
}

}  // namespace dragnet::fuzz
