// Code pieces of mode copy's probes (instrumenter.cpp, summary_probes.cpp) on top of the
// flow engine's (flow/probe_code.h).
#pragma once

#include "flow/probe_code.h"

namespace dragnet::analyses::copy {

using flow::composeNode;
using flow::kFlowClass;
using flow::kNoLocal;
using flow::kObjectDesc;
using flow::loadState;
using flow::MethodProbes;
using flow::pushContext;
using flow::pushElementNode;
using flow::pushShadow;
using flow::pushTag;

// DragnetCopy.store(S, src, dst) / use(S, src) with their operands pushed.
instrument::Patch& callRecord(instrument::Patch& p, const char* what);
// The shadow of `s` consumed: DragnetCopy.use(S, s) (nothing for Bottom).
void useShadow(instrument::Patch& p, const flow::Shadow& s, const MethodProbes& m);

}  // namespace dragnet::analyses::copy
