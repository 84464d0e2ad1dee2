// What a profile does not see and what its counts mean, for every report format: the
// hidden classes the rewriting modes could not instrument (profile::kHidden records), and
// whether counts are exact (the program's bytecode) or sampled (the heap's traffic).
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "profile/reader.h"

namespace dragnet::report {

// A hidden class's name as Class.getName shows it ("p.C$$Lambda/0x0000000800c03000") from
// the profile's ("p/C$$Lambda.0x0000000800c03000").
std::string hiddenClassName(std::string_view internal);

// The hidden classes grouped by name without the JVM's suffix and a lambda's number
// ("java.lang.invoke.LambdaForm$MH", "p.C$$Lambda"; normalName), with their counts, most
// first.
std::vector<std::pair<std::string, uint64_t>> hiddenClassGroups(const profile::Profile& p);

// How many hidden classes the profile names.
uint64_t hiddenClassCount(const profile::Profile& p);

// What the hidden classes mean for the counts (one sentence, no count).
extern const char* const kHiddenClassesNote;

// {"count", "note", "groups": [[name, count], ...], "classes": [every name]}.
nlohmann::ordered_json hiddenClassesJson(const profile::Profile& p);

// "exact" or "sampled" (meta sample) and what the counts of such a profile are.
const char* countingKind(const profile::Profile& p);
const char* countingNote(const profile::Profile& p);

}  // namespace dragnet::report
