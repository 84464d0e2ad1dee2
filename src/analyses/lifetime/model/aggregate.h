// Mode lifetime (HUP), analyzer side: each object's lag, use, drag and void time from its
// record (profile::ObjectRecord), their spaces (time x size), and the objects grouped by
// class, allocation site (the allocating method) and nested allocation site (the allocating
// context path), each nested site split into lifetime patterns. docs/REPORTS.md describes
// the numbers; the reports and `dragnet shell` show this model.
//
// Time is bytes allocated by all threads since recording began. Per object:
//   void (never got):  void = death - alloc
//   used:              lag  = firstGet - alloc
//                      lastUse = min(death, epochEnd(lastGet)), epochEnd(t) = (t / E + 1) * E
//                      use  = lastUse - firstGet
//                      drag = death - lastUse
// E is meta `use.epoch`: the agent records the last use only to within its epoch
// (ObjectRecord), so the end of that epoch is taken as the last use. Only gets are uses;
// puts are recorded but do not make an object used. The four phase boundaries are clamped
// into [alloc, death], so lag + use + drag (or void) is always the object's lifetime and no
// difference is negative (for consistent records, alloc <= firstGet <= death, this is
// exactly the formulas above). A space is a time times the object's size (byte x byte):
// it can exceed 2^64, hence `Space`.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <functional>
#include <limits>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "profile/reader.h"

namespace dragnet::analyses::lifetime {

using Space = unsigned __int128;  // byte x byte
// For JSON and percentages (53 bits of precision).
inline double toDouble(Space s) { return static_cast<double>(s); }
// The average bytes a space held over a run of `runLength` (bytes allocated): space /
// runLength (0 for a run of length 0).
inline double averageBytes(Space s, uint64_t runLength) {
  if (runLength == 0) return 0.0;
  return static_cast<double>(static_cast<long double>(s) / static_cast<long double>(runLength));
}

// The phases of an object's life (HUP Fig. 2, 3). `Use` is the in-use phase.
enum class Phase : uint8_t { Lag = 0, Use = 1, Drag = 2, Void = 3 };
inline constexpr size_t kPhases = 4;
inline constexpr std::array<Phase, kPhases> kAllPhases = {Phase::Lag, Phase::Use, Phase::Drag,
                                                          Phase::Void};
const char* phaseName(Phase p);  // "lag", "use", "drag", "void"

// The recording's parameters, from the profile's meta data (defaults when missing; sizes
// may have a k/m/g suffix).
struct Settings {
  uint64_t useEpoch = 65536;  // `use.epoch`; 0: last uses are exact
  uint64_t gcInterval = 0;    // `gc.interval`: bytes between forced GCs; 0: not recorded
  uint32_t stack = 8;         // `stack`: method frames of a nested site; 0: unlimited
  uint64_t sample = 0;        // `sample`: the sampling interval (bytes); 0: every object
  uint64_t gcBudget = 100;    // `gc.budget`: percent of the run forced GCs could take
  uint64_t gcDeferred = 0;    // End total `gc.deferred`: thresholds gc.budget passed over
  bool useContexts = true;    // `stacks` is not "off": where uses happen was recorded
};
Settings settingsOf(const profile::Profile& p);

// How many objects a record stands for: 1 in an exact profile; in a sampled one
// (sample=S), about 1 / (1 - exp(-size / S)), the inverse of the chance that the JVM's
// sampler picks an object of that size. Integer, so that counts stay counts: the
// fractional part is rounded up or down by a hash of the record's id, with the
// probability of the fraction, which keeps every sum an unbiased estimate.
uint64_t weightOf(const profile::ObjectRecord& r, uint64_t sample);

// The end of the use epoch that holds time t: (t / epoch + 1) * epoch (t itself if epoch 0).
uint64_t epochEnd(uint64_t t, uint64_t epoch);

// The forced collections of a profile: what is known of an object's reachability. A forced
// collection is full, so an object it did not free was reachable at its time (the JVM's own
// collections may be partial and prove nothing).
class ForcedGcs {
 public:
  ForcedGcs() = default;
  explicit ForcedGcs(const std::vector<profile::GcEvent>& gcs);
  // The latest time a forced collection found the object reachable, at least its allocation:
  // the last forced GC before the one that freed it, or for an object alive at the end
  // (deathGc 0) the last forced GC up to its death.
  uint64_t lastSeen(const profile::ObjectRecord& r) const;
  // Whether a forced collection ran at a time in (from, to).
  bool anyBetween(uint64_t from, uint64_t to) const;

