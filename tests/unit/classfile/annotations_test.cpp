// Annotations, parameter annotations, defaults and type annotations built by hand: the
// model for every element kind and target type; malformed ones kept raw (with the reason)
// without failing the class; hostile nesting depth.
#include <gtest/gtest.h>

#include <functional>

#include "../support/class_builder.h"

namespace dragnet::test {
namespace {

Bytes be2(int v) { return B({(v >> 8) & 0xFF, v & 0xFF}); }

// element_value encoders.
Bytes ev(char tag, uint16_t a) { return B({tag}) + be2(a); }
Bytes evEnum(uint16_t type, uint16_t name) { return B({'e'}) + be2(type) + be2(name); }
Bytes evArray(const std::vector<Bytes>& values) {
  Bytes b = B({'['}) + be2(static_cast<int>(values.size()));
  for (const Bytes& v : values) append(b, v);
  return b;
}
Bytes annotation(uint16_t type, const std::vector<std::pair<uint16_t, Bytes>>& pairs) {
  Bytes b = be2(type) + be2(static_cast<int>(pairs.size()));
  for (const auto& [name, value] : pairs) b = b + be2(name) + value;
  return b;
}
Bytes evNested(const Bytes& ann) { return B({'@'}) + ann; }
Bytes annotations(const std::vector<Bytes>& list) {
  Bytes b = be2(static_cast<int>(list.size()));
  for (const Bytes& a : list) append(b, a);
  return b;
}

TEST(AnnotationTest, EveryElementKind) {
  ClassBuilder b;
  PoolBuilder& p = b.pool;
  uint16_t type = p.utf8("Lp/Anno;");
  uint16_t i = p.integer(42), d = p.doubleBits(0x400921FB54442D18ull), f = p.floatBits(0x40490FDB),
           j = p.longValue(-9), s = p.utf8("text"), et = p.utf8("Lp/Color;"), en = p.utf8("RED"),
           c = p.utf8("Ljava/lang/String;"), inner = p.utf8("Lp/Inner;");
  const char names[] = "BCDFIJSZsec@[";
  std::vector<uint16_t> nameIdx;
  for (const char* n = names; *n; ++n) nameIdx.push_back(p.utf8(std::string("v") + *n));
  std::vector<std::pair<uint16_t, Bytes>> pairs = {
      {nameIdx[0], ev('B', i)},  {nameIdx[1], ev('C', i)},  {nameIdx[2], ev('D', d)},
      {nameIdx[3], ev('F', f)},  {nameIdx[4], ev('I', i)},  {nameIdx[5], ev('J', j)},
      {nameIdx[6], ev('S', i)},  {nameIdx[7], ev('Z', i)},  {nameIdx[8], ev('s', s)},
      {nameIdx[9], evEnum(et, en)}, {nameIdx[10], ev('c', c)},
      {nameIdx[11], evNested(annotation(inner, {{nameIdx[4], ev('I', i)}}))},
      {nameIdx[12], evArray({ev('I', i), evArray({}), evNested(annotation(inner, {}))})},
  };
  b.attributes.push_back(
      b.attr("RuntimeVisibleAnnotations", annotations({annotation(type, pairs)})));
  Bytes bytes = b.build();
  cf::ClassFile cls = parseOk(bytes);
  auto* rva = cf::findAttr<cf::RuntimeVisibleAnnotationsAttr>(cls.attributes);
  ASSERT_NE(rva, nullptr);
  ASSERT_EQ(rva->annotations.size(), 1u);
  const cf::Annotation& a = rva->annotations[0];
  EXPECT_EQ(cls.pool.utf8(a.type), "Lp/Anno;");
  ASSERT_EQ(a.pairs.size(), 13u);
  for (size_t k = 0; k < 13; ++k) {
    EXPECT_EQ(a.pairs[k].first, cf::CpIndex{nameIdx[k]});
    EXPECT_EQ(a.pairs[k].second.tag, static_cast<uint8_t>(names[k]));
  }
  EXPECT_EQ(cls.pool.integer(a.pairs[0].second.a), 42);
  EXPECT_EQ(cls.pool.doubleValue(a.pairs[2].second.a), 3.141592653589793);
  EXPECT_EQ(cls.pool.longValue(a.pairs[5].second.a), -9);
  EXPECT_EQ(cls.pool.utf8(a.pairs[8].second.a), "text");
  EXPECT_EQ(cls.pool.utf8(a.pairs[9].second.a), "Lp/Color;");
  EXPECT_EQ(cls.pool.utf8(a.pairs[9].second.b), "RED");
  EXPECT_EQ(cls.pool.utf8(a.pairs[10].second.a), "Ljava/lang/String;");
  ASSERT_EQ(a.pairs[11].second.nested.size(), 1u);
  EXPECT_EQ(cls.pool.utf8(a.pairs[11].second.nested[0].type), "Lp/Inner;");
  EXPECT_EQ(a.pairs[11].second.nested[0].pairs.size(), 1u);
  const auto& arr = a.pairs[12].second.values;
  ASSERT_EQ(arr.size(), 3u);
  EXPECT_EQ(arr[0].tag, 'I');
  EXPECT_EQ(arr[1].tag, '[');
  EXPECT_TRUE(arr[1].values.empty());
  EXPECT_EQ(arr[2].tag, '@');
  EXPECT_TRUE(RoundTrips(bytes));
}

TEST(AnnotationTest, ParameterAnnotationsAndDefaults) {
  ClassBuilder b;
  uint16_t t = b.pool.utf8("Lp/A;"), v = b.pool.utf8("value"), i = b.pool.integer(1);
  Bytes params = B({3}) + annotations({annotation(t, {})}) + annotations({}) +
                 annotations({annotation(t, {{v, ev('I', i)}}), annotation(t, {})});
  b.addMethod(0x401, "m", "(IJLjava/lang/String;)V",
              {b.attr("RuntimeInvisibleParameterAnnotations", params),
               b.attr("AnnotationDefault", evArray({ev('I', i), ev('I', i)}))});
  Bytes bytes = b.build();
  cf::ClassFile c = parseOk(bytes);
  auto* pa = cf::findAttr<cf::RuntimeInvisibleParameterAnnotationsAttr>(c.methods[0].attributes);
  ASSERT_NE(pa, nullptr);
  ASSERT_EQ(pa->parameters.size(), 3u);
  EXPECT_EQ(pa->parameters[0].size(), 1u);
  EXPECT_EQ(pa->parameters[1].size(), 0u);
  ASSERT_EQ(pa->parameters[2].size(), 2u);
  EXPECT_EQ(c.pool.utf8(pa->parameters[2][0].pairs.at(0).first), "value");
  auto* def = cf::findAttr<cf::AnnotationDefaultAttr>(c.methods[0].attributes);
  ASSERT_NE(def, nullptr);
  EXPECT_EQ(def->value.tag, '[');
  EXPECT_EQ(def->value.values.size(), 2u);
  EXPECT_TRUE(RoundTrips(bytes));
}

// A type_annotation: target bytes (type + info), a path, and an empty annotation of `type`.
Bytes typeAnno(const Bytes& target, const std::vector<std::pair<int, int>>& path, uint16_t type) {
  Bytes b = target + B({static_cast<int>(path.size())});
  for (auto [kind, arg] : path) append(b, B({kind, arg}));
  return b + annotation(type, {});
}

TEST(AnnotationTest, TypeAnnotationTargetsOutsideCode) {
  ClassBuilder b;
  uint16_t t = b.pool.utf8("Lp/T;");
  Bytes classLevel = annotations({typeAnno(B({0x00, 1}), {}, t),            // class type param 1
                                  typeAnno(B({0x10}) + be2(0xFFFF), {}, t),  // extends
                                  typeAnno(B({0x10, 0, 1}), {{3, 0}}, t),   // implements #1
                                  typeAnno(B({0x11, 0, 2}), {{0, 0}, {1, 0}}, t)});
  Bytes methodLevel = annotations({typeAnno(B({0x01, 0}), {}, t), typeAnno(B({0x12, 1, 0}), {}, t),
                                   typeAnno(B({0x14}), {}, t), typeAnno(B({0x15}), {}, t),
                                   typeAnno(B({0x16, 2}), {{2, 0}}, t),
                                   typeAnno(B({0x17, 0, 1}), {}, t)});
  b.attributes.push_back(b.attr("RuntimeVisibleTypeAnnotations", classLevel));
  b.addMethod(0x401, "m", "()V", {b.attr("RuntimeInvisibleTypeAnnotations", methodLevel)});
  b.addField(0, "f", "Ljava/util/List;",
             {b.attr("RuntimeVisibleTypeAnnotations",
                     annotations({typeAnno(B({0x13}), {{3, 0}, {0, 0}}, t)}))});
  Bytes bytes = b.build();
  cf::ClassFile c = parseOk(bytes);
  auto* ca = cf::findAttr<cf::RuntimeVisibleTypeAnnotationsAttr>(c.attributes);
  ASSERT_NE(ca, nullptr);
  ASSERT_EQ(ca->annotations.size(), 4u);
  EXPECT_EQ(ca->annotations[0].targetType, 0x00);
  EXPECT_EQ(ca->annotations[0].index, 1);
  EXPECT_EQ(ca->annotations[1].index, 0xFFFF);
  EXPECT_EQ(ca->annotations[2].path, (std::vector<std::pair<uint8_t, uint8_t>>{{3, 0}}));
  EXPECT_EQ(ca->annotations[3].index, 0);
  EXPECT_EQ(ca->annotations[3].index2, 2);
  EXPECT_EQ(ca->annotations[3].path.size(), 2u);
  EXPECT_EQ(c.pool.utf8(ca->annotations[3].annotation.type), "Lp/T;");
  auto* ma = cf::findAttr<cf::RuntimeInvisibleTypeAnnotationsAttr>(c.methods[0].attributes);
  ASSERT_NE(ma, nullptr);
  ASSERT_EQ(ma->annotations.size(), 6u);
  EXPECT_EQ(ma->annotations[1].targetType, 0x12);
  EXPECT_EQ(ma->annotations[1].index, 1);
  EXPECT_EQ(ma->annotations[1].index2, 0);
  EXPECT_EQ(ma->annotations[4].index, 2);
  EXPECT_EQ(ma->annotations[5].targetType, 0x17);
  EXPECT_EQ(ma->annotations[5].index, 1);
  EXPECT_TRUE(RoundTrips(bytes));
}

TEST(AnnotationTest, TypeAnnotationTargetsInCode) {
  ClassBuilder b;
  uint16_t t = b.pool.utf8("Lp/T;");
  uint16_t cls = b.pool.cls("java/lang/String");
  // 0 aload_0  1 checkcast  4 astore_1  5 aload_1  6 instanceof  9 pop  10 new  13 pop
  // 14 return  15 astore_2  16 return;  handler [0, 14) -> 15
  Bytes code = B({0x2A, 0xC0, 0, cls, 0x4C, 0x2B, 0xC1, 0, cls, 0x57, 0xBB, 0, cls, 0x57, 0xB1,
                  0x4D, 0xB1});
  Bytes rvta = annotations({
      typeAnno(B({0x40, 0, 2, 0, 5, 0, 10, 0, 1, 0, 14, 0, 3, 0, 2}), {}, t),  // two ranges
      typeAnno(B({0x41, 0, 1, 0, 0, 0, 17, 0, 0}), {}, t),  // to the end of the code
      typeAnno(B({0x42, 0, 0}), {}, t),                      // catch: handler #0
      typeAnno(B({0x43, 0, 6}), {}, t),                      // instanceof
      typeAnno(B({0x44, 0, 10}), {}, t),                     // new
      typeAnno(B({0x47, 0, 1, 0}), {{3, 0}}, t),              // cast, type argument 0
      typeAnno(B({0x4B, 0, 1, 1}), {}, t),                   // method reference type arg
  });
  AttrSpec a = b.attr("RuntimeVisibleTypeAnnotations", rvta);
  b.addCodeMethod("m", code, "(Ljava/lang/Object;)V", 2, 4,
                  {{0, 14, 15, b.pool.cls("java/lang/Exception")}}, {a});
  Bytes bytes = b.build();
  cf::ClassFile c = parseOk(bytes);
  const cf::CodeAttr* ca = c.methods[0].code();
  const cf::Code& k = ca->code;
  auto* tas = cf::findAttr<cf::RuntimeVisibleTypeAnnotationsAttr>(ca->attributes);
  ASSERT_NE(tas, nullptr);
  ASSERT_EQ(tas->annotations.size(), 7u);
  const auto& lv = tas->annotations[0].localVars;
  ASSERT_EQ(lv.size(), 2u);
  // insns: 0 aload_0@0 1 checkcast@1 2 astore_1@4 3 aload_1@5 4 instanceof@6 5 pop@9
  //        6 new@10 7 pop@13 8 return@14 9 astore_2@15 10 return@16 (length 17)
  EXPECT_EQ(k.position(lv[0].start), 3u);   // offset 5
  EXPECT_EQ(k.position(lv[0].end), 9u);     // 5 + 10 = 15
  EXPECT_EQ(lv[0].index, 1);
  EXPECT_EQ(k.position(lv[1].start), 8u);   // offset 14
  EXPECT_EQ(k.position(lv[1].end), 11u);    // 14 + 3 = 17, the end of the code
  EXPECT_EQ(lv[1].index, 2);
  const auto& lv2 = tas->annotations[1].localVars;
  ASSERT_EQ(lv2.size(), 1u);
  EXPECT_EQ(k.position(lv2[0].end), k.insns.size());  // the end of the code
  EXPECT_EQ(tas->annotations[2].index, 0);
  EXPECT_EQ(k.insns[k.position(tas->annotations[3].offset)].op, cf::Op::instanceof);
  EXPECT_EQ(k.insns[k.position(tas->annotations[4].offset)].op, cf::Op::new_);
  EXPECT_EQ(tas->annotations[5].targetType, 0x47);
  EXPECT_EQ(k.insns[k.position(tas->annotations[5].offset)].op, cf::Op::checkcast);
  EXPECT_EQ(tas->annotations[5].index2, 0);
  EXPECT_EQ(tas->annotations[6].index2, 1);
  EXPECT_TRUE(RoundTrips(bytes));
}

// ---- malformed: kept raw, with the reason ------------------------------------------------

struct Malformed {
  const char* what;
  std::function<Bytes(PoolBuilder&)> body;
  size_t badAt;  // offset within the attribute body of the reported problem
  const char* reason;
};

TEST(AnnotationTest, MalformedAnnotationsAreKeptRaw) {
  const Malformed cases[] = {
      {"unknown element tag",
       [](PoolBuilder& p) { return annotations({annotation(p.utf8("LA;"), {{p.utf8("x"), B({'X', 0, 1})}})}); },
       8, "unknown element_value tag 88"},
      {"type is an Integer",
       [](PoolBuilder& p) { return annotations({annotation(p.integer(5), {})}); }, 2,
       "expected Utf8, found Integer"},
      {"string value is an Integer",
       [](PoolBuilder& p) {
         return annotations({annotation(p.utf8("LA;"), {{p.utf8("x"), ev('s', p.integer(1))}})});
       },
       9, "expected Utf8, found Integer"},
      {"pair count beyond the data",
       [](PoolBuilder& p) { return B({0, 1}) + be2(p.utf8("LA;")) + B({0, 9}); }, 6, "exceeds"},
      {"annotation count beyond the data", [](PoolBuilder&) { return B({0x12, 0x34}); }, 2,
       "exceeds"},
      {"trailing bytes", [](PoolBuilder& p) { return annotations({annotation(p.utf8("LA;"), {})}) + B({7}); },
       6, "RuntimeVisibleAnnotations attribute has 1 bytes beyond its contents"},
      {"empty body", [](PoolBuilder&) { return Bytes{}; }, 0, "truncated"},
  };
  for (const Malformed& k : cases) {
    SCOPED_TRACE(k.what);
    ClassBuilder b;
    Bytes body = k.body(b.pool);
    b.attributes.push_back(b.attr("RuntimeVisibleAnnotations", body, "rva"));
    b.addMethod(0x401, "m", "()V", {b.attr("RuntimeVisibleAnnotations", body)});
    Layout layout;
    Bytes bytes = b.build(&layout);
    cf::ClassFile c = parseOk(bytes);
    ASSERT_EQ(c.attributes.size(), 1u);
    const auto* raw = std::get_if<cf::RawAttr>(&c.attributes[0].body);
    ASSERT_NE(raw, nullptr);
    EXPECT_EQ(raw->bytes.size(), body.size());
    EXPECT_TRUE(std::equal(raw->bytes.begin(), raw->bytes.end(), body.begin()));
    EXPECT_NE(raw->malformed.find(k.reason), std::string::npos) << raw->malformed;
    EXPECT_NE(raw->malformed.find(str("offset ", layout.attrBody("rva") + k.badAt)),
              std::string::npos)
        << raw->malformed;
    EXPECT_TRUE(std::holds_alternative<cf::RawAttr>(c.methods[0].attributes[0].body));
    EXPECT_TRUE(RoundTrips(bytes));
  }
}

TEST(AnnotationTest, OtherMalformedAnnotationFamiliesAreKeptRaw) {
  ClassBuilder b;
  uint16_t t = b.pool.utf8("LA;");
  // 0 nop  1 sipush 0  4 return
  Bytes code = B({0x00, 0x11, 0, 0, 0xB1});
  AttrSpec inCode1 = b.attr("RuntimeVisibleTypeAnnotations",
                            annotations({typeAnno(B({0x43, 0, 2}), {}, t)}));  // inside sipush
  AttrSpec inCode2 = b.attr("RuntimeInvisibleTypeAnnotations",
                            annotations({typeAnno(B({0x40, 0, 1, 0, 1, 0, 9, 0, 0}), {}, t)}));
  b.addCodeMethod("m", code, "()V", 1, 1, {}, {inCode1, inCode2});
  b.methods[0].attributes.push_back(b.attr("RuntimeVisibleParameterAnnotations", B({2, 0, 0})));
  b.methods[0].attributes.push_back(b.attr("AnnotationDefault", B({'q', 0, 1})));
  b.attributes.push_back(
      b.attr("RuntimeVisibleTypeAnnotations", annotations({typeAnno(B({0x99}), {}, t)})));
  Bytes bytes = b.build();
  cf::ClassFile c = parseOk(bytes);
  auto reason = [](const cf::Attribute& a) {
    const auto* raw = std::get_if<cf::RawAttr>(&a.body);
    return raw ? raw->malformed : std::string("<not raw>");
  };
  const auto& codeAttrs = c.methods[0].code()->attributes;
  EXPECT_NE(reason(codeAttrs[0]).find("code offset 2 is inside an instruction"), std::string::npos)
      << reason(codeAttrs[0]);
  EXPECT_NE(reason(codeAttrs[1]).find("code offset 10 is outside"), std::string::npos)
      << reason(codeAttrs[1]);
  EXPECT_NE(reason(c.methods[0].attributes[1]).find("count 2 exceeds the 2 bytes left"),
            std::string::npos)
      << reason(c.methods[0].attributes[1]);
  EXPECT_NE(reason(c.methods[0].attributes[2]).find("unknown element_value tag 113"),
            std::string::npos);
  EXPECT_NE(reason(c.attributes[0]).find("unknown type-annotation target_type 153"),
            std::string::npos);
  EXPECT_TRUE(RoundTrips(bytes));
  // The decoded code is unaffected by the labels the failed attributes looked at.
  cf::ClassFile again = parseOk(bytes);
  EXPECT_EQ(again.methods[0].code()->code.insns.size(), 3u);
  EXPECT_TRUE(SameBytes(bytes, writeOk(again)));
}

TEST(AnnotationTest, StrictAttributesStillFailTheClass) {
  {
    ClassBuilder b;
    b.addMethod(0x401, "m", "()V", {b.attr("Exceptions", B({0, 1, 0, b.pool.utf8("E")}), "ex")});
    Layout layout;
    cf::Error e = parseError(b.build(&layout));
    EXPECT_EQ(e.offset, layout.attrBody("ex") + 2);
    EXPECT_NE(e.toString().find("expected Class, found Utf8"), std::string::npos);
  }
  {
    ClassBuilder b("T", 55);
    uint16_t mh = b.pool.methodHandle(6, b.pool.methodref("T", "b", "()V"));
    uint16_t arg = b.pool.utf8("not loadable");
    b.attributes.push_back(b.attr("BootstrapMethods", B({0, 1, 0, mh, 0, 1, 0, arg}), "bsm"));
    Layout layout;
    cf::Error e = parseError(b.build(&layout));
    EXPECT_EQ(e.offset, layout.attrBody("bsm") + 6);
    EXPECT_EQ(e.cpIndex, arg);
  }
}

// ---- nesting depth -------------------------------------------------------------------------

// `depth` nested arrays around an int: [[[...I...]]].
Bytes nestedArrays(int depth, uint16_t intIndex) {
  Bytes b;
  for (int k = 0; k < depth; ++k) append(b, B({'[', 0, 1}));
  append(b, ev('I', intIndex));
  return b;
}
// `depth` nested annotations: @A(v=@A(v=...@A()...)).
Bytes nestedAnnotations(int depth, uint16_t type, uint16_t name) {
  Bytes b;
  for (int k = 0; k < depth; ++k) append(b, B({'@'}) + be2(type) + B({0, 1}) + be2(name));
  append(b, B({'@'}) + be2(type) + B({0, 0}));
  return b;
}

TEST(AnnotationTest, DeeplyNestedValuesBecomeRawNotStackOverflow) {
  for (int depth : {10000, 1000}) {
    SCOPED_TRACE(depth);
    ClassBuilder b;
    uint16_t t = b.pool.utf8("LA;"), v = b.pool.utf8("value"), i = b.pool.integer(0);
    Bytes arrays = annotations({annotation(t, {{v, nestedArrays(depth, i)}})});
    Bytes annos = annotations({annotation(t, {{v, nestedAnnotations(depth, t, v)}})});
    b.attributes.push_back(b.attr("RuntimeVisibleAnnotations", arrays));
    b.attributes.push_back(b.attr("RuntimeInvisibleAnnotations", annos));
    b.addMethod(0x401, "m", "()V", {b.attr("AnnotationDefault", nestedArrays(depth, i))});
    // A sibling with modest nesting after the hostile ones still parses: depth accounting
    // recovers from the failures.
    b.addMethod(0x401, "n", "()V", {b.attr("AnnotationDefault", nestedArrays(50, i))});
    Bytes bytes = b.build();
    auto r = cf::parseClass(bytes);
    ASSERT_TRUE(r.ok()) << r.error().toString();
    const cf::ClassFile& c = r.value();
    for (const cf::Attribute* a :
         {&c.attributes[0], &c.attributes[1], &c.methods[0].attributes[0]}) {
      const auto* raw = std::get_if<cf::RawAttr>(&a->body);
      ASSERT_NE(raw, nullptr);
      EXPECT_NE(raw->malformed.find("nested deeper than"), std::string::npos) << raw->malformed;
    }
    EXPECT_NE(cf::findAttr<cf::AnnotationDefaultAttr>(c.methods[1].attributes), nullptr);
    EXPECT_TRUE(RoundTrips(bytes));
  }
}

TEST(AnnotationTest, ModerateNestingIsModelledAndDepthIsPerValue) {
  ClassBuilder b;
  uint16_t t = b.pool.utf8("LA;"), v = b.pool.utf8("value"), i = b.pool.integer(0);
  // 40 sibling annotations, each 60 levels deep: fine as long as depth is restored after
  // each value (a cumulative count would reach 2400).
  std::vector<Bytes> list;
  for (int k = 0; k < 40; ++k) list.push_back(annotation(t, {{v, nestedArrays(60, i)}}));
  b.attributes.push_back(b.attr("RuntimeVisibleAnnotations", annotations(list)));
  Bytes bytes = b.build();
  cf::ClassFile c = parseOk(bytes);
  auto* rva = cf::findAttr<cf::RuntimeVisibleAnnotationsAttr>(c.attributes);
  ASSERT_NE(rva, nullptr);
  ASSERT_EQ(rva->annotations.size(), 40u);
  const cf::ElementValue* e = &rva->annotations[39].pairs.at(0).second;
  int levels = 0;
  while (e->tag == '[') {
    ASSERT_EQ(e->values.size(), 1u);
    e = &e->values[0];
    ++levels;
  }
  EXPECT_EQ(levels, 60);
  EXPECT_EQ(e->tag, 'I');
  EXPECT_TRUE(RoundTrips(bytes));
}

}  // namespace
}  // namespace dragnet::test
