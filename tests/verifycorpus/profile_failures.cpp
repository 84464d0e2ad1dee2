// dragnet-profile-failures PROFILE...: what the agent says it left unrewritten, for
// scripts/verify-corpus.sh --agent. One line per Failures record of the profiles, hidden
// classes left out:
//   F <TAB> class (internal name) <TAB> method ("name(descriptor)"; empty: the whole class
//   passed through unchanged) <TAB> reason (partly rewritten methods: profile::kPartly first)
// then the End chunk's totals, summed over the profiles (one per JVM):
//   T <TAB> key <TAB> value     for classes.instrumented, failures, failures.partial,
//                               classes.hidden, and "profiles"/"incomplete" (no End chunk)
// Exit status 1 if a profile cannot be read at all.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>

#include "profile/format.h"
#include "profile/reader.h"

int main(int argc, char** argv) {
  using namespace dragnet;
  std::map<std::string, uint64_t> totals{
      {"classes.instrumented", 0}, {"failures", 0}, {"failures.partial", 0},
      {"classes.hidden", 0},       {"profiles", 0}, {"incomplete", 0}};
  int status = 0;
  for (int i = 1; i < argc; ++i) {
    profile::Profile p;
    std::string error;
    if (!profile::readProfile(argv[i], p, error)) {
      std::fprintf(stderr, "dragnet-profile-failures: %s: %s\n", argv[i], error.c_str());
      status = 1;
      continue;
    }
    ++totals["profiles"];
    if (!p.complete) ++totals["incomplete"];
    for (const profile::Failure& f : p.failures) {
      if (profile::isHidden(f)) continue;
      // Tabs and newlines cannot be in the fields the script splits on.
      auto flat = [](std::string s) {
        for (char& c : s) c = c == '\t' || c == '\n' || c == '\r' ? ' ' : c;
        return s;
      };
      std::printf("F\t%s\t%s\t%s\n", flat(f.cls).c_str(), flat(f.method).c_str(),
                  flat(f.reason).c_str());
    }
    for (auto& [key, sum] : totals) {
      auto it = p.totals.find(key);
      if (it != p.totals.end()) sum += std::strtoull(it->second.c_str(), nullptr, 10);
    }
  }
  for (const auto& [key, sum] : totals) {
    std::printf("T\t%s\t%llu\n", key.c_str(), static_cast<unsigned long long>(sum));
  }
  return status;
}
