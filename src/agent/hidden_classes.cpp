#include "agent/hidden_classes.h"

#include <mutex>
#include <vector>

namespace dragnet::agent {
namespace {

struct Noted {
  std::mutex mu;  // class loads only, never an allocation
  std::vector<profile::Failure> pending;
  uint64_t count = 0, written = 0;
};

Noted& noted() {
  static Noted* n = new Noted();  // lives as long as the JVM: events may come until the end
  return *n;
}

}  // namespace

std::optional<std::string> hiddenClassName(std::string_view sig) {
  if (sig.size() < 2 || sig.front() != 'L' || sig.back() != ';') return std::nullopt;
  std::string_view name = sig.substr(1, sig.size() - 2);
  if (profile::hiddenSuffixAt(name) == std::string_view::npos) return std::nullopt;
  return std::string(name);
}

void JNICALL onClassLoadNoteHidden(jvmtiEnv* jvmti, JNIEnv*, jthread, jclass klass) {
  char* sig = nullptr;
  if (jvmti->GetClassSignature(klass, &sig, nullptr) != JVMTI_ERROR_NONE || !sig) return;
  std::optional<std::string> name = hiddenClassName(sig);
  jvmti->Deallocate(reinterpret_cast<unsigned char*>(sig));
  if (!name) return;
  Noted& n = noted();
  std::lock_guard lock(n.mu);
  ++n.count;
  n.pending.push_back({std::move(*name), {}, std::string(profile::kHidden)});
}

uint64_t writeHiddenClasses(profile::Writer& writer) {
  std::vector<profile::Failure> out;
  uint64_t written = 0;
  {
    Noted& n = noted();
    std::lock_guard lock(n.mu);
    out.swap(n.pending);
    written = n.written += out.size();
  }
  writer.failures(out);
  return written;
}

uint64_t hiddenClassCount() {
  Noted& n = noted();
  std::lock_guard lock(n.mu);
  return n.count;
}

}  // namespace dragnet::agent
