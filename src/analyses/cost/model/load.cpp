// TEMPORARY (branch h-costreport): a stand-in for the loader (main has the real one), so
// that the dragnet binary links with mode cost registered. It reads meta and End, and gives
// an empty graph: the CostDefs/CostThread chunks are not read yet. Replace it with the real
// load.cpp.
#include "analyses/cost/model/load.h"

#include <charconv>

namespace dragnet::analyses::cost {

namespace {

uint64_t numberAt(const std::map<std::string, std::string>& m, const char* key, uint64_t dflt) {
  auto it = m.find(key);
  if (it == m.end()) return dflt;
  uint64_t v = 0;
  auto [end, ec] = std::from_chars(it->second.data(), it->second.data() + it->second.size(), v);
  return ec == std::errc() && end == it->second.data() + it->second.size() ? v : dflt;
}

}  // namespace

Recording recordingOf(const profile::Profile& p) {
  Recording r;
  uint64_t s = numberAt(p.meta, "flow.slots", 16);
  r.slots = s >= 1 && s <= 32 ? static_cast<uint32_t>(s) : 16;
  auto shadow = p.meta.find("cost.arrayShadow");
  r.elementShadows = shadow == p.meta.end() || shadow->second != "array";
  return r;
}

Totals totalsOf(const profile::Profile& p) {
  return {numberAt(p.totals, "cost.cuts", 0), numberAt(p.totals, "cost.unknownTags", 0),
          numberAt(p.totals, "cost.tableBytes", 0), numberAt(p.totals, "cost.shadowBytes", 0),
          numberAt(p.totals, "cost.dropped", 0)};
}

bool isCostProfile(const profile::Profile& p) {
  auto it = p.meta.find("mode");
  return it != p.meta.end() && it->second == "cost";
}

GraphInput loadGraph(const profile::Profile& p) {
  GraphInput in;
  in.slots = recordingOf(p).slots;
  in.defs.resize(1);
  return in;
}

}  // namespace dragnet::analyses::cost
