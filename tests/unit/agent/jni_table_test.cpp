// The JNI function table service (src/agent/jni_table.h) against a fake JVM: clients that
// wrap the same functions without knowing each other are chained in registration order,
// the table is installed once, and a wrapper's own calls reach the JVM's functions.
#include "agent/jni_table.h"

#include <gtest/gtest.h>
#include <jvmti.h>

#include <string>

namespace dragnet::agent {
namespace {

std::string gTrace;  // what the calls went through, in order
int gInstalls = 0;
JNINativeInterface_ gJvm{};      // the fake JVM's own functions
JNINativeInterface_ gCurrent{};  // what its JNIEnv calls (SetJNIFunctionTable copies here)

jobjectArray JNICALL jvmNewObjectArray(JNIEnv*, jsize, jclass, jobject) {
  gTrace += "jvm ";
  return nullptr;
}
jobject JNICALL jvmGetObjectArrayElement(JNIEnv*, jobjectArray, jsize) {
  gTrace += "jvm ";
  return nullptr;
}

// Two clients wrapping the same two functions, each through its own chain.
template <char Name>
struct Client {
  static inline JniChain chain;
  static jobjectArray JNICALL newObjectArray(JNIEnv* jni, jsize n, jclass c, jobject init) {
    gTrace += std::string(1, Name) + "> ";
    jobjectArray a = chain.next->NewObjectArray(jni, n, c, init);
    gTrace += std::string(1, Name) + "< ";
    return a;
  }
  static jobject JNICALL getObjectArrayElement(JNIEnv* jni, jobjectArray a, jsize i) {
    gTrace += std::string(1, Name) + " ";
    return chain.next->GetObjectArrayElement(jni, a, i);
  }
  static void wrap(JNINativeInterface_& t, const JniChain& c) {
    chain = c;
    t.NewObjectArray = newObjectArray;
    t.GetObjectArrayElement = getObjectArrayElement;
  }
};

jvmtiError JNICALL getTable(jvmtiEnv*, jniNativeInterface** table) {
  *table = new jniNativeInterface(gJvm);  // JVMTI hands out a copy
  return JVMTI_ERROR_NONE;
}
jvmtiError JNICALL setTable(jvmtiEnv*, const jniNativeInterface* table) {
  ++gInstalls;
  gCurrent = *table;
  return JVMTI_ERROR_NONE;
}

TEST(JniTable, ClientsChainInRegistrationOrderAndTheTableIsInstalledOnce) {
  gJvm.NewObjectArray = jvmNewObjectArray;
  gJvm.GetObjectArrayElement = jvmGetObjectArrayElement;
  gCurrent = gJvm;
  jvmtiInterface_1_ jvmtiFunctions{};
  jvmtiFunctions.GetJNIFunctionTable = getTable;
  jvmtiFunctions.SetJNIFunctionTable = setTable;
  _jvmtiEnv jvmti{};
  jvmti.functions = &jvmtiFunctions;
  JNIEnv jni{};
  jni.functions = &gCurrent;

  ASSERT_TRUE(addJniWrappers(Client<'A'>::wrap));
  ASSERT_TRUE(addJniWrappers(Client<'B'>::wrap));
  std::string error;
  ASSERT_TRUE(installJniTable(&jvmti, error)) << error;
  ASSERT_TRUE(installJniTable(&jvmti, error)) << "a second start does nothing";
  EXPECT_EQ(gInstalls, 1);
  EXPECT_FALSE(addJniWrappers(Client<'C'>::wrap)) << "too late once installed";

  // The later client is outermost; each calls the one below it, the first the JVM.
  gTrace.clear();
  jni.NewObjectArray(1, nullptr, nullptr);
  EXPECT_EQ(gTrace, "B> A> jvm A< B< ");
  gTrace.clear();
  jni.GetObjectArrayElement(nullptr, 0);
  EXPECT_EQ(gTrace, "B A jvm ");
  // A wrapper's own calls go to the JVM's functions, past every client.
  gTrace.clear();
  Client<'B'>::chain.jvm->NewObjectArray(&jni, 1, nullptr, nullptr);
  EXPECT_EQ(gTrace, "jvm ");
  EXPECT_EQ(Client<'A'>::chain.jvm, Client<'B'>::chain.jvm);
}

TEST(JniTable, AgentScopeNestsAndRestores) {
  EXPECT_FALSE(AgentScope::active());
  {
    AgentScope outer;
    EXPECT_TRUE(AgentScope::active());
    {
      AgentScope inner;
      EXPECT_TRUE(AgentScope::active());
    }
    EXPECT_TRUE(AgentScope::active()) << "the inner scope restores, not clears";
  }
  EXPECT_FALSE(AgentScope::active());
}

// A pending exception set aside for an upcall is thrown again after it.
jthrowable gPending = nullptr;
std::string gCalls;
TEST(JniTable, ExceptionAsideThrowsThePendingExceptionAgain) {
  JNINativeInterface_ f{};
  f.ExceptionOccurred = [](JNIEnv*) -> jthrowable {
    gCalls += "occurred ";
    return gPending;
  };
  f.ExceptionClear = [](JNIEnv*) {
    gCalls += "clear ";
    gPending = nullptr;
  };
  f.Throw = [](JNIEnv*, jthrowable t) -> jint {
    gCalls += "throw ";
    gPending = t;
    return 0;
  };
  f.DeleteLocalRef = [](JNIEnv*, jobject) { gCalls += "delete "; };
  JNIEnv jni{};
  jni.functions = &f;
  int exception = 0;
  gPending = reinterpret_cast<jthrowable>(&exception);
  {
    ExceptionAside aside(&jni, &f);
    EXPECT_EQ(gPending, nullptr) << "no exception pending during the upcall";
  }
  EXPECT_EQ(gPending, reinterpret_cast<jthrowable>(&exception));
  EXPECT_EQ(gCalls, "occurred clear throw delete ");
  gCalls.clear();
  gPending = nullptr;
  { ExceptionAside aside(&jni, &f); }
  EXPECT_EQ(gCalls, "occurred ") << "nothing pending: nothing to do";
}

}  // namespace
}  // namespace dragnet::agent
