#include "analyses/lifetime/report/shell_command.h"

#include <iostream>

#include "analyses/lifetime/model/aggregate.h"
#include "analyses/lifetime/report/shell.h"
#include "analyses/lifetime/report/sql.h"
#include "report/analysis.h"
#include "report/profile_input.h"

namespace dragnet::analyses::lifetime {

using report::addLenientFlag;
using report::corruptStatus;
using report::readProfileFile;

namespace {

constexpr int kExitUsage = 2;

// Reads the profile at `path` and runs `use` on it with the analysis that owns it, if that
// one has a shell (report::Analysis::shell): the exit status of `use` (if 0: kExitCorrupt for
// a corrupt profile, unless `lenient`), or (said on stderr) 1 when the profile cannot be
// read, 2 when no analysis with a shell owns it.
template <class Use>
int withShellAnalysis(const std::string& path, const char* command, bool lenient, Use use) {
  profile::Profile p;
  if (!readProfileFile(path, p)) return 1;
  const report::Analysis* a = report::analysisOf(p);
  if (!a || !a->shell || !a->exportSqlite) {
    std::string modes = report::shellAnalysisList();
    std::cerr << "dragnet: error: " << path << " is not a " << modes << " profile (dragnet "
              << command << " needs one recorded with mode " << modes << ")\n";
    return kExitUsage;
  }
  int status = use(*a, p);
  return status != 0 ? status : corruptStatus(p, lenient);
}

}  // namespace

int shellOn(const profile::Profile& p, const report::ShellSettings& s) {
  Model m = buildModel(p);
  report::LifetimeShell shell(m, std::cout, {.rows = s.rows});
  return report::runShellSession(
      shell, "dragnet shell: " + s.input + ": " + std::to_string(m.totals.objects) + " objects, " +
                 std::to_string(m.classes.size()) + " classes, " + std::to_string(m.nested.size()) +
                 " nested sites. 'help' lists the commands, 'exit' leaves.\n");
}

bool exportOn(const profile::Profile& p, const std::string& path, std::string& error) {
  return report::exportLifetimeSqlite(path, buildModel(p), error);
}

CLI::App* addShellCommand(CLI::App& app, ShellCommandOptions& o) {
  CLI::App* cmd = app.add_subcommand(
      "shell", "Explore a lifetime, copy or cost profile interactively (its commands, and SQL)");
  cmd->add_option("FILE", o.input, "The lifetime, copy or cost profile")
      ->required()
      ->check(CLI::ExistingFile);
  cmd->add_option("--rows", o.rows, "Rows of a ranking without @N")->capture_default_str();
  report::addReportOptionFlag(cmd, o.options);
  addLenientFlag(cmd, o.lenient);
  cmd->footer(
      "Commands are read from the terminal (line editing, history in ~/.dragnet_history) or,\n"
      "piped, from stdin; with a pipe the exit status is 1 if any command failed.\n"
      "Type 'help' for the commands; docs/SHELL.md describes them and the SQL tables.");
  return cmd;
}

int runShell(const ShellCommandOptions& o) {
  return withShellAnalysis(o.input, "shell", o.lenient,
                           [&](const report::Analysis& a, const profile::Profile& p) {
                             report::ShellSettings s{.input = o.input, .rows = o.rows};
                             std::string error;
                             if (!report::parseReportOptions(a, o.options, s.options, error)) {
                               std::cerr << "dragnet: error: " << error << "\n";
                               return kExitUsage;
                             }
                             return a.shell(p, s);
                           });
}

CLI::App* addExportCommand(CLI::App& app, ExportOptions& o) {
  CLI::App* cmd = app.add_subcommand(
      "export", "Write a lifetime, copy or cost profile's tables to a SQLite database");
  cmd->add_option("FILE", o.input, "The lifetime, copy or cost profile")
      ->required()
      ->check(CLI::ExistingFile);
  cmd->add_option("--sqlite", o.sqlite, "The database file to write (replaced if it exists)")
      ->required();
  addLenientFlag(cmd, o.lenient);
  cmd->footer(
      "The tables (lifetime: objects, classes, methods, nested, patterns, gcs, totals, meta;\n"
      "copy: sites, fields, nodes, edges, chains, ...; cost: nodes, instances, edges,\n"
      "locations, objects, sites, ...) are those of dragnet shell's sql\n"
      "command: docs/SHELL.md.");
  return cmd;
}

int runExport(const ExportOptions& o) {
  return withShellAnalysis(o.input, "export", o.lenient,
                           [&](const report::Analysis& a, const profile::Profile& p) {
                             std::string error;
                             if (a.exportSqlite(p, o.sqlite, error)) return 0;
                             std::cerr << "dragnet: error: " << o.sqlite << ": " << error << "\n";
                             return 1;
                           });
}

}  // namespace dragnet::analyses::lifetime
