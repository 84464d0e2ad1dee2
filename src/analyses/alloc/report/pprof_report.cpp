#include "analyses/alloc/report/pprof_report.h"

#include <zlib.h>

#include <algorithm>
#include <map>
#include <sstream>
#include <unordered_map>
#include <vector>

#include "analyses/alloc/report/sums.h"
#include "report/protobuf.h"
#include "report/run_info.h"
#include "report/text_format.h"

namespace dragnet::report {

using contexts::AllocModel;
using contexts::SiteRow;

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

class PprofBuilder {
 public:
  explicit PprofBuilder(const AllocModel& m) : m_(m), callerLocation_(m.nodes.size(), 0) {
    str("");
  }

  std::string build() {
    declareSampleTypes();
    for (const SiteRow& r : m_.rows) allocationSample(r);
    if (m_.insns) {
      for (uint32_t i = 1; i < m_.nodes.size(); ++i) bytecodeSample(i);
    }
    std::string msg;
    for (const ProtoWriter& t : sampleTypes_) {
      ProtoWriter w;
      w.message(pb::kSampleType, t);
      msg += w.data();
    }
    msg += mapping();
    msg += samples_.data();
    msg += locations_.data();
    msg += functions_.data();
    msg += trailer();  // last: the string table holds every string interned before
    return msg;
  }

 private:
  int64_t str(const std::string& s) {
    auto [it, fresh] = strings_.try_emplace(s, static_cast<int64_t>(table_.size()));
    if (fresh) table_.push_back(s);
    return it->second;
  }

  void sampleType(const char* type, const char* unit) {
    ProtoWriter t;
    t.sint(pb::kType, str(type));
    t.sint(pb::kUnit, str(unit));
    sampleTypes_.push_back(t);
  }

  // Sample types: what each sample's values mean, in this order.
  void declareSampleTypes() {
    sampleType("alloc_objects", "count");  // objects and arrays
    sampleType("alloc_space", "bytes");
    sampleType("alloc_elements", "count");  // array elements
    if (m_.insns) sampleType("bytecodes", "count");
  }

  // One mapping that says the locations are symbolized already: without it pprof looks for
  // a native binary to symbolize them with.
  std::string mapping() {
    ProtoWriter mapping, w;
    mapping.uint(pb::kMappingId, 1);
    mapping.sint(pb::kMappingFile, str("java"));
    mapping.uint(pb::kHasFunctions, 1);
    mapping.uint(pb::kHasFilenames, 1);
    mapping.uint(pb::kHasLineNumbers, 1);
    w.message(pb::kMapping, mapping);
    return w.data();
  }

  std::string trailer() {
    ProtoWriter w;
    const profile::Profile& p = *m_.profile;
    std::vector<std::string> comments{"dragnet allocation profile"};
    if (auto it = p.meta.find("pid"); it != p.meta.end())
      comments[0] += " (pid " + it->second + ")";
    std::ostringstream lines;  // the run's lines, one comment each
    writeRunLines(lines, runJson(p), p.complete);
    std::istringstream run(lines.str());
    for (std::string line; std::getline(run, line);) comments.push_back(line.substr(2));
    uint64_t period = 1;  // exact: every allocation is recorded
    if (auto it = p.meta.find("sample"); it != p.meta.end()) {
      comments.push_back("sampled (sample=" + it->second + "): the values are estimates");
      period = m_.sampleInterval;
    }
    if (p.corrupt()) comments.push_back(corruptionNote(p));
    if (!p.complete) {
      comments.push_back("incomplete: the JVM did not finish writing the profile" +
                         (p.truncation.empty() ? "" : "; " + p.truncation));
    }
    std::vector<int64_t> commentIds;
    for (const std::string& c : comments) commentIds.push_back(str(c));
    int64_t space = str("space"), bytes = str("bytes"), preferred = str("alloc_space");
    for (const std::string& s : table_) w.bytes(pb::kStringTable, s);
    ProtoWriter periodType;
    periodType.sint(pb::kType, space);
    periodType.sint(pb::kUnit, bytes);
    w.message(pb::kPeriodType, periodType);
    w.uint(pb::kPeriod, period);
    std::vector<uint64_t> ids(commentIds.begin(), commentIds.end());
    w.packed(pb::kComment, ids);
    w.sint(pb::kDefaultSampleType, preferred);
    return w.data();
  }

