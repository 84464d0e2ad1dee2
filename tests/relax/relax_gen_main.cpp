// dragnet-relax-gen DIR: writes the classes of tests/relax/relax_gen.h to DIR, with
// DIR/classes.txt and DIR/expected.txt (docs/VERIFICATION.md, "Branch relaxation").
#include <cstdio>
#include <exception>
#include <string>

#include "relax_gen.h"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s DIR\n", argv[0]);
    return 2;
  }
  try {
    dragnet::test::relax::Generated g = dragnet::test::relax::generate();
    std::string error;
    if (!dragnet::test::relax::writeGenerated(g, argv[1], error)) {
      std::fprintf(stderr, "%s\n", error.c_str());
      return 1;
    }
    std::printf("%zu classes, %zu methods (%zu with a branch that fits 16 bits) in %s\n",
                g.classes.size(), g.methods, g.near.size(), argv[1]);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 1;
  }
  return 0;
}
