// Reads a profile file (format.h) into memory: definitions, and per thread its tree with
// the latest counters. A truncated or corrupt tail (a JVM killed mid-write) is not an
// error: everything before it is read and `truncation` says where and why it stopped.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <unordered_map>
#include <vector>

#include "profile/format.h"

namespace dragnet::profile {

struct ThreadTree {
  uint32_t id = 0;
  std::string name;
  std::vector<NodeDef> nodes;      // node 0 is the root
  std::vector<Counters> counters;  // parallel to nodes
  uint64_t collapsed = 0;
  uint64_t dropped = 0;
  bool ended = false;
};

struct Profile {
  uint32_t version = 0;
  std::map<std::string, std::string> meta;
  std::unordered_map<uint32_t, MethodDef> methods;
  std::unordered_map<uint32_t, SiteDef> sites;  // by allocation key
  std::map<uint32_t, ThreadTree> threads;
  std::map<std::string, uint64_t> classSizes;
  std::vector<Failure> failures;
  std::vector<ObjectRecord> objects;          // mode lifetime, in the order written (by death)
  std::vector<GcEvent> gcs;                   // mode lifetime; GC n is gcs[n - 1]
  std::map<std::string, std::string> totals;  // from the End chunk
  bool complete = false;                      // the End chunk was read
  std::string truncation;                     // why reading stopped early (empty: read to the end)
  uint64_t chunks = 0;
};

// Progress callback: bytes read so far, total bytes.
using Progress = std::function<void(uint64_t, uint64_t)>;

// False with `error` when the file cannot be used at all: unreadable, not a profile, or
// written by a newer dragnet (the message names both versions).
bool readProfile(const std::string& path, Profile& out, std::string& error,
                 const Progress& progress = {});

}  // namespace dragnet::profile
