#include "report/text_format.h"

#include <cstdio>
#include <cstdlib>

#include "contexts/model.h"
#include "report/coverage.h"
#include "report/json_text.h"
#include "report/run_info.h"

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

void writeHeading(std::ostream& out, const nlohmann::ordered_json& h, std::string_view what) {
  out << "dragnet " << what << " profile";
  if (auto pid = h.find("pid"); pid != h.end() && pid->is_string()) {
    out << " (pid " << pid->get<std::string>() << ")";
  }
  out << "\n";
  if (auto run = h.find("run"); run != h.end() && run->is_object()) {
    writeRunLines(out, *run, h.at("complete").get<bool>());
  }
  auto c = h.find("corrupt");
  const bool corrupt = c != h.end() && c->is_string();
  if (corrupt) out << "  CORRUPT: " << c->get<std::string>() << "\n";
  if (!h.at("complete").get<bool>()) {
    const std::string truncation = h.value("truncation", std::string());
    bool killed = !corrupt || !truncation.empty();
    out << "  INCOMPLETE: "
        << (killed ? "the JVM did not finish writing it (killed?)"
                   : "no End chunk was read (corrupt, or the JVM was killed)");
    if (!truncation.empty()) out << "; " << truncation;
    if (auto live = h.find("liveAtFlush"); live != h.end() && live->is_object()) {
      out << "; " << grouped(live->at("objects").get<uint64_t>())
          << " objects alive at its last flush (time " << grouped(live->at("time").get<uint64_t>())
          << ")";
    }
    out << "\n";
  }
}

std::string groupedDigits(const std::string& digits) {
  unsigned __int128 v = 0;
  for (char c : digits) {
    if (c < '0' || c > '9') return digits;
    v = v * 10 + static_cast<unsigned>(c - '0');
  }
  return digits.empty() ? digits : grouped(v);
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

nlohmann::ordered_json leftOutSamplesJson(const profile::Profile& p) {
  auto count = [&](const char* key) {
    auto it = p.totals.find(key);
    if (it == p.totals.end()) return nlohmann::ordered_json(nullptr);
    return nlohmann::ordered_json(std::strtoull(it->second.c_str(), nullptr, 10));
  };
  return {{"agent", count("samples.agent")}, {"jvm", count("samples.jvm")}};
}

std::string leftOutSamplesNote(const nlohmann::ordered_json& leftOut) {
  auto count = [&](const char* key) {
    const auto& v = leftOut.at(key);
    return v.is_null() || v.get<uint64_t>() == 0 ? std::string()
                                                 : std::to_string(v.get<uint64_t>());
  };
  std::string agent = count("agent"), jvm = count("jvm");
  if (agent.empty() && jvm.empty()) return "";
  std::string s = "; left out: ";
  if (!agent.empty()) s += agent + " samples the agent's own helper allocated";
  if (!agent.empty() && !jvm.empty()) s += ", ";
  if (!jvm.empty()) s += jvm + " samples of objects the JVM allocated for itself";
  return s;
}

nlohmann::ordered_json jsonHead(const profile::Profile& p, std::string_view format) {
  nlohmann::ordered_json j;
  j["format"] = format;
  j["version"] = 1;
  j["complete"] = p.complete;
  j["truncation"] = p.truncation;
  if (p.corrupt()) j["corrupt"] = corruptionNote(p);
  auto pid = p.meta.find("pid");
  j["pid"] =
      pid == p.meta.end() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(pid->second);
  j["run"] = runJson(p);
  return j;
}

}  // namespace dragnet::report
