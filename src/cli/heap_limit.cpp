#include "heap_limit.h"

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string_view>

namespace dragnet::cli {

namespace {

// The launcher's options that take their value as the next argument (java --help).
bool takesValue(std::string_view a) {
  for (std::string_view o :
       {"-cp", "-classpath", "--class-path", "-p", "--module-path", "--upgrade-module-path",
        "--add-modules", "--limit-modules", "--add-reads", "--add-exports", "--add-opens",
        "--patch-module", "--enable-native-access", "--source"}) {
    if (a == o) return true;
  }
  return false;
}

// The words of an @argfile or an options variable: split at white space, quotes kept
// together ("a b" and 'a b' are one word), as the launcher does.
std::vector<std::string> words(const std::string& text) {
  std::vector<std::string> out;
  std::string word;
  bool in = false;
  char quote = 0;
  for (char c : text) {
    if (quote) {
      if (c == quote) {
        quote = 0;
      } else {
        word += c;
      }
    } else if (c == '"' || c == '\'') {
      quote = c;
      in = true;
    } else if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
      if (in) out.push_back(word);
      word.clear();
      in = false;
    } else {
      word += c;
      in = true;
    }
  }
  if (in) out.push_back(word);
  return out;
}

struct Setting {
  std::optional<uint64_t> bytes;
  std::optional<double> percent;
};

// The heap setting `arg` makes, if any.
Setting settingOf(const std::string& arg) {
  Setting s;
  if (arg.starts_with("-Xmx")) {
    s.bytes = parseJavaSize(arg.substr(4));
  } else if (arg.starts_with("-XX:MaxHeapSize=")) {
    s.bytes = parseJavaSize(arg.substr(16));
  } else if (arg.starts_with("-XX:MaxRAMPercentage=")) {
    char* end = nullptr;
    double p = std::strtod(arg.c_str() + 21, &end);
    if (end && *end == 0 && p > 0) s.percent = p;
  } else if (arg.starts_with("-XX:MaxRAMFraction=")) {
    char* end = nullptr;
    double f = std::strtod(arg.c_str() + 19, &end);
    if (end && *end == 0 && f >= 1) s.percent = 100 / f;
  }
  return s;
}

void apply(HeapRequest& r, const std::string& arg, bool late) {
  Setting s = settingOf(arg);
  if (s.bytes) {
    r.maxBytes = s.bytes;
    r.inLateVariable = late;
  }
  if (s.percent) {
    r.ramPercent = s.percent;
    if (!r.maxBytes) r.inLateVariable = late;
  }
}

std::string readFile(const std::string& path) {
  std::ifstream in(path);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string sizeText(uint64_t bytes) {
  constexpr uint64_t kM = uint64_t{1} << 20;
  if (bytes % (kM << 10) == 0) return std::to_string(bytes / (kM << 10)) + "g";
  if (bytes % kM == 0) return std::to_string(bytes / kM) + "m";
  return std::to_string(bytes / 1024) + "k";
}

std::string percentText(double p) {
  std::ostringstream s;
  s << std::round(p * 10) / 10;
  return s.str();
}

}  // namespace

std::optional<uint64_t> parseJavaSize(const std::string& text) {
  if (text.empty()) return std::nullopt;
  uint64_t n = 0;
  size_t i = 0;
  for (; i < text.size() && text[i] >= '0' && text[i] <= '9'; ++i) {
    if (n > (uint64_t{1} << 50)) return std::nullopt;
    n = n * 10 + static_cast<uint64_t>(text[i] - '0');
  }
  if (i == 0) return std::nullopt;
  if (i == text.size()) return n;
  if (i + 1 != text.size()) return std::nullopt;
  switch (text[i]) {
    case 'k':
    case 'K':
      return n << 10;
    case 'm':
    case 'M':
      return n << 20;
    case 'g':
    case 'G':
      return n << 30;
    case 't':
    case 'T':
      return n << 40;
    default:
      return std::nullopt;
  }
}

HeapRequest heapRequest(const std::vector<std::string>& command, const char* (*env)(const char*)) {
  if (!env) env = [](const char* name) -> const char* { return std::getenv(name); };
  HeapRequest r;
  auto variable = [&](const char* name, bool late) {
    const char* v = env(name);
    for (const std::string& w : words(v ? v : "")) apply(r, w, late);
  };
  variable("JAVA_TOOL_OPTIONS", false);
  variable("JDK_JAVA_OPTIONS", false);
  size_t i = 1;
  for (; i < command.size(); ++i) {
    const std::string& a = command[i];
    if (a.empty() || a[0] != '-') {
      if (a.starts_with("@") && a.size() > 1) {
        for (const std::string& w : words(readFile(a.substr(1)))) apply(r, w, false);
        continue;
      }
      break;  // the main class or source file
    }
    if (a == "-jar" || a == "-m" || a == "--module" || a.starts_with("--module=")) break;
    if (takesValue(a)) {
      ++i;
      continue;
    }
    apply(r, a, false);
  }
  r.optionsEnd = std::min(i, command.size());
  variable("_JAVA_OPTIONS", true);
  return r;
}

HeapRaise raiseHeap(const HeapRequest& r, double factor) {
  HeapRaise out;
  out.asked =
      r.maxBytes
          ? "-Xmx" + sizeText(*r.maxBytes)
          : "the JVM's default (MaxRAMPercentage=" + percentText(r.ramPercent.value_or(25)) + ")";
  if (factor <= 1) {
    out.why = "--heap-factor 1";
    return out;
  }
  if (r.inLateVariable) {
    out.why = "_JAVA_OPTIONS sets it, and the JVM reads that variable after the command line";
    return out;
  }
  if (r.maxBytes) {
    constexpr uint64_t kM = uint64_t{1} << 20;
    auto raised = static_cast<uint64_t>(std::ceil(static_cast<double>(*r.maxBytes) * factor));
    out.option = "-Xmx" + sizeText((raised + kM - 1) / kM * kM);
    return out;
  }
  double p = std::min(100.0, r.ramPercent.value_or(25) * factor);
  out.option = "-XX:MaxRAMPercentage=" + percentText(p);
  return out;
}

}  // namespace dragnet::cli
