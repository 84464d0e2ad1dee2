#include "agent/options.h"

#include <filesystem>
#include <vector>

namespace dragnet::agent {
namespace {

using options::Kind;

bool checkCommon(options::Values& v, std::string& error) {
  if (v.number("sample") > 0 && v.on("bytecodes")) {
    error = "options 'sample' and 'bytecodes' exclude each other (sampling rewrites nothing)";
    return false;
  }
  return true;
}

}  // namespace

const options::Table& commonOptions() {
  static const options::Table table{
      .title = "",
      .modes = {},
      .options =
          {{.name = "mode",
            .kind = Kind::Mode,
            .help = "what to record:",
            .meta = "mode",
            .flag = "--mode"},
           {.name = "out",
            .kind = Kind::FilePattern,
            .def = "dragnet-%p.dragnet",
            .help = "profile file to write; %p in it is the JVM's pid, %% a %. A FILE another "
                    "JVM is still writing is left alone: this one writes FILE with its pid "
                    "before the extension",
            .flag = "-o,--output"},
           {.name = "bytecodes",
            .kind = Kind::OnOff,
            .def = "off",
            .help = "also count executed bytecode instructions per context",
            .meta = "bytecodes",
            .flag = "--bytecodes"},
           {.name = "sample",
            .kind = Kind::Size,
            .def = "off",
            .help = "sample about one allocation per SIZE bytes (e.g. 512k) with JVM stack "
                    "traces; counts are estimates.",
            .meta = "sample",
            .flag = "--sample"},
           {.name = "depth",
            .kind = Kind::Number,
            .def = "1024",
            .help = "keep contexts up to N frames deep; deeper calls are collapsed into the "
                    "deepest kept context and counted",
            .meta = "depth",
            .note = "0: no limit"},
           {.name = "flush",
            .kind = Kind::Number,
            .def = "5",
            .help = "write the recorded data every SECONDS so that a killed JVM leaves a "
                    "recent profile",
            .value = "SECONDS",
            .note = "0: only at thread end and exit"},
           {.name = "max-memory",
            .kind = Kind::Size,
            .def = "1g",
            .help = "native memory the calling-context trees may take, all threads together; "
                    "past it, events of new contexts are counted at their thread's root as "
                    "dropped, with a warning",
            .note = "up to 1024g",
            .max = uint64_t{1} << 40},
           {.name = "quiet",
            .kind = Kind::OnOff,
            .def = "off",
            .help = "no start and end messages on stderr"},
           {.name = "record",
            .kind = Kind::OnOff,
            .def = "on",
            .help = "off: rewrite classes as usual, but the probes return at once and record "
                    "nothing; a diagnostic that measures what the rewriting alone costs",
            .meta = "record"},
           {.name = "jit",
            .kind = Kind::Choice,
            .def = "exact",
            .help = "exact modes: exact switches off the JIT transformations that would skip "
                    "allocations of the bytecode (allocating intrinsics, string-concatenation "
                    "fusion, box elimination), so that counts are the same at every tier; keep "
                    "leaves the JIT as it is, a diagnostic of what compiled code would hide",
            .choices = {"exact", "keep"}},
           {.name = "dump",
            .kind = Kind::FilePattern,
            .help = "write every class the agent rewrites, as the JVM gets it, to "
                    "DIR/<internal name>.class (%p in DIR is the pid); a diagnostic (same-named "
                    "classes of several loaders overwrite each other)",
            .value = "DIR"},
           {.name = "help", .kind = Kind::Flag, .help = "print this text and stop"}},
      .check = checkCommon};
  return table;
}

options::Tables optionTables() {
  static const std::vector<const options::Table*> all = [] {
    std::vector<const options::Table*> v{&commonOptions()};
    for (const options::Table* t : registeredOptionTables()) v.push_back(t);
    return v;
  }();
  return all;
}

std::string optionHelp() {
  return options::help(optionTables(),
                       "dragnet agent options (-agentpath:libdragnet.so=opt=value,...):\n");
}

bool parseOptions(std::string_view text, Options& out, std::string& error) {
  options::Values& v = out.values;
  if (!options::parse(text, optionTables(), v, error)) return false;
  out.mode = v.mode();
  out.out = v.text("out");
  out.bytecodes = v.on("bytecodes");
  out.sample = v.number("sample");
  out.depth = static_cast<uint32_t>(v.number("depth"));
  out.flushSeconds = static_cast<uint32_t>(v.number("flush"));
  out.quiet = v.on("quiet");
  out.record = v.on("record");
  out.keepJit = v.text("jit") == "keep";
  out.maxMemory = v.number("max-memory");
  out.dump = v.text("dump");
  out.help = v.on("help");
  return true;
}

std::map<std::string, std::string> optionMeta(const Options& o) {
  return options::meta(optionTables(), o.values);
}

std::string outPath(const Options& o, long pid) {
  return withPid(o.out.empty() ? "dragnet-%p.dragnet" : o.out, pid);
}

std::string withPid(std::string_view pattern, long pid) {
  std::string path;
  for (size_t i = 0; i < pattern.size(); ++i) {
    if (pattern[i] != '%' || i + 1 == pattern.size()) {
      path += pattern[i];
    } else if (pattern[++i] == 'p') {
      path += std::to_string(pid);
    } else {
      path += pattern[i];  // %%
    }
  }
  return path;
}

std::string busyOutPath(const std::string& path, long pid) {
  std::filesystem::path p(path);
  std::string ext = p.extension().string();
  return p.replace_extension().string() + "." + std::to_string(pid) + ext;
}

}  // namespace dragnet::agent
