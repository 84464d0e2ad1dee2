#include "report/profile_input.h"

#include <unistd.h>

#include <filesystem>
#include <iostream>

#include "contexts/merge.h"
#include "report/analysis.h"
#include "report/text_format.h"

namespace fs = std::filesystem;

namespace dragnet::report {
namespace {

// On a terminal, a large profile's reading shows its progress on stderr (one line, redrawn
// at each whole percent); otherwise nothing.
profile::Progress readingProgress(const std::string& path) {
  std::error_code ec;
  constexpr uintmax_t kLarge = 16u << 20;
  if (!::isatty(STDERR_FILENO) || fs::file_size(path, ec) < kLarge || ec) return {};
  return [path, shown = -1](uint64_t done, uint64_t total) mutable {
    int pct = total ? static_cast<int>(100 * done / total) : 100;
    if (pct == shown) return;
    shown = pct;
    std::cerr << "\rdragnet: reading " << path << ": " << pct << "%" << (pct == 100 ? "\n" : "")
              << std::flush;
  };
}

}  // namespace

bool readProfileFile(const std::string& path, profile::Profile& p, profile::ReadOptions options) {
  std::string error;
  if (!profile::readProfile(path, p, error, readingProgress(path), options)) {
    std::cerr << "dragnet: error: " << error << "\n";
    return false;
  }
  if (p.corrupt()) {
    std::cerr << "dragnet: warning: " << path << ": " << corruptionNote(p)
              << "; reporting the rest\n";
  }
  if (!p.truncation.empty()) {
    std::cerr << "dragnet: warning: " << path << " is incomplete (" << p.truncation
              << "); reporting what was written before\n";
  }
  return true;
}

bool readProfiles(const std::vector<std::string>& paths, profile::Profile& p,
                  profile::ReadOptions options) {
  if (paths.size() == 1) return readProfileFile(paths[0], p, options);
  std::vector<profile::Profile> parts(paths.size());
  for (size_t i = 0; i < paths.size(); ++i) {
    if (!readProfileFile(paths[i], parts[i], options)) return false;
  }
  for (size_t i = 0; i < parts.size(); ++i) {
    const Analysis* a = analysisOf(parts[i]);
    if (a && !a->merges) {
      std::cerr << "dragnet: error: cannot merge the profiles: " << paths[i] << " is a " << a->name
                << " profile; " << a->name
                << " profiles are reported one at a time: report it on its own\n";
      return false;
    }
  }
  std::string error;
  if (!contexts::mergeProfiles(parts, paths, p, error)) {
    std::cerr << "dragnet: error: " << error << "\n";
    return false;
  }
  // A corrupt part makes the sum corrupt: its skipped chunks decide the exit status.
  for (const profile::Profile& part : parts) {
    p.skipped.insert(p.skipped.end(), part.skipped.begin(), part.skipped.end());
  }
  return true;
}

int corruptStatus(const profile::Profile& p, bool lenient) {
  return p.corrupt() && !lenient ? kExitCorrupt : 0;
}

std::ostream* openOutput(const std::string& path, std::ofstream& file) {
  if (path.empty()) return &std::cout;
  file.open(path, std::ios::binary);
  if (file) return &file;
  std::cerr << "dragnet: error: cannot write " << path << "\n";
  return nullptr;
}

void addLenientFlag(CLI::App* cmd, bool& lenient) {
  cmd->add_flag("--lenient", lenient,
                "A corrupt profile: report the chunks that can be read and exit 0 (without it: "
                "exit status 3)");
}

}  // namespace dragnet::report
