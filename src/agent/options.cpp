#include "agent/options.h"

#include <algorithm>
#include <charconv>
#include <filesystem>

namespace dragnet::agent {

const char* const kOptionHelp =
    "dragnet agent options (-agentpath:libdragnet.so=opt=value,...):\n"
    "  mode=alloc         what to record: alloc = exact allocation profile per calling\n"
    "                     context (default); lifetime = every object's lifetime (HUP: lag,\n"
    "                     drag, void and use), with the allocation profile\n"
    "  out=FILE           profile file to write; %p in it is the JVM's pid, %% a %\n"
    "                     (default: dragnet-%p.dragnet). A FILE another JVM is still\n"
    "                     writing is left alone: this one writes FILE with its pid\n"
    "                     before the extension\n"
    "  bytecodes=on|off   also count executed bytecode instructions per context (off)\n"
    "  sample=SIZE        sample about one allocation per SIZE bytes (e.g. 512k) with\n"
    "                     JVM stack traces; counts are estimates. alloc: no rewriting;\n"
    "                     lifetime: lifetimes of the sampled objects only, through\n"
    "                     use probes that cost little for the others (off)\n"
    "  depth=N            keep contexts up to N frames deep; deeper calls are collapsed\n"
    "                     into the deepest kept context and counted (1024; 0 = no limit)\n"
    "  flush=SECONDS      write the recorded data every SECONDS so that a killed JVM\n"
    "                     leaves a recent profile (5; 0 = only at thread end and exit)\n"
    "  max-memory=SIZE    native memory the calling-context trees may take, all threads\n"
    "                     together; past it, events of new contexts are counted at their\n"
    "                     thread's root as dropped, with a warning (1g; up to 1024g)\n"
    "  quiet=on|off       no start and end messages on stderr (off)\n"
    "  record=on|off      off: rewrite classes as usual, but the probes return at once and\n"
    "                     record nothing; a diagnostic that measures what the rewriting\n"
    "                     alone costs (on)\n"
    "  jit=exact|keep     exact modes: exact switches off the JIT transformations that\n"
    "                     would skip allocations of the bytecode (allocating intrinsics,\n"
    "                     string-concatenation fusion, box elimination), so that counts\n"
    "                     are the same at every tier; keep leaves the JIT as it is, a\n"
    "                     diagnostic of what compiled code would hide (exact)\n"
    "  gc-interval=SIZE   lifetime: force a collection every SIZE bytes of allocation, the\n"
    "                     precision of death times (8m)\n"
    "  gc-budget=PERCENT  lifetime: force collections only as often as they take at most\n"
    "                     PERCENT of the run's time (after one that took T, wait T x\n"
    "                     (100 - PERCENT) / PERCENT), so that large heaps do not stall\n"
    "                     the run; the report gives the precision reached (25, or 100 =\n"
    "                     every interval when gc-interval is given)\n"
    "  use-epoch=SIZE     lifetime: a thread records its first use of an object in every\n"
    "                     SIZE bytes of allocation, the precision of last uses; a power\n"
    "                     of two (64k)\n"
    "  stacks=on|off      lifetime: record where first and last uses happen (lifetime\n"
    "                     patterns) (off)\n"
    "  stack=N            lifetime: method frames of a nested allocation site, the grouping\n"
    "                     the reports use; contexts are recorded up to `depth` either way\n"
    "                     (8; 0 = no limit)\n"
    "  help               print this text and stop\n";

namespace {

bool parseBool(std::string_view v, bool& out) {
  if (v == "on" || v == "true" || v == "yes" || v == "1") return out = true, true;
  if (v == "off" || v == "false" || v == "no" || v == "0") return out = false, true;
  return false;
}

bool parseUint(std::string_view v, uint32_t& out) {
  auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), out);
  return ec == std::errc() && end == v.data() + v.size() && !v.empty();
}

// A size in bytes: a number with an optional k, m or g suffix (powers of 1024), at most
// `max`.
bool parseSize(std::string_view v, uint64_t& out, uint64_t max = uint64_t{1} << 31) {
  uint64_t scale = 1;
  if (!v.empty()) {
    switch (v.back() | 0x20) {
      case 'k':
        scale = 1u << 10;
        break;
      case 'm':
        scale = 1u << 20;
        break;
      case 'g':
        scale = 1u << 30;
        break;
      default:
        break;
    }
    if (scale != 1) v.remove_suffix(1);
  }
  uint64_t n = 0;
  auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), n);
  if (ec != std::errc() || end != v.data() + v.size() || v.empty() || n == 0) return false;
  if (n > max / scale) return false;  // by default 2g: JVMTI takes a jint
  out = n * scale;
  return true;
}

