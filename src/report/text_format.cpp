#include "report/text_format.h"

#include <cstdio>

#include "contexts/model.h"
#include "report/coverage.h"

namespace dragnet::report {

std::string grouped(unsigned __int128 v) {
  // Built right to left (GCC 12 misreports string::insert).
  char buf[64];
  char* p = buf + sizeof buf;
  int digits = 0;
  do {
    if (digits++ == 3) {
      *--p = ',';
      digits = 1;
    }
    *--p = static_cast<char>('0' + static_cast<int>(v % 10));
    v /= 10;
  } while (v);
  return std::string(p, buf + sizeof buf);
}

std::string corruptionNote(const profile::Profile& p) {
  if (!p.corrupt()) return "";
  constexpr size_t kShown = 8;
  std::string s = "profile corrupt: " + grouped(p.skipped.size()) +
                  (p.skipped.size() == 1 ? " chunk (" : " chunks (") + grouped(p.skippedBytes) +
                  " bytes) skipped at " + (p.skipped.size() == 1 ? "offset " : "offsets ");
  for (size_t i = 0; i < p.skipped.size() && i < kShown; ++i) {
    s += (i ? ", " : "") + std::to_string(p.skipped[i].offset);
  }
  if (p.skipped.size() > kShown) s += ", ...";
  s += " (first: " + p.skipped.front().reason + ")";
  if (p.metaLost) {
    s += "; its Meta chunk is lost: options unknown, read as mode " + p.meta.at("mode");
  }
  if (p.lostNodes > 0) s += "; " + grouped(p.lostNodes) + " contexts lost";
  return s;
}

void writeHeading(std::ostream& out, const profile::Profile& p, std::string_view what) {
  out << "dragnet " << what << " profile";
  if (auto it = p.meta.find("pid"); it != p.meta.end()) out << " (pid " << it->second << ")";
  out << "\n";
  if (p.corrupt()) out << "  CORRUPT: " << corruptionNote(p) << "\n";
  if (!p.complete) {
    bool killed = !p.corrupt() || !p.truncation.empty();
    out << "  INCOMPLETE: "
        << (killed ? "the JVM did not finish writing it (killed?)"
                   : "no End chunk was read (corrupt, or the JVM was killed)");
    if (!p.truncation.empty()) out << "; " << p.truncation;
    if (p.liveAtFlush > 0) {
      out << "; " << grouped(p.liveAtFlush) << " objects alive at its last flush (time "
          << grouped(p.liveTime) << ")";
    }
    out << "\n";
  }
}

namespace {

void writeFailures(std::ostream& out, const profile::Profile& p, bool partial, size_t top,
                   const char* title) {
  size_t n = 0;
  auto listed = [&](const profile::Failure& f) {
    return !profile::isHidden(f) && profile::isPartial(f) == partial;
  };
  for (const profile::Failure& f : p.failures) n += listed(f);
  if (n == 0) return;
  out << "\n"
      << title << " (" << n << "; "
      << (partial ? "profiled without some probes" : "these run unchanged and are not profiled")
      << ")\n";
  size_t shown = 0;
  for (const profile::Failure& f : p.failures) {
    if (!listed(f) || shown++ >= top) continue;
    std::string_view reason = f.reason;
    if (partial) reason.remove_prefix(profile::kPartly.size());
    out << "  " << contexts::javaTypeName(f.cls) << (f.method.empty() ? "" : ".") << f.method
        << ": " << reason << "\n";
  }
}

// The hidden classes, grouped (a program can have thousands of LambdaForms); the JSON
// report lists every one.
void writeHidden(std::ostream& out, const profile::Profile& p, size_t top) {
  auto groups = hiddenClassGroups(p);
  if (groups.empty()) return;
  out << "\nHidden classes not instrumented (" << grouped(hiddenClassCount(p)) << ": "
      << kHiddenClassesNote << ")\n";
  for (size_t i = 0; i < groups.size() && i < top; ++i) {
    char count[24];
    std::snprintf(count, sizeof count, "  %8s  ", grouped(groups[i].second).c_str());
    out << count << groups[i].first << "\n";
  }
  if (size_t more = groups.size() > top ? groups.size() - top : 0) {
    out << "  (" << more << (more == 1 ? " more name)\n" : " more names)\n");
  }
}

}  // namespace

void writeNotRewritten(std::ostream& out, const profile::Profile& p, size_t top) {
  writeFailures(out, p, false, top, "Not rewritten");
  writeFailures(out, p, true, top, "Partly rewritten");
  writeHidden(out, p, top);
}

std::string leftOutSamplesNote(const profile::Profile& p) {
  auto count = [&](const char* key) {
    auto it = p.totals.find(key);
    return it == p.totals.end() || it->second == "0" ? std::string() : it->second;
  };
  std::string agent = count("samples.agent"), jvm = count("samples.jvm");
  if (agent.empty() && jvm.empty()) return "";
  std::string s = "; left out: ";
  if (!agent.empty()) s += agent + " samples the agent's own helper allocated";
  if (!agent.empty() && !jvm.empty()) s += ", ";
  if (!jvm.empty()) s += jvm + " samples of objects the JVM allocated for itself";
  return s;
}

}  // namespace dragnet::report
