// Mode copy at the call of a summarised method (flow/summaries.h): the summary's effect on
// the data flow, applied at the call site instead of the callee's probes.
#pragma once

#include <cstdint>

#include "analyses/copy/probes/copy_code.h"
#include "flow/summaries.h"

namespace dragnet::analyses::copy {

// Inserts the probes of summary `s` around the call at instruction `i`.
void applySummary(MethodProbes& m, uint32_t i, const flow::Summary& s);

}  // namespace dragnet::analyses::copy
