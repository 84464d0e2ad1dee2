// Reports of an alloc-mode profile: text (totals, top sites, top types, JP element kinds,
// call tree, classes not rewritten), JSON (docs/REPORTS.md has the schema) and collapsed
// stacks (flamegraph.pl / speedscope, weighted by bytes).
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <ostream>
#include <set>
#include <string>

#include "contexts/model.h"
#include "report/context_views.h"

namespace dragnet::report {

// The threads a report shows (`--opt thread=GLOB`): the ids merged into its model (null:
// every thread) and the pattern that chose them.
struct ThreadFilter {
  const std::set<uint32_t>* only = nullptr;
  std::string pattern;
};

struct TextOptions {
  size_t top = 20;                  // rows per table
  ThreadFilter threads = {};
  const AllocView* view = nullptr;  // of `m`: its filter and first application frames
};

void writeText(std::ostream& out, const contexts::AllocModel& m, const TextOptions& o);
// `view` (of `m`): the header's filter, the rows' first application frames (null: the JDK's
// frames alone are not the application's).
void writeJson(std::ostream& out, const contexts::AllocModel& m, const ThreadFilter& threads = {},
               const AllocView* view = nullptr);
// Whether the profile's threads are real threads: false for a sampled profile of an older
// agent, whose one tree held every thread's samples.
bool threadsRecorded(const profile::Profile& p);
// What the JSON report and the HTML page's data both start with (docs/REPORTS.md, json):
// whether the profile is complete, corrupt, sampled (and its interval), what its counts
// mean, the totals, the agent's memory, the JIT settings, the classes instrumented. One
// function, so that the formats cannot drift apart.
nlohmann::ordered_json allocHeaderJson(const contexts::AllocModel& m);
// The text report's lines before its tables, rendered from allocHeaderJson's object alone:
// every number and note the text prints there is a value of the JSON header.
void writeTextHeader(std::ostream& out, const nlohmann::ordered_json& header);
// The agent's own memory, from the End chunk (absent in sampled profiles and in profiles
// of agents that did not write it): the trees' native memory at peak, at exit and its
// bound (max-memory), and the Java heap they held (instruction counts).
struct AgentMemory {
  std::optional<uint64_t> nativePeak, nativeAtExit, nativeLimit, heap;
};
AgentMemory agentMemory(const profile::Profile& p);

// One line per allocation row: "root;caller;...;allocating method;type bytes".
void writeCollapsed(std::ostream& out, const contexts::AllocModel& m);

}  // namespace dragnet::report
