// Mode alloc, analyzer side: the threads' calling-context trees merged into one, with
// object bytes from the measured class sizes, and the views the reports show.
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "profile/reader.h"

namespace dragnet::contexts {

struct MergedNode {
  uint32_t parent = 0;
  uint32_t key = profile::kRootKey;
  uint8_t slot = 0;         // the parent's call site it was called from (profile::NodeDef::slot)
  int32_t callerLine = -1;  // the line of that call in the parent (callerLine())
  profile::Counters c;
  bool bytesKnown = true;  // false: an object allocation whose class size was not measured
  std::vector<uint32_t> children;
  uint32_t thread = 0;  // buildModel's byThread: this node stands for thread `thread` (key 0)
};

// One allocation row: a site in one calling context (the JSON "sites" rows).
struct SiteRow {
  uint32_t node = 0;  // the allocation node in the merged tree
  const profile::SiteDef* site = nullptr;
  uint64_t count = 0, elements = 0, bytes = 0;
  bool bytesKnown = true;
};

struct AllocModel {
  const profile::Profile* profile = nullptr;
  std::vector<MergedNode> nodes;  // node 0: the root of all threads
  std::vector<SiteRow> rows;      // every allocation node, largest bytes first
  uint64_t objects = 0, arrays = 0, elements = 0, bytes = 0, calls = 0, insns = 0;
  uint64_t unsizedObjects = 0;  // objects of classes without a measured size
  uint64_t collapsed = 0;
  uint64_t sampleInterval = 0;  // > 0: a sampled profile; counts and bytes are estimates
  uint64_t dropped = 0;         // events the runtime could not place in their context
};

// Per thread id: each node of the thread's tree (profile::ThreadTree::nodes) -> its node
// in the merged tree.
using ThreadNodes = std::map<uint32_t, std::vector<uint32_t>>;

// Which threads a model holds and how: `only` (if given) the ids of the threads to merge;
// `byThread`: each thread's tree hangs below a node of its own under the root (a flame
// graph rooted by thread) instead of being merged with the others.
struct ThreadSelection {
  const std::set<uint32_t>* only = nullptr;
  bool byThread = false;
};

// `threadNodes` (if given) receives where each thread's nodes went.
AllocModel buildModel(const profile::Profile& p, ThreadNodes* threadNodes = nullptr,
                      ThreadSelection threads = {});

// The rows, the totals and the rows' order (bytes, then count) from the nodes, whose bytes
// are set (buildModel sizes the objects first); for buildModel and for models made from
// another's nodes (report/context_views.h: the filtered tree).
void finishRows(AllocModel& m);

// Java-source spelling of an internal class name or array descriptor:
// "java/lang/String" -> "java.lang.String", "[[I" -> "int[][]".
std::string javaTypeName(std::string_view internalOrDesc);
// The type a site allocates, in Java spelling; "<site #N>" without its definition.
std::string siteTypeName(const profile::SiteDef* def, uint32_t site);

// The line in the parent's method of the call that made method node `node`, -1 if it is not
// known exactly (call_sites.h).
int32_t callerLine(const AllocModel& m, uint32_t node);

// "com.example.Foo.bar(Foo.java:42)" for a method (line < 0: "(Foo.java)"; no source file:
// "(Unknown Source)").
std::string frameName(const profile::Profile& p, uint32_t methodId, int32_t line);

// An allocation site by its index (profile::siteIndexOf of its key), as the flow modes name
// it: "java.lang.Object[] List.<init>(ListClient.java:3)" (type, then where; "[jvm]" and the
// like for a site without a method), "<unknown object>" for site 0, "<site #N>" when `def`
// is null (no definition).
std::string siteIndexName(const profile::Profile& p, const profile::SiteDef* def, uint32_t site);

// A field id of the flow modes: "ELM" (profile::kElmField, array elements), "app.Main.count"
// (owner, name), "<field #N>" without a definition.
std::string flowFieldName(const profile::Profile& p, uint32_t field);

// Frames of an allocation row, innermost first: the allocating method with the site's
// line, then its callers.
std::vector<std::string> rowFrames(const AllocModel& m, const SiteRow& row);

// Where a row's allocation happens: "com.example.Foo.bar(Foo.java:42)"; for allocations
// without a bytecode (made by the JVM, or by native code through JNI) the calling context's
// method, marked " [jvm]" or " [jni]".
std::string siteName(const AllocModel& m, const SiteRow& row);

// How a site allocates: "new", "newarray", "anewarray", "multianewarray", "clone",
// "reflect", "jvm", "jni".
const char* originName(profile::SiteKind k);

// JP's element-kind letter of a kind: R, Z, B, C, S, I, F, J, D ("" for objects).
const char* jpKind(profile::ElemKind k);

}  // namespace dragnet::contexts
