// libFuzzer harness for the class-file library (build: scripts/build.sh fuzz; run: see
// docs/FUZZING.md).
//
// Property (fuzz/classfile_property.h): parseClass never crashes, hangs or allocates without
// bound; when it accepts an input the model is consistent, writeClass returns exactly the
// input bytes, and an edited model (constants appended) writes and parses again. Any
// violation aborts with a message, so libFuzzer saves the input as a crash.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <span>

#include "classfile_property.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  dragnet::fuzz::PropertyResult r = dragnet::fuzz::checkClassFile(std::span<const uint8_t>(data, size));
  if (!r.violation.empty()) {
    std::fprintf(stderr, "\n==dragnet== CONTRACT VIOLATION (%zu-byte input): %s\n", size,
                 r.violation.c_str());
    std::abort();
  }
  return 0;
}
