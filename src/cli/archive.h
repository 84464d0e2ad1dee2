// Jar/zip archives: the output archive has the input's entries in the same order; only class
// entries whose bytes the tool changed are rewritten.
#pragma once

#include <filesystem>

#include "class_processor.h"
#include "report.h"

namespace dragnet::cli {

// Copies `input` to `output`, then rewrites in place (libzip) the class entries that changed:
// same compression method, modification time, external attributes, extra fields and comment
// as the original entry. Every other entry (directories, resources, the manifest, unchanged
// classes) keeps its compressed bytes and headers, and the archive comment is kept; when no
// class changes, the output is a byte-for-byte copy of the input. A signed jar keeps its
// signature when no class changed and loses its signature files otherwise.
// Throws FatalError when the input is not a readable archive or the output cannot be written.
void processArchive(const std::filesystem::path& input, const std::filesystem::path& output,
                    ClassProcessor& processor, RunStats& stats);

}  // namespace dragnet::cli
