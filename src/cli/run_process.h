// `dragnet run`'s child: the command, started so that the signals which end a program
// reach it when they are sent to dragnet, and waited for.
#pragma once

#include <string>
#include <vector>

namespace dragnet::cli {

// Runs `args` (args[0] searched in PATH) and waits for it. SIGINT, SIGTERM, SIGHUP and
// SIGQUIT sent to dragnet are passed on to it (those a terminal sends reach it anyway: it
// is in dragnet's process group); if dragnet is killed, it gets SIGTERM. Returns its exit
// status, 128 + N if signal N killed it (as shells do), 127 (said on stderr) if it could
// not be started.
int runForwardingSignals(const std::vector<std::string>& args);

}  // namespace dragnet::cli
