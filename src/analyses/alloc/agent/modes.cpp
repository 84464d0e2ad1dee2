#include "analyses/alloc/agent/modes.h"

#include "agent/contexts_mode.h"
#include "agent/sampled_mode.h"
#include "analyses/alloc/options.h"

namespace dragnet::analyses::alloc {
namespace {

// The calling-context base as it is, with call-site numbers if caller-lines=on.
class ExactMode : public agent::ContextsMode {
 public:
  bool load(agent::Host& host, std::map<std::string, std::string>& meta, agent::ModeEvents& events,
            std::string& error) override {
    callerLines_ = optionValues(host.options->values).callerLines;
    return agent::ContextsMode::load(host, meta, events, error);
  }

 protected:
  bool callSlots() const override { return callerLines_; }

 private:
  bool callerLines_ = false;
};

std::unique_ptr<agent::Mode> makeExact() { return std::make_unique<ExactMode>(); }
std::unique_ptr<agent::Mode> makeSampled() { return std::make_unique<agent::SampledMode>(); }

}  // namespace

agent::ModeInfo exactMode() { return {"alloc", false, makeExact}; }
agent::ModeInfo sampledMode() { return {"alloc", true, makeSampled}; }

}  // namespace dragnet::analyses::alloc
