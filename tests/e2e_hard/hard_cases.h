// Support for the hard-case end-to-end tests (tests/unit/instrument/hard_cases_*.cpp): compile Java
// sources with javac (cached under the build directory), instrument every method of the
// resulting classes with probes through the BIT API, write them, run them with
// `java -Xverify:all` and read back how often each probe ran.
//
// Probes call hardprobe.Probe (tests/e2e_hard/runtime), compiled together with the
// branch-outcome helper dragnet/rt/Bit (runtime/tools) into a "probe runtime" directory that
// goes on the class path after the instrumented classes. Every probe has an id; a `Site`
// says what the id stands for (the block, entry, branch, ... of which method, at which
// source line and bytecode offset), so tests can ask "how often did the block at line 12 of
// Main.loop run".
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "../unit/support/class_builder.h"
#include "classfile/class_file.h"
#include "instrument/bit.h"

namespace dragnet::test::hard {

namespace inst = dragnet::instrument;

inline constexpr std::string_view kProbe = "hardprobe/Probe";

// ---- Java tools ---------------------------------------------------------------------------

struct JavaTools {
  std::string javac, java;  // executables; empty when not found
};
// javac/java of JDK 17 (from PATH). `jdk25()` is the newest JDK of version 25 or later
// (tests/agent/newest_jdk.h) for cases that need newer language features; empty members
// when there is none.
const JavaTools& jdk17();
const JavaTools& jdk25();

struct SourceFile {
  std::string path;  // relative, e.g. "Main.java" or "p/Shape.java"
  std::string text;
};

// Source files of tests/e2e_hard/<dir> (recursively, *.java).
std::vector<SourceFile> sourcesIn(const std::string& dir);
// 1-based line of the first line of `text` containing `marker`; 0 if absent.
int lineOf(const std::string& text, const std::string& marker);
// The same, in the file `path` of `files`.
int lineOf(const std::vector<SourceFile>& files, const std::string& path,
           const std::string& marker);

// Compiles `files` with `javac <options>` into a cached directory (keyed by a hash of the
// tool, the options and the sources) and returns it; "" with *why set on failure.
std::string compileJava(const JavaTools& jdk, const std::vector<SourceFile>& files,
                        const std::string& options, std::string* why);
// The compiled probe runtime (hardprobe/Probe and dragnet/rt/Bit); "" with *why on failure.
std::string probeRuntime(std::string* why);

// ---- class files ----------------------------------------------------------------------------

struct ClassBytes {
  std::string path;  // relative to a class-path root, e.g. "p/Shape.class"
  Bytes bytes;
};
std::vector<ClassBytes> readClasses(const std::string& dir);
void writeClasses(const std::string& dir, const std::vector<ClassBytes>& classes);

// A class file under edit: the bytes the model refers into, and the model.
struct Editable {
  std::string path;
  Bytes bytes;
  cf::ClassFile cls;
};
// Parses all classes (fails the test on a parse error).
std::vector<Editable> parseAll(const std::vector<ClassBytes>& classes);
// Writes all models back (fails the test on a writer error).
std::vector<ClassBytes> writeAll(const std::vector<Editable>& classes);

// Turns a javac class into a version 49.0 class (no stack-map frames): sets the version and
// drops every StackMapTable. Only for code that uses nothing newer than Java 5.
void toVersion49(cf::ClassFile& cls);

const cf::Member* findMethod(const cf::ClassFile& cls, std::string_view name,
                             std::string_view desc = {});

// ---- probes -----------------------------------------------------------------------------------

// What a probe id stands for.
struct Site {
  int32_t id = 0;
  std::string cls, method;  // method: name + descriptor
  std::string kind;         // "entry", "entry-before-super", "block", "branch", "return",
                            // "exit" (exceptional exit), "handler" (handler entry),
                            // "after-call" (after an invoke), "value", "field-object",
                            // "array-object" (Policy::values), or a test's own
  int line = -1;            // source line of the instruction, -1 if unknown
  uint32_t block = 0;       // block id (block, branch, return, handler)
  uint32_t insn = 0;        // instruction index in the original code
  uint32_t offset = 0;      // its original bytecode offset
  cf::Op op = cf::Op::nop;  // the instruction's opcode
  bool live = true;         // false when the routine's commit left it unchanged
};

// Which probes to insert into every method.
struct Policy {
  bool entry = true;             // Probe.hit at entry (constructors: after super())
  bool entryBeforeSuper = true;  // constructors: also Probe.hit before super()
  bool blocks = true;            // Probe.hit before every basic block
  bool branches = true;          // Probe.branch(outcome) before every conditional branch
  bool returns = true;           // Probe.hit before every return
  bool exits = true;             // Probe.exc(exception) on exceptional exit
  bool handlers = true;          // Probe.exc(exception) at every handler entry
  bool afterCalls = true;        // Probe.hit after every invoke instruction (insertAfter)
  // Probe.val(value) before every return of a value ("value"), Probe.val(object) before every
  // field access ("field-object", not where the object is an uninitialized `this`) and every
  // array access ("array-object").
  bool values = false;
  // Called after the standard probes of each routine, for a test's own probes.
  std::function<void(inst::Routine&, class Probes&)> extra;
};

struct MethodOutcome {
  std::string cls, method;  // method: name + descriptor
  inst::EditOutcome outcome;
};

class Probes {
 public:
  explicit Probes(int32_t firstId = 1000) : next_(firstId) {}

