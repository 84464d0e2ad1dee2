// Counters of one `dragnet instrument` run and the human-readable report.
#pragma once

#include <cstddef>
#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

namespace dragnet::cli {

struct ClassFailure {
  std::string entry;    // jar entry name or path relative to the input
  std::string message;  // the first error
};

struct RunStats {
  size_t classesRead = 0;
  uint64_t classBytes = 0;  // total size of the input class files
  size_t written = 0;       // the tool produced output
  size_t identical = 0;     // ... equal to the input
  size_t changed = 0;       // ... different from the input
  size_t failed = 0;        // copied through unchanged
  size_t otherCopied = 0;   // non-class files copied as they are
  size_t directories = 0;   // directory entries kept / directories created
  std::string signature;    // jars only: what happened to a signature
  size_t maxListed = 20;    // failures / changed classes kept by name; 0 = all
  size_t extraFiles = 0;     // files the tool added (site table, runtime classes)
  std::vector<std::string> unchangedMethods;  // "pkg/C.m()V: reason"
  std::string runHint;
  std::vector<ClassFailure> failures;
  std::vector<std::string> changedEntries;

  void addFailure(std::string entry, std::string message);
  void addChanged(std::string entry);
};

struct ReportHeader {
  std::string input;
  std::string inputKind;
  std::string output;
  std::string tool;
};

// The full report (stdout unless --quiet).
void printReport(std::ostream& os, const ReportHeader& header, const RunStats& stats);

// "N of M classes differ from input" and the first differing entries (--check-identity).
void printIdentityCheck(std::ostream& os, const RunStats& stats);

// One line per failed class (plus "... and N more"); used on stderr with --quiet.
void printFailures(std::ostream& os, const RunStats& stats);

}  // namespace dragnet::cli