  uint64_t function(const std::string& name, const std::string& systemName,
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

  // A Java method: name "pkg.Class.method", system name with the descriptor, file the
  // source file under its package's directory ("java/util/HashMap.java"), as a source
  // path would hold it.
  uint64_t methodFunction(uint32_t methodId) {
    auto [cached, fresh] = methodFunctions_.try_emplace(methodId, 0);
    if (fresh) cached->second = describeMethod(methodId);
    return cached->second;
  }

  uint64_t describeMethod(uint32_t methodId) {
    const profile::Profile& p = *m_.profile;
    auto it = p.methods.find(methodId);
    if (it == p.methods.end()) {
      std::string unknown = contexts::frameName(p, methodId, -1);
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

  uint64_t location(uint64_t functionId, int64_t line) {
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

  // The method frames from `node` up to the root, innermost first; the innermost at
  // `line` (0: unknown; callers' call-site lines are not recorded).
  // Stacks share their callers: a node's location without a line is cached per node.
  void appendStack(std::vector<uint64_t>& ids, uint32_t node, int32_t line) {
    if (node == 0) return;
    ids.push_back(location(methodFunction(m_.nodes[node].key), line > 0 ? line : 0));
    for (uint32_t n = m_.nodes[node].parent; n != 0; n = m_.nodes[n].parent) {
      uint64_t& loc = callerLocation_[n];
      if (loc == 0) loc = location(methodFunction(m_.nodes[n].key), 0);
      ids.push_back(loc);
    }
  }

  // labels: (key, value) string labels.
  void sample(const std::vector<uint64_t>& ids, const std::vector<uint64_t>& values,
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

  // One sample per allocation row: the allocated type as the leaf frame (as
  // async-profiler does, so flame graphs show what is allocated on top of where) and as
  // the label "type" (and how it was allocated as "origin": new, clone, jni, ...); then the
  // allocating method at the site's line, then its callers.
  void allocationSample(const SiteRow& r) {
    std::string type = typeOf(r);
    std::vector<uint64_t> ids{location(function(type, type, ""), 0)};
    appendStack(ids, m_.nodes[r.node].parent, r.site ? r.site->line : 0);
    std::vector<uint64_t> values{r.count, r.bytes, r.elements};
    if (m_.insns) values.push_back(0);
    std::vector<std::pair<const char*, std::string>> labels{{"type", type}};
    if (r.site) labels.emplace_back("origin", contexts::originName(r.site->kind));
    sample(ids, values, labels);
  }

  // With bytecodes=on: one sample per context that executed instructions itself.
  void bytecodeSample(uint32_t node) {
    const contexts::MergedNode& n = m_.nodes[node];
    if (profile::isAllocKey(n.key) || n.c.insns == 0) return;
    std::vector<uint64_t> ids;
    appendStack(ids, node, 0);
    sample(ids, {0, 0, 0, n.c.insns}, {});
  }

  const AllocModel& m_;
  std::unordered_map<std::string, int64_t> strings_;
  std::vector<std::string> table_;
  std::vector<ProtoWriter> sampleTypes_;
  std::unordered_map<std::string, uint64_t> functionIds_;
  std::unordered_map<uint32_t, uint64_t> methodFunctions_;
  std::vector<uint64_t> callerLocation_;  // per merged node; 0: not yet made
  std::map<std::pair<uint64_t, int64_t>, uint64_t> locationIds_;
  ProtoWriter samples_, locations_, functions_;
};

}  // namespace

std::string pprofProfile(const AllocModel& m) { return PprofBuilder(m).build(); }

bool writePprof(std::ostream& out, const AllocModel& m, std::string& error) {
  std::string raw = pprofProfile(m);
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
