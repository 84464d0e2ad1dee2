#include "class_processor.h"

#include <algorithm>
#include <exception>
#include <utility>

namespace dragnet::cli {

std::optional<std::vector<uint8_t>> ClassProcessor::process(std::span<const uint8_t> bytes,
                                                            std::string_view entryName) {
  ++stats_.classesRead;
  stats_.classBytes += bytes.size();
  std::optional<classfile::Result<std::vector<uint8_t>>> result;
  try {
    result.emplace(tool_.transform(bytes, entryName));
  } catch (const std::exception& e) {  // a tool bug must not lose the rest of the run
    stats_.addFailure(std::string(entryName), std::string("internal error: ") + e.what());
    return std::nullopt;
  }
  if (!result->ok()) {
    stats_.addFailure(std::string(entryName), result->error().toString());
    return std::nullopt;
  }
  ++stats_.written;
  std::vector<uint8_t>& out = result->value();
  if (std::ranges::equal(out, bytes)) {
    ++stats_.identical;
    return std::nullopt;
  }
  stats_.addChanged(std::string(entryName));
  return std::move(out);
}

void ClassProcessor::recordUnreadable(std::string_view entryName, std::string message) {
  ++stats_.classesRead;
  stats_.addFailure(std::string(entryName), std::move(message));
}

}  // namespace dragnet::cli
