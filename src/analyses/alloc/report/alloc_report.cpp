#include "analyses/alloc/report/alloc_report.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <nlohmann/json.hpp>

#include "analyses/alloc/report/sums.h"
#include "analyses/alloc/report/threads.h"
#include "report/coverage.h"
#include "report/json_text.h"
#include "report/run_info.h"
#include "report/text_format.h"

namespace dragnet::report {

using contexts::AllocModel;
using contexts::SiteRow;

namespace {

std::string num(uint64_t v) { return grouped(v); }

std::string pct(uint64_t part, uint64_t whole) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%5.1f%%",
                whole ? 100.0 * static_cast<double>(part) / static_cast<double>(whole) : 0.0);
  return buf;
}

std::string bytesOf(uint64_t bytes, bool known) { return known ? num(bytes) : "?"; }

// A number of the End chunk; none if the profile has no such total.
std::optional<uint64_t> totalOf(const profile::Profile& p, const char* key) {
  auto it = p.totals.find(key);
  if (it == p.totals.end()) return std::nullopt;
  return std::strtoull(it->second.c_str(), nullptr, 10);
}

using Json = nlohmann::ordered_json;

uint64_t u64(const Json& v) { return v.get<uint64_t>(); }
bool present(const Json& v) { return !v.is_null(); }

// "agent      N bytes of native memory at peak (max-memory L), M at exit; H bytes of Java
// heap; K context index lookups" (the trees' memory, from the End chunk).
void writeAgentMemory(std::ostream& out, const Json& a) {
  const Json &peak = a.at("nativePeak"), &heap = a.at("heap"), &lookups = a.at("indexLookups");
  if (!present(peak) && !present(heap) && !present(lookups)) return;
  const char* sep = "";
  out << "  agent      ";
  if (present(peak)) {
    out << num(u64(peak)) << " bytes of native memory at peak";
    if (present(a.at("nativeLimit")))
      out << " (max-memory " << num(u64(a.at("nativeLimit"))) << ")";
    if (present(a.at("nativeAtExit"))) out << ", " << num(u64(a.at("nativeAtExit"))) << " at exit";
    sep = "; ";
  }
  if (present(heap) && (u64(heap) || !present(peak))) {
    out << sep << num(u64(heap)) << " bytes of Java heap";
    sep = "; ";
  }
  if (present(lookups)) out << sep << num(u64(lookups)) << " context index lookups";
  out << "\n";
}

// One table of sums: bytes, share of all bytes, count, elements, then the row's name (and
// with `firstApp`, its first application frame: "| app.Main.run(Main.java) (+2 more)").
void writeSums(std::ostream& out, const AllocModel& m, const char* title, const char* columns,
               const Sums& rows, size_t top, bool firstApp = false) {
  out << "\n" << title << "\n  bytes            %      " << columns << "\n";
  for (size_t i = 0; i < rows.size() && i < top; ++i) {
    const Sum& s = rows[i].second;
    char line[96];
    std::snprintf(line, sizeof line, "  %-16s %s %-16s %-15s ",
                  bytesOf(s.bytes, s.bytesKnown).c_str(), pct(s.bytes, m.bytes).c_str(),
                  num(s.count).c_str(), s.elements ? num(s.elements).c_str() : "-");
    out << line << rows[i].first;
    if (firstApp) {
      out << "  | " << s.firstApp;
      if (s.firstAppOthers) out << " (+" << s.firstAppOthers << " more)";
    }
    out << "\n";
  }
}

void writeSites(std::ostream& out, const AllocModel& m, const std::vector<uint32_t>& firstApp,
                size_t top) {
  Sums sites = sumBySite(m, &firstApp);
  const char* columns = "objects/arrays   elements        site, type  | first application frame";
  writeSums(out, m, "Top allocation sites by bytes", columns, sites, top, true);
  writeSums(out, m, "Top allocation sites by objects", columns, byCount(std::move(sites)), top,
            true);
  writeSums(out, m, "Top first application frames by bytes (not JDK, not --app-exclude)",
            "objects/arrays   elements        first application frame", sumByFirstApp(m, firstApp),
            top);
}

void writeTypes(std::ostream& out, const AllocModel& m, size_t top) {
  Sums types = sumByType(m);
  writeSums(out, m, "Top types by bytes", "count            elements        type", types, top);
  // JP's view (sec. 5): arrays and elements per element kind.
  uint64_t arrays[10] = {}, elements[10] = {};
  for (const SiteRow& r : m.rows) {
    size_t k = m.nodes[r.node].key & 15;
    arrays[k] += r.count;
    elements[k] += r.elements;
  }
  out << "\nArrays by element kind (JP)\n";
  for (size_t k = 1; k < 10; ++k) {
    if (!arrays[k] && !elements[k]) continue;
    out << "  " << contexts::jpKind(static_cast<profile::ElemKind>(k)) << "  " << num(arrays[k])
        << " arrays, " << num(elements[k]) << " elements\n";
  }
}

