// Walking the containers `dragnet instrument` accepts: a single class file, a directory tree
// (mirrored) and a jar/zip archive (archive.h). Every class goes through a ClassProcessor;
// everything else is copied as it is.
#pragma once

#include <cstdint>
#include <filesystem>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "class_processor.h"
#include "report.h"

namespace dragnet::cli {

// The input cannot be read or the output cannot be written: the run stops (exit status 2).
class FatalError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

enum class InputKind { ClassFile, Directory, Archive };

std::string_view kindName(InputKind kind);

// By type (directory), then content (0xCAFEBABE, "PK"), then extension (.class, .jar,
// .zip, .war, .ear). Throws FatalError when the input is missing or unrecognizable.
InputKind detectInputKind(const std::filesystem::path& input);

// Processes `input` of the given kind into `output` of the same kind.
void processInput(InputKind kind, const std::filesystem::path& input,
                  const std::filesystem::path& output, ClassProcessor& processor, RunStats& stats);

// Helpers shared by the container implementations; all throw FatalError.
std::string quoted(const std::filesystem::path& p);
std::vector<uint8_t> readFile(const std::filesystem::path& p);
void writeFile(const std::filesystem::path& p, std::span<const uint8_t> bytes);
// Rejects an output that is the input itself; creates the output's parent directories.
void prepareOutputFile(const std::filesystem::path& input, const std::filesystem::path& output);

}  // namespace dragnet::cli
