#include "archive.h"

#include <zip.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "containers.h"

namespace dragnet::cli {
namespace fs = std::filesystem;

namespace {

std::string zipErrorText(int code) {
  zip_error_t error;
  zip_error_init_with_code(&error, code);
  std::string text = zip_error_strerror(&error);
  zip_error_fini(&error);
  return text;
}

bool isClassEntry(std::string_view name) { return name.ends_with(".class"); }

enum class SignaturePart { None, SignatureFile, BlockFile };

// Signature-related files sit directly in META-INF/ (names compared case-insensitively, as
// the JDK does): NAME.SF, its block NAME.RSA / .DSA / .EC, and SIG-* files.
SignaturePart signaturePart(std::string_view name) {
  std::string upper(name);
  std::ranges::transform(upper, upper.begin(), [](unsigned char c) { return std::toupper(c); });
  std::string_view n = upper;
  if (!n.starts_with("META-INF/")) return SignaturePart::None;
  n.remove_prefix(9);
  if (n.empty() || n.find('/') != std::string_view::npos) return SignaturePart::None;
  if (n.ends_with(".SF")) return SignaturePart::SignatureFile;
  if (n.ends_with(".RSA") || n.ends_with(".DSA") || n.ends_with(".EC") || n.starts_with("SIG-")) {
    return SignaturePart::BlockFile;
  }
  return SignaturePart::None;
}

class ArchiveRewriter {
 public:
  ArchiveRewriter(const fs::path& in, const fs::path& out, ClassProcessor& p, RunStats& s)
      : in_(in), out_(out), processor_(p), stats_(s) {}
  ~ArchiveRewriter();

  void run();

 private:
  void open();
  void visitEntry(zip_uint64_t index);
  void processClass(zip_uint64_t index, const zip_stat_t& st);
  std::optional<std::vector<uint8_t>> readEntry(zip_uint64_t index, const zip_stat_t& st,
                                                std::string& error);
  void replaceEntry(zip_uint64_t index, const zip_stat_t& st, const std::vector<uint8_t>& bytes);
  void handleSignature();
  void addExtraFiles();
  void close();
  [[noreturn]] void failWrite(const std::string& what);

