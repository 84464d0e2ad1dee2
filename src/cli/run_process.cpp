#include "run_process.h"

#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <iostream>

namespace dragnet::cli {

namespace {

constexpr int kForwarded[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT};

volatile sig_atomic_t gChild = 0;  // the running command; 0: none

void forward(int sig, siginfo_t* info, void*) {
  // Ctrl-C and Ctrl-\ at the terminal went to the whole foreground process group, the
  // command included: a second one would be too many.
  if (info && info->si_code == SI_KERNEL) return;
  pid_t child = gChild;
  if (child > 0) ::kill(child, sig);
}

// In the child, before exec: the signals as dragnet found them, and SIGTERM should
// dragnet die, so that the JVM is never left running without it.
[[noreturn]] void execChild(const std::vector<std::string>& args, const sigset_t& mask,
                            pid_t parent) {
  for (int sig : kForwarded) {
    struct sigaction sa {};
    ::sigaction(sig, nullptr, &sa);
    if (sa.sa_handler != SIG_IGN) ::signal(sig, SIG_DFL);
  }
  ::sigprocmask(SIG_SETMASK, &mask, nullptr);
  ::prctl(PR_SET_PDEATHSIG, SIGTERM);
  if (::getppid() != parent) ::_exit(128 + SIGTERM);  // dragnet died before prctl
  std::vector<char*> argv;
  for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  ::execvp(argv[0], argv.data());
  std::string message =
      "dragnet: error: cannot run " + args[0] + ": " + std::strerror(errno) + "\n";
  ssize_t ignored = ::write(STDERR_FILENO, message.data(), message.size());
  (void)ignored;
  ::_exit(127);
}

}  // namespace

int runForwardingSignals(const std::vector<std::string>& args) {
  // Blocked until the child's pid is known, so that none is lost in between.
  sigset_t forwarded, old;
  sigemptyset(&forwarded);
  for (int sig : kForwarded) sigaddset(&forwarded, sig);
  ::sigprocmask(SIG_BLOCK, &forwarded, &old);
  for (int sig : kForwarded) {
    struct sigaction sa {};
    ::sigaction(sig, nullptr, &sa);
    if (sa.sa_handler == SIG_IGN) continue;  // ignored (nohup, a background job): stays so
    sa = {};
    sa.sa_sigaction = forward;
    sa.sa_flags = SA_SIGINFO | SA_RESTART;
    sigemptyset(&sa.sa_mask);
    ::sigaction(sig, &sa, nullptr);
  }
  pid_t parent = ::getpid();
  pid_t pid = ::fork();
  if (pid == 0) execChild(args, old, parent);
  if (pid < 0) {
    std::perror("dragnet: fork");
    ::sigprocmask(SIG_SETMASK, &old, nullptr);
    return 127;
  }
  gChild = pid;
  ::sigprocmask(SIG_SETMASK, &old, nullptr);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  gChild = 0;  // the signals stay caught (and dropped) while dragnet moves the profiles
  if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
  return WEXITSTATUS(status);
}

}  // namespace dragnet::cli