// Inclusive bytes per merged node (allocation leaves carry their own).
std::vector<uint64_t> inclusiveBytes(const AllocModel& m) {
  std::vector<uint64_t> inc(m.nodes.size(), 0);
  for (size_t i = m.nodes.size(); i-- > 1;) {  // children have larger ids than parents
    if (profile::isAllocKey(m.nodes[i].key)) inc[i] += m.nodes[i].c.bytes;
    inc[m.nodes[i].parent] += inc[i];
  }
  return inc;
}

void writeTree(std::ostream& out, const AllocModel& m, const std::vector<uint64_t>& inc,
               uint32_t node, int depth, uint64_t floor) {
  std::vector<uint32_t> kids = m.nodes[node].children;
  std::stable_sort(kids.begin(), kids.end(),
                   [&](uint32_t a, uint32_t b) { return inc[a] > inc[b]; });
  for (uint32_t k : kids) {
    if (inc[k] < floor || inc[k] == 0) break;
    const contexts::MergedNode& n = m.nodes[k];
    out << "  " << pct(inc[k], m.bytes) << " " << std::string(static_cast<size_t>(2 * depth), ' ');
    if (profile::isAllocKey(n.key)) {
      auto s = m.profile->sites.find(n.key);
      out << "[" << (s == m.profile->sites.end() ? "?" : contexts::javaTypeName(s->second.type))
          << "] " << num(n.c.count) << " x, " << num(n.c.bytes) << " bytes";
      if (s != m.profile->sites.end() && s->second.line >= 0)
        out << " (line " << s->second.line << ")";
      out << "\n";
    } else {
      out << contexts::frameName(*m.profile, n.key, -1);
      if (!m.sampleInterval) out << "  " << num(n.c.count) << " calls";
      out << "\n";
      writeTree(out, m, inc, k, depth + 1, floor);
    }
  }
}

}  // namespace

void writeTextHeader(std::ostream& out, const nlohmann::ordered_json& h) {
  writeHeading(out, h, "allocation");
  const Json& t = h.at("totals");
  const bool sampled = present(h.at("sampleInterval")) && u64(h.at("sampleInterval"));
  out << "  counted    " << h.at("countingMeans").get<std::string>() << "\n";
  out << "  objects    " << num(u64(t.at("objects"))) << "\n"
      << "  arrays     " << num(u64(t.at("arrays"))) << " (" << num(u64(t.at("elements")))
      << " elements)\n"
      << "  bytes      " << num(u64(t.at("bytes")));
  if (uint64_t unsized = u64(t.at("unsizedObjects"))) {
    out << " (+ " << num(unsized) << " objects of unmeasured size"
        << (h.at("complete").get<bool>() ? ")"
                                         : ": classes with a finalizer are measured at exit)");
  }
  if (sampled) {  // sampling sees allocations only, never calls
    out << "\n  calls      n/a (sampling records allocations only) in "
        << num(u64(t.at("contexts"))) << " contexts, "
        << (present(t.at("threads")) ? std::to_string(u64(t.at("threads"))) + " threads"
                                     : std::string("threads n/a (one tree for all)"))
        << "\n";
  } else {
    out << "\n  calls      " << num(u64(t.at("calls"))) << " in " << num(u64(t.at("contexts")))
        << " contexts, " << u64(t.at("threads")) << " threads";
    // Virtual threads (JDK 21+) are merged into one tree, "virtual threads".
    if (const Json& v = t.at("virtualThreads"); present(v) && u64(v)) {
      out << " (one of them the " << u64(v) << " virtual threads)";
    }
    out << "\n";
  }
  if (present(t.at("bytecodes")) && u64(t.at("bytecodes"))) {
    out << "  bytecodes  " << num(u64(t.at("bytecodes"))) << "\n";
  }
  if (sampled) {
    const Json& samples = h.at("samples");
    out << "  sampled    about one allocation per " << num(u64(h.at("sampleInterval")))
        << " bytes; counts and bytes are estimates"
        << (present(samples) ? " from " + std::to_string(u64(samples)) + " samples" : std::string())
        << leftOutSamplesNote(h.at("samplesLeftOut")) << "\n";
  }
  // A session started in the running JVM (dragnet attach) and what it could not see.
  if (present(h.at("attached")))
    out << "  attached   " << h.at("attached").get<std::string>() << "\n";
  // Whether compiled code counted what the bytecode allocates (jit_settings.h).
  if (present(h.at("jit"))) out << "  jit        " << h.at("jit").get<std::string>() << "\n";
  writeAgentMemory(out, h.at("agent"));
  if (uint64_t collapsed = u64(t.at("collapsed"))) {
    out << "  collapsed  " << num(collapsed) << " calls beyond the depth limit\n";
  }
  if (uint64_t dropped = u64(t.at("dropped"))) {
    out << "  dropped    " << num(dropped)
        << " events recorded at the thread root (max-memory reached, or no memory)\n";
  }
  // The stack filter (context_views.h) and the user's non-application prefixes.
  if (h.contains("filter") && present(h.at("filter"))) {
    out << "  filter     " << filterNote(h.at("filter")) << "\n";
  }
  if (h.contains("appExclude") && !h.at("appExclude").empty()) {
    std::string prefixes;
    for (const Json& prefix : h.at("appExclude")) {
      prefixes += (prefixes.empty() ? "" : ", ") + prefix.get<std::string>();
    }
    out << "  app        frames not the application's: the JDK's and " << prefixes << "\n";
  }
  if (present(h.at("classesInstrumented"))) {
    uint64_t partial = u64(h.at("methodsPartlyRewritten")), hidden = u64(h.at("hiddenClassCount"));
    out << "  classes    " << u64(h.at("classesInstrumented")) << " instrumented, "
        << u64(h.at("classesNotRewritten")) << " classes or methods not rewritten";
    if (partial) out << ", " << partial << " methods partly";
    if (hidden) out << ", " << num(hidden) << " hidden classes not instrumented (below)";
    out << "\n";
  }
}

