// The exact modes' base: every class rewritten with the calling-context and allocation-site
// probes (contexts/probes.h, with the extensions of the analysis built on it), the threads'
// trees read by the recorder (recorder.h) when a thread ends, at each flush and at VM death,
// and the allocations no bytecode shows (native_allocs.h). As it is, this base is the
// exact allocation profile; an analysis adds its probes through `instrument` and its
// runtime through the hooks.
#pragma once

#include <map>
#include <memory>
#include <string>

#include "agent/mode.h"
#include "agent/recorder.h"
#include "contexts/probes.h"

namespace dragnet::agent {

class ContextsMode : public Mode {
 public:
  bool load(Host& host, std::map<std::string, std::string>& meta, ModeEvents& events,
            std::string& error) override;
  std::string startLine(const Host& host) const override;
  bool rewrites() const override { return true; }
  void transform(ClassLoad& c) override;
  void failure(profile::Failure f) override { recorder_->addFailure(std::move(f)); }
  bool vmInit(JNIEnv* jni, jthread thread) override;
  bool wantsThreadEnds() const override { return true; }
  void threadEnd(JNIEnv* jni, jthread thread) override;
  void virtualThreadEnd(JNIEnv* jni, jthread thread) override;
  void flush(JNIEnv* jni) override;
  std::string vmDeath(JNIEnv* jni) override;

 protected:
  // Instruments one class: the base's probes and the analysis's extensions in one pass.
  virtual contexts::ClassResult instrument(classfile::ClassFile& cls, contexts::IdSource& ids,
                                           bool bytecodes);
  // Whether `instrument` passes call-site numbers (contexts::Options::callSlots; the
  // profile's meta says so): callers at the lines of their calls.
  virtual bool callSlots() const { return false; }
  // Agent_OnLoad: the analysis's capabilities, meta data and callbacks.
  virtual bool loadExtension(Host&, std::map<std::string, std::string>&, ModeEvents&,
                             std::string&) {
    return true;
  }
  // Whether each virtual thread's tree is written as a thread's (the analysis's records
  // name contexts of their own thread) rather than merged into one tree.
  virtual bool ownVirtualTrees() const { return false; }
  // Whether the probes keep the per-thread caches an extension's probes use (DragnetRt).
  virtual bool threadCaches() const { return false; }
  // VMInit, before the probes are switched on; false (with `error`): nothing is recorded.
  virtual bool beforeProbes(JNIEnv*, std::string&) { return true; }
  // VMInit, once the probes and the allocation counting are on.
  virtual void started(JNIEnv*) {}
  // A flush, after the trees were written.
  virtual void flushExtension(JNIEnv*) {}
  // VM death, before the last trees are written: the analysis's last records and its
  // entries of the End chunk's totals; returns its part of the closing line (or "").
  virtual std::string finish(JNIEnv*, std::map<std::string, std::string>&) { return ""; }

  Host* host_ = nullptr;
  std::unique_ptr<Recorder> recorder_;
  contexts::IdSource ids_;
};

}  // namespace dragnet::agent