  fs::path in_, out_;
  ClassProcessor& processor_;
  RunStats& stats_;
  zip_t* za_ = nullptr;
  bool signed_ = false;
  std::vector<zip_uint64_t> signatureFiles_;
  std::vector<std::string> signatureNames_;
};

ArchiveRewriter::~ArchiveRewriter() {
  if (za_ == nullptr) return;
  zip_discard(za_);  // a failed run: leave no half-written output behind
  std::error_code ec;
  fs::remove(out_, ec);
}

void ArchiveRewriter::run() {
  open();
  zip_int64_t count = zip_get_num_entries(za_, 0);
  for (zip_int64_t i = 0; i < count; ++i) visitEntry(static_cast<zip_uint64_t>(i));
  handleSignature();
  addExtraFiles();
  close();
}

// Files the tool adds (site table, runtime classes) go at the end, deflated.
void ArchiveRewriter::addExtraFiles() {
  for (const tools::ExtraFile& f : processor_.tool().extraFiles()) {
    void* data = std::malloc(f.bytes.empty() ? 1 : f.bytes.size());
    if (data == nullptr) failWrite("out of memory");
    std::memcpy(data, f.bytes.data(), f.bytes.size());
    zip_source_t* source = zip_source_buffer(za_, data, f.bytes.size(), 1);
    if (source == nullptr) {
      std::free(data);
      failWrite(f.path + ": " + zip_strerror(za_));
    }
    zip_int64_t index = zip_file_add(za_, f.path.c_str(), source, ZIP_FL_OVERWRITE);
    if (index < 0) {
      zip_source_free(source);
      failWrite(f.path + ": " + zip_strerror(za_));
    }
    ++stats_.extraFiles;
  }
}

void ArchiveRewriter::open() {
  prepareOutputFile(in_, out_);
  std::error_code ec;
  fs::remove(out_, ec);
  fs::copy_file(in_, out_, ec);
  if (ec) throw FatalError("cannot write output " + quoted(out_) + ": " + ec.message());
  // libzip converts DOS entry times to time_t and back in local time; in UTC that round trip
  // is exact (no DST gaps), so rewritten entries keep their original time fields.
  setenv("TZ", "UTC0", 1);
  tzset();
  int code = 0;
  za_ = zip_open(out_.c_str(), 0, &code);
  if (za_ == nullptr) {
    fs::remove(out_, ec);
    throw FatalError("cannot read input " + quoted(in_) +
                     " as a zip archive: " + zipErrorText(code));
  }
}

void ArchiveRewriter::visitEntry(zip_uint64_t index) {
  zip_stat_t st;
  zip_stat_init(&st);
  if (zip_stat_index(za_, index, 0, &st) != 0 || (st.valid & ZIP_STAT_NAME) == 0) {
    throw FatalError("cannot read input " + quoted(in_) + ": entry " + std::to_string(index) +
                     ": " + zip_strerror(za_));
  }
  std::string_view name = st.name;
  if (name.ends_with('/')) {
    ++stats_.directories;
    return;
  }
  if (isClassEntry(name)) return processClass(index, st);
  ++stats_.otherCopied;
  SignaturePart part = signaturePart(name);
  if (part == SignaturePart::None) return;
  signed_ = signed_ || part == SignaturePart::SignatureFile;
  signatureFiles_.push_back(index);
  signatureNames_.emplace_back(name);
}

void ArchiveRewriter::processClass(zip_uint64_t index, const zip_stat_t& st) {
  std::string error;
  std::optional<std::vector<uint8_t>> bytes = readEntry(index, st, error);
  if (!bytes) return processor_.recordUnreadable(st.name, error);
  std::optional<std::vector<uint8_t>> result = processor_.process(*bytes, st.name);
  if (result) replaceEntry(index, st, *result);
}

std::optional<std::vector<uint8_t>> ArchiveRewriter::readEntry(zip_uint64_t index,
                                                               const zip_stat_t& st,
                                                               std::string& error) {
  if ((st.valid & ZIP_STAT_SIZE) == 0 || st.size > (1u << 30)) {
    error = "cannot read entry: unknown or implausible size";
    return std::nullopt;
  }
  zip_file_t* file = zip_fopen_index(za_, index, 0);
  if (file == nullptr) {
    error = std::string("cannot read entry: ") + zip_strerror(za_);
    return std::nullopt;
  }
  std::vector<uint8_t> bytes(st.size);
  zip_int64_t got = zip_fread(file, bytes.data(), bytes.size());
  uint8_t extra = 0;  // reading past the end makes libzip check the CRC
  bool ok = got == static_cast<zip_int64_t>(bytes.size()) && zip_fread(file, &extra, 1) == 0;
  if (!ok) error = std::string("cannot read entry: ") + zip_file_strerror(file);
  zip_fclose(file);
  if (!ok) return std::nullopt;
  return bytes;
}

void ArchiveRewriter::replaceEntry(zip_uint64_t index, const zip_stat_t& st,
                                   const std::vector<uint8_t>& bytes) {
  void* data = std::malloc(bytes.empty() ? 1 : bytes.size());
  if (data == nullptr) failWrite("out of memory");
  std::memcpy(data, bytes.data(), bytes.size());
  zip_source_t* source = zip_source_buffer(za_, data, bytes.size(), 1);  // takes `data`
  if (source == nullptr) {
    std::free(data);
    failWrite(std::string(st.name) + ": " + zip_strerror(za_));
  }
  if (zip_file_replace(za_, index, source, 0) != 0) {
    zip_source_free(source);
    failWrite(std::string(st.name) + ": " + zip_strerror(za_));
  }
  // A replaced entry would get deflate at level 9 and the current time: keep the original
  // method and time. Deflate at level 6, the zlib and java.util.zip default ("normal"); libzip
  // 1.7.3 ignores the level when the method is set to the entry's original one, but honours
  // it for ZIP_CM_DEFAULT, which is deflate.
  bool deflate = st.comp_method == ZIP_CM_DEFLATE;
  if (zip_set_file_compression(za_, index, deflate ? ZIP_CM_DEFAULT : st.comp_method,
                               deflate ? 6 : 0) != 0 ||
      zip_file_set_mtime(za_, index, st.mtime, 0) != 0) {
    failWrite(std::string(st.name) + ": " + zip_strerror(za_));
  }
}

void ArchiveRewriter::handleSignature() {
  if (!signed_) {
    stats_.signature = "none (not signed)";
    return;
  }
  if (stats_.changed == 0) {
    stats_.signature = "signature kept (no class changed)";
    return;
  }
  for (zip_uint64_t index : signatureFiles_) {
    if (zip_delete(za_, index) != 0) failWrite(std::string("delete: ") + zip_strerror(za_));
  }
  stats_.otherCopied -= signatureFiles_.size();
  std::string names;
  for (const std::string& n : signatureNames_) names += (names.empty() ? "" : ", ") + n;
  stats_.signature = "the jar was signed; signature removed because " +
                     std::to_string(stats_.changed) + " classes changed (dropped " + names + ")";
}

void ArchiveRewriter::close() {
  if (zip_close(za_) != 0) failWrite(zip_strerror(za_));
  za_ = nullptr;
}

void ArchiveRewriter::failWrite(const std::string& what) {
  throw FatalError("cannot write output " + quoted(out_) + ": " + what);
}

}  // namespace

void processArchive(const fs::path& input, const fs::path& output, ClassProcessor& processor,
                    RunStats& stats) {
  ArchiveRewriter(input, output, processor, stats).run();
}

}  // namespace dragnet::cli
