// Constant pool: duplicate-free additions, reuse of parsed entries, the two-slot rule, the
// 65535-slot limit, and bit-exact Float/Double payloads.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdio>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "../support/class_builder.h"

namespace dragnet::test {
namespace {

using cf::CpIndex;
using cf::Tag;

uint16_t idx(CpIndex i) { return cf::raw(i); }

TEST(ClassBuilderTest, MinimalClassParsesWithExpectedNames) {
  ClassBuilder b("p/Minimal");
  b.addCodeMethod("m", B({0xB1}));
  Bytes bytes = b.build();
  cf::ClassFile c = parseOk(bytes);
  EXPECT_EQ(c.name(), "p/Minimal");
  EXPECT_EQ(c.pool.className(c.superClass), "java/lang/Object");
  EXPECT_EQ(c.major, 52);
  ASSERT_EQ(c.methods.size(), 1u);
  EXPECT_EQ(c.memberName(c.methods[0]), "m");
  EXPECT_EQ(c.memberDescriptor(c.methods[0]), "()V");
  ASSERT_NE(c.methods[0].code(), nullptr);
  EXPECT_EQ(c.methods[0].code()->code.insns.size(), 1u);
  EXPECT_TRUE(RoundTrips(bytes));
}

TEST(ConstantPoolTest, EveryAddableTagIsAddedOnce) {
  ModelBuilder m("p/Pool", 55);
  cf::ConstantPool& pool = m.cls.pool;

  struct Case {
    const char* what;
    std::function<CpIndex()> add;
    Tag tag;
  };
  CpIndex mref = pool.addMethodref("p/Owner", "run", "()V");
  std::vector<Case> cases = {
      {"Utf8", [&] { return pool.addUtf8("hello"); }, Tag::Utf8},
      {"Class", [&] { return pool.addClass("p/Other"); }, Tag::Class},
      {"String", [&] { return pool.addString("a string"); }, Tag::String},
      {"Integer", [&] { return pool.addInteger(-123456); }, Tag::Integer},
      {"Float", [&] { return pool.addFloat(2.5f); }, Tag::Float},
      {"Long", [&] { return pool.addLong(0x123456789ABCDEFLL); }, Tag::Long},
      {"Double", [&] { return pool.addDouble(-0.125); }, Tag::Double},
      {"NameAndType", [&] { return pool.addNameAndType("f", "I"); }, Tag::NameAndType},
      {"Fieldref", [&] { return pool.addFieldref("p/Owner", "f", "I"); }, Tag::Fieldref},
      {"Methodref", [&] { return pool.addMethodref("p/Owner", "g", "(I)J"); }, Tag::Methodref},
      {"InterfaceMethodref", [&] { return pool.addInterfaceMethodref("p/Iface", "g", "(I)J"); },
       Tag::InterfaceMethodref},
      {"MethodHandle", [&] { return pool.addMethodHandle(cf::RefKind::InvokeStatic, mref); },
       Tag::MethodHandle},
      {"MethodType", [&] { return pool.addMethodType("(Ljava/lang/String;)V"); }, Tag::MethodType},
      {"Dynamic",
       [&] {
         cf::CpEntry e{Tag::Dynamic, 0, 0, idx(pool.addNameAndType("c", "I")), 0, {}};
         return pool.add(e);
       },
       Tag::Dynamic},
      {"InvokeDynamic",
       [&] {
         cf::CpEntry e{Tag::InvokeDynamic, 0, 1, idx(pool.addNameAndType("d", "()V")), 0, {}};
         return pool.add(e);
       },
       Tag::InvokeDynamic},
      {"Module",
       [&] {
         return pool.add(cf::CpEntry{Tag::Module, 0, idx(pool.addUtf8("my.mod")), 0, 0, {}});
       },
       Tag::Module},
      {"Package",
       [&] {
         return pool.add(cf::CpEntry{Tag::Package, 0, idx(pool.addUtf8("my/pkg")), 0, 0, {}});
       },
       Tag::Package},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.what);
    CpIndex first = c.add();
    uint16_t countAfterFirst = pool.count();
    CpIndex second = c.add();
    EXPECT_EQ(first, second);
    EXPECT_EQ(pool.count(), countAfterFirst);
    EXPECT_EQ(pool.tag(first), c.tag);
    EXPECT_EQ(pool.find(pool[first]), first);
  }

