#include "instrument_command.h"

#include <iostream>
#include <memory>

#include "class_processor.h"
#include "class_tool.h"
#include "containers.h"
#include "report.h"

namespace dragnet::cli {
namespace {

constexpr int kExitDiffers = 1;
constexpr int kExitFatal = 2;

std::string instrumentFooter() {
  return "INPUT and OUTPUT are of the same kind, determined from INPUT:\n"
         "  a .class file    transformed into OUTPUT\n"
         "  a directory      mirrored into OUTPUT: class files transformed, every other file\n"
         "                   copied, subdirectories kept\n"
         "  a .jar/.zip      rewritten into OUTPUT: entries in the same order, unchanged\n"
         "                   entries copied without recompression, changed classes written\n"
         "                   with their original compression, time and attributes; a signed\n"
         "                   jar loses its signature files only if some class changed\n"
         "A class that fails to parse or to write is copied through unchanged and reported.\n\n"
         "Tools:\n" +
         toolHelp() +
         "\nExit status: 0 done (also when some classes failed), 1 --check-identity found\n"
         "differing classes, 2 unreadable input, unwritable output or bad usage.\n\n"
         "Example:\n"
         "  dragnet instrument --tool none app.jar -o app-identity.jar --check-identity\n";
}

void printSummary(const InstrumentOptions& o, std::string_view kind, const RunStats& stats) {
  if (o.quiet) {
    printFailures(std::cerr, stats);
    if (o.checkIdentity && stats.changed > 0) printIdentityCheck(std::cerr, stats);
    return;
  }
  printReport(std::cout, {o.input, std::string(kind), o.output, o.tool}, stats);
  if (o.checkIdentity) printIdentityCheck(std::cout, stats);
}

}  // namespace

CLI::App* addInstrumentCommand(CLI::App& app, InstrumentOptions& o) {
  CLI::App* cmd = app.add_subcommand(
      "instrument", "Transform the classes of a class file, directory tree or jar with a tool");
  cmd->add_option("--tool,-t", o.tool, "Class transform to apply (see Tools below)")
      ->required()
      ->type_name("NAME");
  cmd->add_option("INPUT", o.input, "Input: a .class file, a directory or a .jar/.zip")->required();
  cmd->add_option("-o,--output", o.output, "Output path (same kind as INPUT)")
      ->required()
      ->type_name("OUTPUT");
  cmd->add_flag("--check-identity", o.checkIdentity,
                "Count classes whose output differs from the input; exit 1 if any do");
  cmd->add_flag("-q,--quiet", o.quiet, "Print only errors (failed classes, differences)");
  cmd->add_option("--max-errors", o.maxListed,
                  "List at most N failed or differing classes (0: all)")
      ->capture_default_str()
      ->type_name("N");
  cmd->add_option("--id-base", o.idBase,
                  "First site id (give separately instrumented jars of one program distinct "
                  "bases, e.g. 0 and 1000000)")
      ->capture_default_str()
      ->check(CLI::NonNegativeNumber)
      ->type_name("N");
  cmd->add_flag("--no-runtime", o.noRuntime,
                "Do not add the tool's runtime classes to the output; put "
                "build/runtime/dragnet-tools.jar on the class path instead");
  cmd->footer(instrumentFooter());
  return cmd;
}

int runInstrument(const InstrumentOptions& o) {
  std::unique_ptr<ClassTool> tool = makeTool(o.tool, ToolOptions{o.idBase, !o.noRuntime});
  if (!tool) {
    std::cerr << "dragnet: error: unknown tool '" << o.tool
              << "'; known tools: " << knownToolNames() << '\n';
    return kExitFatal;
  }
  RunStats stats;
  stats.maxListed = o.maxListed;
  ClassProcessor processor(*tool, stats);
  InputKind kind;
  try {
    kind = detectInputKind(o.input);
    processInput(kind, o.input, o.output, processor, stats);
  } catch (const FatalError& e) {
    std::cerr << "dragnet: error: " << e.what() << '\n';
    return kExitFatal;
  }
  stats.unchangedMethods = tool->unchangedMethods();
  stats.runHint = tool->runHint();
  printSummary(o, kindName(kind), stats);
  return o.checkIdentity && stats.changed > 0 ? kExitDiffers : 0;
}

}  // namespace dragnet::cli
