#include "jvm_attach.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <thread>

namespace dragnet::cli {
namespace {

using Clock = std::chrono::steady_clock;

std::string proc(pid_t pid, const char* entry) {
  return "/proc/" + std::to_string(pid) + "/" + entry;
}

// The value of `key:` in /proc/PID/status (the rest of its line), empty if absent.
std::string statusField(pid_t pid, std::string_view key) {
  std::ifstream in(proc(pid, "status"));
  for (std::string line; std::getline(in, line);) {
    if (line.starts_with(key) && line.size() > key.size() && line[key.size()] == ':') {
      return line.substr(key.size() + 1);
    }
  }
  return {};
}

// The pid the process has in its own pid namespace (the last of NSpid), else `pid`.
pid_t namespacePid(pid_t pid) {
  std::istringstream ids(statusField(pid, "NSpid"));
  long last = pid;
  for (long id; ids >> id;) last = id;
  return static_cast<pid_t>(last);
}

// Whether the process catches SIGQUIT (bit 3 of SigCgt): a JVM does, with its attach
// mechanism on; to anything else SIGQUIT is fatal.
bool catchesSigquit(pid_t pid) {
  std::string mask = statusField(pid, "SigCgt");
  size_t start = mask.find_first_not_of(" \t");
  if (start == std::string::npos) return false;
  return (std::strtoull(mask.c_str() + start, nullptr, 16) >> (SIGQUIT - 1)) & 1;
}

bool mapsLibjvm(pid_t pid) {
  std::ifstream in(proc(pid, "maps"));
  for (std::string line; std::getline(in, line);) {
    if (line.ends_with("/libjvm.so")) return true;
  }
  return false;
}

// Whether the JVM's command line or the variables it takes options from contain `word`.
bool givenToJvm(pid_t pid, std::string_view word) {
  for (const char* entry : {"cmdline", "environ"}) {
    std::ifstream in(proc(pid, entry), std::ios::binary);
    std::string all((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (all.find(word) != std::string::npos) return true;
  }
  return false;
}

// Why dragnet will not signal this process; empty if it may.
std::string notAttachable(pid_t pid, const struct stat& st) {
  uid_t me = ::geteuid();
  if (me != 0 && me != st.st_uid) {
    return "process " + std::to_string(pid) + " runs as user " + std::to_string(st.st_uid) +
           ", dragnet as " + std::to_string(me) + ": attach as the same user (or root)";
  }
  if (!mapsLibjvm(pid)) return "process " + std::to_string(pid) + " is not a Java VM (HotSpot)";
  if (givenToJvm(pid, "-XX:+DisableAttachMechanism")) {
    return "the JVM " + std::to_string(pid) + " runs with -XX:+DisableAttachMechanism";
  }
  if (!catchesSigquit(pid)) {
    return "the JVM " + std::to_string(pid) +
           " does not handle SIGQUIT (-Xrs, or still starting): it cannot be attached to";
  }
  return {};
}

bool isSocket(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 && S_ISSOCK(st.st_mode);
}

// Asks the JVM to start its attach listener and waits for its socket; false on timeout.
bool startListener(pid_t pid, pid_t nspid, const std::string& tmp, const struct stat& owner,
                   const std::string& socket, Clock::time_point deadline) {
  std::string name = "/.attach_pid" + std::to_string(nspid);
  std::string trigger = proc(pid, "cwd") + name;
  int fd = ::open(trigger.c_str(), O_CREAT | O_WRONLY | O_TRUNC, 0660);
  if (fd < 0) {
    trigger = tmp + name;
    fd = ::open(trigger.c_str(), O_CREAT | O_WRONLY | O_TRUNC, 0660);
  }
  if (fd >= 0) {
    // The JVM takes the trigger only from its own user.
    if (::fchown(fd, owner.st_uid, owner.st_gid) != 0) { /* root only; same user: already */
    }
    ::close(fd);
  }
  bool up = false;
  if (::kill(pid, SIGQUIT) == 0) {
    for (auto wait = std::chrono::milliseconds(10); !(up = isSocket(socket));) {
      if (Clock::now() >= deadline) break;
      std::this_thread::sleep_for(wait);
      wait = std::min(wait * 2, std::chrono::milliseconds(200));
    }
  }
  if (fd >= 0) ::unlink(trigger.c_str());
  return up;
}

// Connects as the JVM's user (root: by switching its effective ids for the call).
int connectAs(const std::string& path, const struct stat& owner,
              std::chrono::milliseconds timeout) {
  uid_t uid = ::geteuid();
  gid_t gid = ::getegid();
  bool switched =
      uid == 0 && owner.st_uid != 0 && ::setegid(owner.st_gid) == 0 && ::seteuid(owner.st_uid) == 0;
  int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  bool fits = path.size() < sizeof addr.sun_path;
  if (fits) std::memcpy(addr.sun_path, path.c_str(), path.size() + 1);
  if (fd >= 0 && (!fits || ::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0)) {
    ::close(fd);
    fd = -1;
  }
  if (switched) {
    if (::seteuid(uid) != 0 || ::setegid(gid) != 0) std::abort();  // cannot stay the other user
  }
  if (fd >= 0) {
    timeval tv{static_cast<time_t>(timeout.count() / 1000),
               static_cast<suseconds_t>(timeout.count() % 1000 * 1000)};
    ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
  }
  return fd;
}

// "1\0load\0LIB\0true\0OPTIONS\0", the JVM's answer read to its end.
bool exchange(int fd, const std::string& library, const std::string& options, std::string& reply) {
  std::string request;
  for (const std::string& part :
       {std::string("1"), std::string("load"), library, std::string("true"), options}) {
    request += part;
    request += '\0';
  }
  for (size_t sent = 0; sent < request.size();) {
    ssize_t n = ::write(fd, request.data() + sent, request.size() - sent);
    if (n <= 0 && errno != EINTR) return false;
    if (n > 0) sent += static_cast<size_t>(n);
  }
  char buf[4096];
  for (ssize_t n; (n = ::read(fd, buf, sizeof buf)) != 0;) {
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return false;  // includes the receive timeout
    reply.append(buf, static_cast<size_t>(n));
  }
  return true;
}

}  // namespace

AttachOutcome loadAgentInto(pid_t pid, const std::string& library, const std::string& options,
                            std::chrono::milliseconds timeout) {
  AttachOutcome out;
  struct stat st {};
  if (pid <= 0 || ::stat(proc(pid, "").c_str(), &st) != 0) {
    out.error = "no process " + std::to_string(pid);
    return out;
  }
  if (std::string why = notAttachable(pid, st); !why.empty()) {
    out.error = why;
    return out;
  }
  Clock::time_point deadline = Clock::now() + timeout;
  pid_t nspid = namespacePid(pid);
  std::string tmp = proc(pid, "root") + "/tmp";
  if (::access(tmp.c_str(), W_OK) != 0) tmp = "/tmp";
  std::string socket = tmp + "/.java_pid" + std::to_string(nspid);
  if (!isSocket(socket) && !startListener(pid, nspid, tmp, st, socket, deadline)) {
    out.error = "the JVM " + std::to_string(pid) + " did not open its attach socket " + socket +
                " within " + std::to_string(timeout.count() / 1000) +
                " s (attach mechanism disabled, or the JVM is busy)";
    return out;
  }
  int fd = connectAs(socket, st, timeout);
  if (fd < 0) {
    out.error = "cannot connect to " + socket + ": " + std::strerror(errno);
    return out;
  }
  std::string reply;
  bool ok = exchange(fd, library, options, reply);
  ::close(fd);
  // "0\nreturn code: N\n" (JDK 9+), or "0\nN\n"; any other first line is the JVM's refusal.
  std::istringstream lines(reply);
  std::string first, second;
  std::getline(lines, first);
  std::getline(lines, second);
  if (!ok || first != "0") {
    out.error = ok ? "the JVM refused to load the agent: " + reply
                   : "no answer from the JVM " + std::to_string(pid) + " within " +
                         std::to_string(timeout.count() / 1000) + " s";
    return out;
  }
  if (second.starts_with("return code: ")) second = second.substr(13);
  out.loaded = true;
  out.agentStatus = std::atoi(second.c_str());
  return out;
}

}  // namespace dragnet::cli
