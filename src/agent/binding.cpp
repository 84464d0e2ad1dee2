#include "agent/binding.h"

#include <cstring>
#include <vector>

namespace dragnet::agent::binding {
namespace {

template <class... F>
struct Overloaded : F... {
  using F::operator()...;
};

// The classes one bind call found, each looked up once: a local reference, and a global
// one made when a handle needs it.
class Classes {
 public:
  explicit Classes(JNIEnv* jni) : jni_(jni) {}
  ~Classes() {
    for (const Found& f : found_) {
      if (f.local) jni_->DeleteLocalRef(f.local);
    }
  }
  Classes(const Classes&) = delete;
  Classes& operator=(const Classes&) = delete;

  // The class, or null (its exception cleared) if it is missing.
  jclass local(const char* name) { return entry(name).local; }
  jclass global(const char* name) {
    Found& f = entry(name);
    if (f.local && !f.global) f.global = static_cast<jclass>(jni_->NewGlobalRef(f.local));
    return f.global;
  }

 private:
  struct Found {
    const char* name;
    jclass local, global;
  };
  Found& entry(const char* name) {
    for (Found& f : found_) {
      if (std::strcmp(f.name, name) == 0) return f;
    }
    jclass c = jni_->FindClass(name);
    if (!c) jni_->ExceptionClear();
    return found_.emplace_back(Found{name, c, nullptr});
  }
  JNIEnv* jni_;
  std::vector<Found> found_;
};

// Binds one member of a class that exists; false if the member is missing.
bool bindOne(JNIEnv* jni, Classes& classes, const Member& m) {
  jclass c = classes.local(m.cls);
  auto found = [&](auto id) {
    if (!id) jni->ExceptionClear();
    return id != nullptr;
  };
  return std::visit(
      Overloaded{[&](Class* h) {
                   h->ref = classes.global(m.cls);
                   return true;
                 },
                 [&](Field* h) { return found(h->id = jni->GetFieldID(c, m.name, m.sig)); },
                 [&](StaticField* h) {
                   bool ok = found(h->id = jni->GetStaticFieldID(c, m.name, m.sig));
                   h->cls = ok ? classes.global(m.cls) : nullptr;
                   return ok;
                 },
                 [&](Method* h) { return found(h->id = jni->GetMethodID(c, m.name, m.sig)); },
                 [&](StaticMethod* h) {
                   bool ok = found(h->id = jni->GetStaticMethodID(c, m.name, m.sig));
                   h->cls = ok ? classes.global(m.cls) : nullptr;
                   return ok;
                 }},
      m.to);
}

}  // namespace

std::string describe(const Member& m) {
  static constexpr const char* kKinds[] = {"class", "field", "static field", "method",
                                           "static method"};
  std::string s = std::string(kKinds[m.to.index()]) + " " + m.cls;
  if (m.name) s += std::string(".") + m.name + ":" + (m.sig ? m.sig : "");
  return s;
}

bool bind(JNIEnv* jni, std::span<const Member> members, std::string& error) {
  Classes classes(jni);
  for (const Member& m : members) {
    bool ok = classes.local(m.cls) != nullptr;
    if (!ok && m.need == Need::Required) {
      error = "class " + std::string(m.cls) + " is missing (needed for " + describe(m) + ")";
      return false;
    }
    if (ok && !bindOne(jni, classes, m) && m.need == Need::Required) {
      error = describe(m) + " is missing";
      return false;
    }
  }
  return true;
}

bool configure(JNIEnv* jni, const char* cls, std::initializer_list<Setting> settings,
               std::string& error) {
  std::vector<StaticField> fields(settings.size());
  std::vector<Member> members;
  members.reserve(settings.size());
  size_t i = 0;
  for (const Setting& s : settings) {
    char declared = s.sig[0] == '[' ? 'L' : s.sig[0];
    Member m{cls, s.name, s.sig, &fields[i++]};
    if (declared != s.type) {
      error = describe(m) + " is set with a value of another type (" + s.type + ")";
      return false;
    }
    members.push_back(m);
  }
  if (!bind(jni, members, error)) return false;
  i = 0;
  for (const Setting& s : settings) {
    const StaticField& f = fields[i++];
    switch (s.type) {
      case 'J':
        jni->SetStaticLongField(f.cls, f.id, s.value.j);
        break;
      case 'I':
        jni->SetStaticIntField(f.cls, f.id, s.value.i);
        break;
      case 'Z':
        jni->SetStaticBooleanField(f.cls, f.id, s.value.z);
        break;
      default:
        jni->SetStaticObjectField(f.cls, f.id, s.value.l);
        break;
    }
  }
  return true;
}

}  // namespace dragnet::agent::binding
