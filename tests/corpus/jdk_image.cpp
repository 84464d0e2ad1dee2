#include "jdk_image.h"

#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <string>
#include <system_error>

namespace fs = std::filesystem;

namespace dragnet::testing {

fs::path extractedJdkImage(const fs::path& home) {
  fs::path dir = fs::path(DRAGNET_BINARY_DIR) / "corpus" / home.filename();
  if (fs::exists(dir / ".extracted")) return dir;
  fs::path staging = dir;
  staging += ".tmp-" + std::to_string(::getpid());
  fs::remove_all(staging);
  fs::create_directories(staging);
  // Built by appending: GCC 12 misreports -Wrestrict on long operator+ chains.
  std::string cmd;
  for (const std::string& part :
       {(home / "bin" / "jimage").string(), std::string("extract"), std::string("--dir"),
        staging.string(), (home / "lib" / "modules").string()}) {
    cmd.append("'").append(part).append("' ");
  }
  if (std::system(cmd.c_str()) != 0) {
    fs::remove_all(staging);
    return {};
  }
  std::ofstream(staging / ".extracted") << "ok\n";
  // rename() refuses a non-empty target, so at most one process publishes. A tree at `dir`
  // without the marker can only be left over from an older, non-atomic layout: move it
  // aside (one rename, so no reader sees it half-deleted) and publish again.
  std::error_code ec;
  fs::rename(staging, dir, ec);
  if (ec && !fs::exists(dir / ".extracted")) {
    fs::path stale = dir;
    stale += ".stale-" + std::to_string(::getpid());
    fs::rename(dir, stale, ec);
    fs::remove_all(stale, ec);
    fs::rename(staging, dir, ec);
  }
  // Losing the race to another process is fine: its tree is complete and identical.
  if (ec) fs::remove_all(staging, ec);
  return fs::exists(dir / ".extracted") ? dir : fs::path{};
}

}  // namespace dragnet::testing
