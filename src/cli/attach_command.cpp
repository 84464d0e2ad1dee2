#include "attach_command.h"

#include <charconv>
#include <filesystem>
#include <iostream>
#include <optional>

#include "agent/attach_protocol.h"
#include "agent/options.h"
#include "jvm_attach.h"
#include "profile_commands.h"

namespace fs = std::filesystem;

namespace dragnet::cli {
namespace {

constexpr int kExitFailed = 1, kExitUsage = 2;

// "500ms", "30s", "2m", "1h" or a number of seconds; nothing if malformed.
std::optional<uint64_t> milliseconds(const std::string& text) {
  uint64_t n = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), n);
  if (ec != std::errc() || end == text.data()) return std::nullopt;
  std::string_view unit(end, static_cast<size_t>(text.data() + text.size() - end));
  uint64_t scale = unit == "ms"                ? 1
                   : unit == "" || unit == "s" ? 1000
                   : unit == "m"               ? 60000
                   : unit == "h"               ? 3600000
                                               : 0;
  if (scale == 0 || n > UINT64_MAX / scale) return std::nullopt;
  return n * scale;
}

int usage(const std::string& message) {
  std::cerr << "dragnet attach: " << message << "\n";
  return kExitUsage;
}

// The request for `start`, checked as the agent will check it; empty with `error` if refused.
std::string startRequest(const AttachOptions& o, const std::string& out, uint64_t delay,
                         uint64_t duration, std::string& error) {
  std::string text = agentOptionText(o.agent, out, o.agentOptions);
  agent::Options parsed;
  if (!agent::parseOptions(text, parsed, error)) return {};
  if (parsed.sample == 0) {
    error = "mode " + parsed.mode +
            " without --sample cannot start in a running JVM: the exact modes rewrite every "
            "class as it loads and add fields to java.lang.Thread, which a running JVM cannot "
            "do (JVMTI retransformation changes method bodies only). Attach with --sample SIZE "
            "(e.g. --sample 512k), or start the program with `dragnet run`";
    return {};
  }
  // The program's stderr stays its own: the agent says nothing there (quiet=on).
  return "attach=start,delay=" + std::to_string(delay) + ",duration=" + std::to_string(duration) +
         "," + text + ",quiet=on";
}

}  // namespace

CLI::App* addAttachCommand(CLI::App& app, AttachOptions& o) {
  CLI::App* cmd = app.add_subcommand(
      "attach", "Profile a running JVM: start a sampled profile, stop it, or dump it so far");
  cmd->add_option("pid", o.pid, "The JVM's process id")->required();
  cmd->add_option("action", o.action, "start (default), stop, or dump (with -o FILE)")
      ->check(CLI::IsMember({"start", "stop", "dump"}));
  addAgentFlags(*cmd, o.agent);
  cmd->add_option("--agent-opts", o.agentOptions, "More agent options, k=v,...");
  cmd->add_option("--delay", o.delay, "start: begin recording after this long (e.g. 10s)");
  cmd->add_option("--duration", o.duration,
                  "start: end the recording and complete the profile after this long (e.g. "
                  "30s); without it, at `stop` or when the JVM exits");
  cmd->add_option("--timeout", o.timeout, "how long to wait for the JVM to answer (10s)");
  cmd->footer(
      "Examples: dragnet attach 4242 --sample 512k --duration 30s -o app.dragnet\n"
      "          dragnet attach 4242 --mode alloc --sample 512k -o app.dragnet\n"
      "          dragnet attach 4242 dump -o so-far.dragnet\n"
      "          dragnet attach 4242 stop\n\n"
      "Only sampled modes start late: --sample SIZE is required (mode alloc; mode lifetime\n"
      "rewrites classes even when sampled). The profile's `attached` entry and the report say\n"
      "what a late start cannot see. -o FILE is resolved here and written by the JVM (as its\n"
      "user); default dragnet-PID.dragnet. The JVM's output is left alone.\n\n"
      "Exit status: 0 done; 1 the JVM could not be attached to or refused (said on stderr);\n"
      "2 for a usage error.");
  return cmd;
}

int runAttach(const AttachOptions& o, const char* argv0) {
  auto delay = milliseconds(o.delay.empty() ? "0" : o.delay);
  auto duration = milliseconds(o.duration.empty() ? "0" : o.duration);
  auto timeout = milliseconds(o.timeout);
  if (!delay || !duration || !timeout) {
    return usage("a time is a number with ms, s (the default), m or h: --delay " + o.delay +
                 " --duration " + o.duration + " --timeout " + o.timeout);
  }
  if (o.agentOptions.find("out=") != std::string::npos) {
    return usage("the profile's file is given with -o, not out=");
  }
  if (o.action != "start" && (!o.delay.empty() || !o.duration.empty())) {
    return usage("--delay and --duration go with start");
  }
  auto given = o.agent.find("out");
  std::string out = given == o.agent.end() ? "" : given->second;
  if (out.empty() && o.action != "stop") {
    if (o.action == "dump") return usage("dump needs -o FILE");
    out = "dragnet-" + std::to_string(o.pid) + ".dragnet";
  }
  std::error_code ec;
  if (!out.empty()) out = fs::absolute(out, ec).lexically_normal().string();
  std::string request, error;
  if (o.action == "start") {
    request = startRequest(o, out, *delay, *duration, error);
    if (request.empty()) return usage(error);
  } else {
    request = "attach=" + o.action + (out.empty() ? "" : ",out=" + out);
  }
  fs::path lib = agentLibrary(argv0);
  if (!fs::exists(lib)) {
    std::cerr << "dragnet: error: the agent " << lib.string() << " is missing\n";
    return kExitFailed;
  }
  AttachOutcome r = loadAgentInto(static_cast<pid_t>(o.pid), lib.string(), request,
                                  std::chrono::milliseconds(*timeout));
  if (!r.loaded) {
    std::cerr << "dragnet: error: " << r.error << "\n";
    return kExitFailed;
  }
  if (r.agentStatus != 0) {
    std::cerr << "dragnet: error: JVM " << o.pid << ": "
              << agent::attach::statusMessage(r.agentStatus) << "\n";
    return kExitFailed;
  }
  if (o.action == "start") {
    std::cerr << "dragnet: recording in JVM " << o.pid << " to " << out
              << (o.duration.empty()
                      ? "; end it with: dragnet attach " + std::to_string(o.pid) + " stop"
                      : " for " + o.duration)
              << "\n";
  } else if (o.action == "stop") {
    std::cerr << "dragnet: stopped; the profile is complete\n";
  } else {
    std::cerr << "dragnet: the profile so far written to " << out << "\n";
  }
  return 0;
}

}  // namespace dragnet::cli
