// The sampled modes' base (sample=SIZE): the JVM's allocation sampler (JVMTI
// SampledObjectAlloc) picks about one allocation per SIZE bytes and the sampler (sampler.h)
// records it in its calling context, from the JVM's stack trace. As it is, this base
// rewrites nothing: an allocation profile's sampled variant. An analysis adds what it does with
// each sample (`sampled`) and, if it rewrites classes, its own transform.
#pragma once

#include <map>
#include <memory>
#include <string>

#include "agent/mode.h"
#include "agent/sampler.h"

namespace dragnet::agent {

class SampledMode : public Mode {
 public:
  bool load(Host& host, std::map<std::string, std::string>& meta, ModeEvents& events,
            std::string& error) override;
  std::string startLine(const Host& host) const override;
  void failure(profile::Failure f) override;
  bool vmInit(JNIEnv* jni, jthread thread) override;
  void flush(JNIEnv* jni) override;
  std::string vmDeath(JNIEnv* jni) override;

 protected:
  // A sample (SampledObjectAlloc, any thread, concurrently).
  virtual void sampled(JNIEnv* jni, jthread thread, jobject object, jclass cls, jlong size);
  // What the sampler leaves out: the objects the JVM allocates for itself (Sampler::Site)
  // and the stack depth it keeps.
  virtual bool programOnly() const { return false; }
  virtual uint32_t stackDepth(const Options& o) const { return o.depth; }
  // Agent_OnLoad, after the sampler is configured.
  virtual bool loadExtension(Host&, std::map<std::string, std::string>&, ModeEvents&,
                             std::string&) {
    return true;
  }

  Host* host_ = nullptr;
  std::unique_ptr<Sampler> sampler_;
  std::atomic<uint64_t> failures_{0};  // classes or methods a rewriting variant left alone

 private:
  static void JNICALL onSample(jvmtiEnv* jvmti, JNIEnv* jni, jthread thread, jobject object,
                               jclass cls, jlong size);
};

}  // namespace dragnet::agent