bool threadsRecorded(const profile::Profile& p) {
  return !(p.meta.contains("sample") && p.threads.size() == 1 &&
           p.threads.begin()->second.name == "all threads (sampled)");
}

void writeText(std::ostream& out, const AllocModel& m, const TextOptions& o) {
  const profile::Profile& p = *m.profile;
  nlohmann::ordered_json header = allocHeaderJson(m);
  addViewHeader(header, o.view);
  writeTextHeader(out, header);
  if (o.threads.only) {
    out << "  selected   threads matching '" << o.threads.pattern << "': " << o.threads.only->size()
        << " of " << p.threads.size() << " (every table below is theirs)\n";
  }
  if (threadsRecorded(p)) {
    uint64_t all = 0;
    for (const ThreadRow& r : threadRows(p, nullptr)) all += r.bytes;
    writeThreadsText(out, threadRows(p, o.threads.only), all, o.top);
  }
  writeRateText(out, p, rateSeries(p, o.threads.only));
  writeSites(out, m, firstAppNodes(m, o.view), o.top);
  writeTypes(out, m, o.top);
  out << "\nCall tree (contexts with at least 1% of the bytes)\n";
  writeTree(out, m, inclusiveBytes(m), 0, 0, m.bytes / 100);
  writeNotRewritten(out, *m.profile, o.top);
}

AgentMemory agentMemory(const profile::Profile& p) {
  return {totalOf(p, "runtime.native.peak"), totalOf(p, "runtime.native.bytes"),
          totalOf(p, "runtime.native.limit"), totalOf(p, "runtime.heap.bytes")};
}

nlohmann::ordered_json allocHeaderJson(const AllocModel& m) {
  using Json = nlohmann::ordered_json;
  const profile::Profile& p = *m.profile;
  auto optional = [](std::optional<uint64_t> v) { return v ? Json(*v) : Json(nullptr); };
  const bool sampled = std::string_view(countingKind(p)) == "sampled";
  auto notSampled = [&](uint64_t v) { return sampled ? Json(nullptr) : Json(v); };
  Json j;
  j["complete"] = p.complete;
  j["truncation"] = p.truncation;
  j["corrupt"] = p.corrupt() ? Json(corruptionNote(p)) : Json(nullptr);
  j["counting"] = countingKind(p);
  j["countingMeans"] = countingNote(p);
  j["sampled"] = sampled;  // every count and byte below is an estimate
  j["sampleInterval"] = sampled ? Json(m.sampleInterval) : Json(nullptr);
  j["samples"] = optional(totalOf(p, "samples"));
  j["samplesLeftOut"] = leftOutSamplesJson(p);
  j["totals"] = {{"objects", m.objects},
                 {"arrays", m.arrays},
                 {"elements", m.elements},
                 {"bytes", m.bytes},
                 {"unsizedObjects", m.unsizedObjects},
                 // Sampling records allocations only: no calls, no bytecodes (null: n/a);
                 // an older agent's sampled profile has one tree for all threads.
                 {"calls", notSampled(m.calls)},
                 {"bytecodes", notSampled(m.insns)},
                 {"contexts", m.nodes.size() - 1},
                 {"threads", threadsRecorded(p) ? Json(p.threads.size()) : Json(nullptr)},
                 {"virtualThreads", optional(totalOf(p, "threads.virtual"))},
                 {"collapsed", m.collapsed},
                 {"dropped", m.dropped}};
  AgentMemory a = agentMemory(p);
  j["agent"] = {{"nativePeak", optional(a.nativePeak)},
                {"nativeAtExit", optional(a.nativeAtExit)},
                {"nativeLimit", optional(a.nativeLimit)},
                {"heap", optional(a.heap)},
                {"indexLookups", optional(totalOf(p, "runtime.index.lookups"))}};
  auto jit = p.meta.find("jit");
  j["jit"] = jit == p.meta.end() ? Json(nullptr) : Json(jit->second);
  auto attached = p.meta.find("attached");
  j["attached"] = attached == p.meta.end() ? Json(nullptr) : Json(attached->second);
  j["classesInstrumented"] = optional(totalOf(p, "classes.instrumented"));
  auto partial = static_cast<uint64_t>(
      std::count_if(p.failures.begin(), p.failures.end(), profile::isPartial));
  uint64_t hidden = hiddenClassCount(p);
  j["classesNotRewritten"] = notSampled(p.failures.size() - partial - hidden);  // nothing rewritten
  j["methodsPartlyRewritten"] = notSampled(partial);
  j["hiddenClassCount"] = notSampled(hidden);
  auto pid = p.meta.find("pid");
  j["pid"] = pid == p.meta.end() ? Json(nullptr) : Json(pid->second);
  j["run"] = runJson(p);
  j["liveAtFlush"] =
      p.liveAtFlush > 0 ? Json{{"objects", p.liveAtFlush}, {"time", p.liveTime}} : Json(nullptr);
  return j;
}

