// `dragnet attach PID [start|stop|dump]`: profiles a running JVM (jvm_attach.h loads the
// agent into it; agent/attach_protocol.h is what the two say to each other).
#pragma once

#include <CLI/CLI.hpp>
#include <string>

#include "run_flags.h"

namespace dragnet::cli {

struct AttachOptions {
  long pid = 0;
  std::string action = "start";
  AgentFlags agent;          // as dragnet run's (-o FILE: out)
  std::string agentOptions;  // --agent-opts k=v,...
  std::string delay, duration;
  std::string timeout = "10s";
};

CLI::App* addAttachCommand(CLI::App& app, AttachOptions& o);
int runAttach(const AttachOptions& o, const char* argv0);

}  // namespace dragnet::cli
