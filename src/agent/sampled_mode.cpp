#include "agent/sampled_mode.h"

#include <atomic>

namespace dragnet::agent {
namespace {

// The sampled mode of this JVM: the sampler's callback has no other way to reach it. A
// later attached session (dragnet attach) replaces the one that ended.
std::atomic<SampledMode*> gSampled{nullptr};

}  // namespace

bool SampledMode::load(Host& host, std::map<std::string, std::string>& meta, ModeEvents& events,
                       std::string& error) {
  host_ = &host;
  gSampled = this;
  const Options& o = *host.options;
  sampler_ = std::make_unique<Sampler>(host.jvmti, *host.writer, o.sample, stackDepth(o));
  if (!sampler_->configure(error, programOnly())) return false;
  events.callbacks->SampledObjectAlloc = onSample;
  meta[profile::kCallSlotsMeta] = "on";  // the sampler's method ids are far below 2^22
  return loadExtension(host, meta, events, error);
}

std::string SampledMode::startLine(const Host& host) const {
  return "sampling allocations (one per ~" + std::to_string(host.options->sample) + " bytes) to " +
         host.outPath;
}

void SampledMode::failure(profile::Failure f) {
  ++failures_;
  host_->writer->failures({std::move(f)});
}

bool SampledMode::vmInit(JNIEnv* jni, jthread) {
  sampler_->start(jni);
  return true;
}

void SampledMode::flush(JNIEnv*) { sampler_->flush(false); }

std::string SampledMode::vmDeath(JNIEnv*) {
  host_->jvmti->SetEventNotificationMode(JVMTI_DISABLE, JVMTI_EVENT_SAMPLED_OBJECT_ALLOC, nullptr);
  sampler_->flush(true);
  return std::to_string(sampler_->samples()) + " samples";
}

void SampledMode::sampled(JNIEnv* jni, jthread thread, jobject object, jclass cls, jlong size) {
  sampler_->onSample(jni, thread, object, cls, size);
}

void JNICALL SampledMode::onSample(jvmtiEnv*, JNIEnv* jni, jthread thread, jobject object,
                                   jclass cls, jlong size) {
  if (Sampler::primingSample()) return;
  gSampled.load(std::memory_order_acquire)->sampled(jni, thread, object, cls, size);
}

}  // namespace dragnet::agent