  // Instruments every method of `cls` with `policy`; returns the outcome of every method
  // that had edits (as ClassInstrumenter::commit does).
  std::vector<MethodOutcome> instrument(cf::ClassFile& cls, const Policy& policy = {});
  // Instruments all classes; the outcomes of all of them.
  std::vector<MethodOutcome> instrumentAll(std::vector<Editable>& classes,
                                           const Policy& policy = {});

  // A new site for a test's own probe (Policy::extra). `id` < 0: the next free id.
  int32_t site(const inst::Routine& r, std::string kind, int64_t insn = -1, int32_t id = -1);
  // Probe.hit(id) as a call.
  static inst::Call hit(int32_t id);

  const std::vector<Site>& sites() const { return sites_; }
  const Site& at(int32_t id) const;
  // Live sites of `kind` in the method whose name (or name+descriptor) is `method` of class
  // `cls`, at source line `line` (-1: any), in id order.
  std::vector<const Site*> find(std::string_view kind, std::string_view cls,
                                std::string_view method, int line = -1) const;
  // The one live site that matches (fails the test otherwise).
  const Site& one(std::string_view kind, std::string_view cls, std::string_view method,
                  int line = -1) const;

 private:
  void addValueProbes(inst::Routine& r, const inst::Instruction& in);

  int32_t next_;
  std::vector<Site> sites_;
  std::map<int32_t, size_t> byId_;
};

// "cls.method: reason" of every outcome that is not `changed`.
std::string describeUnchanged(const std::vector<MethodOutcome>& outcomes);
const MethodOutcome* findOutcome(const std::vector<MethodOutcome>& outcomes, std::string_view cls,
                                 std::string_view method);

// ---- running ----------------------------------------------------------------------------------

struct ProbeCount {
  int64_t count = 0, taken = 0;         // taken: branches taken, or the sum of values
  std::vector<std::string> exceptions;  // class names seen (Probe.exc, Probe.val(Object))
};

struct RunResult {
  int exitCode = -1;
  std::string out, err;
  std::map<int32_t, ProbeCount> probes;
  int64_t count(int32_t id) const;
  int64_t taken(int32_t id) const;
  std::string exceptions(int32_t id) const;  // space-separated
  // Sum of count() over sites.
  int64_t sum(const std::vector<const Site*>& sites) const;
};

// A directory under the build tree for one test's files; removed at destruction unless the
// current test (or any test so far) has failed, so the classes can be inspected.
class ScratchDir {
 public:
  explicit ScratchDir(const std::string& name);
  ~ScratchDir();
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;
  const std::string& path() const { return path_; }
  std::string sub(const std::string& name) const;  // created

