// A generator of methods whose branches span about 32 KiB, for branch relaxation
// (instrument/code_editor.cpp, `relax`): instrumentation that grows the code between a branch
// and its target must turn it into goto_w / jsr_w / `if<!cond> skip; goto_w L; skip:` and,
// in a class with stack-map frames, give `skip` a frame without breaking the frames after it.
//
// One class per class version and branch opcode, Relax<version>_<opcode>, built with the
// class-file library (frames by instrument::computeFrames, encoded relatively as javac does).
// Version 52 classes have frames, version 49 classes have none (and also test jsr). Every
// method is `static int m(int p)` and computes a value the generator knows (it simulates
// the method), so a run's output can be compared with `expected`. A method has:
//   - a far branch: forward (over the filler) or backward (a loop around it), of the method's
//     opcode, at a distance of 32,700 or the largest that fits 16 bits (instrumentation must
//     relax it), or one more than that (the original already has goto_w / jsr_w, javac's
//     `if<!cond> skip; goto_w`);
//   - the filler: about 1,100 units of 30 bytes with two basic blocks and a conditional each,
//     every eighth unit an int[] allocation with a store and a load instead (so that every
//     tool and agent mode grows it);
//   - live across the branch: an int, a long, a double, a String and an Object in locals
//     (one local, T, first assigned just before a forward branch, so that the branch's new
//     frame declares more locals than the frame before it), and in the `_uninit` methods a
//     double and two copies of an uninitialized StringBuilder on the stack, from a `new`
//     before the closest frame or after it (not in version 49 across backward branches or
//     with jsr, which the old verifier does not allow);
//   - both outcomes: it is run with p = 0 (a forward branch is taken) and p = 1 (not taken);
//     a backward branch loops once, then falls through.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace dragnet::test::relax {

struct GeneratedClass {
  std::string name;  // internal name, no package
  std::vector<uint8_t> bytes;
};

// A generated method whose far branch fits 16 bits in the original: any tool that grows the
// code between the branch and its target must relax it.
struct NearBranch {
  std::string cls, method;
};

struct Generated {
  std::vector<GeneratedClass> classes;
  // RelaxMain's output for the classes (tests/relax/RelaxMain.java): one line per method and
  // argument, "Class.method(p) = value", classes in list order, methods by name.
  std::string expected;
  std::vector<NearBranch> near;
  size_t methods = 0;
};

// Generates all classes; throws std::runtime_error if the library refuses one (a bug here).
Generated generate();

// Writes DIR/<name>.class for every class, DIR/classes.txt (the class names, one a line:
// RelaxMain's argument) and DIR/expected.txt. False with `error` set on failure.
bool writeGenerated(const Generated& g, const std::filesystem::path& dir, std::string& error);

// The bytes of a file; empty if it cannot be read.
std::vector<uint8_t> readBytes(const std::filesystem::path& path);

}  // namespace dragnet::test::relax