  // The values can be read back.
  EXPECT_EQ(pool.utf8(pool.addUtf8("hello")), "hello");
  EXPECT_EQ(pool.className(pool.addClass("p/Other")), "p/Other");
  EXPECT_EQ(pool.integer(pool.addInteger(-123456)), -123456);
  EXPECT_EQ(pool.floatValue(pool.addFloat(2.5f)), 2.5f);
  EXPECT_EQ(pool.longValue(pool.addLong(0x123456789ABCDEFLL)), 0x123456789ABCDEFLL);
  EXPECT_EQ(pool.doubleValue(pool.addDouble(-0.125)), -0.125);
  auto member = pool.memberRef(pool.addInterfaceMethodref("p/Iface", "g", "(I)J"));
  EXPECT_EQ(member.owner, "p/Iface");
  EXPECT_EQ(member.name, "g");
  EXPECT_EQ(member.descriptor, "(I)J");
  auto nat = pool.nameAndType(pool.addNameAndType("f", "I"));
  EXPECT_EQ(nat.first, "f");
  EXPECT_EQ(nat.second, "I");
  const cf::CpEntry& mh = pool[pool.addMethodHandle(cf::RefKind::InvokeStatic, mref)];
  EXPECT_EQ(mh.refKind, 6);
  EXPECT_EQ(mh.a, idx(mref));
}

TEST(ConstantPoolTest, SimilarButDifferentEntriesAreDistinct) {
  ModelBuilder m;
  cf::ConstantPool& pool = m.cls.pool;
  EXPECT_NE(pool.addFloat(0.0f), pool.addFloat(-0.0f));
  EXPECT_NE(pool.addDouble(0.0), pool.addDouble(-0.0));
  EXPECT_NE(pool.addInteger(1065353216), pool.addFloat(1.0f));  // same 32 bits, other tag
  EXPECT_NE(pool.addLong(1), pool.addDouble(std::bit_cast<double>(uint64_t{1})));
  CpIndex s = pool.addString("x");
  CpIndex c = pool.addClass("x");
  EXPECT_NE(s, c);
  EXPECT_EQ(pool[s].a, pool[c].a);  // both name the one Utf8 "x"
  EXPECT_NE(pool.addMethodref("A", "m", "()V"), pool.addInterfaceMethodref("A", "m", "()V"));
  EXPECT_NE(pool.addFieldref("A", "f", "I"), pool.addFieldref("A", "f", "J"));
  EXPECT_NE(pool.addUtf8("abc"), pool.addUtf8("abd"));
  EXPECT_NE(pool.addUtf8(""), pool.addUtf8(std::string_view("\xC0\x80", 2)));
  CpIndex ref = pool.addFieldref("A", "f", "I");
  EXPECT_NE(pool.addMethodHandle(cf::RefKind::GetField, ref),
            pool.addMethodHandle(cf::RefKind::GetStatic, ref));
}

// A member reference looks its three strings up in one pass (while Utf8 lookups scan),
// and must leave the pool exactly as the separate additions would: the same entries in
// the same order (owner, its Class, name, descriptor, NameAndType, the reference), found
// ones reused, and a string that occurs twice added once.
TEST(ConstantPoolTest, MemberRefsAddWhatSeparateAdditionsAdd) {
  struct Ref {
    Tag tag;
    std::string owner, name, desc;
  };
  const std::vector<Ref> refs{
      {Tag::Methodref, "p/Owner", "run", "()V"},     // name and descriptor exist already
      {Tag::Fieldref, "x", "x", "x"},                // one string three times
      {Tag::InterfaceMethodref, "p/I", "z", "p/I"},  // owner repeated as the descriptor
      {Tag::Methodref, "p/Owner", "run", "(I)V"},    // owner, Class and name exist now
      {Tag::Methodref, "p/Owner", "run", "()V"},     // all of it exists
  };
  ModelBuilder a, b;
  for (cf::ConstantPool* pool : {&a.cls.pool, &b.cls.pool}) {
    pool->addUtf8("run");
    pool->addUtf8("()V");
    pool->addInteger(5);
  }
  for (const Ref& r : refs) {
    SCOPED_TRACE(r.owner + "." + r.name + r.desc);
    CpIndex viaPool = r.tag == Tag::Fieldref ? a.cls.pool.addFieldref(r.owner, r.name, r.desc)
                      : r.tag == Tag::Methodref
                          ? a.cls.pool.addMethodref(r.owner, r.name, r.desc)
                          : a.cls.pool.addInterfaceMethodref(r.owner, r.name, r.desc);
    cf::ConstantPool& p = b.cls.pool;
    CpIndex c = p.addClass(r.owner);
    CpIndex n = p.addUtf8(r.name);
    CpIndex d = p.addUtf8(r.desc);
    CpIndex nat = p.add(cf::CpEntry{Tag::NameAndType, 0, idx(n), idx(d), 0, {}});
    CpIndex bySteps = p.add(cf::CpEntry{r.tag, 0, idx(c), idx(nat), 0, {}});
    EXPECT_EQ(viaPool, bySteps);
    ASSERT_EQ(a.cls.pool.count(), p.count());
    for (uint16_t i = 1; i < p.count(); ++i) {
      const cf::CpEntry& x = a.cls.pool[CpIndex{i}];
      const cf::CpEntry& y = p[CpIndex{i}];
      EXPECT_EQ(x.tag, y.tag) << i;
      EXPECT_EQ(x.a, y.a) << i;
      EXPECT_EQ(x.b, y.b) << i;
      EXPECT_EQ(x.utf8, y.utf8) << i;
    }
    auto member = a.cls.pool.memberRef(viaPool);
    EXPECT_EQ(member.owner, r.owner);
    EXPECT_EQ(member.name, r.name);
    EXPECT_EQ(member.descriptor, r.desc);
  }
  // "x" once for owner, name and descriptor: Utf8, Class, NameAndType, Fieldref.
  ModelBuilder c;
  uint16_t before = c.cls.pool.count();
  c.cls.pool.addFieldref("x", "x", "x");
  EXPECT_EQ(c.cls.pool.count(), before + 4);
}

TEST(ConstantPoolTest, LongAndDoubleTakeTwoSlots) {
  ModelBuilder m;
  cf::ConstantPool& pool = m.cls.pool;
  uint16_t before = pool.count();
  CpIndex l = pool.addLong(-1);
  EXPECT_EQ(idx(l), before);
  EXPECT_EQ(pool.count(), before + 2);
  EXPECT_FALSE(pool.valid(CpIndex{static_cast<uint16_t>(before + 1)}));
  EXPECT_EQ(pool.tag(CpIndex{static_cast<uint16_t>(before + 1)}), Tag::Unusable);
  CpIndex d = pool.addDouble(3.0);
  EXPECT_EQ(idx(d), before + 2);
  EXPECT_EQ(pool.count(), before + 4);
  CpIndex i = pool.addInteger(7);
  EXPECT_EQ(idx(i), before + 4);
  EXPECT_FALSE(pool.valid(CpIndex{static_cast<uint16_t>(before + 3)}));
  EXPECT_FALSE(pool.valid(CpIndex{0}));
  EXPECT_FALSE(pool.valid(CpIndex{pool.count()}));

  // Written and parsed again, the unusable slots stay unusable and the count is the same.
  cf::Member& meth = m.addMethod(0x9, "m", "()V");
  m.addCode(meth).code.insns = {insn(cf::Op::return_)};
  Bytes bytes = writeOk(m.cls);
  cf::ClassFile c = parseOk(bytes);
  EXPECT_EQ(c.pool.count(), m.cls.pool.count());
  EXPECT_EQ(c.pool.tag(l), Tag::Long);
  EXPECT_EQ(c.pool.longValue(l), -1);
  EXPECT_FALSE(c.pool.valid(CpIndex{static_cast<uint16_t>(before + 1)}));
  EXPECT_EQ(c.pool.doubleValue(d), 3.0);
  EXPECT_EQ(c.pool.integer(i), 7);
  EXPECT_TRUE(RoundTrips(bytes));
}

TEST(ConstantPoolTest, AdditionsReuseEntriesParsedFromAClass) {
  ClassBuilder b("p/Parsed");
  uint16_t println = b.pool.methodref("java/io/PrintStream", "println", "(Ljava/lang/String;)V");
  uint16_t str = b.pool.string("hi");
  uint16_t big = b.pool.longValue(1LL << 40);
  uint16_t code = b.pool.utf8("Code");
  // A duplicate Utf8 (legal): lookups must find the first.
  uint16_t dupFirst = b.pool.utf8("dup");
  uint16_t dupSecond = b.pool.raw(1, B({0, 3, 'd', 'u', 'p'}));
  ASSERT_NE(dupFirst, dupSecond);
  b.addCodeMethod("m", B({0xB1}));
  Bytes bytes = b.build();
  cf::ClassFile c = parseOk(bytes);
  uint16_t count = c.pool.count();
  EXPECT_EQ(idx(c.pool.addMethodref("java/io/PrintStream", "println", "(Ljava/lang/String;)V")),
            println);
  EXPECT_EQ(idx(c.pool.addString("hi")), str);
  EXPECT_EQ(idx(c.pool.addLong(1LL << 40)), big);
  EXPECT_EQ(idx(c.pool.addUtf8("Code")), code);
  EXPECT_EQ(idx(c.pool.addClass("p/Parsed")), idx(c.thisClass));
  EXPECT_EQ(idx(c.pool.addUtf8("dup")), dupFirst);
  EXPECT_EQ(c.pool.count(), count);
  // A genuinely new entry is appended at the end.
  EXPECT_EQ(idx(c.pool.addUtf8("new")), count);
  EXPECT_EQ(c.pool.count(), count + 1);
  // And the class is still written with the new entry appended after the old ones.
  Bytes out = writeOk(c);
  cf::ClassFile again = parseOk(out);
  EXPECT_EQ(again.pool.utf8(CpIndex{count}), "new");
  EXPECT_EQ(again.pool.utf8(CpIndex{dupSecond}), "dup");
}

// Lookups of a tag are answered by scanning at first and by an index of that tag's entries
// later (and entries referring to the newest added entry are not looked up at all): the
// answers must be the same either way, across many additions of mixed tags.
TEST(ConstantPoolTest, LookupsAgreeBeforeAndAfterATagIsIndexed) {
  ClassBuilder b("p/Many");
  uint16_t seven = b.pool.integer(7);
  uint16_t dupFirst = b.pool.utf8("dup");
  uint16_t dupSecond = b.pool.raw(1, B({0, 3, 'd', 'u', 'p'}));
  uint16_t ref = b.pool.methodref("p/Many", "m", "()V");
  b.addCodeMethod("m", B({0xB1}));
  Bytes bytes = b.build();
  cf::ClassFile c = parseOk(bytes);
  ASSERT_NE(dupFirst, dupSecond);
  std::vector<uint16_t> ints, strings, refs;
  for (int round = 0; round < 3; ++round) {  // round 0 adds, rounds 1-2 must find the same
    for (int i = 0; i < 40; ++i) {
      char text[16], owner[16];
      std::snprintf(text, sizeof text, "s%d", i);
      std::snprintf(owner, sizeof owner, "p/Owner%d", i % 5);
      uint16_t v = idx(c.pool.addInteger(100000 + i));
      uint16_t s = idx(c.pool.addString(text));
      uint16_t r = idx(c.pool.addMethodref(owner, "m", "()V"));
      if (round == 0) {
        ints.push_back(v);
        strings.push_back(s);
        refs.push_back(r);
      } else {
        EXPECT_EQ(v, ints[i]) << round << " " << i;
        EXPECT_EQ(s, strings[i]) << round << " " << i;
        EXPECT_EQ(r, refs[i]) << round << " " << i;
      }
      EXPECT_EQ(idx(c.pool.addInteger(7)), seven);
      EXPECT_EQ(idx(c.pool.addUtf8("dup")), dupFirst);
      EXPECT_EQ(idx(c.pool.addMethodref("p/Many", "m", "()V")), ref);
    }
  }
  for (int i = 0; i < 40; ++i) EXPECT_EQ(c.pool.integer(CpIndex{ints[i]}), 100000 + i);
  EXPECT_EQ(refs[0], refs[0 + 5]);  // same owner
  EXPECT_NE(refs[0], refs[1]);
}

TEST(ConstantPoolTest, AddingBeyond65535SlotsFailsCleanly) {
  ModelBuilder m;
  cf::ConstantPool& pool = m.cls.pool;
  int32_t v = 0;
  while (pool.count() < 65534) pool.addInteger(v++);
  // One slot left: a Long needs two.
  try {
    pool.addLong(42);
    ADD_FAILURE() << "addLong into the last slot succeeded";
  } catch (const cf::ParseFailure& e) {
    EXPECT_NE(e.error().message.find("constant pool full"), std::string::npos) << e.error().message;
  }
  EXPECT_EQ(pool.count(), 65534);
  CpIndex last = pool.addInteger(v++);
  EXPECT_EQ(idx(last), 65534);
  EXPECT_EQ(pool.count(), 65535);
  try {
    pool.addUtf8("one too many");
    ADD_FAILURE() << "add beyond 65535 slots succeeded";
  } catch (const cf::ParseFailure& e) {
    EXPECT_NE(e.error().message.find("65535"), std::string::npos) << e.error().message;
  }
  EXPECT_EQ(pool.count(), 65535);
  // Existing entries can still be "added" (they are reused): #1-#4 are this and super.
  EXPECT_EQ(idx(pool.addInteger(0)), 5);
  EXPECT_EQ(idx(pool.addClass("java/lang/Object")), idx(m.cls.superClass));
  EXPECT_EQ(pool.count(), 65535);
}

TEST(ConstantPoolTest, FullPoolWritesAndParses) {
  ModelBuilder m;
  cf::Member& meth = m.addMethod(0x9, "m", "()V");
  m.addCode(meth).code.insns = {insn(cf::Op::return_)};
  int32_t v = 0;
  while (m.cls.pool.count() < 65535) m.cls.pool.addInteger(v++);
  Bytes bytes = writeOk(m.cls);
  ASSERT_GT(bytes.size(), 10u);
  EXPECT_EQ(bytes[8], 0xFF);
  EXPECT_EQ(bytes[9], 0xFF);
  cf::ClassFile c = parseOk(bytes);
  EXPECT_EQ(c.pool.count(), 65535);
  EXPECT_EQ(c.pool.integer(CpIndex{65534}), v - 1);
  EXPECT_TRUE(RoundTrips(bytes));
}

TEST(ConstantPoolTest, NaNPayloadsSurviveParseAndWrite) {
  const uint32_t floats[] = {0x7FC00000u, 0x7FC00001u, 0x7F800001u,
                             0xFFBADBADu, 0x7FFFFFFFu, 0x80000000u};
  const uint64_t doubles[] = {0x7FF8000000000000ull, 0x7FF0000000000001ull, 0xFFF8DEADBEEF0001ull,
                              0x7FF7FFFFFFFFFFFFull, 0x8000000000000000ull};
  ClassBuilder b;
  std::vector<uint16_t> fi, di;
  for (uint32_t f : floats) fi.push_back(b.pool.floatBits(f));
  for (uint64_t d : doubles) di.push_back(b.pool.doubleBits(d));
  b.addCodeMethod("m", B({0xB1}));
  Bytes bytes = b.build();
  cf::ClassFile c = parseOk(bytes);
  for (size_t i = 0; i < fi.size(); ++i) {
    EXPECT_EQ(c.pool[CpIndex{fi[i]}].value, floats[i]) << i;
    EXPECT_EQ(std::bit_cast<uint32_t>(c.pool.floatValue(CpIndex{fi[i]})), floats[i]) << i;
  }
  EXPECT_TRUE(std::isnan(c.pool.floatValue(CpIndex{fi[1]})));
  for (size_t i = 0; i < di.size(); ++i) {
    EXPECT_EQ(c.pool[CpIndex{di[i]}].value, doubles[i]) << i;
    EXPECT_EQ(std::bit_cast<uint64_t>(c.pool.doubleValue(CpIndex{di[i]})), doubles[i]) << i;
  }
  EXPECT_TRUE(RoundTrips(bytes));

  // Additions keep payloads apart too: each distinct NaN gets its own entry, same bits reuse.
  ModelBuilder m;
  CpIndex n1 = m.cls.pool.addFloat(std::bit_cast<float>(0x7FC00001u));
  CpIndex n2 = m.cls.pool.addFloat(std::bit_cast<float>(0x7FC00002u));
  EXPECT_NE(n1, n2);
  EXPECT_EQ(m.cls.pool.addFloat(std::bit_cast<float>(0x7FC00001u)), n1);
  EXPECT_EQ(m.cls.pool[n2].value, 0x7FC00002u);
  CpIndex d1 = m.cls.pool.addDouble(std::bit_cast<double>(0x7FF8000000000123ull));
  EXPECT_EQ(m.cls.pool[d1].value, 0x7FF8000000000123ull);
  EXPECT_EQ(c.pool.find(c.pool[CpIndex{fi[2]}]), CpIndex{fi[2]});
}

TEST(ConstantPoolTest, IntegerAndLongExtremes) {
  ClassBuilder b;
  uint16_t imin = b.pool.integer(std::numeric_limits<int32_t>::min());
  uint16_t imax = b.pool.integer(std::numeric_limits<int32_t>::max());
  uint16_t lmin = b.pool.longValue(std::numeric_limits<int64_t>::min());
  uint16_t lneg = b.pool.longValue(-2);
  b.addCodeMethod("m", B({0xB1}));
  Bytes bytes = b.build();
  cf::ClassFile c = parseOk(bytes);
  EXPECT_EQ(c.pool.integer(CpIndex{imin}), std::numeric_limits<int32_t>::min());
  EXPECT_EQ(c.pool.integer(CpIndex{imax}), std::numeric_limits<int32_t>::max());
  EXPECT_EQ(c.pool.longValue(CpIndex{lmin}), std::numeric_limits<int64_t>::min());
  EXPECT_EQ(c.pool.longValue(CpIndex{lneg}), -2);
  EXPECT_EQ(idx(c.pool.addLong(-2)), lneg);
  EXPECT_EQ(idx(c.pool.addInteger(std::numeric_limits<int32_t>::min())), imin);
}

TEST(ConstantPoolTest, TagsNewerThanTheClassVersionAreRejected) {
  struct Case {
    uint16_t major;
    const char* tagName;
    int minMajor;
  };
  for (Case k :
       {Case{50, "MethodHandle", 51}, Case{50, "MethodType", 51}, Case{50, "InvokeDynamic", 51},
        Case{52, "Module", 53}, Case{52, "Package", 53}, Case{54, "Dynamic", 55}}) {
    SCOPED_TRACE(k.tagName);
    ClassBuilder b("T", k.major);
    uint16_t mref = b.pool.methodref("T", "f", "()V");
    std::string tag = k.tagName;
    uint16_t entry = tag == "MethodHandle"    ? b.pool.methodHandle(6, mref)
                     : tag == "MethodType"    ? b.pool.methodType("()V")
                     : tag == "InvokeDynamic" ? b.pool.invokeDynamic(0, "x", "()V")
                     : tag == "Module"        ? b.pool.module("m")
                     : tag == "Package"       ? b.pool.package("p")
                                              : b.pool.dynamic(0, "x", "I");
    Bytes bytes = b.build();
    cf::Error e = parseError(bytes);
    EXPECT_EQ(e.cpIndex, entry);
    EXPECT_EQ(e.offset, b.pool.entryOffset(entry));
    EXPECT_NE(e.toString().find(std::string(k.tagName) + " constant needs class-file version " +
                                std::to_string(k.minMajor)),
              std::string::npos)
        << e.toString();
  }
}

}  // namespace
}  // namespace dragnet::test
