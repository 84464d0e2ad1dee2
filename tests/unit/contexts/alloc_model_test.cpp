// Mode alloc's instrumenter on classes made with the class-file library: the natives that
// allocate a type known at run time only, java/lang/Object.<init>, the runtime helper's
// classes, Throwable's backtrace, a method over the 64 KB limit; isCloneCall and
// elementKind. (alloc_instrumenter_test.cpp: javac's classes, and the verifier.)
#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "alloc_test_support.h"

namespace dragnet::test::hard::alloc_case {
namespace {

TEST(AllocInstrumenter, ReflectionAndUnsafeResultsAreRecordedByTheirRuntimeClass) {
  alloc::IdSource ids;
  auto r = rewrite(dynCases(), ids);
  const alloc::ClassResult& res = r->result;
  Lines sites;
  for (const profile::SiteDef& s : res.sites) sites.push_back(siteLine(s));
  EXPECT_EQ(sites, (Lines{siteLine(0x80000010, 1, 2, -1, SiteKind::Reflect, ""),
                          siteLine(0x80000020, 2, 2, -1, SiteKind::Reflect, ""),
                          siteLine(0x80000030, 3, 2, -1, SiteKind::Reflect, "")}));
  const std::string obj = "Ljava/lang/Object;";
  // S = enter(id); the two arguments; the call; dyn(copy, key) or dynMulti(copy, key); exit.
  auto probed = [&](int id, const Lines& args, const std::string& call, uint32_t key,
                    std::string_view probe) {
    return join({enter(id, 2, 3),
                 args,
                 {call, "dup", ldc(key), rt(str(probe, "(Ljava/lang/Object;I)V"))},
                 exitCode(2, 3),
                 {"areturn"}});
  };
  EXPECT_EQ(listing(r->cls, "arr"),
            probed(1, {"aload_0", "iload_1"},
                   "invokestatic java/lang/reflect/Array.newArray(Ljava/lang/Class;I)" + obj,
                   0x80000010, "dyn"));
  EXPECT_EQ(listing(r->cls, "multi"),
            probed(2, {"aload_0", "aload_1"},
                   "invokestatic java/lang/reflect/Array.multiNewArray(Ljava/lang/Class;[I)" + obj,
                   0x80000020, "dynMulti"));
  EXPECT_EQ(
      listing(r->cls, "inst"),
      probed(3, {"aload_0", "aload_1"},
             "invokevirtual jdk/internal/misc/Unsafe.allocateInstance(Ljava/lang/Class;)" + obj,
             0x80000030, "dyn"));
  EXPECT_EQ(listing(r->cls, "viaNewInstance"),
            join({enter(4, 2, 3),
                  {"aload_0", "iload_1",
                   "invokestatic java/lang/reflect/Array.newInstance(Ljava/lang/Class;I)" + obj},
                  exitCode(2, 3),
                  {"areturn"}}));
  // Each probed native call at its new offset: after the 12 bytes of the entry (iconst_n,
  // invokestatic, dup, astore_2, getfield, iconst_1, isub, istore_3) and the two loads.
  Lines calls;
  for (const auto& p : res.probedCalls) calls.push_back(str(p.method, " ", p.bci));
  EXPECT_EQ(calls, (Lines{"arr 14", "multi 14", "inst 14"}));
}

// Every constructor ends in Object.<init>, which allocates nothing: it gets no probe, no
// method id, and is not a method of the profile; the class's other methods are probed.
TEST(AllocInstrumenter, ObjectInitIsLeftWithoutProbes) {
  ModelBuilder m("java/lang/Object");
  m.cls.superClass = cf::CpIndex::None;
  define(m, "<init>", "()V", {insn(Op::return_)}, 0, 1, 0x1);
  define(m, "make", "()Ljava/lang/Object;", newObject(m.cls.pool));
  alloc::IdSource ids;
  auto r = rewrite(writeModel(m), ids);
  EXPECT_TRUE(r->result.changed);
  EXPECT_EQ(listing(r->cls, "<init>"), (Lines{"return"}));
  EXPECT_EQ(codeOf(r->cls, "<init>").maxLocals, 1);
  ASSERT_EQ(r->result.methods.size(), 1u);
  EXPECT_EQ(r->result.methods[0].name, "make");
  EXPECT_EQ(r->result.methods[0].id, 1u);
  EXPECT_EQ(listing(r->cls, "make")[1], rt("enter(I)Ljava/lang/DragnetState;"));
  EXPECT_TRUE(r->result.failures.empty());

  ModelBuilder alone("java/lang/Object");
  alone.cls.superClass = cf::CpIndex::None;
  define(alone, "<init>", "()V", {insn(Op::return_)}, 0, 1, 0x1);
  Bytes original = writeModel(alone);
  alloc::IdSource ids2;
  auto r2 = rewrite(original, ids2);
  EXPECT_FALSE(r2->result.changed);
  EXPECT_TRUE(r2->result.methods.empty());
  EXPECT_TRUE(SameBytes(original, r2->bytes));
}

TEST(AllocInstrumenter, RuntimeClassesAreNeverInstrumented) {
  for (std::string_view name : {"java/lang/DragnetRt", "java/lang/DragnetState",
                                "java/lang/DragnetLife", "java/lang/DragnetSample"}) {
    EXPECT_TRUE(alloc::isRuntimeClass(name)) << name;
  }
  for (std::string_view name : {"java/lang/Object", "java/lang/Runtime", "dragnet/rt/Bit",
                                "p/java/lang/DragnetRt", "DragnetRt"}) {
    EXPECT_FALSE(alloc::isRuntimeClass(name)) << name;
  }
  ModelBuilder m("java/lang/DragnetRt");
  define(m, "make", "()Ljava/lang/Object;", newObject(m.cls.pool));
  Bytes original = writeModel(m);
  alloc::IdSource ids;
  auto r = rewrite(original, ids);
  EXPECT_FALSE(r->result.changed);
  EXPECT_TRUE(r->result.methods.empty());
  EXPECT_TRUE(r->result.sites.empty());
  EXPECT_TRUE(SameBytes(original, r->bytes));
  EXPECT_EQ(ids.nextMethod.load(), 1u);
  EXPECT_EQ(ids.nextSite.load(), 1u);
}

TEST(AllocInstrumenter, IsCloneCall) {
  cf::ConstantPool pool;
  auto ref = [&](std::string_view owner, std::string_view name, std::string_view desc) {
    return pool.addMethodref(owner, name, desc);
  };
  const std::string cloneDesc = "()Ljava/lang/Object;";
  EXPECT_TRUE(alloc::isCloneCall(pool, cpInsn(Op::invokevirtual, ref("[I", "clone", cloneDesc))));
  EXPECT_TRUE(alloc::isCloneCall(
      pool, cpInsn(Op::invokespecial, ref("java/lang/Object", "clone", cloneDesc))));
  EXPECT_TRUE(
      alloc::isCloneCall(pool, cpInsn(Op::invokevirtual, ref("p/Foo", "clone", cloneDesc))));
  // A covariant clone() is a Java method: its own body calls the native one.
  EXPECT_FALSE(
      alloc::isCloneCall(pool, cpInsn(Op::invokevirtual, ref("p/Foo", "clone", "()Lp/Foo;"))));
  EXPECT_FALSE(
      alloc::isCloneCall(pool, cpInsn(Op::invokestatic, ref("p/Foo", "clone", cloneDesc))));
  EXPECT_FALSE(
      alloc::isCloneCall(pool, cpInsn(Op::invokevirtual, ref("p/Foo", "copy", cloneDesc))));
  EXPECT_FALSE(
      alloc::isCloneCall(pool, cpInsn(Op::getfield, pool.addFieldref("p/Foo", "clone", "I"))));
}

TEST(AllocInstrumenter, ElementKind) {
  const std::pair<std::string_view, ElemKind> cases[] = {{"[Z", ElemKind::Boolean},
                                                         {"[B", ElemKind::Byte},
                                                         {"[C", ElemKind::Char},
                                                         {"[S", ElemKind::Short},
                                                         {"[I", ElemKind::Int},
                                                         {"[F", ElemKind::Float},
                                                         {"[J", ElemKind::Long},
                                                         {"[D", ElemKind::Double},
                                                         {"[Ljava/lang/String;", ElemKind::Ref},
                                                         {"[[I", ElemKind::Ref},
                                                         {"[[[J", ElemKind::Ref},
                                                         // Not an array type: an object.
                                                         {"Ljava/lang/String;", ElemKind::Object},
                                                         {"I", ElemKind::Object},
                                                         {"[", ElemKind::Object},
                                                         {"", ElemKind::Object}};
  for (auto [desc, kind] : cases) {
    EXPECT_EQ(static_cast<int>(alloc::elementKind(desc)), static_cast<int>(kind)) << desc;
  }
}

// A method whose probes would take it past 65535 bytes runs as it was; the class's other
// methods are rewritten, the failure is recorded, and the method's sites are not reported
// (their index is used up: indices are never given twice).
TEST(AllocInstrumenter, MethodOverTheCodeLimitIsLeftAsItWas) {
  ModelBuilder m("Big");
  std::vector<cf::Insn> big = newObject(m.cls.pool);
  big.insert(big.end() - 1, 65522, insn(Op::nop));  // 65530 bytes
  define(m, "big", "()Ljava/lang/Object;", big);
  define(m, "small", "()Ljava/lang/Object;", newObject(m.cls.pool));
  Bytes original = writeModel(m);
  cf::ClassFile before = parseOk(original);
  alloc::IdSource ids;
  auto r = rewrite(original, ids);
  const alloc::ClassResult& res = r->result;
  EXPECT_TRUE(res.changed);
  ASSERT_EQ(res.failures.size(), 1u);
  EXPECT_EQ(res.failures[0].cls, "Big");
  EXPECT_EQ(res.failures[0].method, "big()Ljava/lang/Object;");
  EXPECT_TRUE(res.failures[0].reason.starts_with("code would grow to ")) << res.failures[0].reason;
  EXPECT_TRUE(res.failures[0].reason.ends_with(" bytes, over the JVM's limit of 65535"))
      << res.failures[0].reason;
  EXPECT_FALSE(profile::isPartial(res.failures[0]));
  EXPECT_EQ(listing(r->cls, "big"), listing(before, "big"));
  EXPECT_EQ(codeOf(r->cls, "big").maxLocals, 2);
  ASSERT_EQ(res.methods.size(), 1u);
  EXPECT_EQ(res.methods[0].name, "small");
  EXPECT_EQ(res.methods[0].id, 2u);
  ASSERT_EQ(res.sites.size(), 1u);
  EXPECT_EQ(siteLine(res.sites[0]),
            siteLine(0x80000020, 2, 0, -1, SiteKind::New, "java/lang/Object"));
  EXPECT_EQ(listing(r->cls, "small")[0], "iconst_2");
}

// Throwable.fillInStackTrace(int) allocates the backtrace inside the JVM: in Throwable's
// own instance methods, the probe after the call hands Throwable.backtrace to the runtime.
TEST(AllocInstrumenter, ThrowableBacktraceIsRecordedAfterFillInStackTrace) {
  auto build = [](std::string_view name, bool field) {
    ModelBuilder m(name);
    cf::ConstantPool& pool = m.cls.pool;
    if (field) {
      cf::Member f;
      f.access = 0x82;  // private transient
      f.name = pool.addUtf8("backtrace");
      f.descriptor = pool.addUtf8("Ljava/lang/Object;");
      m.cls.fields.push_back(std::move(f));
    }
    auto fill =
        pool.addMethodref("java/lang/Throwable", "fillInStackTrace", "(I)Ljava/lang/Throwable;");
    std::vector<cf::Insn> code = {insn(Op::aload_0), insn(Op::iconst_0),
                                  cpInsn(Op::invokevirtual, fill), insn(Op::areturn)};
    define(m, "fill", "()Ljava/lang/Throwable;", code, 2, 1, 0x1);
    define(m, "staticFill", "(Ljava/lang/Throwable;)Ljava/lang/Throwable;", code, 2, 1);
    return writeModel(m);
  };
  alloc::IdSource ids;
  auto r = rewrite(build("java/lang/Throwable", true), ids);
  ASSERT_EQ(r->result.sites.size(), 1u);
  EXPECT_EQ(siteLine(r->result.sites[0]), siteLine(0x80000010, 1, 2, -1, SiteKind::Vm, ""));
  Lines call = {"aload_0", "iconst_0",
                "invokevirtual java/lang/Throwable.fillInStackTrace(I)Ljava/lang/Throwable;"};
  EXPECT_EQ(listing(r->cls, "fill"),
            join({enter(1, 1, 2),
                  call,
                  {"aload_0", "getfield java/lang/Throwable.backtrace:Ljava/lang/Object;",
                   ldc(0x80000010), rt("backtrace(Ljava/lang/Object;I)V")},
                  exitCode(1, 2),
                  {"areturn"}}));
  EXPECT_EQ(listing(r->cls, "staticFill"),
            join({enter(2, 1, 2), call, exitCode(1, 2), {"areturn"}}));
  // The same calls in another class: no backtrace to read.
  alloc::IdSource ids2;
  auto other = rewrite(build("p/Other", false), ids2);
  EXPECT_TRUE(other->result.sites.empty());
  EXPECT_EQ(listing(other->cls, "fill"), join({enter(1, 1, 2), call, exitCode(1, 2), {"areturn"}}));
}

}  // namespace
}  // namespace dragnet::test::hard::alloc_case
