// Handlers whose exception-table entry covers their own first instructions, as javac makes
// them (a synchronized block's release, a finally's store of the exception): found so that
// the code editor can keep probes out of that range (code_editor.cpp,
// Commit::moveHandlerPatches).
#pragma once

#include <cstdint>
#include <vector>

#include "classfile/attributes.h"

namespace dragnet::instrument {

// One handler of the shape
//   entry:    astore t
//             ...            (straight-line; t not stored again; the handler's own range
//                             ends at `end`)
//   end:      ...
// where no branch, switch or other handler enters (entry, end]: the instruction at `end`
// runs exactly when the handler ran, with t holding the exception and an empty stack.
struct SelfCoveringHandler {
  uint32_t entry = 0;  // the handler's first instruction
  uint32_t end = 0;    // the first instruction its own range does not cover
  uint32_t local = 0;  // t
};

// The handlers of that shape, one per entry.
std::vector<SelfCoveringHandler> selfCoveringHandlers(const classfile::CodeAttr& code);

}  // namespace dragnet::instrument
