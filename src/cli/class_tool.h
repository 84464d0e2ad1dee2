// Class transforms selectable with `dragnet instrument --tool NAME`.
//
// A tool turns the bytes of one class file into the bytes to write in its place. Tools are
// looked up by name in a small registry (class_tool.cpp); the container walking (single
// file, directory tree, jar) is separate (containers.h) and the same for every tool.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "classfile/error.h"
#include "tools/bit_tools.h"

namespace dragnet::cli {

class ClassTool {
 public:
  virtual ~ClassTool() = default;
  virtual std::string_view name() const = 0;
  // Transforms one class. `entryName` (jar entry or relative path) is for error messages.
  // An error means the class is copied through unchanged and reported as failed.
  virtual classfile::Result<std::vector<uint8_t>> transform(std::span<const uint8_t> classBytes,
                                                            std::string_view entryName) = 0;
  // Files to add to the output's class-path root once every class is done (a site table,
  // the tool's runtime classes).
  virtual std::vector<tools::ExtraFile> extraFiles() const { return {}; }
  // Methods the tool had to leave unchanged, with the reason ("pkg/C.m()V: reason").
  virtual std::vector<std::string> unchangedMethods() const { return {}; }
  // What to do with the output, for the report (empty: nothing to say).
  virtual std::string runHint() const { return {}; }
};

struct ToolOptions {
  int32_t idBase = 0;         // first site id (distinct bases for separately instrumented jars)
  bool withRuntime = true;    // add the tool's runtime classes to the output
};

struct ToolInfo {
  std::string_view name;
  std::string_view description;
  bool hidden;  // usable, but not listed (test aids)
  std::unique_ptr<ClassTool> (*make)(const ToolOptions&);
};

// Every registered tool, in the order they are listed.
std::span<const ToolInfo> toolRegistry();

// A new instance of the named tool, or nullptr when there is none.
std::unique_ptr<ClassTool> makeTool(std::string_view name, const ToolOptions& options = {});

// "none, icount, ..." (listed tools only).
std::string knownToolNames();

// One "  NAME  DESCRIPTION" line per listed tool, for --help.
std::string toolHelp();

}  // namespace dragnet::cli
