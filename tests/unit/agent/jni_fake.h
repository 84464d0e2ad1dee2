// A fake JNIEnv for the agent's JNI services (binding, jni_table): classes with their
// members, FindClass and the Get*ID functions, a pending exception, global references
// counted and static fields stored. No JVM.
#pragma once

#include <jni.h>

#include <map>
#include <set>
#include <string>
#include <tuple>

namespace dragnet::test {

class FakeJni {
 public:
  // `cls` has the member `name` with signature `sig`, static or not.
  void add(const std::string& cls, const std::string& name, const std::string& sig, bool isStatic) {
    members_[cls].emplace(name, sig, isStatic);
  }
  void addClass(const std::string& cls) { members_[cls]; }

  JNIEnv* env() { return &env_; }
  bool pending() const { return pending_; }
  int globalRefs() const { return globalRefs_; }
  int findClassCalls() const { return findClassCalls_; }
  // The value last set into static field `name` of any class (as a jlong, or an object's
  // address), or -1 if none was.
  long long staticValue(const std::string& name) const {
    auto it = statics_.find(name);
    return it == statics_.end() ? -1 : it->second;
  }

  FakeJni();

 private:
  using Member = std::tuple<std::string, std::string, bool>;
  static FakeJni& of(JNIEnv* env);
  // Ids are the addresses of the stored members and class names: stable in std::map.
  const std::string* cls(jclass c) const { return reinterpret_cast<const std::string*>(c); }
  jclass findClass(const char* name);
  void* findMember(jclass c, const char* name, const char* sig, bool isStatic);
  void setStatic(jfieldID f, long long v);

  std::map<std::string, std::set<Member>> members_;
  std::map<std::string, long long> statics_;
  bool pending_ = false;
  int globalRefs_ = 0, findClassCalls_ = 0;
  JNINativeInterface_ functions_{};
  JNIEnv env_{};
};

}  // namespace dragnet::test
