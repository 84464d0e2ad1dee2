// The agent's binding of the Java side (src/agent/binding.h) against a fake JNIEnv: a
// table binds in one call, and a missing class or member is named by kind, class, name
// and signature.
#include <gtest/gtest.h>

#include "agent/binding.h"
#include "jni_fake.h"

namespace dragnet::agent::binding {
namespace {

using test::FakeJni;

// The runtime helper as the tests declare it: DragnetRt with a few members, and Thread.
void addRuntime(FakeJni& jni) {
  jni.add("java/lang/DragnetRt", "dyn", "(Ljava/lang/Object;I)V", true);
  jni.add("java/lang/DragnetRt", "on", "Z", true);
  jni.add("java/lang/DragnetRt", "maxDepth", "I", true);
  jni.add("java/lang/DragnetRt", "clock", "J", true);
  jni.add("java/lang/DragnetState", "size", "I", false);
  jni.add("java/lang/DragnetState", "release", "()V", false);
}

struct Handles {
  Class rt;
  StaticMethod dyn;
  StaticField on, maxDepth;
  Field size;
  Method release;
};

std::vector<Member> table(Handles& h) {
  return {{"java/lang/DragnetRt", nullptr, nullptr, &h.rt},
          {"java/lang/DragnetRt", "dyn", "(Ljava/lang/Object;I)V", &h.dyn},
          {"java/lang/DragnetRt", "on", "Z", &h.on},
          {"java/lang/DragnetState", "size", "I", &h.size},
          {"java/lang/DragnetState", "release", "()V", &h.release},
          {"java/lang/DragnetRt", "maxDepth", "I", &h.maxDepth}};
}

TEST(JniBinding, BindsEveryKindInOneCallWithOneLookupPerClass) {
  FakeJni jni;
  addRuntime(jni);
  Handles h;
  std::string error;
  ASSERT_TRUE(binding::bind(jni.env(), table(h), error)) << error;
  EXPECT_NE(h.rt.ref, nullptr);
  EXPECT_NE(h.dyn.id, nullptr);
  EXPECT_NE(h.on.id, nullptr);
  EXPECT_NE(h.size.id, nullptr);
  EXPECT_NE(h.release.id, nullptr);
  EXPECT_NE(h.on.id, h.maxDepth.id);
  // A static member's handle carries its class: the one global reference of DragnetRt.
  EXPECT_EQ(h.dyn.cls, h.rt.ref);
  EXPECT_EQ(h.on.cls, h.rt.ref);
  EXPECT_EQ(jni.globalRefs(), 1);
  EXPECT_EQ(jni.findClassCalls(), 2);
  EXPECT_FALSE(jni.pending());
}

TEST(JniBinding, AMissingMemberIsNamedByKindClassNameAndSignature) {
  struct Case {
    const char* remove;  // which member the class lacks
    std::string error;
  };
  for (const Case& c :
       {Case{"on", "static field java/lang/DragnetRt.on:Z is missing"},
        Case{"dyn", "static method java/lang/DragnetRt.dyn:(Ljava/lang/Object;I)V is missing"},
        Case{"size", "field java/lang/DragnetState.size:I is missing"},
        Case{"release", "method java/lang/DragnetState.release:()V is missing"}}) {
    FakeJni jni;
    jni.addClass("java/lang/DragnetRt");
    jni.addClass("java/lang/DragnetState");
    std::string all[] = {"dyn", "on", "maxDepth", "size", "release"};
    for (const std::string& m : all) {
      if (m == c.remove) continue;
      if (m == "dyn") jni.add("java/lang/DragnetRt", m, "(Ljava/lang/Object;I)V", true);
      if (m == "on") jni.add("java/lang/DragnetRt", m, "Z", true);
      if (m == "maxDepth") jni.add("java/lang/DragnetRt", m, "I", true);
      if (m == "size") jni.add("java/lang/DragnetState", m, "I", false);
      if (m == "release") jni.add("java/lang/DragnetState", m, "()V", false);
    }
    Handles h;
    std::string error;
    EXPECT_FALSE(binding::bind(jni.env(), table(h), error)) << c.remove;
    EXPECT_EQ(error, c.error);
    EXPECT_FALSE(jni.pending()) << "the JVM's exception is cleared";
  }
}

TEST(JniBinding, AWrongSignatureOrStaticnessIsMissingToo) {
  FakeJni jni;
  addRuntime(jni);
  StaticField clock;
  Field on;
  std::string error;
  const Member longClock[] = {{"java/lang/DragnetRt", "clock", "I", &clock}};
  EXPECT_FALSE(binding::bind(jni.env(), longClock, error));
  EXPECT_EQ(error, "static field java/lang/DragnetRt.clock:I is missing");
  const Member instanceOn[] = {{"java/lang/DragnetRt", "on", "Z", &on}};
  EXPECT_FALSE(binding::bind(jni.env(), instanceOn, error));
  EXPECT_EQ(error, "field java/lang/DragnetRt.on:Z is missing");
}

TEST(JniBinding, AMissingClassIsNamedWithTheMemberThatNeedsIt) {
  FakeJni jni;
  addRuntime(jni);
  StaticField scan;
  Class life;
  std::string error;
  const Member members[] = {{"java/lang/DragnetLife", "scan", "()V", &scan}};
  EXPECT_FALSE(binding::bind(jni.env(), members, error));
  EXPECT_EQ(error,
            "class java/lang/DragnetLife is missing (needed for static field "
            "java/lang/DragnetLife.scan:()V)");
  const Member classOnly[] = {{"java/lang/DragnetLife", nullptr, nullptr, &life}};
  EXPECT_FALSE(binding::bind(jni.env(), classOnly, error));
  EXPECT_EQ(error,
            "class java/lang/DragnetLife is missing (needed for class java/lang/DragnetLife)");
  EXPECT_FALSE(jni.pending());
}

TEST(JniBinding, OptionalMembersMayBeMissing) {
  FakeJni jni;
  addRuntime(jni);
  StaticField null, nullQueue, on;
  std::string error;
  const Member members[] = {
      {"java/lang/DragnetRt", "NULL", "Ljava/lang/Object;", &null, Need::Optional},
      {"java/lang/DragnetRt", "on", "Z", &on, Need::Optional},
      {"java/lang/Missing", "NULL_QUEUE", "Ljava/lang/Object;", &nullQueue, Need::Optional}};
  ASSERT_TRUE(binding::bind(jni.env(), members, error)) << error;
  EXPECT_EQ(null.id, nullptr);
  EXPECT_EQ(null.cls, nullptr);
  EXPECT_EQ(nullQueue.id, nullptr);
  EXPECT_NE(on.id, nullptr);
  EXPECT_FALSE(jni.pending());
}

TEST(JniBinding, ConfigureSetsEveryFieldOrNone) {
  FakeJni jni;
  addRuntime(jni);
  std::string error;
  ASSERT_TRUE(configure(
      jni.env(), "java/lang/DragnetRt",
      {{"maxDepth", "I", jint{7}}, {"clock", "J", jlong{1} << 40}, {"on", "Z", true}}, error))
      << error;
  EXPECT_EQ(jni.staticValue("maxDepth"), 7);
  EXPECT_EQ(jni.staticValue("clock"), 1LL << 40);
  EXPECT_EQ(jni.staticValue("on"), 1);

  FakeJni fresh;
  addRuntime(fresh);
  EXPECT_FALSE(configure(fresh.env(), "java/lang/DragnetRt",
                         {{"maxDepth", "I", jint{7}}, {"depth", "I", jint{3}}}, error));
  EXPECT_EQ(error, "static field java/lang/DragnetRt.depth:I is missing");
  EXPECT_EQ(fresh.staticValue("maxDepth"), -1) << "nothing is set when a field is missing";
}

TEST(JniBinding, ConfigureRefusesAValueOfAnotherTypeThanTheSignature) {
  FakeJni jni;
  addRuntime(jni);
  std::string error;
  EXPECT_FALSE(configure(jni.env(), "java/lang/DragnetRt", {{"clock", "J", jint{1}}}, error));
  EXPECT_EQ(error,
            "static field java/lang/DragnetRt.clock:J is set with a value of another type (I)");
  EXPECT_EQ(jni.staticValue("clock"), -1);
}

}  // namespace
}  // namespace dragnet::agent::binding
