// Where `dragnet run`'s profiles go. Every JVM the command starts writes its own profile
// into a directory of the run next to -o FILE (the agent's out=DIR/%p.dragnet), so that
// JVMs never share a file and an older FILE is never taken for this run's. When the
// command has ended, one profile becomes FILE; several stay apart, each named after its
// JVM: FILE's name with the pid before the extension (app.dragnet -> app.<pid>.dragnet).
// Without -o every profile is dragnet-<pid>.dragnet in the working directory.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace dragnet::cli {

class RunOutputs {
 public:
  // Creates the run's directory and removes an older FILE. False with `error` if FILE's
  // directory cannot take them.
  bool prepare(const std::string& output, std::string& error);
  // The agent's out= option.
  std::string agentOut() const { return (parts_ / "%p.dragnet").string(); }
  // Moves the profiles the JVMs wrote to their places (removing the run's directory) and
  // says on stderr where several went; their paths, none if no JVM wrote one.
  std::vector<std::filesystem::path> finish();

 private:
  std::filesystem::path placeFor(const std::string& pid, bool several) const;

  std::filesystem::path output_;  // -o FILE; empty: none given
  std::filesystem::path parts_;   // the run's directory
};

}  // namespace dragnet::cli
