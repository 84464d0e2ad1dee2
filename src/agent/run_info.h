// What the profile records of the run itself (docs/PROFILE_FORMAT.md, "Meta"): the
// process's command line, the main class, the JVM, the host, the start time and dragnet's
// version at Agent_OnLoad; the duration at each flush and at VM death. Read from the
// process, the JVM's system properties (JVMTI) and the files they name: no Java code runs.
#pragma once

#include <jvmti.h>

#include <chrono>
#include <map>
#include <string>
#include <string_view>

namespace dragnet::agent {

// The Meta entries of the run: command.line, main, java.vm.name, java.vm.vendor,
// java.vm.version, java.version, host, start, dragnet.version (an entry whose value cannot
// be read is left out).
std::map<std::string, std::string> runMeta(jvmtiEnv* jvmti);

// {"duration.ms": milliseconds since `start`}: the Meta entry a flush and VM death add.
std::map<std::string, std::string> durationMeta(std::chrono::steady_clock::time_point start);

// The arguments of /proc/self/cmdline-style text (NUL-separated) as one line, each argument
// quoted as a POSIX shell would need it ('...' when it holds anything but letters, digits
// and -_./=:,+@%).
std::string shellLine(std::string_view nulSeparated);

// The value of `attribute` in a jar manifest's main section (continuation lines joined);
// empty if absent.
std::string manifestAttribute(std::string_view manifest, std::string_view attribute);

// The main class of sun.java.command's text (its first word): the class as given, the
// Main-Class of a jar (-jar), the class of module/class (-m); empty if none can be told.
std::string mainClassOf(std::string_view javaCommand, std::string_view classPath);

}  // namespace dragnet::agent
