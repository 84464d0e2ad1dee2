// The flow oracles' expected files (tests/agent/flow/README.md, "Expected file format") and
// their check against a copy model: every record of the file, every in-scope edge listed
// (or ignored). A failure names the record's file and line and what the model has instead.
#pragma once

#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "analyses/copy/model/model.h"
#include "flow_names.h"

namespace dragnet::test::flow {

// A count: `N`, `>=N` or `LO..HI`.
struct Count {
  uint64_t lo = 0, hi = 0;
  bool matches(uint64_t v) const { return v >= lo && v <= hi; }
};
bool parseCount(const std::string& s, Count& out);

struct Record {
  int line = 0;
  std::string text;                 // the line as written (without its JDK tag)
  std::vector<std::string> tokens;  // without the JDK tag
};

struct Expected {
  std::string file;                                     // its name, for messages
  std::vector<std::string> programs;                    // each `program` line's MAIN [ARG...]
  std::vector<Record> records;                          // those that apply on the JDK
  std::set<std::string> files, sites, fields, statics;  // scope
  bool consumer = true;
  std::vector<std::string> errors;  // malformed lines
};

// The records of `path` that apply on JDK feature version `major`.
Expected readExpected(const std::string& path, int major);

// The failures of `e`'s records against the model's two namings (`ci` records: the
// insensitive graph, `cs` records: the sensitive one); each naming a record names must list
// every in-scope edge of its graph. Empty: the file holds.
std::vector<std::string> check(const Expected& e, const NamedGraph& ci, const NamedGraph& cs);

// The in-scope edges of the namings `e` has records for, as `ci`/`cs SRC -> DST FREQ BYTES`
// lines, sorted: for comparing two runs.
std::vector<std::string> scopedEdges(const Expected& e, const NamedGraph& ci, const NamedGraph& cs);

}  // namespace dragnet::test::flow
