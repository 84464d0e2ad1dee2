// How every report writes JSON (the JSON reports, and the HTML pages' data).
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "profile/reader.h"

namespace dragnet::report {

// `j` as text, `indent` spaces a level (-1: one line). The profile's strings are already
// well-formed UTF-8 (profile/text.h); should a string from elsewhere not be, it is written
// with U+FFFD in its place: nlohmann's default would throw, and the report abort.
inline std::string jsonText(const nlohmann::ordered_json& j, int indent) {
  return j.dump(indent, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
}

// The head every analysis's JSON report starts with: {"format": FORMAT, "version": 1,
// "complete", "truncation", "corrupt" (when the reader skipped anything), "pid", "run"
// (run_info.h)}.
nlohmann::ordered_json jsonHead(const profile::Profile& p, std::string_view format);

}  // namespace dragnet::report
