// HotSpot registers every object of a class for finalization unless the class's
// finalize()V is empty (a lone `return`). Instrumenting an empty finalize() would make the
// class's objects finalizable (jython's PyObject: every Python object), so the editor
// leaves exactly those methods unchanged and says why; every other method is rewritten.
#include <gtest/gtest.h>

#include <map>
#include <string>

#include "../support/class_builder.h"
#include "instrument/bit.h"

namespace dragnet::test {
namespace {

namespace inst = dragnet::instrument;

constexpr uint16_t kProtected = 0x0004;

// Parses `bytes` into `cls`, puts a probe at the entry of every method and commits: the
// outcome per "name(descriptor)".
std::map<std::string, inst::EditOutcome> probeEveryEntry(const Bytes& bytes, cf::ClassFile& cls) {
  std::map<std::string, inst::EditOutcome> outcomes;
  auto parsed = cf::parseClass(bytes);
  EXPECT_TRUE(parsed.ok());
  if (!parsed.ok()) return outcomes;
  cls = std::move(parsed).value();
  inst::ClassInstrumenter ci(cls);
  for (inst::Routine& r : ci.routines()) {
    EXPECT_TRUE(r.atEntry(inst::Call{"p/Probe", "enter", {inst::Arg::i(1)}}));
  }
  for (const inst::RoutineOutcome& o : ci.commit()) outcomes[o.name] = o.outcome;
  return outcomes;
}

TEST(EmptyFinalizer, IsLeftUnchangedAndEverythingElseIsRewritten) {
  ClassBuilder b("p/Finalizable");
  b.addMethod(kProtected, "finalize", "()V", {b.codeAttr(B({0xB1}), 0, 1)});  // return
  // Not the JVM's finalize(): another descriptor.
  b.addMethod(kProtected, "finalize", "(I)V", {b.codeAttr(B({0xB1}), 0, 2)});
  b.addMethod(kProtected, "close", "()V", {b.codeAttr(B({0xB1}), 0, 1)});
  Bytes bytes = b.build();
  cf::ClassFile cls;
  std::map<std::string, inst::EditOutcome> outcomes = probeEveryEntry(bytes, cls);
  ASSERT_EQ(outcomes.size(), 3u);
  EXPECT_FALSE(outcomes["finalize()V"].changed);
  EXPECT_NE(outcomes["finalize()V"].reason.find("empty finalize()"), std::string::npos)
      << outcomes["finalize()V"].reason;
  EXPECT_TRUE(outcomes["finalize(I)V"].changed) << outcomes["finalize(I)V"].reason;
  EXPECT_TRUE(outcomes["close()V"].changed) << outcomes["close()V"].reason;
  ASSERT_EQ(cls.methods.size(), 3u);
  EXPECT_EQ(cls.methods[0].code()->code.insns.size(), 1u);  // still a lone return
  EXPECT_GT(cls.methods[2].code()->code.insns.size(), 1u);  // the probe, then return
}

TEST(EmptyFinalizer, ANonEmptyFinalizeIsRewritten) {
  ClassBuilder b("p/Finalizing");
  b.addMethod(kProtected, "finalize", "()V", {b.codeAttr(B({0x2A, 0x57, 0xB1}), 1, 1)});
  Bytes bytes = b.build();
  cf::ClassFile cls;
  std::map<std::string, inst::EditOutcome> outcomes = probeEveryEntry(bytes, cls);
  ASSERT_EQ(outcomes.size(), 1u);
  EXPECT_TRUE(outcomes["finalize()V"].changed) << outcomes["finalize()V"].reason;
}

}  // namespace
}  // namespace dragnet::test
