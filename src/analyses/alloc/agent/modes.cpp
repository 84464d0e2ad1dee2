#include "analyses/alloc/agent/modes.h"

#include "agent/contexts_mode.h"
#include "agent/sampled_mode.h"

namespace dragnet::analyses::alloc {
namespace {

std::unique_ptr<agent::Mode> makeExact() { return std::make_unique<agent::ContextsMode>(); }
std::unique_ptr<agent::Mode> makeSampled() { return std::make_unique<agent::SampledMode>(); }

}  // namespace

agent::ModeInfo exactMode() { return {"alloc", false, makeExact}; }
agent::ModeInfo sampledMode() { return {"alloc", true, makeSampled}; }

}  // namespace dragnet::analyses::alloc
