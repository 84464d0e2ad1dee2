// Class-file versions: every supported major round-trips, the 45.0-45.2 Code layout, the
// limits, the minor-version rule from 56 on, and version-dependent attribute recognition.
#include <gtest/gtest.h>

#include "../support/class_builder.h"

namespace dragnet::test {
namespace {

// A class without StackMapTable: a field with ConstantValue, a method with a handler and
// line numbers, SourceFile.
Bytes simpleClass(uint16_t major, uint16_t minor, Layout* layout = nullptr) {
  ClassBuilder b("p/Simple", major, minor);
  uint16_t seven = b.pool.integer(7);
  b.addField(0x19, "SEVEN", "I", {b.attr("ConstantValue", B({0, seven}))});
  AttrSpec lines = b.attr("LineNumberTable", B({0, 2, 0, 0, 0, 5, 0, 4, 0, 6}));
  //  0 iload_0  1 ifeq +5 -> 6  4 iconst_1  5 ireturn  6 iconst_0  7 ireturn
  b.addCodeMethod("f", B({0x1A, 0x99, 0x00, 0x05, 0x04, 0xAC, 0x03, 0xAC}), "(I)I", 0xAB, 0xCD,
                  {{0, 6, 6, b.pool.cls("java/lang/Throwable")}}, {lines});
  b.attributes.push_back(b.attr("SourceFile", B({0, b.pool.utf8("Simple.java")})));
  return b.build(layout);
}

void patchVersion(Bytes& b, uint16_t major, uint16_t minor) {
  b[4] = static_cast<uint8_t>(minor >> 8);
  b[5] = static_cast<uint8_t>(minor);
  b[6] = static_cast<uint8_t>(major >> 8);
  b[7] = static_cast<uint8_t>(major);
}

void checkSimple(const cf::ClassFile& c) {
  ASSERT_EQ(c.methods.size(), 1u);
  const cf::CodeAttr* code = c.methods[0].code();
  ASSERT_NE(code, nullptr);
  EXPECT_EQ(code->maxStack, 0xAB);
  EXPECT_EQ(code->maxLocals, 0xCD);
  ASSERT_EQ(code->code.insns.size(), 6u);
  EXPECT_EQ(code->code.insns[1].op, cf::Op::ifeq);
  EXPECT_EQ(code->code.position(code->code.insns[1].target()), 4u);
  ASSERT_EQ(code->handlers.size(), 1u);
  EXPECT_EQ(code->code.position(code->handlers[0].end), 4u);
  auto* lnt = cf::findAttr<cf::LineNumberTableAttr>(code->attributes);
  ASSERT_NE(lnt, nullptr);
  ASSERT_EQ(lnt->lines.size(), 2u);
  EXPECT_EQ(lnt->lines[1].line, 6);
  EXPECT_EQ(code->code.position(lnt->lines[1].start), 2u);
  ASSERT_EQ(c.fields.size(), 1u);
  auto* cv = cf::findAttr<cf::ConstantValueAttr>(c.fields[0].attributes);
  ASSERT_NE(cv, nullptr);
  EXPECT_EQ(c.pool.integer(cv->value), 7);
}

TEST(VersionTest, EveryMajorFrom45To69RoundTrips) {
  Bytes base = simpleClass(52, 0);
  for (uint16_t major = cf::kMinMajor; major <= cf::kMaxMajor; ++major) {
    SCOPED_TRACE(major);
    Bytes b = base;
    patchVersion(b, major, major == 45 ? 3 : 0);
    auto r = cf::parseClass(b);
    ASSERT_TRUE(r.ok()) << r.error().toString();
    EXPECT_EQ(r.value().major, major);
    checkSimple(r.value());
    EXPECT_TRUE(RoundTrips(b));
  }
  EXPECT_EQ(cf::kMinMajor, 45);
  EXPECT_EQ(cf::kMaxMajor, 69);
}

TEST(VersionTest, OldCodeLayoutFor45Minor0To2) {
  for (uint16_t minor = 0; minor <= 3; ++minor) {
    SCOPED_TRACE(minor);
    Layout layout;
    Bytes b = simpleClass(45, minor, &layout);
    // The Code attribute's header is u1, u1, u2 for 45.0-45.2, else u2, u2, u4.
    size_t body = layout.attrBody("f");
    if (minor < 3) {
      EXPECT_EQ(b[body], 0xAB);
      EXPECT_EQ(b[body + 1], 0xCD);
      EXPECT_EQ(b[body + 2], 0);
      EXPECT_EQ(b[body + 3], 8);  // code_length
      EXPECT_EQ(layout.code("f"), body + 4);
    } else {
      EXPECT_EQ(layout.code("f"), body + 8);
    }
    auto r = cf::parseClass(b);
    ASSERT_TRUE(r.ok()) << r.error().toString();
    EXPECT_EQ(r.value().minor, minor);
    checkSimple(r.value());
    EXPECT_TRUE(RoundTrips(b));
  }
}

TEST(VersionTest, OldCodeLayoutWithLongerCode) {
  // 300 bytes of code: the u2 code_length needs both bytes.
  ClassBuilder b("T", 45, 0);
  Bytes code(299, 0x00);
  code.push_back(0xB1);
  b.addCodeMethod("m", code, "()V", 0, 0);
  Layout layout;
  Bytes bytes = b.build(&layout);
  size_t body = layout.attrBody("m");
  EXPECT_EQ(bytes[body + 2], 0x01);
  EXPECT_EQ(bytes[body + 3], 0x2C);
  cf::ClassFile c = parseOk(bytes);
  EXPECT_EQ(c.methods[0].code()->code.insns.size(), 300u);
  EXPECT_TRUE(RoundTrips(bytes));
}

TEST(VersionTest, ChangingTheVersionInTheModelSwitchesTheCodeLayout) {
  Bytes b52 = simpleClass(52, 0);
  cf::ClassFile c = parseOk(b52);
  c.major = 45;
  c.minor = 0;
  Bytes b45 = writeOk(c);
  EXPECT_EQ(b45.size(), b52.size() - 4);  // one Code attribute, 4 header bytes fewer
  cf::ClassFile again = parseOk(b45);
  checkSimple(again);
  // And back.
  again.major = 52;
  again.minor = 0;
  EXPECT_TRUE(SameBytes(b52, writeOk(again)));
}

TEST(VersionTest, UnsupportedMajorVersionsAreRejected) {
  struct Case {
    uint16_t major, minor;
    const char* text;
  };
  for (Case k : {Case{70, 0, "70.0"}, Case{44, 0, "44.0"}, Case{0, 0, "0.0"},
                 Case{65535, 65535, "65535.65535"}, Case{44, 3, "44.3"}}) {
    SCOPED_TRACE(k.text);
    Bytes b = simpleClass(52, 0);
    patchVersion(b, k.major, k.minor);
    cf::Error e = parseError(b);
    EXPECT_EQ(e.offset, std::optional<size_t>(6));
    EXPECT_EQ(e.cpIndex, std::nullopt);
    EXPECT_NE(e.toString().find(std::string("version ") + k.text), std::string::npos)
        << e.toString();
  }
}

TEST(VersionTest, MinorVersionRuleFrom56) {
  struct Case {
    uint16_t major, minor;
    bool ok;
  };
  const Case cases[] = {{56, 0, true},     {56, 65535, true},  {56, 1, false},
                        {61, 65534, false}, {69, 3, false},    {69, 65535, true},
                        {55, 1, true},      {52, 65535, true},  {46, 12, true}};
  for (Case k : cases) {
    SCOPED_TRACE(std::to_string(k.major) + "." + std::to_string(k.minor));
    Bytes b = simpleClass(52, 0);
    patchVersion(b, k.major, k.minor);
    auto r = cf::parseClass(b);
    EXPECT_EQ(r.ok(), k.ok);
    if (r.ok()) {
      EXPECT_EQ(r.value().minor, k.minor);
      EXPECT_TRUE(RoundTrips(b));
    } else {
      EXPECT_EQ(r.error().offset, std::optional<size_t>(4));
      std::string s = r.error().toString();
      EXPECT_NE(s.find(str("minor version ", k.minor)), std::string::npos) << s;
      EXPECT_NE(s.find(str("major version ", k.major)), std::string::npos) << s;
    }
  }
}

// Attributes are recognised only from the version that defines them (and only where they
// belong); elsewhere they are kept raw.
TEST(VersionTest, AttributesAreRecognisedFromTheirFirstVersion) {
  struct Case {
    const char* name;
    uint16_t firstMajor;
    size_t variantIndex;  // in AttrBody
  };
  auto build = [](uint16_t major, const char* name, Bytes* out) {
    ClassBuilder b("T", major);
    b.addCodeMethod("m", B({0xB1}));
    uint16_t host = b.pool.cls("Host");
    uint16_t sig = b.pool.utf8("Ljava/lang/Object;");
    std::string n = name;
    Bytes body = n == "Signature"             ? B({0, sig})
                 : n == "NestHost"            ? B({0, host})
                 : n == "PermittedSubclasses" ? B({0, 1, 0, host})
                 : n == "Record"              ? B({0, 0})
                 : n == "EnclosingMethod"     ? B({0, host, 0, 0})
                                              : B({0, 0});  // NestMembers: empty
    b.attributes.push_back(b.attr(name, body));
    *out = b.build();
  };
  const Case cases[] = {{"Signature", 49, 8},      {"EnclosingMethod", 49, 6},
                        {"NestHost", 55, 27},      {"NestMembers", 55, 28},
                        {"Record", 60, 29},        {"PermittedSubclasses", 61, 30}};
  for (const Case& k : cases) {
    SCOPED_TRACE(k.name);
    Bytes before, from;
    build(static_cast<uint16_t>(k.firstMajor - 1), k.name, &before);
    build(k.firstMajor, k.name, &from);
    cf::ClassFile c0 = parseOk(before);
    cf::ClassFile c1 = parseOk(from);
    ASSERT_EQ(c0.attributes.size(), 1u);
    ASSERT_EQ(c1.attributes.size(), 1u);
    const auto* raw = std::get_if<cf::RawAttr>(&c0.attributes[0].body);
    ASSERT_NE(raw, nullptr);
    EXPECT_TRUE(raw->malformed.empty());
    EXPECT_EQ(c1.attributes[0].body.index(), k.variantIndex);
    EXPECT_TRUE(RoundTrips(before));
    EXPECT_TRUE(RoundTrips(from));
  }
  static_assert(std::is_same_v<std::variant_alternative_t<8, cf::AttrBody>, cf::SignatureAttr>);
  static_assert(std::is_same_v<std::variant_alternative_t<6, cf::AttrBody>, cf::EnclosingMethodAttr>);
  static_assert(std::is_same_v<std::variant_alternative_t<27, cf::AttrBody>, cf::NestHostAttr>);
  static_assert(std::is_same_v<std::variant_alternative_t<28, cf::AttrBody>, cf::NestMembersAttr>);
  static_assert(std::is_same_v<std::variant_alternative_t<29, cf::AttrBody>, cf::RecordAttr>);
  static_assert(
      std::is_same_v<std::variant_alternative_t<30, cf::AttrBody>, cf::PermittedSubclassesAttr>);
}

TEST(VersionTest, StackMapTableIsRecognisedFrom50) {
  for (uint16_t major : {49, 50}) {
    SCOPED_TRACE(major);
    ClassBuilder b("T", major);
    // 0 iconst_0  1 ifeq -> 5   4 nop   5 return; frame: same_frame at 5.
    AttrSpec smt = b.attr("StackMapTable", B({0, 1, 5}));
    b.addCodeMethod("m", B({0x03, 0x99, 0, 4, 0x00, 0xB1}), "()V", 1, 0, {}, {smt});
    Bytes bytes = b.build();
    cf::ClassFile c = parseOk(bytes);
    const auto& attrs = c.methods[0].code()->attributes;
    ASSERT_EQ(attrs.size(), 1u);
    if (major == 49) {
      EXPECT_TRUE(std::holds_alternative<cf::RawAttr>(attrs[0].body));
    } else {
      auto* f = std::get_if<cf::StackMapTableAttr>(&attrs[0].body);
      ASSERT_NE(f, nullptr);
      ASSERT_EQ(f->frames.size(), 1u);
      EXPECT_EQ(f->frames[0].type, 5);
      EXPECT_EQ(c.methods[0].code()->code.position(f->frames[0].at), 3u);
    }
    EXPECT_TRUE(RoundTrips(bytes));
  }
}

TEST(VersionTest, AttributesInTheWrongPlaceAreKeptRaw) {
  ClassBuilder b;
  uint16_t seven = b.pool.integer(7);
  // ConstantValue on a method, SourceFile in Code, Code on a field.
  AttrSpec inCode = b.attr("SourceFile", B({0, b.pool.utf8("X.java")}));
  b.addCodeMethod("m", B({0xB1}), "()V", 0, 0, {}, {inCode});
  b.methods[0].attributes.push_back(b.attr("ConstantValue", B({0, seven})));
  b.addField(0, "f", "I", {b.attr("Code", B({1, 2, 3}))});
  Bytes bytes = b.build();
  cf::ClassFile c = parseOk(bytes);
  EXPECT_TRUE(std::holds_alternative<cf::RawAttr>(c.methods[0].code()->attributes[0].body));
  EXPECT_TRUE(std::holds_alternative<cf::RawAttr>(c.methods[0].attributes[1].body));
  EXPECT_TRUE(std::holds_alternative<cf::RawAttr>(c.fields[0].attributes[0].body));
  EXPECT_TRUE(RoundTrips(bytes));
}

// Attributes javac does not emit (jar tools and other compilers do), built by hand.
TEST(VersionTest, RareAttributesDecode) {
  ClassBuilder b("module-info", 53);
  b.superName = "";
  b.access = 0x8000;
  uint16_t mod = b.pool.module("m"), pkg = b.pool.package("p/q"), main = b.pool.cls("p/q/Main");
  //  name, flags, version 0; no requires/exports/opens/uses/provides
  b.attributes.push_back(b.attr("Module", B({0, mod, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0})));
  b.attributes.push_back(b.attr("ModulePackages", B({0, 1, 0, pkg})));
  b.attributes.push_back(b.attr("ModuleMainClass", B({0, main})));
  b.attributes.push_back(b.attr("SourceDebugExtension", B({'S', 'M', 'A', 'P', 0})));
  b.attributes.push_back(b.attr("Deprecated", {}));
  b.addField(0x1000, "f", "I", {b.attr("Synthetic", {})});
  Bytes bytes = b.build();
  cf::ClassFile c = parseOk(bytes);
  auto* mp = cf::findAttr<cf::ModulePackagesAttr>(c.attributes);
  ASSERT_NE(mp, nullptr);
  ASSERT_EQ(mp->entries.size(), 1u);
  EXPECT_EQ(c.pool.tag(mp->entries[0]), cf::Tag::Package);
  auto* mm = cf::findAttr<cf::ModuleMainClassAttr>(c.attributes);
  ASSERT_NE(mm, nullptr);
  EXPECT_EQ(c.pool.className(mm->mainClass), "p/q/Main");
  auto* sde = cf::findAttr<cf::SourceDebugExtensionAttr>(c.attributes);
  ASSERT_NE(sde, nullptr);
  EXPECT_EQ(sde->bytes.size(), 5u);
  EXPECT_EQ(sde->bytes[3], 'P');
  EXPECT_NE(cf::findAttr<cf::DeprecatedAttr>(c.attributes), nullptr);
  EXPECT_NE(cf::findAttr<cf::SyntheticAttr>(c.fields.at(0).attributes), nullptr);
  auto* m = cf::findAttr<cf::ModuleAttr>(c.attributes);
  ASSERT_NE(m, nullptr);
  EXPECT_EQ(m->name, cf::CpIndex{mod});
  EXPECT_TRUE(m->requires_.empty());
  EXPECT_TRUE(RoundTrips(bytes));
  // ModulePackages must name Package entries.
  ClassBuilder bad("module-info", 53);
  bad.superName = "";
  bad.access = 0x8000;
  uint16_t notPkg = bad.pool.utf8("p/q");
  bad.attributes.push_back(bad.attr("ModulePackages", B({0, 1, 0, notPkg})));
  cf::Error e = parseError(bad.build());
  EXPECT_EQ(e.cpIndex, notPkg);
  EXPECT_NE(e.toString().find("expected Package, found Utf8"), std::string::npos) << e.toString();
}

}  // namespace
}  // namespace dragnet::test