 private:
  std::vector<uint64_t> lastForced_;  // [k]: the last forced GC's time among the first k GCs
  std::vector<uint64_t> times_;       // the forced GCs' times, ascending
};

// Where a dragged object's drag time [lastUse, death) lies (docs/REPORTS.md, "drag split"):
// Actionable, [lastUse, lastSeen): a forced collection found it reachable after its last
// use, so it was held unused; the rest, [max(lastUse, lastSeen), death), is not known to be
// drag: BelowPrecision for an object a collection freed (its death lies within the gap
// between two forced collections, so that drag is indistinguishable from zero), UntilExit
// for an object alive at the end (no collection after lastSeen tells whether it was still
// reachable; its drag runs to the end of the run).
enum class DragPart : uint8_t { Actionable = 0, BelowPrecision = 1, UntilExit = 2 };
inline constexpr size_t kDragParts = 3;
inline constexpr std::array<DragPart, kDragParts> kAllDragParts = {
    DragPart::Actionable, DragPart::BelowPrecision, DragPart::UntilExit};
const char* dragPartName(DragPart d);  // "actionable", "belowPrecision", "untilExit"

// One object's phase boundaries: alloc <= firstUse <= lastUse <= death.
// Void object: firstUse == lastUse == death (the whole life is void time).
struct Life {
  uint64_t alloc = 0, firstUse = 0, lastUse = 0, death = 0;
  bool used = false;  // got at least once
  // With the forced collections (the lifeOf below): lastSeen (ForcedGcs::lastSeen, clamped
  // into [alloc, death]), whether the object was alive at the end, and whether a forced
  // collection ran between its allocation and its first get.
  uint64_t lastSeen = 0;
  bool atEnd = false;
  bool heldUnused = false;
  uint64_t lifetime() const { return death - alloc; }
  uint64_t time(Phase p) const;         // lag, use, drag or void time (0 for phases it lacks)
  uint64_t dragTime(DragPart d) const;  // its drag time's part d (they add up to the drag)
  // Lagged: it sat unused through a forced collection (every object's lag is at least its
  // own size, the clock's advance at its allocation, so lag > 0 would say nothing).
  bool lagged() const { return used && heldUnused; }
  bool dragged() const { return used && death > lastUse; }
};
Life lifeOf(const profile::ObjectRecord& r, uint64_t useEpoch);
// The same with what the forced collections tell: lastSeen, atEnd, heldUnused.
Life lifeOf(const profile::ObjectRecord& r, uint64_t useEpoch, const ForcedGcs& gcs);

// Counts and spaces of a set of objects.
struct Stats {
  uint64_t objects = 0, lagged = 0, dragged = 0, voids = 0;  // voids: never got
  uint64_t bytes = 0;                                        // sum of the objects' sizes
  Space total = 0;                                           // sum of lifetime x size
  std::array<Space, kPhases> space{};
  std::array<Space, kDragParts> dragSpace{};  // space[Drag] split by DragPart
  // The records behind these figures: the objects themselves in an exact profile, the
  // samples in a sampled one (how much an estimate rests on).
  uint64_t records = 0;

