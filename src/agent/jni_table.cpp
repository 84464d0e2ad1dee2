#include "agent/jni_table.h"

#include <mutex>

namespace dragnet::agent {
namespace {

thread_local bool tInAgent = false;

constexpr int kMaxClients = 4;

// Static storage, never destroyed: the installed table and the clients' `next` tables are
// called until the process ends.
struct Table {
  std::mutex mu;  // registration and installation (Agent_OnLoad, VM init), never a wrapper
  bool installed = false;
  int clients = 0;
  JniWrap wraps[kMaxClients] = {};
  JNINativeInterface_ below[kMaxClients] = {};  // client i's `next`
  JniChain chains[kMaxClients];
  JNINativeInterface_ table{};
};

Table& table() {
  static Table* t = new Table();
  return *t;
}

}  // namespace

AgentScope::AgentScope() : saved_(tInAgent) { tInAgent = true; }
AgentScope::~AgentScope() { tInAgent = saved_; }
bool AgentScope::active() { return tInAgent; }

bool addJniWrappers(JniWrap wrap) {
  Table& t = table();
  std::lock_guard lock(t.mu);
  if (t.installed || t.clients == kMaxClients) return false;
  t.wraps[t.clients++] = wrap;
  return true;
}

bool installJniTable(jvmtiEnv* jvmti, std::string& error) {
  Table& t = table();
  std::lock_guard lock(t.mu);
  if (t.installed || t.clients == 0) return true;
  jniNativeInterface* jvm = nullptr;  // a JVMTI-allocated copy, kept for the life of the JVM
  if (jvmti->GetJNIFunctionTable(&jvm) != JVMTI_ERROR_NONE) {
    error = "cannot read the JNI function table";
    return false;
  }
  t.table = *jvm;
  for (int i = 0; i < t.clients; ++i) {
    t.below[i] = t.table;
    t.chains[i] = {&t.below[i], jvm};
    t.wraps[i](t.table, t.chains[i]);
  }
  if (jvmti->SetJNIFunctionTable(&t.table) != JVMTI_ERROR_NONE) {
    error = "cannot install the JNI function wrappers";
    return false;
  }
  t.installed = true;
  return true;
}

ExceptionAside::ExceptionAside(JNIEnv* jni, const JNINativeInterface_* jvm)
    : jni_(jni), jvm_(jvm), pending_(jvm->ExceptionOccurred(jni)) {
  if (pending_) jvm_->ExceptionClear(jni_);
}

ExceptionAside::~ExceptionAside() {
  if (!pending_) return;
  jvm_->Throw(jni_, pending_);
  jvm_->DeleteLocalRef(jni_, pending_);
}

}  // namespace dragnet::agent
