// The text report of a cost profile. The heading comes from the JSON header (writeHeading),
// so that the text says what the JSON says about a corrupt or incomplete profile.
#include <cstdio>
#include <string>

#include "analyses/cost/report/report.h"
#include "report/text_format.h"

namespace dragnet::report {

using analyses::cost::CostModel;
using analyses::cost::LocationCost;

namespace {

std::string num(uint64_t v) { return grouped(v); }

// A cost or benefit: grouped whole part, two decimals ("3,003.00").
std::string real(double v) {
  char buf[400];  // %.2f of the largest double
  std::snprintf(buf, sizeof buf, "%.2f", v);
  std::string s = buf;
  size_t dot = s.find('.');
  return groupedDigits(s.substr(0, dot)) + (dot == std::string::npos ? "" : s.substr(dot));
}

std::string percent(double share) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f%%", 100 * share);
  return buf;
}

std::string right(const std::string& s, size_t width) {
  return s.size() >= width ? s : std::string(width - s.size(), ' ') + s;
}

std::string left(const std::string& s, size_t width) {
  return s.size() >= width ? s : s + std::string(width - s.size(), ' ');
}

const char* yesNo(bool b) { return b ? "yes" : "no"; }

std::string bytes(uint64_t b) { return num(b) + " B"; }

void writeSettings(std::ostream& out, const CostReport& r) {
  const CostModel& m = *r.model;
  const auto& o = m.options();
  out << "  graph        " << m.input().slots << " context slots (s); array shadows "
      << (r.recording.elementShadows ? "per element" : "per array") << "; "
      << num(m.size().instances) << " instances of " << num(m.size().defsRan)
      << " program nodes that ran, " << num(m.size().edges) << " dependence edges\n";
  out << "  benefit      consumer rule ";
  if (o.consumerRab > 0) {
    out << "on: a location whose value reaches a predicate or native has RAB >= "
        << num(o.consumerRab);
  } else {
    out << "off";
  }
  out << " (consumer-rab); structures of height " << o.height << " (height)\n";
  const auto& b = m.bloat();
  out << "  bloat        I = " << num(b.instructions) << " instructions; IPD " << percent(b.ipd)
      << " (dead values), IPP " << percent(b.ipp) << " (predicate-only), NLD " << percent(b.nld)
      << " (dead instances); CR ";
  char cr[16];
  std::snprintf(cr, sizeof cr, "%.3f", m.conflictRatio());
  out << cr << "\n";
  const auto& t = r.totals;
  out << "  recording    " << num(t.cuts) << " flows cut at a method's entry; "
      << num(t.unknownTags) << " accesses to objects without a name; record tables "
      << bytes(t.tableBytes) << ", shadows of static fields and array elements "
      << bytes(t.shadowBytes) << " (" << num(t.shadowFallbacks)
      << " arrays past their budget kept one), " << num(t.shadowFields)
      << " instance fields' shadows (4 B in each object); " << num(t.dropped) << " records dropped";
  if (m.graph().dropped()) out << "; " << num(m.graph().dropped()) << " naming no program node";
  out << "\n";
}

void codeLines(std::ostream& out, const CostReport& r, const CostNames& names, const char* label,
               const std::vector<CodeRow>& rows, size_t top) {
  size_t shown = 0;
  for (const CodeRow& c : rows) {
    if (shown == top) {
      out << "           ... " << num(rows.size() - shown) << " more\n";
      break;
    }
    const auto& d = r.model->input().defs[c.node];
    out << "         " << (shown++ ? "       " : label) << right(num(c.freq), 12) << "  "
        << names.code(d) << "  " << names.what(d) << "  (node " << c.node << ")\n";
  }
}

void structureDetail(std::ostream& out, const CostReport& r, const CostNames& names,
                     const analyses::cost::ObjectRow& row, size_t top) {
  const CostModel& m = *r.model;
  out << "         " << right("RAC", 14) << right("RAB", 14) << "  consumed  field\n";
  for (uint32_t l : row.locations) {
    const LocationCost& x = m.locations()[l];
    out << "         " << right(real(x.rac), 14) << right(real(x.rab), 14) << "  "
        << left(yesNo(x.consumed), 8) << "  " << names.location(x.loc) << "\n";
  }
  StructureCode sc = structureCode(m, row.locations);
  out << "                      freq\n";
  codeLines(out, r, names, "writes", sc.writers, top);
  codeLines(out, r, names, "reads ", sc.readers, top);
}

}  // namespace

void writeCostSummary(std::ostream& out, const CostReport& r) {
  writeHeading(out, costHeader(r), "cost");
  writeSettings(out, r);
}

void writeCostSites(std::ostream& out, const CostReport& r, size_t top) {
  CostNames names(r);
  out << "Allocation sites by cost-benefit rate (n-RAC + 1) / (n-RAB + 1), height "
      << r.model->options().height << "\n"
      << "            rate           n-RAC           n-RAB      births  consumed  site\n";
  size_t rows = 0;
  for (const auto& s : r.model->sites()) {
    if (rows++ == top) break;
    out << right(real(s.rate), 16) << right(real(s.nRac), 16) << right(real(s.nRab), 16)
        << right(num(s.births), 12) << right(yesNo(s.consumed), 10) << "  " << names.site(s.site)
        << "\n";
  }
}

void writeCostObjects(std::ostream& out, const CostReport& r, size_t top, size_t detailed) {
  CostNames names(r);
  out << "Data structures by cost-benefit rate (an object name and what it references within "
      << "height " << r.model->options().height << "), the fields behind the top " << detailed
      << " and the code that writes and reads them\n"
      << "       #        rate           n-RAC           n-RAB      births  consumed  object\n";
  size_t rank = 0;
  for (const auto& row : r.model->objects()) {
    if (rank == top) break;
    out << right(std::to_string(++rank), 8) << right(real(row.rate), 12)
        << right(real(row.nRac), 16) << right(real(row.nRab), 16) << right(num(row.births), 12)
        << right(yesNo(row.consumed), 10) << "  " << names.object(row.object) << "\n";
    if (rank <= detailed) structureDetail(out, r, names, row, top);
  }
}

void writeCostLocations(std::ostream& out, const CostReport& r, bool byRab, size_t top) {
  CostNames names(r);
  const CostModel& m = *r.model;
  out << "Heap locations by "
      << (byRab ? "RAB (relative abstract benefit)" : "RAC (relative abstract cost)") << "\n"
      << "             RAC             RAB  consumed   writers   readers  location\n";
  size_t rows = 0;
  for (uint32_t l : locationsBy(m, byRab)) {
    if (rows++ == top) break;
    const LocationCost& x = m.locations()[l];
    out << right(real(x.rac), 16) << right(real(x.rab), 16) << right(yesNo(x.consumed), 10)
        << right(num(x.writers.size()), 10) << right(num(x.readers.size()), 10) << "  "
        << names.location(x.loc) << "\n";
  }
}

void writeCostText(std::ostream& out, const CostReport& r, const CostTextOptions& o) {
  writeCostSummary(out, r);
  out << "\n";
  writeCostSites(out, r, o.top);
  out << "\n";
  writeCostObjects(out, r, o.top, o.structures);
  out << "\n";
  writeCostLocations(out, r, false, o.top);
  out << "\n";
  writeCostLocations(out, r, true, o.top);
  writeNotRewritten(out, *r.profile, o.top);
}

}  // namespace dragnet::report
