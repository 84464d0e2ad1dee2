// HotSpot's dynamic attach, client side: loads an agent library into a running JVM (what
// jattach and the JDK's VirtualMachine.loadAgentPath do).
//
// The JVM listens on a Unix socket, <tmp>/.java_pid<PID>, once asked: the client creates
// the file .attach_pid<PID> in the JVM's working directory (or <tmp>) and sends SIGQUIT,
// which the JVM's signal handler turns into starting its attach listener when that file
// exists. The client then writes the protocol version "1", the command "load", the
// library's path, "true" (an absolute path) and the agent's options, each ending in a NUL,
// and reads the JVM's answer: "0" (the command ran) and then "return code: N", N being
// Agent_OnAttach's return value. <tmp> and <PID> are the JVM's own: a JVM in a container
// (another mount or pid namespace) has them under /proc/PID/root and as its NSpid.
//
// The JVM accepts a peer of its own effective user only: root acts as that user for the
// connection. SIGQUIT to a process that is no JVM would kill it, so nothing is sent to a
// process without libjvm.so mapped, nor to a JVM whose command line or environment turn
// the attach mechanism off (it would print a thread dump instead).
#pragma once

#include <sys/types.h>

#include <chrono>
#include <string>

namespace dragnet::cli {

struct AttachOutcome {
  bool loaded = false;  // the JVM ran Agent_OnAttach
  int agentStatus = 0;  // its return value
  std::string error;    // why not (when !loaded)
};

AttachOutcome loadAgentInto(pid_t pid, const std::string& library, const std::string& options,
                            std::chrono::milliseconds timeout);

}  // namespace dragnet::cli
