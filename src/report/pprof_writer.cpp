#include "report/pprof_writer.h"

#include <zlib.h>

#include <algorithm>
#include <sstream>

#include "contexts/model.h"
#include "report/run_info.h"
#include "report/text_format.h"

namespace dragnet::report {

namespace {

// Field numbers of profile.proto.
namespace pb {
enum Profile { kSampleType = 1, kSample = 2, kMapping = 3, kLocation = 4, kFunction = 5 };
enum ProfileStrings { kStringTable = 6 };
enum ProfileInfo { kPeriodType = 11, kPeriod = 12, kComment = 13, kDefaultSampleType = 14 };
enum ValueType { kType = 1, kUnit = 2 };
enum Sample { kLocationId = 1, kValue = 2, kLabel = 3 };
enum Label { kKey = 1, kStr = 2 };
enum Mapping {
  kMappingId = 1,
  kMappingFile = 5,
  kHasFunctions = 7,
  kHasFilenames = 8,
  kHasLineNumbers = 9
};
enum Location { kLocationIdField = 1, kLocationMapping = 2, kLine = 4 };
enum Line { kFunctionId = 1, kLineNumber = 2 };
enum Function { kId = 1, kName = 2, kSystemName = 3, kFilename = 4 };
}  // namespace pb

}  // namespace

PprofWriter::PprofWriter(const profile::Profile& p) : p_(p) { str(""); }

int64_t PprofWriter::str(const std::string& s) {
  auto [it, fresh] = strings_.try_emplace(s, static_cast<int64_t>(table_.size()));
  if (fresh) table_.push_back(s);
  return it->second;
}

void PprofWriter::sampleType(const char* type, const char* unit) {
  ProtoWriter t;
  t.sint(pb::kType, str(type));
  t.sint(pb::kUnit, str(unit));
  sampleTypes_.push_back(t);
}

uint64_t PprofWriter::function(const std::string& name, const std::string& systemName,
                               const std::string& file) {
  std::string key = systemName + '\0' + file;
  auto [it, fresh] = functionIds_.try_emplace(key, functionIds_.size() + 1);
  if (fresh) {
    ProtoWriter f;
    f.uint(pb::kId, it->second);
    f.sint(pb::kName, str(name));
    f.sint(pb::kSystemName, str(systemName));
    f.sint(pb::kFilename, str(file));
    functions_.message(pb::kFunction, f);
  }
  return it->second;
}

uint64_t PprofWriter::methodFunction(uint32_t methodId) {
  auto [cached, fresh] = methodFunctions_.try_emplace(methodId, 0);
  if (fresh) cached->second = describeMethod(methodId);
  return cached->second;
}

uint64_t PprofWriter::describeMethod(uint32_t methodId) {
  auto it = p_.methods.find(methodId);
  if (it == p_.methods.end()) {
    std::string unknown = contexts::frameName(p_, methodId, -1);
    return function(unknown, unknown, "");
  }
  const profile::MethodDef& d = it->second;
  std::string name = contexts::javaTypeName(d.cls) + "." + d.name;
  std::string file;
  if (!d.source.empty()) {
    size_t slash = d.cls.rfind('/');
    file = (slash == std::string::npos ? "" : d.cls.substr(0, slash + 1)) + d.source;
  }
  return function(name, name + d.descriptor, file);
}

uint64_t PprofWriter::location(uint64_t functionId, int64_t line) {
  auto [it, fresh] = locationIds_.try_emplace({functionId, line}, locationIds_.size() + 1);
  if (fresh) {
    ProtoWriter l, ln;
    ln.uint(pb::kFunctionId, functionId);
    ln.sint(pb::kLineNumber, line);
    l.uint(pb::kLocationIdField, it->second);
    l.uint(pb::kLocationMapping, 1);
    l.message(pb::kLine, ln);
    locations_.message(pb::kLocation, l);
  }
  return it->second;
}

void PprofWriter::sample(const std::vector<uint64_t>& ids, const std::vector<uint64_t>& values,
                         const std::vector<std::pair<const char*, std::string>>& labels) {
  ProtoWriter s;
  s.packed(pb::kLocationId, ids);
  s.packed(pb::kValue, values);
  for (const auto& [key, value] : labels) {
    ProtoWriter label;
    label.sint(pb::kKey, str(key));
    label.sint(pb::kStr, str(value));
    s.message(pb::kLabel, label);
  }
  samples_.message(pb::kSample, s);
}

std::string PprofWriter::finish(const std::vector<std::string>& comments, const char* periodType,
                                uint64_t period, const std::string& defaultType) {
  std::string msg;
  for (const ProtoWriter& t : sampleTypes_) {
    ProtoWriter w;
    w.message(pb::kSampleType, t);
    msg += w.data();
  }
  // One mapping that says the locations are symbolized already: without it pprof looks for
  // a native binary to symbolize them with.
  ProtoWriter mapping, w;
  mapping.uint(pb::kMappingId, 1);
  mapping.sint(pb::kMappingFile, str("java"));
  mapping.uint(pb::kHasFunctions, 1);
  mapping.uint(pb::kHasFilenames, 1);
  mapping.uint(pb::kHasLineNumbers, 1);
  w.message(pb::kMapping, mapping);
  msg += w.data();
  msg += samples_.data();
  msg += locations_.data();
  msg += functions_.data();
  // Last: the string table holds every string interned before.
  std::vector<uint64_t> commentIds;
  for (const std::string& c : comments) commentIds.push_back(static_cast<uint64_t>(str(c)));
  int64_t type = str(periodType), bytes = str("bytes"), preferred = str(defaultType);
  ProtoWriter trailer;
  for (const std::string& s : table_) trailer.bytes(pb::kStringTable, s);
  ProtoWriter periodValue;
  periodValue.sint(pb::kType, type);
  periodValue.sint(pb::kUnit, bytes);
  trailer.message(pb::kPeriodType, periodValue);
  trailer.uint(pb::kPeriod, period);
  trailer.packed(pb::kComment, commentIds);
  trailer.sint(pb::kDefaultSampleType, preferred);
  return msg + trailer.data();
}

std::vector<std::string> pprofProfileNotes(const profile::Profile& p) {
  std::vector<std::string> notes;
  std::ostringstream lines;  // the run's lines, one comment each
  writeRunLines(lines, runJson(p), p.complete);
  std::istringstream run(lines.str());
  for (std::string line; std::getline(run, line);) notes.push_back(line.substr(2));
  if (auto it = p.meta.find("sample"); it != p.meta.end()) {
    notes.push_back("sampled (sample=" + it->second + "): the values are estimates");
  }
  if (p.corrupt()) notes.push_back(corruptionNote(p));
  if (!p.complete) {
    notes.push_back("incomplete: the JVM did not finish writing the profile" +
                    (p.truncation.empty() ? "" : "; " + p.truncation));
  }
  return notes;
}

bool writeGzipped(std::ostream& out, std::string raw, std::string& error) {
  z_stream z{};
  // windowBits 15 + 16: a gzip header and trailer rather than zlib's.
  if (deflateInit2(&z, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
    error = "zlib: deflateInit2 failed";
    return false;
  }
  z.next_in = reinterpret_cast<Bytef*>(raw.data());
  size_t left = raw.size();
  char buf[1 << 16];
  int rc = Z_OK;
  while (rc != Z_STREAM_END) {
    // avail_in is 32 bits: feed at most 1 GiB at a time.
    if (z.avail_in == 0 && left > 0) {
      z.avail_in = static_cast<uInt>(std::min<size_t>(left, 1u << 30));
      left -= z.avail_in;
    }
    z.next_out = reinterpret_cast<Bytef*>(buf);
    z.avail_out = sizeof buf;
    rc = deflate(&z, left == 0 ? Z_FINISH : Z_NO_FLUSH);
    if (rc != Z_OK && rc != Z_STREAM_END && rc != Z_BUF_ERROR) break;
    out.write(buf, static_cast<std::streamsize>(sizeof buf - z.avail_out));
  }
  deflateEnd(&z);
  if (rc != Z_STREAM_END) {
    error = "zlib: deflate failed (" + std::to_string(rc) + ")";
    return false;
  }
  return static_cast<bool>(out);
}

}  // namespace dragnet::report
