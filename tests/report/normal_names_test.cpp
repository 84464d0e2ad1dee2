// normalName (src/report/normal_names.h) on names as real runs write them: Class.getName of
// JDK 17 and JDK 25 (tests/report: printed by a program making lambdas, method references
// and proxies), the profiles' own spelling of hidden classes (their JVMTI signatures in
// Java spelling, in types and frames of sampled stacks), reflection accessors and the
// code generators' classes. Two runs' names must normalise alike, and names with nothing
// run-dependent must come back unchanged.
#include "report/normal_names.h"

#include <gtest/gtest.h>

namespace dragnet::report {
namespace {

TEST(NormalNames, LambdaProxiesOfJdk17) {
  // Class.getName, JDK 17.0.15: "$$Lambda$<n>/0x<address>".
  EXPECT_EQ(normalName("Names$$Lambda$1/0x00007f6998000a08"), "Names$$Lambda");
  EXPECT_EQ(normalName("Names$$Lambda$3/0x00007f6998001000"), "Names$$Lambda");
  // The profile's spelling of the same class ('.' or '+' before the address).
  EXPECT_EQ(normalName("Names$$Lambda$14.0x0000000800c03000"), "Names$$Lambda");
  EXPECT_EQ(normalName("Names$$Lambda$14+0x0000000800c03000"), "Names$$Lambda");
  // JDK 8: the identity hash after the number.
  EXPECT_EQ(normalName("app.Main$$Lambda$1/1831932724"), "app.Main$$Lambda");
}

TEST(NormalNames, LambdaProxiesOfJdk25) {
  // Class.getName, Temurin 25: "$$Lambda/0x<address>", no number.
  EXPECT_EQ(normalName("Names$$Lambda/0x00000000a1040210"), "Names$$Lambda");
  EXPECT_EQ(normalName("Names$$Lambda/0x00000000a1040680"), "Names$$Lambda");
}

// Types and frames of profiles of the same program (a Supplier, a Function and a method
// reference) recorded twice, exact and sampled, on JDK 17.0.15 and Temurin 25: their reports'
// names of the same classes and frames normalise alike.
TEST(NormalNames, ProfilesOfTwoRunsCompare) {
  const std::pair<const char*, const char*> sameInTwoRuns[] = {
      // JDK 17, sampled, two runs.
      {"Names$$Lambda$1.0x00007fa43c000a08.get(Unknown Source)",
       "Names$$Lambda$1.0x00007f119c000a08.get(Unknown Source)"},
      // JDK 17, exact (class-data sharing off: other addresses) against sampled.
      {"Names$$Lambda$2.0x0000000800000c28", "Names$$Lambda$2.0x00007f119c000c28"},
      {"java.lang.WeakPairMap$$Lambda$9.0x0000000800010708",
       "java.lang.WeakPairMap$$Lambda$9.0x00007f119c043070"},
      // Temurin 25, two runs.
      {"Names$$Lambda.0x000000008a040438.apply(Unknown Source)",
       "Names$$Lambda.0x000000007b040438.apply(Unknown Source)"},
      {"java.lang.invoke.LambdaForm$MH.0x000000007b041400.invoke(LambdaForm$MH)",
       "java.lang.invoke.LambdaForm$MH.0x000000007b043400.invoke(LambdaForm$MH)"},
  };
  for (const auto& [a, b] : sameInTwoRuns) EXPECT_EQ(normalName(a), normalName(b)) << a;
  EXPECT_EQ(normalName("Names$$Lambda$13.0x0000000800001868"), "Names$$Lambda");
  EXPECT_EQ(normalName("java.lang.module.ModuleDescriptor$Builder$$Lambda$7.0x000000080003f470"),
            "java.lang.module.ModuleDescriptor$Builder$$Lambda");
  EXPECT_EQ(normalName("java.lang.WeakPairMap$$Lambda.0x000000005c0dd460"),
            "java.lang.WeakPairMap$$Lambda");
  EXPECT_EQ(normalName("java.lang.invoke.LambdaForm$MH.0x000000007b041400.invoke(LambdaForm$MH)"),
            "java.lang.invoke.LambdaForm$MH.invoke(LambdaForm$MH)");
}

TEST(NormalNames, HiddenClassesInFramesAndSites) {
  EXPECT_EQ(normalName("java.lang.invoke.LambdaForm$MH/0x0000000800c0c400.invoke(LambdaForm$MH)"),
            "java.lang.invoke.LambdaForm$MH.invoke(LambdaForm$MH)");
  EXPECT_EQ(normalName("java.lang.invoke.LambdaForm$DMH.0x00007f0c1c00c000.newInvokeSpecial("
                       "Unknown Source)"),
            "java.lang.invoke.LambdaForm$DMH.newInvokeSpecial(Unknown Source)");
  EXPECT_EQ(normalName("app.Main$$Lambda$7/0x0000000801001a00.get(Unknown Source)"),
            "app.Main$$Lambda.get(Unknown Source)");
  // A whole site key: type, then where.
  EXPECT_EQ(normalName("Names$$Lambda.0x00000000a1040210 Names.main(Names.java:9)"),
            "Names$$Lambda Names.main(Names.java:9)");
  // Arrays of hidden classes.
  EXPECT_EQ(normalName("app.Main$$Lambda/0x0000000800c03000[]"), "app.Main$$Lambda[]");
  EXPECT_EQ(normalName("p.Hidden/0x0000000800c0d000"), "p.Hidden");
}

TEST(NormalNames, ProxiesAndTheirModules) {
  // JDK 17 and 25 alike: "jdk.proxy<module>.$Proxy<n>".
  EXPECT_EQ(normalName("jdk.proxy1.$Proxy0"), "jdk.proxy.$Proxy");
  EXPECT_EQ(normalName("jdk.proxy2.$Proxy12.greet(Unknown Source)"),
            "jdk.proxy.$Proxy.greet(Unknown Source)");
  EXPECT_EQ(normalName("jdk/proxy3/$Proxy7"), "jdk/proxy/$Proxy");
  // Before JDK 16, and a proxy of a non-public interface, in its interface's package.
  EXPECT_EQ(normalName("com.sun.proxy.$Proxy5"), "com.sun.proxy.$Proxy");
  EXPECT_EQ(normalName("app.$Proxy23"), "app.$Proxy");
}

TEST(NormalNames, ReflectionAccessors) {
  EXPECT_EQ(normalName("jdk.internal.reflect.GeneratedMethodAccessor7.invoke(Unknown Source)"),
            "jdk.internal.reflect.GeneratedMethodAccessor.invoke(Unknown Source)");
  EXPECT_EQ(normalName("jdk.internal.reflect.GeneratedConstructorAccessor12"),
            "jdk.internal.reflect.GeneratedConstructorAccessor");
  EXPECT_EQ(normalName("jdk.internal.reflect.GeneratedSerializationConstructorAccessor3"),
            "jdk.internal.reflect.GeneratedSerializationConstructorAccessor");
}

TEST(NormalNames, CodeGenerators) {
  EXPECT_EQ(normalName("app.Service$$EnhancerByCGLIB$$1a2b3c4d"), "app.Service$$EnhancerByCGLIB");
  EXPECT_EQ(normalName("app.Service$$EnhancerBySpringCGLIB$$9f8e7d6c.run(<generated>)"),
            "app.Service$$EnhancerBySpringCGLIB.run(<generated>)");
  EXPECT_EQ(normalName("app.Service$$FastClassByCGLIB$$abcdef12"), "app.Service$$FastClassByCGLIB");
  EXPECT_EQ(normalName("app.Service$$SpringCGLIB$$0"), "app.Service$$SpringCGLIB");
  EXPECT_EQ(normalName("app.Service$ByteBuddy$Zx9a2Kq1"), "app.Service$ByteBuddy");
  EXPECT_EQ(normalName("app.Service$MockitoMock$1290876543"), "app.Service$MockitoMock");
  EXPECT_EQ(normalName("app.Order$HibernateProxy$aBc123XyZ"), "app.Order$HibernateProxy");
  EXPECT_EQ(normalName("app.Order_$$_jvst4f1_2a"), "app.Order_$$_jvst");
}

TEST(NormalNames, StableNamesUnchanged) {
  for (const char* name :
       {"java.lang.String", "int[][]", "app.Main$Inner", "app.Main$1",
        "app.Main.lambda$main$0(Main.java:12)", "byte[] app.Main.f(Main.java:10)",
        "java.util.HashMap$Node[] java.util.HashMap.resize(HashMap.java:700)",
        "app.Hex.x0ff(Hex.java:3)", "app.Main.run(Main.java) [jvm]", "ELM", "C",
        "proxyFactory.create()", "java.lang.invoke.BoundMethodHandle$Species_LL",
        "jdk.internal.reflect.DirectMethodHandleAccessor"}) {
    EXPECT_EQ(normalName(name), name);
  }
}

}  // namespace
}  // namespace dragnet::report
