#include "run_outputs.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <map>

#include "profile/peek.h"

namespace fs = std::filesystem;

namespace dragnet::cli {

namespace {

// The pid in the name of a profile the agent wrote into the run's directory ("<pid>.dragnet").
std::string pidOf(const fs::path& file) {
  std::string stem = file.stem().string();
  bool digits = !stem.empty() && stem.find_first_not_of("0123456789") == std::string::npos;
  return digits && file.extension() == ".dragnet" ? stem : std::string();
}

// "(pid 123: app.Main arg)" from the profile's meta data.
std::string describe(const fs::path& profile, const std::string& pid) {
  std::map<std::string, std::string> meta;
  profile::readMeta(profile.string(), meta);
  auto command = meta.find("command");
  return "(pid " + pid + (command == meta.end() ? "" : ": " + command->second) + ")";
}

}  // namespace

bool RunOutputs::prepare(const std::string& output, std::string& error) {
  std::error_code ec;
  output_ = output.empty() ? fs::path() : fs::absolute(output, ec);
  if (ec) output_ = output;
  fs::path dir = output_.empty() ? fs::current_path(ec) : output_.parent_path();
  if (!output_.empty() && fs::is_directory(output_, ec)) {
    error = output + " is a directory";
    return false;
  }
  std::string name = output_.empty() ? "dragnet" : output_.filename().string();
  std::string pattern = (dir / (name + ".run-XXXXXX")).string();
  if (!::mkdtemp(pattern.data())) {
    error = "cannot create the run's directory in " + dir.string() + ": " + std::strerror(errno);
    return false;
  }
  parts_ = pattern;
  if (agentOut().find(',') != std::string::npos) {
    error = "the profile's path " + agentOut() + " holds a ',', which ends an agent option";
    fs::remove(parts_, ec);
    return false;
  }
  // Should no JVM write a profile, an older FILE must not pass for this run's.
  if (!output_.empty() && !fs::remove(output_, ec) && ec) {
    error = "cannot replace " + output + ": " + ec.message();
    fs::remove(parts_, ec);
    return false;
  }
  return true;
}

fs::path RunOutputs::placeFor(const std::string& pid, bool several) const {
  if (output_.empty()) return parts_.parent_path() / ("dragnet-" + pid + ".dragnet");
  if (!several) return output_;
  fs::path named = output_;
  std::string ext = named.extension().string();
  return named.replace_extension().string() + "." + pid + ext;
}

std::vector<fs::path> RunOutputs::finish() {
  std::map<unsigned long, fs::path> found;  // by pid
  std::error_code ec;
  for (const fs::directory_entry& e : fs::directory_iterator(parts_, ec)) {
    std::string pid = pidOf(e.path());
    if (!pid.empty()) found.emplace(std::strtoul(pid.c_str(), nullptr, 10), e.path());
  }
  std::vector<fs::path> placed;
  for (const auto& [pid, file] : found) {
    fs::path to = placeFor(std::to_string(pid), found.size() > 1);
    fs::rename(file, to, ec);
    if (ec) {
      std::cerr << "dragnet: cannot move " << file.string() << " to " << to.string() << ": "
                << ec.message() << "\n";
      to = file;
    }
    placed.push_back(to);
  }
  fs::remove(parts_, ec);  // stays if something else was written into it
  if (placed.size() > 1) {
    std::cerr << "dragnet: " << placed.size() << " JVMs wrote profiles:\n";
    auto pid = found.begin();
    for (const fs::path& p : placed) {
      std::cerr << "  " << p.string() << " " << describe(p, std::to_string((pid++)->first)) << "\n";
    }
  }
  return placed;
}

}  // namespace dragnet::cli
