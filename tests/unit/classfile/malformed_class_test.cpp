// Malformed class structure and constant pool: each must be an Error (never a crash) that
// names what is wrong, where (offset), and which pool entry.
#include <gtest/gtest.h>

#include <chrono>
#include <functional>
#include <regex>

#include "../support/class_builder.h"

namespace dragnet::test {
namespace {

bool has(const cf::Error& e, const std::string& text) {
  return e.toString().find(text) != std::string::npos;
}
#define EXPECT_MENTIONS(e, text) EXPECT_TRUE(has(e, text)) << (e).toString()

// A small class touching most structures: a Long, interfaces, a field, two methods (one
// with a handler and line numbers), class attributes.
Bytes richClass(Layout* layout = nullptr) {
  ClassBuilder b("p/Rich");
  b.pool.longValue(1234567890123LL);
  b.interfaces = {b.pool.cls("java/lang/Runnable"), b.pool.cls("java/io/Serializable")};
  b.addField(0x2, "x", "J");
  b.addMethod(0x1, "run", "()V",
              {b.codeAttr(B({0x2A, 0xB6, 0, b.pool.methodref("p/Rich", "hashCode", "()I"), 0x57,
                             0xB1}),
                          1, 1, {{0, 5, 5, 0}},
                          {b.attr("LineNumberTable", B({0, 1, 0, 0, 0, 42}))})});
  b.addMethod(0x401, "abs", "()V");
  b.attributes.push_back(b.attr("SourceFile", B({0, b.pool.utf8("Rich.java")})));
  return b.build(layout);
}

TEST(MalformedClassTest, EveryPrefixFailsCleanly) {
  Bytes full = richClass();
  ASSERT_TRUE(RoundTrips(full));
  const std::regex left(R"((\d+) (bytes )?left)");
  for (size_t n = 0; n < full.size(); ++n) {
    SCOPED_TRACE(n);
    Bytes prefix(full.begin(), full.begin() + static_cast<ptrdiff_t>(n));
    auto r = cf::parseClass(prefix, {.nameHint = "Rich.class"});
    ASSERT_FALSE(r.ok());
    const cf::Error& e = r.error();
    ASSERT_TRUE(e.offset.has_value()) << e.toString();
    EXPECT_LE(*e.offset, n);
    bool truncated = has(e, "truncated") || has(e, "exceeds");
    EXPECT_TRUE(truncated) << e.toString();
    // "N left" is measured from the error offset to the end of the input.
    std::smatch m;
    std::string s = e.toString();
    ASSERT_TRUE(std::regex_search(s, m, left)) << s;
    EXPECT_EQ(std::stoul(m[1]), n - *e.offset) << s;
    // Before this_class is read the hint names the class, after it the class name does.
    EXPECT_TRUE(e.className == "Rich.class" || e.className == "p/Rich") << e.className;
  }
}

TEST(MalformedClassTest, BadMagic) {
  for (uint32_t magic : {0xCAFEBABFu, 0xBEBAFECAu, 0u, 0x504B0304u}) {
    ClassBuilder b;
    b.magic = magic;
    cf::Error e = parseError(b.build());
    EXPECT_EQ(e.offset, std::optional<size_t>(0));
    EXPECT_MENTIONS(e, "magic");
    EXPECT_MENTIONS(e, "not a class file");
  }
  cf::Error empty = parseError(Bytes{});
  EXPECT_EQ(empty.offset, std::optional<size_t>(0));
  EXPECT_MENTIONS(empty, "truncated");
}

TEST(MalformedClassTest, ClassNameInErrors) {
  ClassBuilder b("p/Named");
  b.trailing = {0};
  auto r = cf::parseClass(b.build(), {.nameHint = "lib.jar!/Hint.class"});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().className, "p/Named");
  EXPECT_EQ(r.error().toString().rfind("p/Named: offset ", 0), 0u) << r.error().toString();