 private:
  std::string path_;
};

struct RunOptions {
  // Put the class path on the boot class path instead, and do not verify: for classes the
  // JVM only accepts unverified (e.g. nonzero switch padding, which HotSpot's verifiers
  // reject in every class-file version).
  bool bootUnverified = false;
  // More JVM options, after the harness's own (-XX:TieredStopAtLevel=1 -XX:+UseSerialGC).
  std::vector<std::string> jvmArgs;
};

// Runs `java -Xverify:all -cp <classpath> <mainClass> <args>` (classpath entries joined by
// ':'), with -Dhardprobe.out set to a file in `scratch`, and collects the probe counts.
RunResult runJava(const JavaTools& jdk, const std::vector<std::string>& classpath,
                  const std::string& mainClass, const ScratchDir& scratch, const std::string& tag,
                  const std::vector<std::string>& args = {}, const RunOptions& options = {});

// The usual flow of a test: run `classes` as they are (`before` may edit the models first,
// e.g. toVersion49), instrument all of them with `policy`, write them and run them again.
// Both runs have the probe runtime on the class path; files go to scratch/<tag>-*.
struct Comparison {
  RunResult original, instrumented;
  std::vector<MethodOutcome> outcomes;
  std::vector<ClassBytes> originalClasses, written;
  bool ok = false;  // everything up to the runs worked (the test has failed otherwise)
};
// Both runs exited 0 and printed `want`, the instrumented one with nothing on stderr, and
// no method was left unchanged. Reports each difference; false if any.
bool sameRun(const Comparison& c, const std::string& want);

Comparison instrumentAndRun(const JavaTools& jdk, const std::vector<ClassBytes>& classes,
                            const std::string& mainClass, Probes& probes, const ScratchDir& scratch,
                            const std::string& tag, const Policy& policy = {},
                            const std::function<void(std::vector<Editable>&)>& before = {},
                            const RunOptions& options = {});
// The written class `path` of a comparison, parsed (the bytes live in `c`).
cf::ClassFile parseWritten(const Comparison& c, const std::string& path);

// Skips the test when JDK 17 is missing; sets `runtime` to the probe runtime directory.
#define HARD_REQUIRE_JAVA(runtime)                        \
  std::string runtime;                                    \
  do {                                                    \
    if (::dragnet::test::hard::jdk17().javac.empty()) {   \
      GTEST_SKIP() << "JDK 17 (javac, java) not found";   \
    }                                                     \
    std::string why_;                                     \
    runtime = ::dragnet::test::hard::probeRuntime(&why_); \
    ASSERT_FALSE(runtime.empty()) << why_;                \
  } while (0)

// A small assembler for hand-written bytecode (class_builder's raw bytes): labels and
// 16/32-bit branch fixups.
class Asm {
 public:
  Asm& op(cf::Op o) { return u1(static_cast<uint8_t>(o)); }
  Asm& op(cf::Op o, int u1v) { return op(o).u1(u1v); }
  Asm& u1(int v);
  Asm& u2(int v);
  Asm& u4(int64_t v);
  Asm& cp(cf::Op o, uint16_t index) { return op(o).u2(index); }  // u2 pool operand
  int newLabel();
  Asm& bind(int label);
  Asm& jump(cf::Op o, int label);   // 16-bit offset
  Asm& jumpW(cf::Op o, int label);  // 32-bit offset
  // A 32-bit switch offset to `label`, relative to the switch instruction at `switchPc`.
  Asm& offset4(int label, uint32_t switchPc);
  uint32_t pc() const { return static_cast<uint32_t>(code_.size()); }
  uint32_t labelPc(int label) const { return labels_.at(static_cast<size_t>(label)); }
  // Resolves the fixups (fails the test if a 16-bit offset does not fit).
  Bytes finish();

 private:
  struct Fixup {
    uint32_t insnPc, at;
    int label;
    bool wide;
  };
  Bytes code_;
  std::vector<uint32_t> labels_;
  std::vector<Fixup> fixups_;
};

// Bytecode offset of each instruction of `m` and the instructions (parsed from a written
// class), for checks on the final layout.
struct Layout {
  std::vector<cf::Insn> insns;
  std::vector<uint32_t> offsets;
};
Layout layoutOf(const cf::ClassFile& cls, std::string_view method, std::string_view desc = {});
// Number of instructions with opcode `op` in `method` of the written class.
int countOps(const cf::ClassFile& cls, std::string_view method, cf::Op op);

}  // namespace dragnet::test::hard
