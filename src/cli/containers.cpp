#include "containers.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <iterator>
#include <vector>

#include "archive.h"
#include "classfile/class_file.h"

namespace dragnet::cli {
namespace fs = std::filesystem;

namespace {

bool hasExtension(const fs::path& p, std::initializer_list<std::string_view> exts) {
  std::string ext = p.extension().string();
  std::ranges::transform(ext, ext.begin(), [](unsigned char c) { return std::tolower(c); });
  return std::ranges::find(exts, ext) != exts.end();
}

std::string readMagic(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  if (!in) throw FatalError("cannot read input " + quoted(p) + ": " + std::strerror(errno));
  char magic[4] = {};
  in.read(magic, sizeof magic);
  return std::string(magic, static_cast<size_t>(in.gcount()));
}

[[noreturn]] void failMissing(const fs::path& p, const std::error_code& ec) {
  std::string why = ec ? ec.message() : "No such file or directory";
  throw FatalError("cannot read input " + quoted(p) + ": " + why);
}

// --- single class file ---

void processClassFile(const fs::path& in, const fs::path& out, ClassProcessor& processor) {
  prepareOutputFile(in, out);
  std::vector<uint8_t> bytes = readFile(in);
  auto result = processor.process(bytes, in.string());
  writeFile(out, result ? *result : bytes);
}

// --- directory tree ---

void checkOutputDirectory(const fs::path& in, const fs::path& out) {
  std::error_code ec;
  if (fs::exists(out, ec) && !fs::is_directory(out, ec)) {
    throw FatalError("cannot write output " + quoted(out) + ": exists and is not a directory");
  }
  fs::path rel = fs::weakly_canonical(out, ec).lexically_relative(fs::canonical(in, ec));
  if (!rel.empty() && (rel == "." || *rel.begin() != "..")) {
    throw FatalError("cannot write output " + quoted(out) + ": it is inside the input " +
                     quoted(in));
  }
  fs::create_directories(out, ec);
  if (ec) throw FatalError("cannot write output " + quoted(out) + ": " + ec.message());
}

// Every path under `root`, relative to it, sorted (parents before their contents).
std::vector<fs::path> listTree(const fs::path& root) {
  std::vector<fs::path> paths;
  std::error_code ec;
  fs::recursive_directory_iterator it(root, ec), end;
  for (; !ec && it != end; it.increment(ec)) {
    paths.push_back(it->path().lexically_relative(root));
  }
  if (ec) throw FatalError("cannot read input " + quoted(root) + ": " + ec.message());
  std::ranges::sort(paths);
  return paths;
}

void copySymlink(const fs::path& from, const fs::path& to) {
  std::error_code ec;
  fs::remove(to, ec);
  fs::copy_symlink(from, to, ec);
  if (ec) throw FatalError("cannot write output " + quoted(to) + ": " + ec.message());
}

void copyOther(const fs::path& from, const fs::path& to) {
  std::error_code ec;
  fs::copy_file(from, to, fs::copy_options::overwrite_existing, ec);
  if (ec) {
    throw FatalError("cannot copy " + quoted(from) + " to " + quoted(to) + ": " + ec.message());
  }
}

void mirrorClass(const fs::path& from, const fs::path& to, const fs::path& rel,
                 ClassProcessor& processor) {
  std::vector<uint8_t> bytes = readFile(from);
  auto result = processor.process(bytes, rel.generic_string());
  writeFile(to, result ? *result : bytes);
  std::error_code ec;
  fs::permissions(to, fs::status(from, ec).permissions(), ec);
}

void mirrorEntry(const fs::path& in, const fs::path& out, const fs::path& rel,
                 ClassProcessor& processor, RunStats& stats) {
  const fs::path from = in / rel, to = out / rel;
  std::error_code ec;
  fs::file_status st = fs::status(from, ec);
  if (fs::is_symlink(fs::symlink_status(from, ec)) && !fs::is_regular_file(st)) {
    copySymlink(from, to);  // directory or dangling link: recreate, do not follow
    ++stats.otherCopied;
  } else if (fs::is_directory(st)) {
    fs::create_directories(to, ec);
    if (ec) throw FatalError("cannot write output " + quoted(to) + ": " + ec.message());
    ++stats.directories;
  } else if (!fs::is_regular_file(st)) {
    throw FatalError("cannot read input " + quoted(from) + ": not a regular file");
  } else if (hasExtension(from, {".class"})) {
    mirrorClass(from, to, rel, processor);
  } else {
    copyOther(from, to);
    ++stats.otherCopied;
  }
}

void processDirectory(const fs::path& in, const fs::path& out, ClassProcessor& processor,
                      RunStats& stats) {
  checkOutputDirectory(in, out);
  for (const fs::path& rel : listTree(in)) mirrorEntry(in, out, rel, processor, stats);
}

// The directory a single output class is loaded from: its parent, minus one level per
// package component of the class's name.
fs::path classPathRoot(const fs::path& input, const fs::path& output) {
  fs::path root = output.parent_path();
  std::vector<uint8_t> bytes = readFile(input);
  auto parsed = classfile::parseClass(bytes);
  if (!parsed) return root;
  std::string_view name = parsed.value().name();
  for (char c : name) {
    if (c == '/') root = root.parent_path();
  }
  return root;
}

void addExtraFiles(const fs::path& root, ClassProcessor& processor, RunStats& stats) {
  for (const tools::ExtraFile& f : processor.tool().extraFiles()) {
    fs::path target = root / f.path;
    std::error_code ec;
    fs::create_directories(target.parent_path(), ec);
    if (ec) throw FatalError("cannot write output " + quoted(target) + ": " + ec.message());
    writeFile(target, f.bytes);
    ++stats.extraFiles;
  }
}

}  // namespace

std::string_view kindName(InputKind kind) {
  switch (kind) {
    case InputKind::ClassFile:
      return "class file";
    case InputKind::Directory:
      return "directory";
    case InputKind::Archive:
      return "zip archive";
  }
  return "?";
}

InputKind detectInputKind(const fs::path& input) {
  std::error_code ec;
  fs::file_status st = fs::status(input, ec);
  if (!fs::exists(st)) failMissing(input, ec);
  if (fs::is_directory(st)) return InputKind::Directory;
  if (!fs::is_regular_file(st)) {
    throw FatalError("cannot read input " + quoted(input) + ": not a file or directory");
  }
  std::string magic = readMagic(input);
  if (magic == "\xCA\xFE\xBA\xBE") return InputKind::ClassFile;
  if (magic == "PK\x03\x04" || magic == "PK\x05\x06") return InputKind::Archive;
  if (hasExtension(input, {".class"})) return InputKind::ClassFile;
  if (hasExtension(input, {".jar", ".zip", ".war", ".ear"})) return InputKind::Archive;
  throw FatalError("cannot read input " + quoted(input) +
                   ": not a class file, a jar/zip archive or a directory");
}

void processInput(InputKind kind, const fs::path& input, const fs::path& output,
                  ClassProcessor& processor, RunStats& stats) {
  switch (kind) {
    case InputKind::ClassFile:
      processClassFile(input, output, processor);
      return addExtraFiles(classPathRoot(input, output), processor, stats);
    case InputKind::Directory:
      processDirectory(input, output, processor, stats);
      return addExtraFiles(output, processor, stats);
    case InputKind::Archive:
      return processArchive(input, output, processor, stats);
  }
}

std::string quoted(const fs::path& p) {
  std::string text;  // (not "'" + ...: GCC 12 reports a bogus -Wrestrict for that)
  text.reserve(p.native().size() + 2);
  text.append(1, '\'').append(p.native()).append(1, '\'');
  return text;
}

std::vector<uint8_t> readFile(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  if (!in) throw FatalError("cannot read input " + quoted(p) + ": " + std::strerror(errno));
  std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)),
                             std::istreambuf_iterator<char>());
  if (in.bad()) throw FatalError("cannot read input " + quoted(p) + ": " + std::strerror(errno));
  return bytes;
}

void writeFile(const fs::path& p, std::span<const uint8_t> bytes) {
  std::ofstream out(p, std::ios::binary | std::ios::trunc);
  if (out) out.write(reinterpret_cast<const char*>(bytes.data()), std::ssize(bytes));
  if (out) out.close();
  if (!out) throw FatalError("cannot write output " + quoted(p) + ": " + std::strerror(errno));
}

void prepareOutputFile(const fs::path& input, const fs::path& output) {
  std::error_code ec;
  if (fs::is_directory(output, ec)) {
    throw FatalError("cannot write output " + quoted(output) +
                     ": it is a directory (the output kind follows the input kind)");
  }
  if (fs::exists(output, ec) && fs::equivalent(input, output, ec)) {
    throw FatalError("cannot write output " + quoted(output) + ": it is the input file");
  }
  if (output.has_parent_path()) fs::create_directories(output.parent_path(), ec);
  if (ec) throw FatalError("cannot write output " + quoted(output) + ": " + ec.message());
}

}  // namespace dragnet::cli