  ClassBuilder bad("p/Named");
  bad.thisClass = 999;
  auto r2 = cf::parseClass(bad.build(), {.nameHint = "lib.jar!/Hint.class"});
  ASSERT_FALSE(r2.ok());
  EXPECT_EQ(r2.error().className, "lib.jar!/Hint.class");
}

TEST(MalformedClassTest, ThisClassIndexErrors) {
  struct Case {
    const char* what;
    std::function<uint16_t(ClassBuilder&)> index;
    const char* message;
  };
  const Case cases[] = {
      {"zero", [](ClassBuilder&) -> uint16_t { return 0; }, "invalid constant-pool index"},
      {"out of range", [](ClassBuilder& b) -> uint16_t { return b.pool.count() + 40; },
       "invalid constant-pool index"},
      {"second slot of a Long",
       [](ClassBuilder& b) -> uint16_t { return b.pool.longValue(5) + 1; },
       "invalid constant-pool index"},
      {"an Integer", [](ClassBuilder& b) { return b.pool.integer(5); },
       "expected Class, found Integer"},
      {"a Utf8", [](ClassBuilder& b) { return b.pool.utf8("p/X"); }, "expected Class, found Utf8"},
  };
  for (const Case& k : cases) {
    SCOPED_TRACE(k.what);
    ClassBuilder b;
    b.pool.cls("Test");
    b.pool.cls("java/lang/Object");
    uint16_t index = k.index(b);
    // Long slots need the pool to include them; "out of range" uses an index past the end.
    b.thisClass = index;
    Layout layout;
    cf::Error e = parseError(b.build(&layout));
    EXPECT_EQ(e.offset, layout.thisClass);
    EXPECT_EQ(e.cpIndex, index);
    EXPECT_MENTIONS(e, k.message);
    EXPECT_MENTIONS(e, str("constant pool #", index));
  }
}

TEST(MalformedClassTest, SuperClassRules) {
  {
    ClassBuilder b;
    b.superClass = b.pool.utf8("java/lang/Object");
    Layout layout;
    cf::Error e = parseError(b.build(&layout));
    EXPECT_EQ(e.offset, layout.superClass);
    EXPECT_EQ(e.cpIndex, b.superClass);
    EXPECT_MENTIONS(e, "expected Class, found Utf8");
  }
  {
    ClassBuilder b("p/NotObject");
    b.superName = "";
    Layout layout;
    cf::Error e = parseError(b.build(&layout));
    EXPECT_EQ(e.offset, layout.superClass);
    EXPECT_MENTIONS(e, "super_class is 0");
  }
  {
    ClassBuilder b("java/lang/Object");
    b.superName = "";
    Bytes bytes = b.build();
    EXPECT_EQ(parseOk(bytes).superClass, cf::CpIndex::None);
    EXPECT_TRUE(RoundTrips(bytes));
  }
  {
    ClassBuilder b("module-info", 53);
    b.superName = "";
    b.access = 0x8000;
    EXPECT_TRUE(RoundTrips(b.build()));
  }
}

TEST(MalformedClassTest, BrokenPoolReferences) {
  struct Case {
    const char* what;
    std::function<uint16_t(PoolBuilder&)> entry;  // returns the broken entry
    const char* message;
  };
  auto be = [](uint16_t a, uint16_t b) { return B({a >> 8, a & 0xFF, b >> 8, b & 0xFF}); };
  const Case cases[] = {
      {"Methodref -> Utf8 class",
       [&](PoolBuilder& p) { return p.raw(10, be(p.utf8("A"), p.nameAndType("m", "()V"))); },
       "refers to #"},
      {"Fieldref -> Class as NameAndType",
       [&](PoolBuilder& p) { return p.raw(9, be(p.cls("A"), p.cls("B"))); },
       "which is Class; expected NameAndType"},
      {"String -> Integer",
       [&](PoolBuilder& p) { return p.raw(8, B({0, p.integer(1)})); },
       "which is Integer; expected Utf8"},
      // The offset of a broken entry is found again by walking the entries before it: one
      // of every layout (and a non-ASCII Utf8) comes first here.
      {"String -> Integer, after entries of every layout",
       [&](PoolBuilder& p) {
         p.utf8("d\xC3\xA9j\xC3\xA0");
         p.floatBits(0x3FC00000);
         p.doubleBits(0x3FF8000000000000);
         p.methodHandle(6, p.methodref("A", "m", "()V"));
         p.methodType("()V");
         return p.raw(8, B({0, p.integer(1)}));
       },
       "which is Integer; expected Utf8"},
      {"Class -> 0", [&](PoolBuilder& p) { return p.raw(7, B({0, 0})); },
       "which is not a valid index"},
      {"NameAndType -> second slot of a Long",
       [&](PoolBuilder& p) {
         uint16_t l = p.longValue(9);
         return p.raw(12, be(p.utf8("n"), static_cast<uint16_t>(l + 1)));
       },
       "not a valid index"},
      {"InvokeDynamic -> Utf8 NameAndType",
       [&](PoolBuilder& p) { return p.raw(18, be(0, p.utf8("x"))); }, "expected NameAndType"},
      {"MethodHandle kind 0",
       [&](PoolBuilder& p) { return p.methodHandle(0, p.methodref("A", "m", "()V")); },
       "reference kind 0 not in 1..9"},
      {"MethodHandle kind 10",
       [&](PoolBuilder& p) { return p.methodHandle(10, p.methodref("A", "m", "()V")); },
       "reference kind 10 not in 1..9"},
      {"MethodHandle getField -> Methodref",
       [&](PoolBuilder& p) { return p.methodHandle(1, p.methodref("A", "m", "()V")); },
       "expected Fieldref"},
      {"MethodHandle invokeVirtual -> Fieldref",
       [&](PoolBuilder& p) { return p.methodHandle(5, p.fieldref("A", "f", "I")); },
       "expected Methodref"},
      {"MethodHandle invokeInterface -> Methodref",
       [&](PoolBuilder& p) { return p.methodHandle(9, p.methodref("A", "m", "()V")); },
       "expected InterfaceMethodref"},
      {"MethodHandle newInvokeSpecial -> non-<init>",
       [&](PoolBuilder& p) { return p.methodHandle(8, p.methodref("A", "make", "()V")); },
       "names method make"},
      {"MethodHandle invokeStatic -> <init>",
       [&](PoolBuilder& p) { return p.methodHandle(6, p.methodref("A", "<init>", "()V")); },
       "names method <init>"},
      {"MethodHandle invokeStatic -> <clinit>",
       [&](PoolBuilder& p) { return p.methodHandle(6, p.methodref("A", "<clinit>", "()V")); },
       "names method <clinit>"},
  };
  for (const Case& k : cases) {
    SCOPED_TRACE(k.what);
    ClassBuilder b("T", 55);
    uint16_t entry = k.entry(b.pool);
    cf::Error e = parseError(b.build());
    EXPECT_EQ(e.cpIndex, entry);
    EXPECT_EQ(e.offset, b.pool.entryOffset(entry));
    EXPECT_MENTIONS(e, k.message);
    EXPECT_MENTIONS(e, str("#", entry));
  }
}

TEST(MalformedClassTest, MethodHandleToInterfaceMethodNeedsVersion52) {
  for (uint16_t major : {51, 52}) {
    ClassBuilder b("T", major);
    uint16_t mh = b.pool.methodHandle(6, b.pool.interfaceMethodref("I", "m", "()V"));
    Bytes bytes = b.build();
    auto r = cf::parseClass(bytes);
    EXPECT_EQ(r.ok(), major == 52) << major;
    if (!r.ok()) {
      EXPECT_EQ(r.error().cpIndex, mh);
      EXPECT_MENTIONS(r.error(), "expected Methodref");
    }
  }
}

TEST(MalformedClassTest, UnknownPoolTag) {
  for (int tag : {0, 2, 13, 14, 21, 255}) {
    SCOPED_TRACE(tag);
    ClassBuilder b;
    b.pool.utf8("before");
    uint16_t bad = b.pool.raw(static_cast<uint8_t>(tag), B({0, 1}));
    cf::Error e = parseError(b.build());
    EXPECT_EQ(e.cpIndex, bad);
    EXPECT_EQ(e.offset, b.pool.entryOffset(bad));
    EXPECT_MENTIONS(e, str("unknown constant-pool tag ", tag));
  }
}

TEST(MalformedClassTest, PoolCountProblems) {
  {
    ClassBuilder b;
    b.poolCount = 0;
    cf::Error e = parseError(b.build());
    EXPECT_EQ(e.offset, std::optional<size_t>(8));
    EXPECT_MENTIONS(e, "constant_pool_count is 0");
  }
  {
    ClassBuilder b;
    b.pool.cls("Test");
    b.pool.cls("java/lang/Object");
    uint16_t l = b.pool.doubleBits(1);
    b.poolCount = static_cast<uint16_t>(l + 1);  // the Double's second slot is missing
    cf::Error e = parseError(b.build());
    EXPECT_EQ(e.cpIndex, l);
    EXPECT_EQ(e.offset, b.pool.entryOffset(l));
    EXPECT_MENTIONS(e, "last constant-pool slot");
  }
  {
    // A count of 65535 with a handful of entries fails before allocating anything large.
    ClassBuilder b;
    b.poolCount = 65535;
    cf::Error e = parseError(b.build());
    EXPECT_EQ(e.offset, std::optional<size_t>(10));
    EXPECT_MENTIONS(e, "count 65534 exceeds");
  }
}

// Counts far beyond the data fail fast, at the position right after the count (where the
// elements would begin; the message says how many bytes are left from there).
TEST(MalformedClassTest, OversizedCounts) {
  struct Case {
    const char* what;
    std::function<void(ClassBuilder&)> set;
    std::function<size_t(const Layout&)> countAt;
  };
  const Case cases[] = {
      {"interfaces", [](ClassBuilder& b) { b.interfacesCount = 65535; },
       [](const Layout& l) { return l.interfacesCount; }},
      {"fields", [](ClassBuilder& b) { b.fieldsCount = 60000; },
       [](const Layout& l) { return l.fieldsCount; }},
      {"methods", [](ClassBuilder& b) { b.methodsCount = 65535; },
       [](const Layout& l) { return l.methodsCount; }},
      {"class attributes", [](ClassBuilder& b) { b.attributesCount = 65535; },
       [](const Layout& l) { return l.attributesCount; }},
  };
  for (const Case& k : cases) {
    SCOPED_TRACE(k.what);
    ClassBuilder b;
    b.addCodeMethod("m", B({0xB1}));
    k.set(b);
    Layout layout;
    Bytes bytes = b.build(&layout);
    auto start = std::chrono::steady_clock::now();
    cf::Error e = parseError(bytes);
    auto elapsed = std::chrono::steady_clock::now() - start;
    EXPECT_LT(elapsed, std::chrono::milliseconds(200));
    EXPECT_EQ(e.offset, k.countAt(layout) + 2);
    EXPECT_MENTIONS(e, str("exceeds the ", bytes.size() - k.countAt(layout) - 2, " bytes left"));
  }
  {
    // A method's attribute count.
    ClassBuilder b;
    b.addMethod(0x401, "m", "()V");
    Layout layout;
    Bytes bytes = b.build(&layout);
    size_t countAt = layout.methods[0] + 6;
    bytes[countAt] = 0xFF;
    bytes[countAt + 1] = 0xFF;
    cf::Error e = parseError(bytes);
    EXPECT_EQ(e.offset, countAt + 2);
    EXPECT_MENTIONS(e, "count 65535 exceeds");
  }
}

TEST(MalformedClassTest, AttributeLengthBeyondTheEnd) {
  for (uint32_t length : {100u, 0x7FFFFFFFu, 0xFFFFFFFFu}) {
    SCOPED_TRACE(length);
    ClassBuilder b;
    AttrSpec a = b.attr("SourceFile", B({0, b.pool.utf8("T.java")}), "sf");
    a.length = length;
    b.attributes.push_back(a);
    Layout layout;
    cf::Error e = parseError(b.build(&layout));
    EXPECT_EQ(e.offset, layout.attrBody("sf"));
    EXPECT_MENTIONS(e, str("truncated: need ", length, " bytes, 2 left"));
  }
  {
    // An unknown attribute whose length runs past the end is an error too, not raw.
    ClassBuilder b;
    AttrSpec a = b.attr("Vendor", B({1, 2, 3}), "v");
    a.length = 4;
    b.attributes.push_back(a);
    Layout layout;
    cf::Error e = parseError(b.build(&layout));
    EXPECT_EQ(e.offset, layout.attrBody("v"));
  }
}

TEST(MalformedClassTest, AttributeLengthDisagreesWithItsContents) {
  {
    // SourceFile with 2 extra bytes inside its length.
    ClassBuilder b;
    b.attributes.push_back(b.attr("SourceFile", B({0, b.pool.utf8("T.java"), 0xEE, 0xEE}), "sf"));
    Layout layout;
    cf::Error e = parseError(b.build(&layout));
    EXPECT_EQ(e.offset, layout.attrBody("sf") + 2);
    EXPECT_MENTIONS(e, "SourceFile attribute has 2 bytes beyond its contents");
  }
  {
    // SourceFile whose length (1) cuts its index in half; the next byte is not read.
    ClassBuilder b;
    AttrSpec a = b.attr("SourceFile", B({0}), "sf");
    b.attributes.push_back(a);
    b.trailing = {};
    Layout layout;
    cf::Error e = parseError(b.build(&layout));
    EXPECT_EQ(e.offset, layout.attrBody("sf"));
    EXPECT_MENTIONS(e, "truncated");
  }
}

TEST(MalformedClassTest, TrailingBytes) {
  for (size_t extra : {1u, 100u}) {
    ClassBuilder b;
    b.addCodeMethod("m", B({0xB1}));
    b.trailing = Bytes(extra, 0);
    Layout layout;
    cf::Error e = parseError(b.build(&layout));
    EXPECT_EQ(e.offset, layout.end);
    EXPECT_MENTIONS(e, std::to_string(extra) + " extra bytes after the class file");
  }
}

TEST(MalformedClassTest, BootstrapIndexBeyondTheBootstrapMethodsAttribute) {
  for (bool dynamic : {false, true}) {
    for (int methods : {0, 1, 2}) {
      SCOPED_TRACE(std::to_string(dynamic) + " " + std::to_string(methods));
      ClassBuilder b("T", 55);
      uint16_t mh = b.pool.methodHandle(6, b.pool.methodref("T", "bsm", "()V"));
      uint16_t bad = dynamic ? b.pool.dynamic(static_cast<uint16_t>(methods), "x", "I")
                             : b.pool.invokeDynamic(static_cast<uint16_t>(methods), "x", "()V");
      if (methods > 0) {
        Bytes body = B({0, methods});
        for (int i = 0; i < methods; ++i) append(body, B({0, mh, 0, 0}));
        b.attributes.push_back(b.attr("BootstrapMethods", body));
      }
      cf::Error e = parseError(b.build());
      EXPECT_EQ(e.cpIndex, bad);
      EXPECT_MENTIONS(e, str("refers to bootstrap method ", methods,
                             ", but the BootstrapMethods attribute has ", methods));
      // The library reports no file offset for this cross check; if it ever does, it
      // must be the entry's.
      if (e.offset) {
        EXPECT_EQ(*e.offset, b.pool.entryOffset(bad));
      }
      EXPECT_EQ(e.className, "T");
    }
  }
  // In range is fine.
  ClassBuilder ok("T", 55);
  uint16_t mh = ok.pool.methodHandle(6, ok.pool.methodref("T", "bsm", "()V"));
  ok.pool.invokeDynamic(1, "x", "()V");
  ok.attributes.push_back(ok.attr("BootstrapMethods", B({0, 2, 0, mh, 0, 0, 0, mh, 0, 0})));
  EXPECT_TRUE(RoundTrips(ok.build()));
}

TEST(MalformedClassTest, MemberNameMustBeUtf8) {
  ClassBuilder b;
  b.methods.push_back(MemberSpec{0x401, b.pool.cls("m"), b.pool.utf8("()V"), {}});
  Layout layout;
  cf::Error e = parseError(b.build(&layout));
  EXPECT_EQ(e.offset, layout.methods[0] + 2);
  EXPECT_EQ(e.cpIndex, b.methods[0].name);
  EXPECT_MENTIONS(e, "expected Utf8, found Class");
}

TEST(MalformedClassTest, AttributeNameMustBeUtf8) {
  ClassBuilder b;
  AttrSpec a;
  a.name = b.pool.integer(3);
  a.mark = "a";
  b.attributes.push_back(a);
  Layout layout;
  cf::Error e = parseError(b.build(&layout));
  EXPECT_EQ(e.offset, layout.mark("a"));
  EXPECT_EQ(e.cpIndex, a.name);
  EXPECT_MENTIONS(e, "expected Utf8, found Integer");
}

}  // namespace
}  // namespace dragnet::test