  Space operator[](Phase p) const { return space[static_cast<size_t>(p)]; }
  Space operator[](DragPart d) const { return dragSpace[static_cast<size_t>(d)]; }
  // Objects with a nonzero time in the phase (lagged, used, dragged, void).
  uint64_t count(Phase p) const;
  // Percentage of `whole` (0 when whole is 0).
  static double percent(Space part, Space whole);
  // One object (or, with weight w, the w objects a sampled record stands for).
  void add(const Life& life, uint64_t size, uint64_t weight = 1);
  void add(const Stats& s);
};

// How precisely deaths are known: a freed object died somewhere between the last forced
// GC before the one that freed it (or its allocation, if later) and that GC. In a sampled
// profile the counts and the mean are over the objects the records stand for (weightOf),
// like Stats.
struct Precision {
  uint64_t maxGap = 0;      // largest such gap (bytes)
  double meanGap = 0;       // over the freed objects
  uint64_t freed = 0;       // objects freed by a GC (deathGc > 0)
  uint64_t aliveAtEnd = 0;  // deathGc == 0: death is the end time
  uint64_t gcs = 0, forcedGcs = 0;
};

// The objects allocated at one site in one whole calling context (the allocating thread's
// context node and the allocation key): their spaces, for flame graphs (flame.h merges the
// threads' contexts).
struct ContextSite {
  uint32_t thread = 0, node = 0, key = 0;
  std::array<Space, kPhases> space{};
};

// Index into Model::paths. Path 0 is the empty path: an event whose place was not recorded
// (EventAt thread 0) or whose context is not in the profile.
using PathId = uint32_t;

// Objects whose first and last gets happened at the same context paths (HUP 2.2).
struct Pattern {
  uint32_t id = 0;  // 1-based within its nested site, by descending total space
  PathId firstGet = 0, lastGet = 0;
  uint64_t representative = 0;  // ObjectRecord::id of the member with the largest space
  profile::ObjectRecord representativeRecord;
  Stats stats;  // in a sampled profile, stats.objects counts what its records stand for
  uint32_t begin = 0, end = 0;  // its objects: Model::members[begin, end)
};

// A nested allocation site: the allocating context path (innermost `stack` method frames)
// and the allocation key (the `new`'s bci and line), merged across threads.
struct NestedSite {
  uint32_t id = 0;
  PathId context = 0;   // method ids, the allocating method first
  uint32_t key = 0;     // allocation key
  uint32_t cls = 0;     // index into Model::classes
  uint32_t method = 0;  // index into Model::methods
  Stats stats;
  std::vector<Pattern> patterns;  // by descending total space (id order)
  uint32_t begin = 0, end = 0;    // its objects: Model::members[begin, end)
};

// A class (the allocated type of the record's site).
struct ClassGroup {
  uint32_t id = 0;
  std::string name;  // Java spelling ("int[]", "java.lang.String"), "<unknown>" without a site
  Stats stats;
  std::vector<uint32_t> nested;  // indices into Model::nested, by descending total space
};

// An allocation site in HUP's sense: the method that allocated (lines not distinguished).
struct MethodGroup {
  uint32_t id = 0;
  uint32_t methodId = 0;  // profile method id; 0: unknown
  std::string name;       // "app.Main.build(Main.java)"; "<unknown method #N>" for a method
                          // without a definition, "<unknown>" for id 0
  Stats stats;
  std::vector<uint32_t> nested;  // indices into Model::nested, by descending total space
};

// Every group vector is sorted by descending total space (ties: classes and methods by
// name, nested sites and patterns by their smallest object id), and a group's `id` is its
// index + 1: small, stable for a given profile, for a shell to refer to.
// A model's memory is its groups' when the profile's objects stay in the file
// (profile::ReadOptions::streamObjects): then it has no per-object indices (`indexed` false:
// `members`, `nestedOf`, `patternOf`, `byId` empty, objectIndex finds nothing), and what
// needs every object (heap.h) reads them again with profile::forEachObject.
struct Model {
  const profile::Profile* profile = nullptr;  // must outlive the model
  Settings settings;
  bool indexed = true;
  uint64_t endTime = 0;  // the latest death or GC time: the end of the recording
  // The distinct death times of the objects that lived (alloc < death), ascending: the GCs'
  // times and the end in a profile the agent wrote (heap.h's peaks are found at them).
  std::vector<uint64_t> deathTimes;
  Stats totals;
  // The objects a filter of buildModel left out (none without one): totals + filteredOut is
  // every object's.
  Stats filteredOut;
  Precision precision;
  ForcedGcs forcedGcs;
  std::vector<ContextSite> contextSites;  // in the order first met
  // How many of a whole allocation context's keys (innermost first, to the thread's root)
  // the flame graphs show (flame.h): all when empty; fewer under the reports' --focus, which
  // cuts off the callers of its frame.
  std::function<size_t(const std::vector<uint32_t>& keys)> flameCut;
  std::vector<std::vector<uint32_t>> paths;  // PathId -> context keys, innermost first
  std::vector<ClassGroup> classes;
  std::vector<MethodGroup> methods;
  std::vector<NestedSite> nested;
  std::vector<uint32_t> members;    // object indices grouped by nested site, then pattern
  std::vector<uint32_t> nestedOf;   // per object index: index into `nested`
  std::vector<uint32_t> patternOf;  // per object index: index into its site's `patterns`
  std::vector<uint32_t> byId;       // object indices in ascending ObjectRecord::id
};

// Whether the model takes an object, by its allocation context (thread, node of its thread's
// calling-context tree): the reports' stack filters (report/stack_filter.h).
using ContextFilter = std::function<bool(uint32_t thread, uint32_t node)>;

// The model of a profile's objects (empty groups for a profile without objects, e.g. an
// alloc profile); with `keep`, of the objects it takes (then without per-object indices:
// `indexed` false).
Model buildModel(const profile::Profile& p, const ContextFilter& keep = {});
bool isLifetimeProfile(const profile::Profile& p);  // meta mode == lifetime

// Looks up by the 1-based ids above (nullptr when out of range) and objects by record id.
const ClassGroup* classById(const Model& m, uint32_t id);
const ClassGroup* classByName(const Model& m, const std::string& javaName);
const MethodGroup* methodById(const Model& m, uint32_t id);
const NestedSite* nestedById(const Model& m, uint32_t id);
std::optional<uint32_t> objectIndex(const Model& m, uint64_t objectId);
const profile::ObjectRecord& object(const Model& m, uint32_t index);

// The object indices of a pattern (ascending ObjectRecord::id), or of a nested site (its
// patterns' objects, pattern after pattern).
std::span<const uint32_t> objectsOf(const Model& m, const NestedSite& s);
std::span<const uint32_t> objectsOf(const Model& m, const Pattern& p);
// The object indices of a class or method: its nested sites' objects, site after site.
std::vector<uint32_t> objectsOf(const Model& m, const ClassGroup& c);
std::vector<uint32_t> objectsOf(const Model& m, const MethodGroup& g);
// The phases of the object at `index` (lifeOf with the model's use epoch).
Life lifeOf(const Model& m, uint32_t index);
// The objects the record at `index` stands for (weightOf with the model's sample).
uint64_t weightOf(const Model& m, uint32_t index);

// Indices of `groups` (or of `subset`, indices into groups) whose space in phase p is
// nonzero, largest first (ties: lower index), at most `limit`.
template <class G>
std::vector<uint32_t> rankBy(const std::vector<G>& groups, const std::vector<uint32_t>& subset,
                             Phase p, size_t limit = std::numeric_limits<size_t>::max());
template <class G>
std::vector<uint32_t> rankBy(const std::vector<G>& groups, Phase p,
                             size_t limit = std::numeric_limits<size_t>::max());

// Frames of a context path, innermost first ("app.Main.build(Main.java)"); empty for path 0.
std::vector<std::string> pathFrames(const Model& m, PathId path);
// Frames of where an event happened (an object's allocation context, or where its first or
// last get or put was), truncated like nested sites; empty when not recorded.
std::vector<std::string> eventFrames(const Model& m, const profile::EventAt& at);
// Frames of a nested site, innermost first: the allocating method with the site's line,
// then its callers (whose call-site lines are not recorded).
std::vector<std::string> nestedFrames(const Model& m, const NestedSite& s);
// The same for the context path `keys` (innermost first) of allocation key `key`.
std::vector<std::string> siteFrames(const Model& m, const std::vector<uint32_t>& keys,
                                    uint32_t key);
// The allocated type of a nested site (the class group's name).
const std::string& typeOf(const Model& m, const NestedSite& s);

// ---- template definitions

template <class G>
std::vector<uint32_t> rankBy(const std::vector<G>& groups, const std::vector<uint32_t>& subset,
                             Phase p, size_t limit) {
  std::vector<uint32_t> out;
  for (uint32_t i : subset) {
    if (groups[i].stats[p] > 0) out.push_back(i);
  }
  auto larger = [&](uint32_t a, uint32_t b) {
    Space sa = groups[a].stats[p], sb = groups[b].stats[p];
    return sa != sb ? sa > sb : a < b;
  };
  std::sort(out.begin(), out.end(), larger);
  if (out.size() > limit) out.resize(limit);
  return out;
}

template <class G>
std::vector<uint32_t> rankBy(const std::vector<G>& groups, Phase p, size_t limit) {
  std::vector<uint32_t> all(groups.size());
  for (uint32_t i = 0; i < all.size(); ++i) all[i] = i;
  return rankBy(groups, all, p, limit);
}

}  // namespace dragnet::analyses::lifetime
