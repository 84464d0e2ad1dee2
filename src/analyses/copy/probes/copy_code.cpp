#include "analyses/copy/probes/copy_code.h"

#include <string>

#include "analyses/copy/probes/instrumenter.h"
#include "contexts/probes.h"

namespace dragnet::analyses::copy {

instrument::Patch& callRecord(instrument::Patch& p, const char* what) {
  bool store = what[0] == 's';
  return p.invokeStatic(kCopyClass, what,
                        std::string("(") + contexts::kStateDesc + (store ? "JJ)V" : "J)V"));
}

void useShadow(instrument::Patch& p, const flow::Shadow& s, const MethodProbes& m) {
  if (s.isBottom()) return;
  loadState(p, m);
  callRecord(pushShadow(p, s, m), "use");
}

}  // namespace dragnet::analyses::copy
