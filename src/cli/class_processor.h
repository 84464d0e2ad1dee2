// Runs the selected tool on one class and keeps the counters.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "class_tool.h"
#include "report.h"

namespace dragnet::cli {

class ClassProcessor {
 public:
  ClassProcessor(ClassTool& tool, RunStats& stats) : tool_(tool), stats_(stats) {}

  // Transforms one class. Returns the bytes to write when they differ from the input, and
  // std::nullopt when the input is to be kept as it is: the output is byte-identical, or
  // the tool failed (then the class is counted as failed with its first error).
  std::optional<std::vector<uint8_t>> process(std::span<const uint8_t> bytes,
                                              std::string_view entryName);

  // A class entry whose bytes could not even be read (e.g. a corrupt jar entry): counted
  // as read and failed; the caller keeps it as it is.
  void recordUnreadable(std::string_view entryName, std::string message);

  const ClassTool& tool() const { return tool_; }

 private:
  ClassTool& tool_;
  RunStats& stats_;
};

}  // namespace dragnet::cli
