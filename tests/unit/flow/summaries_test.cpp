// The flow engine's summaries (src/flow/summaries.h): representative entries of each kind,
// how a call's owner selects them, and that every @IntrinsicCandidate method of JDK 17 and
// 25 (intrinsics-17.txt, intrinsics-25.txt: ListIntrinsics.java's output) has a summary whose
// argument positions name arguments of the right type, or an exclusion whose reason holds.
#include "flow/summaries.h"

#include <gtest/gtest.h>

#include <fstream>
#include <string>
#include <vector>

#include "agent/jit_changes.h"
#include "instrument/descriptor.h"

namespace dragnet::test {
namespace {

using flow::ArgMask;
using flow::kNone;
using flow::Summary;
using K = Summary::Kind;

constexpr ArgMask bits(std::initializer_list<int> positions) {
  ArgMask m = 0;
  for (int p : positions) m |= ArgMask{1} << p;
  return m;
}

constexpr bool kStatic = true, kInstance = false;  // invokestatic, or another invoke

Summary at(std::string_view owner, std::string_view name, std::string_view desc, bool isStatic) {
  auto s = flow::summaryAt(owner, name, desc, isStatic);
  EXPECT_TRUE(s.has_value()) << owner << "." << name << desc;
  return s.value_or(Summary{});
}

TEST(FlowSummaries, ArrayCopyNamesSystemArraycopysArguments) {
  Summary s =
      at("java/lang/System", "arraycopy", "(Ljava/lang/Object;ILjava/lang/Object;II)V", kStatic);
  EXPECT_EQ(s.kind, K::ArrayCopy);
  EXPECT_EQ(s.src, 0);
  EXPECT_EQ(s.srcPos, 1);
  EXPECT_EQ(s.dst, 2);
  EXPECT_EQ(s.dstPos, 3);
  EXPECT_EQ(s.length, 4);
  EXPECT_FALSE(s.rawUnits);
  EXPECT_EQ(s.consumed, 0u);
  EXPECT_FALSE(s.newObject);
  // Unsafe's copy counts bytes from the object's start; argument 0 is the Unsafe.
  Summary u = at("jdk/internal/misc/Unsafe", "copyMemory0",
                 "(Ljava/lang/Object;JLjava/lang/Object;JJ)V", kInstance);
  EXPECT_EQ(u.kind, K::ArrayCopy);
  EXPECT_TRUE(u.rawUnits);
  EXPECT_EQ(u.src, 1);
  EXPECT_EQ(u.dst, 3);
  EXPECT_EQ(u.length, 5);
}

TEST(FlowSummaries, CloneAppliesToObjectAndArraysButNotToOverriders) {
  for (std::string_view owner : {"java/lang/Object", "[I", "[[Ljava/lang/String;"}) {
    Summary s = at(owner, "clone", "()Ljava/lang/Object;", kInstance);
    EXPECT_EQ(s.kind, K::CloneObject) << owner;
    EXPECT_EQ(s.src, 0);
    EXPECT_TRUE(s.newObject);
  }
  // ArrayList.clone is Java code of its own (which calls super.clone).
  EXPECT_FALSE(flow::summaryAt("java/util/ArrayList", "clone", "()Ljava/lang/Object;", kInstance));
}

TEST(FlowSummaries, CopyOfCoversEveryOverloadWithItsStart) {
  Summary a = at("java/util/Arrays", "copyOf", "([II)[I", kStatic);
  EXPECT_EQ(a.kind, K::CopyOf);
  EXPECT_EQ(a.src, 0);
  EXPECT_EQ(a.srcPos, kNone);
  EXPECT_TRUE(a.newObject);
  Summary r = at("java/util/Arrays", "copyOfRange",
                 "([Ljava/lang/Object;IILjava/lang/Class;)[Ljava/lang/Object;", kStatic);
  EXPECT_EQ(r.kind, K::CopyOf);
  EXPECT_EQ(r.srcPos, 1);
  EXPECT_TRUE(flow::bodyUnshadowed("java/util/Arrays", "copyOf", "([II)[I"));
  // Arrays.fill is ordinary code.
  EXPECT_FALSE(flow::summaryAt("java/util/Arrays", "fill", "([II)V", kStatic));
}

TEST(FlowSummaries, AllocationsLoadsAndValuesPassedThrough) {
  Summary n = at("java/lang/reflect/Array", "newInstance", "(Ljava/lang/Class;I)Ljava/lang/Object;",
                 kStatic);
  EXPECT_EQ(n.kind, K::Allocate);
  EXPECT_TRUE(n.newObject);
  Summary g = at("java/lang/ref/Reference", "get", "()Ljava/lang/Object;", kInstance);
  EXPECT_EQ(g.kind, K::LoadField);
  EXPECT_EQ(g.src, 0);
  EXPECT_EQ(g.field, "java/lang/ref/Reference.referent:Ljava/lang/Object;");
  Summary c = at("java/lang/Class", "cast", "(Ljava/lang/Object;)Ljava/lang/Object;", kInstance);
  EXPECT_EQ(c.kind, K::PassThrough);
  EXPECT_EQ(c.src, 1);
  EXPECT_EQ(c.consumed, 0u);
  Summary i = at("jdk/internal/util/Preconditions", "checkIndex",
                 "(IILjava/util/function/BiFunction;)I", kStatic);
  EXPECT_EQ(i.kind, K::PassThrough);
  EXPECT_EQ(i.src, 0);
  EXPECT_EQ(i.consumed, bits({0, 1}));  // compared with each other
}

TEST(FlowSummaries, AccessorsConsumeTheirValuesOnly) {
  const char* unsafe = "jdk/internal/misc/Unsafe";
  Summary put = at(unsafe, "putReference", "(Ljava/lang/Object;JLjava/lang/Object;)V", kInstance);
  EXPECT_EQ(put.kind, K::Accessor);
  EXPECT_EQ(put.base, 1);
  EXPECT_EQ(put.offset, 2);
  EXPECT_EQ(put.consumed, bits({3}));
  EXPECT_EQ(at(unsafe, "getInt", "(Ljava/lang/Object;J)I", kInstance).consumed, 0u);
  EXPECT_EQ(at(unsafe, "compareAndSetLong", "(Ljava/lang/Object;JJJ)Z", kInstance).consumed,
            bits({3, 4}));
  EXPECT_EQ(at(unsafe, "getAndAddInt", "(Ljava/lang/Object;JI)I", kInstance).consumed, bits({3}));
  // VarHandle's descriptors are the call site's: the values are the last arguments.
  const char* vh = "java/lang/invoke/VarHandle";
  Summary cas = at(vh, "compareAndSet", "(Lp/Node;Lp/Node;Lp/Node;)Z", kInstance);
  EXPECT_EQ(cas.kind, K::Accessor);
  EXPECT_EQ(cas.base, kNone);
  EXPECT_EQ(cas.consumed, bits({2, 3}));
  EXPECT_EQ(at(vh, "setRelease", "([III)V", kInstance).consumed, bits({3}));
  EXPECT_EQ(at(vh, "getVolatile", "(Lp/Node;)Ljava/lang/Object;", kInstance).consumed, 0u);
  EXPECT_EQ(at(vh, "set", "(J)V", kInstance).consumed, bits({1}));  // a static field's handle
  Summary set = at("java/lang/reflect/Array", "setInt", "(Ljava/lang/Object;II)V", kStatic);
  EXPECT_EQ(set.kind, K::Accessor);
  EXPECT_EQ(set.consumed, bits({2}));
}

TEST(FlowSummaries, ComputationsConsumePrimitivesAndReadArraysElements) {
  Summary eq = at("java/lang/StringLatin1", "equals", "([B[B)Z", kStatic);
  EXPECT_EQ(eq.kind, K::Consume);
  EXPECT_EQ(eq.elements, bits({0, 1}));
  EXPECT_EQ(eq.consumed, 0u);
  // inflate writes its second array: only the first is read.
  Summary in = at("java/lang/StringLatin1", "inflate", "([BI[CII)V", kStatic);
  EXPECT_EQ(in.elements, bits({0}));
  EXPECT_EQ(in.consumed, bits({1, 3, 4}));
  Summary crc = at("java/util/zip/CRC32", "updateBytes0", "(I[BII)I", kStatic);
  EXPECT_EQ(crc.elements, bits({1}));
  EXPECT_EQ(crc.consumed, bits({0, 2, 3}));
  Summary max = at("java/lang/Math", "max", "(JJ)J", kStatic);
  EXPECT_EQ(max.kind, K::Consume);
  EXPECT_EQ(max.consumed, bits({0, 1}));
  // Base64's encoder is an instance method: argument 1 is the source.
  EXPECT_EQ(at("java/util/Base64$Encoder", "encodeBlock", "([BII[BIZ)V", kInstance).elements,
            bits({1}));
  Summary bytes = at("java/lang/StringUTF16", "toBytes", "([CII)[B", kStatic);
  EXPECT_TRUE(bytes.resultIsObject);
  EXPECT_FALSE(bytes.newObject);
}

TEST(FlowSummaries, HeaderReadsAreOpaqueUnderTheOwnersTheyResolveThrough) {
  for (std::string_view owner : {"java/lang/Object", "java/util/HashMap", "[J"}) {
    Summary s = at(owner, "getClass", "()Ljava/lang/Class;", kInstance);
    EXPECT_EQ(s.kind, K::Opaque) << owner;
    EXPECT_EQ(s.consumed, 0u);
  }
  EXPECT_EQ(at("[I", "hashCode", "()I", kInstance).kind, K::Opaque);
  EXPECT_EQ(at("java/lang/System", "identityHashCode", "(Ljava/lang/Object;)I", kStatic).kind,
            K::Opaque);
  // hashCode is not final: String's own is ordinary code.
  EXPECT_FALSE(flow::summaryAt("java/lang/String", "hashCode", "()I", kInstance));
  // A call through another owner is not the summarised method's (String.equals is not
  // summarised at all; StringLatin1.equals only under its own name).
  EXPECT_FALSE(flow::summaryAt("java/lang/Object", "equals", "(Ljava/lang/Object;)Z", kInstance));
  // A call whose kind contradicts the table's method is not that method's.
  EXPECT_FALSE(flow::summaryAt("java/lang/Object", "hashCode", "()I", kStatic));
  EXPECT_FALSE(flow::summaryAt("java/lang/Math", "max", "(II)I", kInstance));
  EXPECT_FALSE(flow::summaryAt("java/lang/StringUTF16", "equals", "([C[C)Z", kStatic));
}

TEST(FlowSummaries, BodiesUnshadowedAreThoseSummarisedAndUnknownIntrinsics) {
  EXPECT_TRUE(flow::bodyUnshadowed("java/lang/StringLatin1", "indexOf", "([B[B)I"));
  EXPECT_TRUE(flow::bodyUnshadowed("java/lang/Object", "getClass", "()Ljava/lang/Class;"));
  // Matching any owner is for calls only: HashMap has no getClass body of its own.
  EXPECT_FALSE(flow::bodyUnshadowed("java/util/HashMap", "getClass", "()Ljava/lang/Class;"));
  // An intrinsic a newer JDK adds gets no probes in its body, before any summary exists.
  EXPECT_FALSE(flow::bodyUnshadowed("java/util/HashMap", "hash", "(Ljava/lang/Object;)I"));
  EXPECT_TRUE(flow::bodyUnshadowed("java/util/HashMap", "hash", "(Ljava/lang/Object;)I", true));
  // Excluded intrinsics keep their probes even when marked.
  EXPECT_FALSE(flow::bodyUnshadowed("java/lang/StringBuilder", "append",
                                    "(Ljava/lang/String;)Ljava/lang/StringBuilder;", true));
  EXPECT_FALSE(flow::summaryAt("java/lang/StringBuilder", "append",
                               "(Ljava/lang/String;)Ljava/lang/StringBuilder;", kInstance));
}

TEST(FlowSummaries, MalformedDescriptorsGetNoSummary) {
  EXPECT_FALSE(flow::summaryAt("java/lang/Math", "max", "(II", kStatic));
  EXPECT_FALSE(flow::summaryAt("java/lang/invoke/VarHandle", "set", "(Q)V", kInstance));
  EXPECT_FALSE(flow::summaryAt("java/lang/Math", "max", "", kStatic));
}

// --- Every intrinsic of JDK 17 and 25 ---------------------------------------------------

struct Listed {
  std::string owner, name, desc;
  bool isStatic = false;
  std::string text() const { return owner + "." + name + desc; }
};

std::vector<Listed> readList(const std::string& file) {
  std::ifstream in(std::string(DRAGNET_SOURCE_DIR) + "/tests/unit/flow/" + file);
  std::vector<Listed> out;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    Listed l;
    if (line.ends_with(" static")) {
      l.isStatic = true;
      line.resize(line.size() - 7);
    }
    size_t paren = line.find('(');
    size_t dot = line.rfind('.', paren);
    l.owner = line.substr(0, dot);
    l.name = line.substr(dot + 1, paren - dot - 1);
    l.desc = line.substr(paren);
    out.push_back(std::move(l));
  }
  return out;
}

// The argument types of a listed method, the receiver first for an instance method.
std::vector<std::string> argumentTypes(const Listed& l) {
  std::vector<std::string> out;
  if (!l.isStatic) out.push_back("L" + l.owner + ";");
  auto md = instrument::parseMethodDescriptor(l.desc);
  EXPECT_TRUE(md) << l.text();
  if (md) {
    for (auto p : md->params) out.emplace_back(p);
  }
  return out;
}

bool isReference(const std::string& t) { return t[0] == 'L' || t[0] == '['; }
bool mayBeArray(const std::string& t) { return t[0] == '[' || t == "Ljava/lang/Object;"; }
bool isIndex(const std::string& t) { return t == "I" || t == "J"; }

// The summary's positions name arguments that exist and have the types their roles need.
void checkPositions(const Listed& l, const Summary& s) {
  const auto types = argumentTypes(l);
  const int n = static_cast<int>(types.size());
  auto arg = [&](int8_t pos, bool (*ok)(const std::string&), const char* role) {
    if (pos == kNone) return;
    ASSERT_LT(pos, n) << l.text() << ": " << role;
    EXPECT_TRUE(ok(types[pos])) << l.text() << ": " << role << " is " << types[pos];
  };
  arg(s.src, s.kind == K::PassThrough ? [](const std::string&) { return true; } : isReference,
      "src");
  arg(s.dst, mayBeArray, "dst");
  arg(s.srcPos, isIndex, "srcPos");
  arg(s.dstPos, isIndex, "dstPos");
  arg(s.length, isIndex, "length");
  arg(s.base, isReference, "base");
  arg(s.offset, isIndex, "offset");
  for (int a = 0; a < 32; ++a) {
    if (s.elements >> a & 1) arg(static_cast<int8_t>(a), mayBeArray, "elements");
    if (s.consumed >> a & 1) {
      EXPECT_LT(a, n) << l.text() << ": consumed";
    }
  }
  if (s.kind == K::CopyOf || s.kind == K::ArrayCopy) arg(s.src, mayBeArray, "src");
  if (s.kind == K::CloneObject || s.kind == K::LoadField) {
    EXPECT_FALSE(l.isStatic) << l.text();
  }
}

// An exclusion for a transformation the flow modes switch off holds only while the agent's
// list of JIT changes switches it off for that method.
void checkReason(const Listed& l, std::string_view reason) {
  for (const auto& t : agent::disabledTransformations()) {
    if (reason.find(t.flag) == std::string_view::npos) continue;
    bool covered = false;
    for (std::string_view prefix : t.methodsOf)
      covered |= (l.owner + "." + l.name).starts_with(prefix);
    EXPECT_TRUE(covered) << l.text() << " is excluded for " << t.flag
                         << ", which src/agent/jit_changes.cpp does not list for it";
    return;
  }
  // Held by keeping the intrinsic off (IntrinsicsToDisableExistOnlyWhereListed).
  if (reason.find("keep the intrinsic off") != std::string_view::npos) return;
  const bool bytecodeOnly = reason.find("bytecode intrinsic") != std::string_view::npos ||
                            reason.find("signature-polymorphic") != std::string_view::npos;
  EXPECT_TRUE(bytecodeOnly) << l.text() << ": " << reason;
}

void checkEveryIntrinsic(const std::string& file, size_t atLeast) {
  const auto listed = readList(file);
  ASSERT_GE(listed.size(), atLeast) << file;
  std::string uncovered;
  for (const Listed& l : listed) {
    auto s = flow::summaryAt(l.owner, l.name, l.desc, l.isStatic);
    std::string_view reason = flow::exclusionReason(l.owner, l.name, l.desc);
    EXPECT_FALSE(s && !reason.empty()) << l.text() << ": both summarised and excluded";
    if (s) {
      EXPECT_TRUE(flow::bodyUnshadowed(l.owner, l.name, l.desc)) << l.text();
      checkPositions(l, *s);
    } else if (!reason.empty()) {
      EXPECT_FALSE(flow::bodyUnshadowed(l.owner, l.name, l.desc, true)) << l.text();
      checkReason(l, reason);
    } else {
      uncovered += "\n  " + l.text();
    }
  }
  EXPECT_TRUE(uncovered.empty()) << file << ": intrinsics without a summary or an exclusion "
                                 << "(src/flow/summaries.cpp):" << uncovered;
}

TEST(FlowSummaries, EveryIntrinsicOfJdk17IsSummarisedOrExcluded) {
  checkEveryIntrinsic("intrinsics-17.txt", 400);
}

TEST(FlowSummaries, EveryIntrinsicOfJdk25IsSummarisedOrExcluded) {
  checkEveryIntrinsic("intrinsics-25.txt", 470);
}

TEST(FlowSummaries, IntrinsicsToDisableExistOnlyWhereListed) {
  auto ids = flow::intrinsicsToDisable();
  ASSERT_EQ(ids.size(), 2u);
  EXPECT_EQ(ids[0].id, "_arraySort");
  EXPECT_EQ(ids[1].id, "_arrayPartition");
  // The methods they are for: in JDK 25's list, not in 17's (where the id is unknown).
  auto has = [](const std::string& file, std::string_view name) {
    for (const Listed& l : readList(file)) {
      if (l.owner == "java/util/DualPivotQuicksort" && l.name == name) return true;
    }
    return false;
  };
  for (std::string_view name : {"sort", "partition"}) {
    EXPECT_TRUE(has("intrinsics-25.txt", name)) << name;
    EXPECT_FALSE(has("intrinsics-17.txt", name)) << name;
  }
  for (const auto& d : ids) EXPECT_GT(d.sinceJdk, 17);
}

}  // namespace
}  // namespace dragnet::test
