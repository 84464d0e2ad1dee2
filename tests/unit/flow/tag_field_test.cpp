// The object-tag field (src/flow/tag_field.h): which classes get `dragnet$tag` and with
// which flags, that the classes still round-trip and verify (-Xverify:all) with a field
// read through a subclass, and that the rewritten reflection filter of each JDK (17 and the
// newest) hides dragnet$ fields from getDeclaredFields, getFields and serialization.
#include "flow/tag_field.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "../../e2e_hard/hard_cases.h"

namespace dragnet::test::hard {
namespace {

namespace fs = std::filesystem;
using flow::addTagField;
using flow::kTagField;

constexpr uint16_t kPublicSuper = 0x0021;
constexpr uint16_t kInterface = 0x0601;  // public interface abstract

// A class `name` extending `super` with one int field `x`.
Bytes classBytes(std::string_view name, std::string_view super, uint16_t access = kPublicSuper) {
  ClassBuilder b{std::string(name), 61};
  b.superName = std::string(super);
  b.access = access;
  b.addField(0x0002, "x", "I");
  return b.build();
}

const cf::Member* findField(const cf::ClassFile& c, std::string_view name) {
  for (const cf::Member& f : c.fields) {
    if (c.memberName(f) == name) return &f;
  }
  return nullptr;
}

TEST(TagField, RootClassGetsAPublicTransientSyntheticInt) {
  Bytes in = classBytes("p/Root", "java/lang/Object");
  cf::ClassFile cls = parseOk(in);
  flow::TagFieldOutcome o = addTagField(cls);
  EXPECT_TRUE(o.root);
  EXPECT_TRUE(o.added);
  Bytes out = writeOk(cls);
  EXPECT_TRUE(RoundTrips(out));
  cf::ClassFile back = parseOk(out);
  ASSERT_EQ(back.fields.size(), 2u);
  const cf::Member* tag = findField(back, kTagField);
  ASSERT_NE(tag, nullptr);
  EXPECT_EQ(back.memberDescriptor(*tag), "I");
  EXPECT_EQ(tag->access, 0x0001 | 0x0080 | 0x1000);  // public transient synthetic
  EXPECT_TRUE(tag->attributes.empty());
  // A second pass (a class already given the field) finds it and adds nothing.
  flow::TagFieldOutcome again = addTagField(back);
  EXPECT_TRUE(again.root);
  EXPECT_FALSE(again.added);
  EXPECT_EQ(back.fields.size(), 2u);
}

TEST(TagField, NoFieldForInterfacesDeniedClassesOrSubclassesOfRoots) {
  struct Case {
    std::string_view name, super;
    uint16_t access;
    bool root;
  };
  const Case cases[] = {
      {"p/Iface", "java/lang/Object", kInterface, false},
      {"p/Sub", "p/Root", kPublicSuper, false},                        // inherits the root's field
      {"java/lang/Class", "java/lang/Object", kPublicSuper, false},    // denied
      {"java/lang/ref/Reference", "java/lang/Object", 0x0421, false},  // denied
      {"java/lang/ref/WeakReference", "java/lang/ref/Reference", kPublicSuper, true},
      {"p/Weak", "java/lang/ref/WeakReference", kPublicSuper, false},
      {"java/lang/Throwable", "java/lang/Object", kPublicSuper, true},
      {"p/Failure", "java/lang/RuntimeException", kPublicSuper, false},
      {"java/lang/Record", "java/lang/Object", 0x0421, true},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    Bytes in = classBytes(c.name, c.super, c.access);
    cf::ClassFile cls = parseOk(in);
    flow::TagFieldOutcome o = addTagField(cls);
    EXPECT_EQ(o.root, c.root);
    EXPECT_EQ(o.added, c.root);
    EXPECT_EQ(findField(cls, kTagField) != nullptr, c.root);
  }
  // java/lang/Object: no superclass.
  ClassBuilder object{"java/lang/Object", 61};
  object.superClass = 0;
  Bytes in = object.build();
  cf::ClassFile cls = parseOk(in);
  EXPECT_FALSE(addTagField(cls).root);
  EXPECT_TRUE(cls.fields.empty());
}

TEST(TagField, ADenyPredicateDecidesTheRoots) {
  auto denied = [](std::string_view n) { return n == "java/lang/Object" || n == "p/Base"; };
  for (auto [name, super, root] :
       {std::tuple{"p/Base", "java/lang/Object", false}, std::tuple{"p/Derived", "p/Base", true},
        std::tuple{"p/Leaf", "p/Derived", false}}) {
    SCOPED_TRACE(name);
    Bytes in = classBytes(name, super);
    cf::ClassFile cls = parseOk(in);
    EXPECT_EQ(addTagField(cls, denied).root, root);
  }
}

TEST(TagField, DenyList) {
  for (std::string_view n : {"java/lang/Object", "java/lang/Class", "java/lang/ref/Reference",
                             "jdk/internal/vm/FillerObject", "jdk/internal/vm/StackChunk"}) {
    EXPECT_TRUE(flow::isDeniedTagClass(n)) << n;
  }
  for (std::string_view n :
       {"java/lang/Thread", "java/lang/Record", "java/lang/Enum", "java/util/ArrayList",
        "java/lang/ref/WeakReference", "java/lang/Exception", "p/Root", "java/lang/ClassValue"}) {
    EXPECT_FALSE(flow::isDeniedTagClass(n)) << n;
  }
}

std::vector<const JavaTools*> jdks() {
  std::vector<const JavaTools*> v{&jdk17()};
  if (!jdk25().java.empty()) v.push_back(&jdk25());
  return v;
}

std::string home(const JavaTools& jdk) {
  return fs::path(jdk.java).parent_path().parent_path().string();
}

// A class read through a subclass, `s.dragnet$tag`, compiled against a Root that declares
// the field; run against a Root that gets it from addTagField. Without the field the read
// fails to link (the control run).
TEST(TagField, InheritedFieldResolvesAndVerifies) {
  if (jdk17().javac.empty()) GTEST_SKIP() << "JDK 17 not found";
  const std::string root = "public class Root { int x = 1; }\n";
  const std::vector<SourceFile> src = {
      {"Sub.java", "public class Sub extends Root { long y = 2; }\n"},
      {"Main.java",
       "public class Main { public static void main(String[] a) { Sub s = new Sub();\n"
       "  s.dragnet$tag += 5; System.out.println(\"tag \" + s.dragnet$tag + \" \" + s.x); } }\n"}};
  std::string why;
  std::vector<SourceFile> withField = src;
  withField.push_back({"Root.java", "public class Root { int x = 1; public int dragnet$tag; }\n"});
  std::string stubbed = compileJava(jdk17(), withField, "--release 17", &why);
  ASSERT_FALSE(stubbed.empty()) << why;
  std::string plain = compileJava(jdk17(), {{"Root.java", root}}, "--release 17", &why);
  ASSERT_FALSE(plain.empty()) << why;

  std::vector<ClassBytes> classes = readClasses(stubbed);
  std::erase_if(classes, [](const ClassBytes& c) { return c.path == "Root.class"; });
  std::vector<ClassBytes> rootOnly = readClasses(plain);
  ASSERT_EQ(rootOnly.size(), 1u);
  ScratchDir scratch("tag-field");
  std::string without = scratch.sub("without");
  writeClasses(without, classes);
  writeClasses(without, rootOnly);
  cf::ClassFile model = parseOk(rootOnly[0].bytes);
  ASSERT_TRUE(addTagField(model).added);
  classes.push_back({"Root.class", writeOk(model)});
  std::string with = scratch.sub("with");
  writeClasses(with, classes);

  for (const JavaTools* jdk : jdks()) {
    SCOPED_TRACE(jdk->java);
    RunResult r = runJava(*jdk, {with}, "Main", scratch, "with");
    EXPECT_EQ(r.exitCode, 0) << r.err;
    EXPECT_EQ(r.out, "tag 5 1\n");
    EXPECT_EQ(r.err, "");
    RunResult control = runJava(*jdk, {without}, "Main", scratch, "without");
    EXPECT_NE(control.exitCode, 0);
    EXPECT_NE(control.err.find("NoSuchFieldError"), std::string::npos) << control.err;
  }
}

// Each JDK's own Reflection class, rewritten by hideDragnetFields and patched into java.base
// (verified: -Xverify:all covers boot classes), against a program whose classes declare
// dragnet$ fields; the control run without the patch sees them.
TEST(TagField, RewrittenReflectionFilterHidesDragnetFields) {
  if (jdk17().javac.empty()) GTEST_SKIP() << "JDK 17 not found";
  const std::vector<SourceFile> src = {
      {"Main.java",
       "import java.io.*; import java.lang.reflect.*; import java.util.*;\n"
       "public class Main {\n"
       "  static class Data implements Serializable { int y; public int dragnet$tag;\n"
       "    transient long dragnet$other; public String z; }\n"
       "  static class Plain { int only; }\n"
       "  static String names(Field[] fs) { List<String> n = new ArrayList<>();\n"
       "    for (Field f : fs) n.add(f.getName()); Collections.sort(n); return n.toString(); }\n"
       "  public static void main(String[] a) throws Exception {\n"
       "    System.out.println(names(Data.class.getDeclaredFields()) + \" \"\n"
       "        + names(Data.class.getFields()) + \" \" + names(Plain.class.getDeclaredFields())\n"
       "        + \" \" + (Plain.class.getDeclaredFields() == null));\n"
       "    try { Data.class.getDeclaredField(\"dragnet$tag\"); System.out.println(\"found\"); }\n"
       "    catch (NoSuchFieldException e) { System.out.println(\"hidden\"); }\n"
       "    System.out.println(ObjectStreamClass.lookup(Data.class).getFields().length);\n"
       "  } }\n"}};
  std::string why;
  std::string classes = compileJava(jdk17(), src, "--release 17", &why);
  ASSERT_FALSE(classes.empty()) << why;
  ScratchDir scratch("hide-fields");
  for (const JavaTools* jdk : jdks()) {
    SCOPED_TRACE(jdk->java);
    std::string image = scratch.sub("image");
    std::string cmd = str("'", home(*jdk), "/bin/jimage' extract --dir '", image,
                          "' --include regex:.*/jdk/internal/reflect/Reflection.class '",
                          home(*jdk), "/lib/modules'");
    ASSERT_EQ(std::system(cmd.c_str()), 0) << cmd;
    Bytes original = readFile(str(image, "/java.base/jdk/internal/reflect/Reflection.class"));
    ASSERT_FALSE(original.empty());
    cf::ClassFile reflection = parseOk(original);
    ASSERT_TRUE(flow::hideDragnetFields(reflection));
    EXPECT_FALSE(flow::hideDragnetFields(reflection));  // once only
    Bytes written = writeOk(reflection);
    EXPECT_TRUE(RoundTrips(written));
    std::string patch = scratch.sub("patch");
    writeClasses(patch, {{"jdk/internal/reflect/Reflection.class", written}});

    auto run = [&](const std::string& flags) {
      std::string out = str(scratch.path(), "/out.txt");
      std::string c = str("timeout 120 '", jdk->java, "' -Xverify:all -Xshare:off ", flags,
                          " -cp '", classes, "' Main > '", out, "' 2>&1");
      EXPECT_EQ(std::system(c.c_str()), 0) << c;
      Bytes b = readFile(out);
      return std::string(b.begin(), b.end());
    };
    EXPECT_EQ(run(str("--patch-module java.base='", patch, "'")),
              "[y, z] [z] [only] false\nhidden\n2\n");
    EXPECT_EQ(run(""),
              "[dragnet$other, dragnet$tag, y, z] [dragnet$tag, z] [only] false\nfound\n3\n");
  }
}

}  // namespace
}  // namespace dragnet::test::hard
