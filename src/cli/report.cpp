#include "report.h"

#include <algorithm>
#include <ostream>
#include <string_view>

namespace dragnet::cli {
namespace {

bool keepMore(size_t kept, size_t maxListed) { return maxListed == 0 || kept < maxListed; }

void printLine(std::ostream& os, std::string_view key, const std::string& value) {
  os << "  " << key << ':' << std::string(key.size() < 17 ? 17 - key.size() : 1, ' ') << value
     << '\n';
}

void printMore(std::ostream& os, size_t total, size_t listed) {
  if (total > listed) os << "      ... and " << (total - listed) << " more\n";
}

std::string otherEntries(const RunStats& s) {
  std::string text = std::to_string(s.otherCopied) + " files copied";
  if (s.directories > 0) text += ", " + std::to_string(s.directories) + " directories";
  return text;
}

}  // namespace

void RunStats::addFailure(std::string entry, std::string message) {
  ++failed;
  if (keepMore(failures.size(), maxListed)) {
    failures.push_back({std::move(entry), std::move(message)});
  }
}

void RunStats::addChanged(std::string entry) {
  ++changed;
  if (keepMore(changedEntries.size(), maxListed)) changedEntries.push_back(std::move(entry));
}

void printReport(std::ostream& os, const ReportHeader& h, const RunStats& s) {
  os << "dragnet instrument --tool " << h.tool << '\n';
  printLine(os, "input", h.input + " (" + h.inputKind + ")");
  printLine(os, "output", h.output);
  printLine(os, "classes read", std::to_string(s.classesRead));
  printLine(os, "class bytes", std::to_string(s.classBytes));
  printLine(os, "classes written", std::to_string(s.written));
  printLine(os, "byte-identical", std::to_string(s.identical));
  printLine(os, "changed", std::to_string(s.changed));
  printLine(os, "failed", std::to_string(s.failed) + " (copied unchanged)");
  printFailures(os, s);
  printLine(os, "other entries", otherEntries(s));
  if (!s.signature.empty()) printLine(os, "signature", s.signature);
  if (s.extraFiles > 0) printLine(os, "added", std::to_string(s.extraFiles) + " tool files");
  if (s.written > 0 && !s.runHint.empty()) {
    printLine(os, "methods unchanged", std::to_string(s.unchangedMethods.size()));
    size_t listed = 0;
    for (const std::string& m : s.unchangedMethods) {
      if (!keepMore(listed++, s.maxListed)) break;
      os << "    UNCHANGED " << m << '\n';
    }
    printMore(os, s.unchangedMethods.size(), std::min(listed, s.unchangedMethods.size()));
    printLine(os, "next", s.runHint);
  }
}

void printIdentityCheck(std::ostream& os, const RunStats& s) {
  os << s.changed << " of " << s.written << " classes differ from input\n";
  for (const std::string& entry : s.changedEntries) os << "    differs: " << entry << '\n';
  printMore(os, s.changed, s.changedEntries.size());
}

void printFailures(std::ostream& os, const RunStats& s) {
  for (const ClassFailure& f : s.failures) {
    // The library's message names the entry itself until it knows the class name.
    std::string_view message = f.message;
    bool named = message.starts_with(f.entry) && message.substr(f.entry.size()).starts_with(": ");
    os << "    FAILED " << (named ? "" : f.entry + ": ") << message << '\n';
  }
  printMore(os, s.failed, s.failures.size());
}

}  // namespace dragnet::cli
