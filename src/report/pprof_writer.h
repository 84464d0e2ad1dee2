// What every pprof report shares (github.com/google/pprof/proto/profile.proto, encoded by
// protobuf.h): the string table, functions for Java methods and other names, locations,
// samples, the one `java` mapping and the trailer, then gzip as pprof reads it from disk.
// An analysis declares its sample types, adds its samples and finishes the message.
#pragma once

#include <map>
#include <ostream>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "profile/reader.h"
#include "report/protobuf.h"

namespace dragnet::report {

class PprofWriter {
 public:
  explicit PprofWriter(const profile::Profile& p);

  // A sample type: what each sample's value at its index means (in declaration order).
  void sampleType(const char* type, const char* unit);
  // A function by its name, system name and source file (deduplicated).
  uint64_t function(const std::string& name, const std::string& systemName,
                    const std::string& file);
  // A Java method: name "pkg.Class.method", system name with the descriptor, file the source
  // file under its package's directory ("java/util/HashMap.java"), as a source path holds it.
  uint64_t methodFunction(uint32_t methodId);
  // A location: one line of a function (line 0: unknown).
  uint64_t location(uint64_t functionId, int64_t line);
  // A sample at the locations `ids` (leaf first) with `values` (one per sample type) and
  // string labels (key, value).
  void sample(const std::vector<uint64_t>& ids, const std::vector<uint64_t>& values,
              const std::vector<std::pair<const char*, std::string>>& labels);
  // The Profile message: the sample types, the mapping, samples, locations, functions, then
  // the string table, the period (`periodType`/bytes, `period`), `comments` and the default
  // sample type.
  std::string finish(const std::vector<std::string>& comments, const char* periodType,
                     uint64_t period, const std::string& defaultType);

 private:
  int64_t str(const std::string& s);
  uint64_t describeMethod(uint32_t methodId);

  const profile::Profile& p_;
  std::unordered_map<std::string, int64_t> strings_;
  std::vector<std::string> table_;
  std::vector<ProtoWriter> sampleTypes_;
  std::unordered_map<std::string, uint64_t> functionIds_;
  std::unordered_map<uint32_t, uint64_t> methodFunctions_;
  std::map<std::pair<uint64_t, int64_t>, uint64_t> locationIds_;
  ProtoWriter samples_, locations_, functions_;
};

// The comments every pprof report starts with after its own first line: whether the profile
// is sampled (its values are estimates), corrupt or incomplete.
std::vector<std::string> pprofProfileNotes(const profile::Profile& p);

// `raw` gzipped (pprof's file format) to `out`; false with `error` if zlib fails.
bool writeGzipped(std::ostream& out, std::string raw, std::string& error);

}  // namespace dragnet::report
