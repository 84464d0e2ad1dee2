#include "report/text_format.h"

#include "analyses/alloc/aggregate.h"

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

void writeHeading(std::ostream& out, const profile::Profile& p, std::string_view what) {
  out << "dragnet " << what << " profile";
  if (auto it = p.meta.find("pid"); it != p.meta.end()) out << " (pid " << it->second << ")";
  out << "\n";
  if (!p.complete) {
    out << "  INCOMPLETE: the JVM did not finish writing it (killed?)";
    if (!p.truncation.empty()) out << "; " << p.truncation;
    out << "\n";
  }
}

void writeNotRewritten(std::ostream& out, const profile::Profile& p, size_t top) {
  const auto& failures = p.failures;
  if (failures.empty()) return;
  out << "\nNot rewritten (" << failures.size() << "; these run unchanged and are not profiled)\n";
  for (size_t i = 0; i < failures.size() && i < top; ++i) {
    const profile::Failure& f = failures[i];
    out << "  " << analyses::alloc::javaTypeName(f.cls) << (f.method.empty() ? "" : ".") << f.method
        << ": " << f.reason << "\n";
  }
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
