// The binding of the Java side: the classes, fields and methods that C++ reaches through
// JNI (the runtime helpers' and the JDK's), declared as a table next to the code that uses
// them and looked up in one call. A missing member is reported by kind, class, name and
// signature, in the constant pool's form: "static field java/lang/DragnetRt.on:Z".
//
//   binding::StaticMethod dyn;
//   binding::Field value;
//   const binding::Member members[] = {
//       {"java/lang/DragnetRt", "dyn", "(Ljava/lang/Object;I)V", &dyn},
//       {"java/lang/String", "value", "[B", &value, binding::Need::Optional}};
//   if (!binding::bind(jni, members, error)) ...
//   jni->CallStaticVoidMethod(dyn.cls, dyn, object, base);
//
// FindClass initializes the class it finds: a table names only classes its code may
// initialize at that point, and they are found in the table's order.
#pragma once

#include <jni.h>

#include <initializer_list>
#include <span>
#include <string>
#include <variant>

namespace dragnet::agent::binding {

// Typed handles, filled by bind. A static member's handle holds its class (a global
// reference, as does Class), so that it can be used alone.
struct Class {
  jclass ref = nullptr;
  operator jclass() const { return ref; }
};
struct Field {
  jfieldID id = nullptr;
  operator jfieldID() const { return id; }
};
struct StaticField {
  jclass cls = nullptr;
  jfieldID id = nullptr;
  operator jfieldID() const { return id; }
};
struct Method {
  jmethodID id = nullptr;
  operator jmethodID() const { return id; }
};
struct StaticMethod {
  jclass cls = nullptr;
  jmethodID id = nullptr;
  operator jmethodID() const { return id; }
};

// A member that may be missing leaves its handle null (its exception cleared).
enum class Need : bool { Required, Optional };

// One entry: the member `name` with JNI signature `sig` of class `cls` (an internal name:
// "java/lang/Thread"), bound into the handle `to`, whose type says the kind and whether it
// is static. A Class entry has neither name nor signature (nullptr).
struct Member {
  using Target = std::variant<Class*, Field*, StaticField*, Method*, StaticMethod*>;
  const char* cls;
  const char* name;
  const char* sig;
  Target to;
  Need need = Need::Required;
};

// Looks up every member in table order. False at the first required one missing, with
// `error` naming it ("method java/lang/Runtime.maxMemory:()J is missing") and the JVM's
// exception cleared.
bool bind(JNIEnv* jni, std::span<const Member> members, std::string& error);

// How `m` reads in a message: its kind and "class.name:signature".
std::string describe(const Member& m);

// A static field the agent writes once (the runtime helper's configuration). The value's
// C++ type must match the field's signature: jlong J, jint I, bool Z, jobject L... or [...
struct Setting {
  Setting(const char* name, const char* sig, jlong v) : name(name), sig(sig), type('J') {
    value.j = v;
  }
  Setting(const char* name, const char* sig, jint v) : name(name), sig(sig), type('I') {
    value.i = v;
  }
  Setting(const char* name, const char* sig, bool v) : name(name), sig(sig), type('Z') {
    value.z = v ? JNI_TRUE : JNI_FALSE;
  }
  Setting(const char* name, const char* sig, jobject v) : name(name), sig(sig), type('L') {
    value.l = v;
  }
  const char* name;
  const char* sig;
  char type;  // of `value`
  jvalue value{};
};

// Looks up the static fields of `settings` in class `cls` (internal name), then sets them
// in order. False with `error` naming the first missing, or declared with a signature its
// value does not match; nothing is set then.
bool configure(JNIEnv* jni, const char* cls, std::initializer_list<Setting> settings,
               std::string& error);

}  // namespace dragnet::agent::binding