void writeJson(std::ostream& out, const AllocModel& m, const ThreadFilter& threads,
               const AllocView* view) {
  const profile::Profile& p = *m.profile;
  nlohmann::ordered_json j;
  j["format"] = "dragnet-alloc";
  j["version"] = 1;
  j.update(allocHeaderJson(m));
  j["threadFilter"] = threads.only ? Json(threads.pattern) : Json(nullptr);
  uint64_t all = 0;
  for (const ThreadRow& r : threadRows(p, nullptr)) all += r.bytes;
  j["threads"] = threadsRecorded(p) ? threadsJson(threadRows(p, threads.only), all) : Json(nullptr);
  j["rate"] = rateJson(p, rateSeries(p, threads.only), 10);
  addViewHeader(j, view);
  std::vector<uint32_t> firstApp = firstAppNodes(m, view);
  j["byFirstAppFrame"] = nlohmann::ordered_json::array();
  // Every key before the rows: an ordered_json object is a vector of (const key, value)
  // pairs, which growing copies (the const key makes their move throwing), rows and all.
  j["sites"] = nlohmann::ordered_json::array();
  auto& failed = j["notRewritten"] = nlohmann::ordered_json::array();
  for (const profile::Failure& f : m.profile->failures) {
    if (profile::isHidden(f)) continue;  // hiddenClasses
    failed.push_back(
        {{"class", contexts::javaTypeName(f.cls)}, {"method", f.method}, {"reason", f.reason}});
  }
  j["hiddenClasses"] = hiddenClassesJson(*m.profile);
  for (const auto& [frame, sum] : sumByFirstApp(m, firstApp)) {
    j["byFirstAppFrame"].push_back({{"frame", frame},
                                    {"count", sum.count},
                                    {"elements", sum.elements},
                                    {"bytes", sum.bytesKnown ? Json(sum.bytes) : Json(nullptr)}});
  }
  auto& sites = j["sites"];
  for (const SiteRow& r : m.rows) {
    nlohmann::ordered_json row;
    row["frames"] = contexts::rowFrames(m, r);
    row["firstAppFrame"] = firstAppFrame(m, r, firstApp);
    row["type"] = typeOf(r);
    if (r.site) {
      row["kind"] = contexts::jpKind(static_cast<profile::ElemKind>(r.site->key & 15));
      row["origin"] = contexts::originName(r.site->kind);
    }
    row["count"] = r.count;
    row["elements"] = r.elements;
    if (r.bytesKnown) {
      row["bytes"] = r.bytes;
    } else {
      row["bytes"] = nullptr;
    }
    sites.push_back(std::move(row));
  }
  out << jsonText(j, 1) << "\n";
}

void writeCollapsed(std::ostream& out, const AllocModel& m) {
  for (const SiteRow& r : m.rows) {
    std::vector<std::string> frames = contexts::rowFrames(m, r);
    std::string line;
    for (size_t i = frames.size(); i-- > 0;) line.append(frames[i]).append(";");
    line.append(typeOf(r));
    out << line << " " << r.bytes << "\n";
  }
}

}  // namespace dragnet::report
