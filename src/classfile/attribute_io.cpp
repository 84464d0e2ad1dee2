// Attribute lists: recognising each attribute of JVMS 4.7 by name, place and version, and
// its layout (one description per attribute, used for reading and writing).
#include <algorithm>
#include <array>
#include <string>

#include "classfile/annotation_io.h"
#include "classfile/serial.h"

namespace dragnet::classfile::detail {
namespace {

constexpr TagSet kClass{Tag::Class};
constexpr TagSet kLoadable{Tag::Integer,      Tag::Float,      Tag::Long,
                           Tag::Double,       Tag::String,     Tag::Class,
                           Tag::MethodHandle, Tag::MethodType, Tag::Dynamic};

template <class S, class A>
void ioModule(S& s, A& a);
void ioStackMap(In& s, StackMapTableAttr& a);
void ioStackMap(Out& s, const StackMapTableAttr& a);

// The debug tables of every method (a third of a method's attribute bytes) are read from
// and written to the table's bytes after one bounds check for the whole table, instead of
// a checked read or write per field, with the same checks and error offsets as the field
// by field layout (In::label, In::length, In::cp). Layouts:
//   LineNumberTable:             u2 count, then per line {u2 start_pc, u2 line}
//   LocalVariable(Type)Table:    u2 count, then per variable {u2 start_pc, u2 length,
//                                u2 name (Utf8), u2 descriptor or signature (Utf8), u2 slot}
CodeLabels& codeLabels(const In& s, size_t at) {
  if (!s.ctx.labels) fail(at, "code offset outside of a Code attribute");
  return *s.ctx.labels;
}

// A table's count and entries: `v` gets `count` elements to fill, `at` the file offset of
// the first entry; returns its bytes.
template <class V>
const uint8_t* tableBytes(In& s, V& v, size_t entrySize, size_t& at) {
  const size_t n = s.r.u2();
  at = s.r.offset();
  s.r.needArray(n, entrySize);
  const uint8_t* p = s.r.bytes(n * entrySize).data();
  v.reuse();
  v.resize(n);
  return p;
}

void readLines(In& s, LineNumberTableAttr& a) {
  size_t at;
  const uint8_t* p = tableBytes(s, a.lines, 4, at);
  if (a.lines.empty()) return;
  const CodeLabels& cl = codeLabels(s, at);
  for (size_t i = 0; i < a.lines.size(); ++i, p += 4) {
    a.lines[i].start = cl.labelFor(loadU2(p), at + 4 * i);
    a.lines[i].line = loadU2(p + 2);
  }
}

void readVars(In& s, LocalVariableTableAttr& a) {
  size_t at;
  const uint8_t* p = tableBytes(s, a.vars, 10, at);
  if (a.vars.empty()) return;
  const CodeLabels& cl = codeLabels(s, at);
  const ConstantPool& pool = *s.ctx.pool;
  for (size_t i = 0; i < a.vars.size(); ++i, p += 10) {
    const size_t e = at + 10 * i;
    auto& v = a.vars[i];
    const uint32_t start = loadU2(p);
    v.start = cl.labelFor(start, e);
    v.end = cl.labelFor(start + loadU2(p + 2), e + 2, /*allowEnd=*/true);
    v.name = CpIndex{loadU2(p + 4)};
    pool.check(v.name, kUtf8Tag, e + 4);
    v.descriptor = CpIndex{loadU2(p + 6)};
    pool.check(v.descriptor, kUtf8Tag, e + 6);
    v.slot = loadU2(p + 8);
  }
}

// A table's count, then room for its entries: the writers below fill it in place.
uint8_t* tableRoom(Out& s, size_t count, size_t entrySize) {
  s.count(count, 2);
  uint8_t* p = s.w.room(count * entrySize);
  s.w.advance(count * entrySize);
  return p;
}

void writeLines(Out& s, const LineNumberTableAttr& a) {
  uint8_t* p = tableRoom(s, a.lines.size(), 4);
  const CodeLabels& cl = *s.ctx.labels;
  for (const auto& e : a.lines) {
    storeU2(p, static_cast<uint16_t>(cl.offsetOf(e.start)));
    storeU2(p + 2, e.line);
    p += 4;
  }
}

void writeVars(Out& s, const LocalVariableTableAttr& a) {
  uint8_t* p = tableRoom(s, a.vars.size(), 10);
  const CodeLabels& cl = *s.ctx.labels;
  for (const auto& e : a.vars) {
    const uint32_t start = cl.offsetOf(e.start);
    storeU2(p, static_cast<uint16_t>(start));
    storeU2(p + 2, static_cast<uint16_t>(cl.offsetOf(e.end) - start));
    storeU2(p + 4, raw(e.name));
    storeU2(p + 6, raw(e.descriptor));
    storeU2(p + 8, e.slot);
    p += 10;
  }
}

template <class S, class A>
void io(S& s, A& a) {
  using T = std::remove_const_t<A>;
  if constexpr (std::is_same_v<T, ConstantValueAttr>) {
    s.cp(a.value, {Tag::Integer, Tag::Float, Tag::Long, Tag::Double, Tag::String});
  } else if constexpr (std::is_same_v<T, SignatureAttr>) {
    s.cp(a.signature, kUtf8Tag);
  } else if constexpr (std::is_same_v<T, SourceFileAttr>) {
    s.cp(a.file, kUtf8Tag);
  } else if constexpr (std::is_same_v<T, NestHostAttr>) {
    s.cp(a.host, kClass);
  } else if constexpr (std::is_same_v<T, ModuleMainClassAttr>) {
    s.cp(a.mainClass, kClass);
  } else if constexpr (std::is_same_v<T, SyntheticAttr> || std::is_same_v<T, DeprecatedAttr>) {
    // no contents
  } else if constexpr (std::is_same_v<T, SourceDebugExtensionAttr>) {
    if constexpr (S::kReading) {
      a.bytes = s.r.bytes(s.r.remaining());
    } else {
      s.w.bytes(a.bytes);
    }
  } else if constexpr (std::is_same_v<T, ModulePackagesAttr>) {
    s.cpList(a.entries, {Tag::Package});
  } else if constexpr (std::is_base_of_v<ClassListAttr, T>) {
    s.cpList(a.entries, kClass);
  } else if constexpr (std::is_same_v<T, InnerClassesAttr>) {
    s.list(a.classes, 2, 8, [&](auto& e) {
      s.cp(e.inner, kClass);
      s.cpOrZero(e.outer, kClass);
      s.cpOrZero(e.name, kUtf8Tag);
      s.u2(e.flags);
    });
  } else if constexpr (std::is_same_v<T, EnclosingMethodAttr>) {
    s.cp(a.cls, kClass);
    s.cpOrZero(a.method, {Tag::NameAndType});
  } else if constexpr (std::is_same_v<T, LineNumberTableAttr>) {
    if constexpr (S::kReading) {
      readLines(s, a);
    } else {
      writeLines(s, a);
    }
  } else if constexpr (std::is_base_of_v<LocalVariableTableAttr, T>) {
    if constexpr (S::kReading) {
      readVars(s, a);
    } else {
      writeVars(s, a);
    }
  } else if constexpr (std::is_base_of_v<AnnotationsAttr, T>) {
    s.list(a.annotations, 2, 4, [&](auto& e) { ioAnnotation(s, e); });
  } else if constexpr (std::is_base_of_v<ParameterAnnotationsAttr, T>) {
    s.list(a.parameters, 1, 2,
           [&](auto& p) { s.list(p, 2, 4, [&](auto& e) { ioAnnotation(s, e); }); });
  } else if constexpr (std::is_base_of_v<TypeAnnotationsAttr, T>) {
    s.list(a.annotations, 2, 6, [&](auto& e) { ioTypeAnnotation(s, e); });
  } else if constexpr (std::is_same_v<T, AnnotationDefaultAttr>) {
    ioElementValue(s, a.value);
  } else if constexpr (std::is_same_v<T, BootstrapMethodsAttr>) {
    s.list(a.methods, 2, 4, [&](auto& m) {
      s.cp(m.handle, {Tag::MethodHandle});
      s.cpList(m.args, kLoadable);
    });
  } else if constexpr (std::is_same_v<T, MethodParametersAttr>) {
    s.list(a.parameters, 1, 4, [&](auto& p) {
      s.cpOrZero(p.name, kUtf8Tag);
      s.u2(p.flags);
    });
  } else if constexpr (std::is_same_v<T, ModuleAttr>) {
    ioModule(s, a);
  } else if constexpr (std::is_same_v<T, RecordAttr>) {
    s.list(a.components, 2, 6, [&](auto& c) {
      s.cp(c.name, kUtf8Tag);
      s.cp(c.descriptor, kUtf8Tag);
      if constexpr (S::kReading) {
        readAttributes(s.r, s.ctx, Where::RecordComponent, c.attributes);
      } else {
        writeAttributes(s.w, s.ctx, c.attributes);
      }
    });
  } else if constexpr (std::is_same_v<T, StackMapTableAttr>) {
    ioStackMap(s, a);
  } else {
    static_assert(sizeof(T) == 0, "no layout for this attribute");
  }
}

template <class S, class A>
void ioModule(S& s, A& a) {
  constexpr TagSet kModule{Tag::Module};
  s.cp(a.name, kModule);
  s.u2(a.flags);
  s.cpOrZero(a.version, kUtf8Tag);
  s.list(a.requires_, 2, 6, [&](auto& r) {
    s.cp(r.module, kModule);
    s.u2(r.flags);
    s.cpOrZero(r.version, kUtf8Tag);
  });
  auto exports = [&](auto& list) {
    s.list(list, 2, 6, [&](auto& e) {
      s.cp(e.package, {Tag::Package});
      s.u2(e.flags);
      s.cpList(e.to, kModule);
    });
  };
  exports(a.exports);
  exports(a.opens);
  s.cpList(a.uses, kClass);
  s.list(a.provides, 2, 4, [&](auto& p) {
    s.cp(p.service, kClass);
    s.cpList(p.with, kClass);
  });
}

// Always inline: one call per verification type cost as much as reading it.
template <class S, class V>
[[gnu::always_inline]] inline void ioVType(S& s, V& v) {
  auto at = s.at();
  s.u1(v.kind);
  if (v.kind == 7) {
    s.cp(v.cls, kClass);
  } else if (v.kind == 8) {
    s.label(v.newInsn);
  } else if (v.kind > 8) {
    fail(at, "unknown verification type tag " + std::to_string(v.kind));
  }
}

// The frame's layout after its type byte (and offset_delta, for types >= 247).
template <class S, class F>
void ioFrameBody(S& s, F& f) {
  auto vtypes = [&](auto& list, size_t n) {
    if constexpr (S::kReading) {
      reuse(list);  // a pooled buffer
      list.resize(n);
    }
    if (list.size() != n) fail(s.at(), "frame type does not match its verification types");
    for (auto& v : list) ioVType(s, v);
  };
  if (f.type < 64) return;
  if (f.type < 128 || f.type == 247) return vtypes(f.stack, 1);
  if (f.type < 247) fail(s.at(), "reserved stack-map frame type " + std::to_string(f.type));
  if (f.type <= 251) return;  // chop and same_frame_extended
  if (f.type < 255) return vtypes(f.locals, f.type - 251u);
  s.list(f.locals, 2, 1, [&](auto& v) { ioVType(s, v); });
  s.list(f.stack, 2, 1, [&](auto& v) { ioVType(s, v); });
}

void ioStackMap(In& s, StackMapTableAttr& a) {
  int64_t prev = -1;
  s.list(a.frames, 2, 1, [&](Frame& f) {
    size_t at = s.r.offset();
    f.type = s.r.u1();
    uint32_t delta = f.type < 64 ? f.type : f.type < 128 ? f.type - 64u : 0;
    if (f.type >= 247) delta = s.r.u2();
    ioFrameBody(s, f);
    if (!s.ctx.labels) fail(at, "StackMapTable outside a Code attribute");
    prev += int64_t{delta} + 1;
    // Deltas add up past 32 bits with enough frames; clamp so the range check sees it.
    f.at = s.ctx.labels->labelFor(static_cast<uint32_t>(std::min<int64_t>(prev, 0x10000)), at);
  });
}

void ioStackMap(Out& s, const StackMapTableAttr& a) {
  int64_t prev = -1;
  s.list(a.frames, 2, 1, [&](const Frame& f) {
    int64_t off = s.ctx.labels->offsetOf(f.at);
    if (off <= prev)
      fail(std::nullopt, "stack-map frames out of order at code offset " + std::to_string(off));
    auto delta = static_cast<uint32_t>(off - prev - 1);
    prev = off;
    uint8_t type = f.type;
    if (type < 64) {
      type = delta < 64 ? static_cast<uint8_t>(delta) : 251;
    } else if (type < 128) {
      type = delta < 64 ? static_cast<uint8_t>(64 + delta) : 247;
    }
    s.w.u1(type);
    if (type >= 247) s.w.u2(static_cast<uint16_t>(delta));
    Frame copy;  // the body layout depends on the (possibly new) type byte only
    const Frame* body = &f;
    if (type != f.type) {
      copy = f;
      copy.type = type;
      body = &copy;
    }
    ioFrameBody(s, *body);
  });
}

// ---- dispatch ----------------------------------------------------------------------

constexpr uint8_t bit(Where w) { return static_cast<uint8_t>(1u << static_cast<unsigned>(w)); }
constexpr uint8_t kC = bit(Where::Class), kF = bit(Where::Field), kM = bit(Where::Method),
                  kCode = bit(Where::Code), kR = bit(Where::RecordComponent);

struct Kind {
  std::string_view name;
  uint8_t places;     // where the JVM recognises it
  uint16_t minMajor;  // first class-file version that defines it
  // Lenient kinds (the JVM does not interpret them when loading) fall back to RawAttr with
  // the reason when malformed; strict ones make the class fail to parse, as in HotSpot.
  bool lenient;
  void (*read)(Reader&, Context&, AttrBody&);
  void (*write)(Writer&, Context&, const AttrBody&);
};

// Read in place: building the value apart and moving it into the variant cost a
// construction, a move and a destruction of every member per attribute. (The attribute
// list does not grow while its elements are read, so `body` stays put.)
template <class T>
void readAs(Reader& r, Context& ctx, AttrBody& body) {
  T& value = body.emplace<T>();
  if constexpr (std::is_same_v<T, CodeAttr>) {
    readCode(r, ctx, value);
  } else {
    In in(r, ctx);
    io(in, value);
  }
}

template <class T>
void writeAs(Writer& w, Context& ctx, const AttrBody& body) {
  if constexpr (std::is_same_v<T, CodeAttr>) {
    writeCode(w, ctx, std::get<T>(body));
  } else {
    Out out(w, ctx);
    io(out, std::get<T>(body));
  }
}

template <class T>
constexpr Kind kind(std::string_view name, uint8_t places, uint16_t minMajor,
                    bool lenient = false) {
  return Kind{name, places, minMajor, lenient, &readAs<T>, &writeAs<T>};
}

// In the order of the AttrBody alternatives (index 0, RawAttr, has no entry).
constexpr Kind kKinds[] = {
    kind<ConstantValueAttr>("ConstantValue", kF, 45),
    kind<CodeAttr>("Code", kM, 45),
    kind<StackMapTableAttr>("StackMapTable", kCode, 50),
    kind<ExceptionsAttr>("Exceptions", kM, 45),
    kind<InnerClassesAttr>("InnerClasses", kC, 45),
    kind<EnclosingMethodAttr>("EnclosingMethod", kC, 49),
    kind<SyntheticAttr>("Synthetic", kC | kF | kM, 45),
    kind<SignatureAttr>("Signature", kC | kF | kM | kR, 49),
    kind<SourceFileAttr>("SourceFile", kC, 45),
    kind<SourceDebugExtensionAttr>("SourceDebugExtension", kC, 49),
    kind<LineNumberTableAttr>("LineNumberTable", kCode, 45),
    kind<LocalVariableTableAttr>("LocalVariableTable", kCode, 45),
    kind<LocalVariableTypeTableAttr>("LocalVariableTypeTable", kCode, 49),
    kind<DeprecatedAttr>("Deprecated", kC | kF | kM, 45),
    kind<RuntimeVisibleAnnotationsAttr>("RuntimeVisibleAnnotations", kC | kF | kM | kR, 49, true),
    kind<RuntimeInvisibleAnnotationsAttr>("RuntimeInvisibleAnnotations", kC | kF | kM | kR, 49,
                                          true),
    kind<RuntimeVisibleParameterAnnotationsAttr>("RuntimeVisibleParameterAnnotations", kM, 49,
                                                 true),
    kind<RuntimeInvisibleParameterAnnotationsAttr>("RuntimeInvisibleParameterAnnotations", kM, 49,
                                                   true),
    kind<RuntimeVisibleTypeAnnotationsAttr>("RuntimeVisibleTypeAnnotations",
                                            kC | kF | kM | kCode | kR, 52, true),
    kind<RuntimeInvisibleTypeAnnotationsAttr>("RuntimeInvisibleTypeAnnotations",
                                              kC | kF | kM | kCode | kR, 52, true),
    kind<AnnotationDefaultAttr>("AnnotationDefault", kM, 49, true),
    kind<BootstrapMethodsAttr>("BootstrapMethods", kC, 51),
    kind<MethodParametersAttr>("MethodParameters", kM, 52),
    kind<ModuleAttr>("Module", kC, 53),
    kind<ModulePackagesAttr>("ModulePackages", kC, 53),
    kind<ModuleMainClassAttr>("ModuleMainClass", kC, 53),
    kind<NestHostAttr>("NestHost", kC, 55),
    kind<NestMembersAttr>("NestMembers", kC, 55),
    kind<RecordAttr>("Record", kC, 60),
    kind<PermittedSubclassesAttr>("PermittedSubclasses", kC, 61),
};
static_assert(std::size(kKinds) + 1 == std::variant_size_v<AttrBody>);

const Kind* lookup(std::string_view name, Where where, uint16_t major) {
  for (const Kind& k : kKinds) {
    if (k.name.size() == name.size() && k.name == name) {
      bool applies = (k.places & bit(where)) && major >= k.minMajor;
      return applies ? &k : nullptr;
    }
  }
  return nullptr;
}

const Kind* lookup(Context& ctx, CpIndex name, Where where) {
  const uint32_t key = (uint32_t{raw(name)} << 3 | static_cast<uint32_t>(where)) + 1;
  Context::KindMemo& m = ctx.kindMemo[(key ^ key >> 4) % ctx.kindMemo.size()];
  if (m.key == key) return m.kind == 0 ? nullptr : &kKinds[m.kind - 1];
  const Kind* k = lookup(ctx.pool->utf8(name), where, ctx.major);
  m = {key, static_cast<uint8_t>(k ? k - kKinds + 1 : 0)};
  return k;
}

}  // namespace

void readAttributes(Reader& r, Context& ctx, Where where, std::vector<Attribute>& out) {
  uint16_t n = r.u2();
  r.needArray(n, 6);
  out.resize(n);
  for (Attribute& attr : out) {
    size_t at = r.offset();
    attr.name = CpIndex{r.u2()};
    ctx.pool->check(attr.name, kUtf8Tag, at);
    uint32_t length = r.u4();
    Reader body = r.sub(length);
    const Kind* k = lookup(ctx, attr.name, where);
    if (!k) {
      attr.body = RawAttr{body.bytes(length), {}};
      continue;
    }
    int depth = ctx.depth;
    try {
      k->read(body, ctx, attr.body);
      if (!body.atEnd()) {
        fail(body.offset(), std::string(k->name) + " attribute has " +
                                std::to_string(body.remaining()) + " bytes beyond its contents");
      }
    } catch (ParseFailure& e) {
      if (!k->lenient) throw;
      ctx.depth = depth;
      body.seek(0);
      attr.body = RawAttr{body.bytes(length), e.error().toString()};
    }
  }
}

void writeAttributes(Writer& w, Context& ctx, const std::vector<Attribute>& attrs) {
  if (attrs.size() > 0xFFFF) fail(std::nullopt, "more than 65535 attributes");
  w.u2(static_cast<uint16_t>(attrs.size()));
  for (const Attribute& attr : attrs) {
    w.u2(raw(attr.name));
    size_t lengthAt = w.reserveU4();
    size_t start = w.size();
    if (const auto* rawAttr = std::get_if<RawAttr>(&attr.body)) {
      w.bytes(rawAttr->bytes);
    } else {
      kKinds[attr.body.index() - 1].write(w, ctx, attr.body);
    }
    w.patchU4(lengthAt, static_cast<uint32_t>(w.size() - start));
  }
}

std::string_view attributeKindName(const AttrBody& body) {
  return body.index() == 0 ? std::string_view("<raw>") : kKinds[body.index() - 1].name;
}

}  // namespace dragnet::classfile::detail