bool apply(std::string_view key, std::string_view value, bool hasValue, Options& o,
           std::string& error) {
  auto bad = [&](const char* expected) {
    error = "option '" + std::string(key) + "': " + expected + ", got '" + std::string(value) + "'";
    return false;
  };
  if (key == "help" && !hasValue) return o.help = true, true;
  if (!hasValue) {
    error = "option '" + std::string(key) + "' needs a value (" + std::string(key) + "=...)";
    return false;
  }
  if (key == "mode") {
    // Which modes there are, the agent's registry says (agent/mode.h).
    bool name = !value.empty() && std::all_of(value.begin(), value.end(), [](char c) {
      return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-';
    });
    if (!name) return bad("expected a mode's name");
    o.mode = value;
  } else if (key == "out") {
    if (value.empty()) return bad("expected a file name");
    for (size_t i = value.find('%'); i != std::string_view::npos; i = value.find('%', i + 2)) {
      if (i + 1 == value.size() || (value[i + 1] != 'p' && value[i + 1] != '%')) {
        return bad("expected a file name with %p (the pid) or %% only");
      }
    }
    o.out = value;
  } else if (key == "bytecodes") {
    if (!parseBool(value, o.bytecodes)) return bad("expected on or off");
  } else if (key == "sample") {
    if (!parseSize(value, o.sample)) return bad("expected a size such as 512k (1 to 2g)");
  } else if (key == "jit") {
    if (value != "exact" && value != "keep") return bad("expected exact or keep");
    o.keepJit = value == "keep";
  } else if (key == "record") {
    if (!parseBool(value, o.record)) return bad("expected on or off");
  } else if (key == "depth") {
    if (!parseUint(value, o.depth)) return bad("expected a number");
  } else if (key == "flush") {
    if (!parseUint(value, o.flushSeconds)) return bad("expected a number of seconds");
  } else if (key == "gc-interval") {
    if (!parseSize(value, o.gcInterval)) return bad("expected a size such as 8m (1 to 2g)");
    o.gcIntervalGiven = true;
  } else if (key == "gc-budget") {
    if (!value.empty() && value.back() == '%') value.remove_suffix(1);
    if (!parseUint(value, o.gcBudget) || o.gcBudget == 0 || o.gcBudget > 100) {
      return bad("expected a percentage from 1 to 100");
    }
  } else if (key == "use-epoch") {
    if (!parseSize(value, o.useEpoch) || (o.useEpoch & (o.useEpoch - 1)) != 0) {
      return bad("expected a power of two such as 64k");
    }
  } else if (key == "stacks") {
    if (!parseBool(value, o.stacks)) return bad("expected on or off");
  } else if (key == "stack") {
    if (!parseUint(value, o.stack)) return bad("expected a number");
  } else if (key == "max-memory") {
    if (!parseSize(value, o.maxMemory, uint64_t{1} << 40)) {
      return bad("expected a size such as 512m (1 to 1024g)");
    }
  } else if (key == "quiet") {
    if (!parseBool(value, o.quiet)) return bad("expected on or off");
  } else {
    error = "unknown option '" + std::string(key) + "' (use help for the list)";
    return false;
  }
  return true;
}

bool parseItems(std::string_view text, Options& out, std::string& error) {
  while (!text.empty()) {
    size_t comma = text.find(',');
    std::string_view item = text.substr(0, comma);
    text = comma == std::string_view::npos ? std::string_view() : text.substr(comma + 1);
    if (item.empty()) continue;
    size_t eq = item.find('=');
    std::string_view key = item.substr(0, eq);
    std::string_view value =
        eq == std::string_view::npos ? std::string_view() : item.substr(eq + 1);
    if (!apply(key, value, eq != std::string_view::npos, out, error)) return false;
  }
  return true;
}

}  // namespace

std::string outPath(const Options& o, long pid) {
  const std::string pattern = o.out.empty() ? "dragnet-%p.dragnet" : o.out;
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

bool parseOptions(std::string_view text, Options& out, std::string& error) {
  if (!parseItems(text, out, error)) return false;
  if (out.sample > 0 && out.mode == "lifetime" && out.stacks) {
    error = "option 'stacks' is not available with 'sample' in mode lifetime yet";
    return false;
  }
  if (out.sample > 0 && out.bytecodes) {
    error = "options 'sample' and 'bytecodes' exclude each other (sampling rewrites nothing)";
    return false;
  }
  return true;
}

}  // namespace dragnet::agent
