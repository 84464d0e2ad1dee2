#include "profile_commands.h"

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include "agent/options.h"
#include "heap_limit.h"
#include "profile/reader.h"
#include "report/analysis.h"
#include "run_outputs.h"
#include "run_process.h"

namespace fs = std::filesystem;

namespace dragnet::cli {

fs::path agentLibrary(const char* argv0) {
  std::error_code ec;
  fs::path self = fs::read_symlink("/proc/self/exe", ec);
  if (ec) self = fs::absolute(argv0, ec);
  fs::path lib = self.parent_path().parent_path() / "lib" / "libdragnet.so";
  return lib;
}

namespace {

// `dragnet run`: the command succeeded, but no JVM wrote a profile.
constexpr int kExitNoProfile = 3;

// The java to run: the command's first word if it is a path, else JAVA_HOME/bin/java, else
// the PATH's.
std::string resolveJava(const std::string& word) {
  if (word.find('/') != std::string::npos) return word;
  if (word == "java") {
    if (const char* home = std::getenv("JAVA_HOME")) {
      fs::path j = fs::path(home) / "bin" / "java";
      if (fs::exists(j)) return j.string();
    }
  }
  return word;  // execvp searches PATH
}

// Whether `arg` loads a dragnet agent: -agentpath:.../libdragnet*.so[=...] or
// -agentlib:dragnet[=...].
bool loadsAgent(std::string_view arg) {
  std::string_view lib = arg.substr(0, arg.find('='));
  if (lib == "-agentlib:dragnet") return true;
  if (!lib.starts_with("-agentpath:")) return false;
  return fs::path(lib.substr(11)).filename().string().starts_with("libdragnet");
}

// Where the command already loads the agent (an argument, or a variable the JVM takes
// options from), as "-agentpath:..." or "VARIABLE: -agentpath:..."; empty if nowhere.
std::string agentAlreadyGiven(const std::vector<std::string>& command) {
  for (size_t i = 1; i < command.size(); ++i) {
    if (loadsAgent(command[i])) return command[i];
  }
  for (const char* var : {"JAVA_TOOL_OPTIONS", "JDK_JAVA_OPTIONS", "_JAVA_OPTIONS"}) {
    const char* value = std::getenv(var);
    std::istringstream words(value ? value : "");
    for (std::string w; words >> w;) {
      if (loadsAgent(w)) return std::string(var) + ": " + w;
    }
  }
  return {};
}

}  // namespace

CLI::App* addRunCommand(CLI::App& app, RunOptions& o) {
  CLI::App* cmd =
      app.add_subcommand("run", "Run a Java program with the dragnet agent and write its profile");
  addAgentFlags(*cmd, o.agent);
  cmd->add_option("--agent-opts", o.agentOptions,
                  "More agent options, k=v,... (dragnet run --agent-opts help -- java)");
  cmd->add_option("--heap-factor", o.heapFactor,
                  "Raise the JVM's heap limit (-Xmx, or the default's MaxRAMPercentage) by this "
                  "factor; default: the mode's (copy and cost add fields to the program's "
                  "objects), 1 leaves it")
      ->check(CLI::Range(1.0, 16.0));
  cmd->add_option("command", o.command, "java and its arguments, after --")->required();
  cmd->footer(std::string("Example: dragnet run -o app.dragnet -- java -jar app.jar\n"
                          "         dragnet run --sample 512k -o app.dragnet -- java -jar "
                          "app.jar\n"
                          "Then:    dragnet report app.dragnet\n\n"
                          "Exit status: the command's (128+N if signal N killed it; SIGINT, "
                          "SIGTERM,\nSIGHUP and SIGQUIT are passed on to it); 3 if it succeeded "
                          "but no JVM wrote a\nprofile; 2 for a usage error; 127 if it cannot be "
                          "run.\n\n"
                          "The agent's options (pass more with --agent-opts k=v,...):\n") +
              agent::optionHelp());
  return cmd;
}

namespace {

// Whether an item of --agent-opts k=v,... satisfies `pred`.
template <class Pred>
bool anyAgentOption(const RunOptions& o, Pred pred) {
  std::istringstream items(o.agentOptions);
  for (std::string item; std::getline(items, item, ',');) {
    if (pred(item)) return true;
  }
  return false;
}

// Why dragnet run refuses these options and command before starting anything; empty if
// it does not. `mode` gets the mode the agent will run.
std::string usageError(const RunOptions& o, std::string& mode) {
  if (std::string given = agentAlreadyGiven(o.command); !given.empty()) {
    // Loaded twice, the second agent would do nothing (the first one wins).
    return "the command loads the agent already (" + given +
           "); dragnet run adds it itself: drop it (agent options go to --agent-opts), or run "
           "the command without dragnet run";
  }
  std::string agentOut;
  anyAgentOption(o, [&](const std::string& item) {
    if (item.starts_with("out=")) agentOut = item;
    return false;
  });
  if (!agentOut.empty()) {
    // dragnet run has the agent write into a directory of its own (RunOutputs): out= given
    // to the agent would take the profile out of it.
    auto given = o.agent.find("out");
    if (given != o.agent.end()) {
      return "-o " + given->second + " and --agent-opts " + agentOut +
             " both name the profile's file: give it with -o only";
    }
    return "the profile's file is given with -o, not --agent-opts " + agentOut;
  }
  // The agent's own parser: an option the mode does not take, or a malformed one, is
  // refused here rather than by each JVM the command starts.
  agent::Options parsed;
  std::string error;
  if (!agent::parseOptions(agentOptionText(o.agent, "", o.agentOptions), parsed, error)) {
    return error;
  }
  mode = parsed.mode;
  return {};
}

// Says where the profiles are (RunOutputs::finish listed several), or that there is none;
// dragnet run's exit status for the command's `status`.
int conclude(const RunOptions& o, const std::string& mode, const std::vector<fs::path>& profiles,
             bool java, int status) {
  if (profiles.size() == 1) {
    std::cerr << "dragnet: profile moved to " << profiles[0].string() << "\n";
  } else if (const report::Analysis* a = report::analysisNamed(mode);
             profiles.size() > 1 && a && a->merges) {
    std::cerr << "dragnet: their sum: dragnet report";
    for (const fs::path& p : profiles) std::cerr << " " << p.string();
    std::cerr << "\n";
  } else if (profiles.empty() &&
             // --agent-opts help: the agent prints its options and stops the JVM, on purpose.
             !anyAgentOption(o, [](const std::string& item) { return item == "help"; })) {
    std::cerr << "dragnet: error: no JVM wrote a profile"
              << (java ? ""
                       : " (the command started no JVM, or its JVMs did not get JAVA_TOOL_OPTIONS)")
              << "\n";
    if (status == 0) return kExitNoProfile;
  }
  return status;
}

// The mode's heap growth (its option table's), unless --heap-factor says otherwise.
double heapFactor(const RunOptions& o, const std::string& mode) {
  if (o.heapFactor) return *o.heapFactor;
  double growth = 1;
  for (const options::Table* t : agent::registeredOptionTables()) {
    if (std::find(t->modes.begin(), t->modes.end(), mode) != t->modes.end()) {
      growth = std::max(growth, t->heapGrowth);
    }
  }
  return growth;
}

// Adds the raised heap limit after the JVM's options of `args` (java, the agent, then the
// command's arguments) and says so on dragnet's stderr.
void raiseHeapLimit(const RunOptions& o, const std::string& mode, std::vector<std::string>& args) {
  double factor = heapFactor(o, mode);
  if (factor <= 1 && !o.heapFactor) return;
  HeapRequest request = heapRequest(o.command);
  HeapRaise raise = raiseHeap(request, factor);
  if (raise.option.empty()) {
    if (factor > 1) {
      std::cerr << "dragnet: warning: mode " << mode << " adds fields to the program's objects, "
                << "but the heap limit (" << raise.asked << ") is not raised: " << raise.why
                << "\n";
    }
    return;
  }
  // args holds the agent option after java: the command's index i is args' i + 1.
  args.insert(args.begin() + static_cast<std::ptrdiff_t>(request.optionsEnd + 1), raise.option);
  std::cerr << "dragnet: mode " << mode << " adds fields to the program's objects: heap limit "
            << raise.asked << " raised to " << raise.option << " (--heap-factor " << factor
            << ")\n";
}

}  // namespace

int runRun(const RunOptions& o, const char* argv0) {
  fs::path lib = agentLibrary(argv0);
  if (!fs::exists(lib)) {
    std::cerr << "dragnet: error: the agent " << lib.string() << " is missing (build it: "
              << "cmake --build build)\n";
    return 2;
  }
  std::string mode;
  std::string error = usageError(o, mode);
  RunOutputs outputs;
  auto output = o.agent.find("out");
  if (!error.empty() || !outputs.prepare(output == o.agent.end() ? "" : output->second, error)) {
    std::cerr << "dragnet: error: " << error << "\n";
    return 2;
  }
  std::vector<std::string> args;
  std::string agent = "-agentpath:" + lib.string() + "=" +
                      agentOptionText(o.agent, outputs.agentOut(), o.agentOptions);
  args.push_back(resolveJava(o.command[0]));
  bool java = fs::path(o.command[0]).filename() == "java";
  if (java) {
    args.push_back(agent);
  } else {
    // Another launcher (javac, a script that starts java): the JVM picks the agent up
    // from JAVA_TOOL_OPTIONS (and says so on stderr).
    const char* old = std::getenv("JAVA_TOOL_OPTIONS");
    std::string env = old && *old ? std::string(old) + " " + agent : agent;
    setenv("JAVA_TOOL_OPTIONS", env.c_str(), 1);
  }
  args.insert(args.end(), o.command.begin() + 1, o.command.end());
  if (java) raiseHeapLimit(o, mode, args);
  int status = runForwardingSignals(args);
  return conclude(o, mode, outputs.finish(), java, status);
}

CLI::App* addReportCommand(CLI::App& app, ReportOptions& o) {
  CLI::App* cmd = app.add_subcommand("report", "Report on a profile written by dragnet run");
  cmd->add_option("FILE", o.inputs,
                  "The profile; several profiles of one mode (the JVMs of one run) are merged")
      ->required()
      ->check(CLI::ExistingFile);
  std::string formats;  // which analysis writes which formats
  for (const report::Analysis& a : report::registeredAnalyses()) {
    formats +=
        (formats.empty() ? "" : "; ") + std::string(a.name) + " profiles: " + report::formatList(a);
  }
  cmd->add_option("--format,-f", o.format,
                  "html is one self-contained file, pprof is gzipped; " + formats)
      ->check(CLI::IsMember(report::allFormats()))
      ->capture_default_str();
  cmd->add_option("-o,--output", o.output, "Write the report here (default: stdout)");
  cmd->add_option("--top", o.top, "Rows per table (text, html)")
      ->check(CLI::NonNegativeNumber)  // a size_t would take -1 as 2^64 - 1
      ->capture_default_str();
  report::addReportOptionFlag(cmd, o.options);
  report::addViewFlags(cmd, o.views);
  addLenientFlag(cmd, o.lenient);
  return cmd;
}

int runReport(const ReportOptions& o) {
  if (o.format == "pprof" && o.output.empty() && ::isatty(STDOUT_FILENO)) {
    std::cerr << "dragnet: error: pprof output is binary; write it to a file: -o FILE.pb.gz\n";
    return 2;
  }
  profile::Profile p;
  // A report needs no object one at a time: a lifetime profile's objects stay in the file
  // (read again for each figure that needs them all), its memory that of its groups.
  if (!readProfiles(o.inputs, p, {.streamObjects = true})) return 1;
  const report::Analysis* analysis = report::analysisOf(p);
  if (!analysis) {
    std::cerr << "dragnet: error: no analysis reports " << o.inputs[0] << "\n";
    return 1;
  }
  if (!report::writes(*analysis, o.format)) {
    std::cerr << "dragnet: error: " << o.format << " is not available for a " << analysis->name
              << " profile (use " << report::formatList(*analysis) << ")\n";
    return 2;
  }
  const report::ViewSettings& views = o.views;
  if (!analysis->views && (!views.filter.empty() || !views.app.prefixes.empty())) {
    std::cerr << "dragnet: error: --include, --exclude, --focus and --app-exclude are not "
                 "available for a "
              << analysis->name << " profile (its tables have no calling contexts)\n";
    return 2;
  }
  report::ReportSettings settings{.top = o.top, .views = views};
  std::string error;
  if (!report::parseReportOptions(*analysis, o.options, settings.options, error)) {
    std::cerr << "dragnet: error: " << error << "\n";
    return 2;
  }
  std::ofstream file;
  std::ostream* out = report::openOutput(o.output, file);
  if (!out) return 1;
  if (!analysis->write(p, o.format, settings, *out, error)) {
    std::cerr << "dragnet: error: " << error << "\n";
    return 1;
  }
  return corruptStatus(p, o.lenient);
}

}  // namespace dragnet::cli
