// BIT's example tools on the BIT API (instrument/bit.h): `icount` counts executed bytecode
// instructions per basic block, `branches` counts the outcomes of each conditional branch.
// Their Java analysis classes live in runtime/tools and are embedded in the binary; the
// instrumenter adds them, and a site table naming every id, to its output.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "classfile/class_file.h"
#include "common/embedded.h"
#include "instrument/bit.h"

namespace dragnet {
// The BIT tools' Java runtime classes (runtime/tools), compiled into the binary.
std::span<const EmbeddedFile> toolsRuntimeFiles();
}  // namespace dragnet

namespace dragnet::tools {

struct ExtraFile {
  std::string path;  // relative to the output's class-path root
  std::vector<uint8_t> bytes;
};

// One run of a tool over any number of classes: assigns site ids from `idBase` on, keeps
// the site table and the methods that had to be left unchanged.
class BitTool {
 public:
  explicit BitTool(int32_t idBase) : nextId_(idBase) {}
  virtual ~BitTool() = default;
  virtual std::string_view name() const = 0;

  // Instruments every method of `cls`. Returns false when the class is not instrumented
  // at all (the tools' own runtime classes, which must never call themselves).
  bool instrument(classfile::ClassFile& cls);

  // META-INF/dragnet/<name>.sites and the runtime classes, to add to the output.
  std::vector<ExtraFile> extraFiles() const;
  // "pkg/C.m(I)V: reason" for each method left unchanged.
  const std::vector<std::string>& unchangedMethods() const { return unchanged_; }
  size_t sites() const { return sites_; }

 protected:
  // Called before the routines of each class (state kept per class starts over here).
  virtual void beginClass() {}
  virtual void instrumentRoutine(instrument::Routine& r) = 0;
  // A new site id; `fields` describe it in the site table (joined with tabs).
  int32_t newSite(std::initializer_list<std::string_view> fields);

 private:
  int32_t nextId_;
  std::string table_;  // "id\tfields\n" lines, appended in place (no string per site)
  size_t sites_ = 0;
  std::vector<std::string> unchanged_;
};

std::unique_ptr<BitTool> makeICount(int32_t idBase);
std::unique_ptr<BitTool> makeBranches(int32_t idBase);

}  // namespace dragnet::tools
