// The lines of caller frames. The agent lists every invoke of each rewritten method
// (profile::CallSite, numbered from 1 in its method). A context C under a context of method
// P was called during one of P's calls; which one is known two ways:
//   - at run time: before an invoke that needs it (needsSlot) the caller passes the site's
//     number to the next entry (DragnetState.callSite, with the caller's depth, cleared
//     after the call and in the caller's handlers), which keys its context by it
//     (profile::NodeDef::slot); a sampled stack gives it from the caller frame's bci. A
//     number names the call the context was entered during, even through code without
//     probes (a lambda's proxy, a method handle's forms, a native);
//   - without a number, statically: P's call sites that can enter C's method directly (same
//     name and descriptor; a constructor: same class too); if they lie on one line, that
//     line. The invokes that can reach code without probes (invokeinterface, which lambda
//     and method-reference proxies implement, and method handles' invoke*) always pass a
//     number, so a context without one was entered by a direct call or by the JVM itself
//     (a class initializer: no invoke names it; a class loader the JVM called).
#pragma once

#include <cstdint>
#include <map>
#include <utility>
#include <vector>

#include "profile/reader.h"

namespace dragnet::contexts {

// Whether call site `s` can enter method `callee` directly.
bool canEnter(const profile::CallSite& s, const profile::MethodDef& callee);

// For the call sites of one method (in number order): true for each site whose number must
// be passed at run time: one with a rival (a site on another line that can enter a method
// it can enter), or one that can reach code without probes.
std::vector<bool> needsSlot(const std::vector<profile::CallSite>& sites);

// The line in `parentMethod` of the call that made a context of `childMethod` keyed by
// `slot` (0: none); -1 when it is not known exactly. Each parent's sites are looked at once.
class CallLines {
 public:
  explicit CallLines(const profile::Profile& p) : p_(p) {}
  int32_t line(uint32_t parentMethod, uint32_t childMethod, uint8_t slot);

 private:
  int32_t directLine(uint32_t parentMethod, uint32_t childMethod);
  const profile::Profile& p_;
  std::map<std::pair<uint32_t, uint32_t>, int32_t> direct_;  // (parent, child) -> line
};

// The same, for one context.
int32_t callLine(const profile::Profile& p, uint32_t parentMethod, uint32_t childMethod,
                 uint8_t slot);

}  // namespace dragnet::contexts
