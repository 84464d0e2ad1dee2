// The run a profile records (its Meta entries command.line, main, java.*, host, start,
// duration.ms, dragnet.version; docs/PROFILE_FORMAT.md) as every report shows it at its top:
// the JSON headers' "run" object, the text heading's lines, the SQLite table `run`.
#pragma once

#include <nlohmann/json.hpp>
#include <ostream>

#include "profile/reader.h"

struct sqlite3;

namespace dragnet::report {

// {"commandLine", "command" (main class or jar and arguments), "mainClass", "jvm": {"name",
// "vendor", "version"}, "javaVersion", "host", "start" (UTC, ISO 8601), "durationMs" (to VM
// death, or to the last flush of a profile the JVM did not finish), "dragnetVersion"}; null
// where the profile does not say (written before these were recorded).
nlohmann::ordered_json runJson(const profile::Profile& p);

// The heading's lines of runJson's object `run` (those it has): command, main, jvm, host,
// started (with the duration; `complete` false: up to the last flush), dragnet.
void writeRunLines(std::ostream& out, const nlohmann::ordered_json& run, bool complete);

// Tables `meta` (every Meta entry of the profile) and `run` (runJson's entries that are
// known, the JVM's as jvm.name, jvm.vendor, jvm.version), both (key TEXT PRIMARY KEY, value
// TEXT), of every analysis's SQLite export. Throws SqlError.
void writeMetaTables(sqlite3* db, const profile::Profile& p);

}  // namespace dragnet::report
