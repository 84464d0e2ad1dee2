// Mode lifetime: the spaces by the allocation's whole calling context, the threads'
// contexts merged by their frames (as alloc merges its trees), for flame graphs of drag,
// void and lag (the collapsed, pprof and HTML reports). Nested sites (aggregate.h) keep only
// the innermost `stack` frames; these rows keep every frame up to the thread's root.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "analyses/lifetime/model/aggregate.h"

namespace dragnet::analyses::lifetime {

struct FlameRow {
  std::vector<uint32_t> keys;  // the allocating context's keys, innermost first, to the root
  uint32_t key = 0;            // the allocation key
  std::array<Space, kPhases> space{};
  Space operator[](Phase p) const { return space[static_cast<size_t>(p)]; }
};

// One row per (context path, allocation key), from Model::contextSites, in the order first met.
std::vector<FlameRow> flameRows(const Model& m);

// A row's frames, outermost (the thread's root method) first, to the allocating method at
// the site's line, then the allocated type if `typeFrame` (as alloc's collapsed stacks):
// "app.Main.main(Main.java)", "app.Main.build(Main.java:10)", "app.Point".
std::vector<std::string> flameFrames(const Model& m, const FlameRow& row, bool typeFrame);

// The allocated type of allocation key `key` ("int[]"), "<unknown>" without its site.
std::string siteTypeName(const Model& m, uint32_t key);

// The measures a flame graph offers (the report option `measure`), in this order.
inline constexpr std::array<Phase, 3> kFlamePhases = {Phase::Drag, Phase::Void, Phase::Lag};

}  // namespace dragnet::analyses::lifetime
