// What `dragnet attach` (src/cli/attach_command.cpp) and the agent's Agent_OnAttach
// (agent.cpp) say to each other. The JVM's attach mechanism passes one option string to
// Agent_OnAttach and brings back one integer, its return value: the request is
// "attach=start|stop|dump,delay=MS,duration=MS,<agent options>" and the answer a Status
// below, which the command turns into its message (the agent writes nothing to the
// program's stderr for an attached session).
#pragma once

#include <charconv>
#include <cstdint>
#include <string>
#include <string_view>

namespace dragnet::agent::attach {

enum class Status : int {
  Ok = 0,
  BadRequest = 101,       // the request or the agent options do not parse
  Running = 102,          // start: an attached session is recording
  StartedWithJvm = 103,   // start/stop: the agent was loaded at JVM start (-agentpath)
  OtherImage = 104,       // another copy of libdragnet.so is loaded in the JVM
  NotRunning = 105,       // stop/dump: no session is recording
  CannotStartLate = 106,  // start: the mode rewrites classes (see statusMessage)
  CannotOpen = 107,       // start/dump: the profile file cannot be written
  JvmRefused = 108,       // start: the JVM refused capabilities, callbacks or a thread
};

// What the command says for each answer but Ok.
struct StatusText {
  Status status;
  const char* text;
};
inline constexpr StatusText kStatusTexts[] = {
    {Status::BadRequest,
     "the agent did not understand the request (a libdragnet.so of another version?)"},
    {Status::Running,
     "a dragnet session is already recording in this JVM; stop it first (dragnet attach PID "
     "stop)"},
    {Status::StartedWithJvm,
     "this JVM was started with the dragnet agent; its profile is completed at exit (only dump "
     "works on it)"},
    {Status::OtherImage, "another copy of the dragnet agent (another path) is loaded in this JVM"},
    {Status::NotRunning, "no dragnet session is recording in this JVM"},
    {Status::CannotStartLate,
     "this mode rewrites classes as they load: it adds fields to java.lang.Thread, which a "
     "running JVM cannot do (JVMTI retransformation changes method bodies only); start the "
     "program with `dragnet run` instead"},
    {Status::CannotOpen,
     "the JVM cannot write the profile file (its directory, permissions, or another process "
     "writing it)"},
    {Status::JvmRefused,
     "the JVM refused what the agent needs (allocation sampling or its thread)"},
};

// The command's message for the agent's answer (empty for Ok).
inline std::string statusMessage(int status) {
  if (status == static_cast<int>(Status::Ok)) return "";
  for (const StatusText& t : kStatusTexts) {
    if (static_cast<int>(t.status) == status) return t.text;
  }
  return "the agent failed (return code " + std::to_string(status) + ")";
}

// The request's own keys, split off the option string.
struct Request {
  std::string command;  // start, stop or dump
  uint64_t delayMs = 0, durationMs = 0;
  std::string options;  // the agent options (start), or out=FILE (dump)
};

// Splits "attach=CMD,delay=MS,duration=MS,rest"; false if it is not a request.
inline bool parseRequest(std::string_view text, Request& r) {
  std::string rest;
  while (!text.empty()) {
    size_t comma = text.find(',');
    std::string_view item = text.substr(0, comma);
    text = comma == std::string_view::npos ? std::string_view() : text.substr(comma + 1);
    auto number = [&](std::string_view key, uint64_t& v) {
      if (!item.starts_with(key)) return false;
      std::string_view digits = item.substr(key.size());
      auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), v);
      return ec == std::errc() && end == digits.data() + digits.size();
    };
    if (item.starts_with("attach=")) {
      r.command = std::string(item.substr(7));
    } else if (!number("delay=", r.delayMs) && !number("duration=", r.durationMs)) {
      rest += (rest.empty() ? "" : ",") + std::string(item);
    }
  }
  r.options = rest;
  return r.command == "start" || r.command == "stop" || r.command == "dump";
}

}  // namespace dragnet::agent::attach
