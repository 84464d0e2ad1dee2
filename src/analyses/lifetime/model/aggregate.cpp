#include "analyses/lifetime/model/aggregate.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <string_view>
#include <unordered_map>
#include <unordered_set>

#include "analyses/lifetime/model/flat_index.h"
#include "analyses/lifetime/model/paths.h"
#include "contexts/model.h"

namespace dragnet::analyses::lifetime {

using profile::kNoTime;
using profile::ObjectRecord;
using profile::Profile;

const char* phaseName(Phase p) {
  static const char* const kNames[] = {"lag", "use", "drag", "void"};
  return kNames[static_cast<size_t>(p)];
}

const char* dragPartName(DragPart d) {
  static const char* const kNames[] = {"actionable", "belowPrecision", "untilExit"};
  return kNames[static_cast<size_t>(d)];
}

namespace {

// "65536", "64k", "1m", "2g" (binary multiples); nullopt when malformed.
std::optional<uint64_t> parseBytes(const std::string& v) {
  if (v.empty()) return std::nullopt;
  uint64_t n = 0;
  size_t i = 0;
  for (; i < v.size() && v[i] >= '0' && v[i] <= '9'; ++i) {
    if (n > (std::numeric_limits<uint64_t>::max() - 9) / 10) return std::nullopt;
    n = n * 10 + static_cast<uint64_t>(v[i] - '0');
  }
  if (i == 0 || i + 1 < v.size()) return std::nullopt;
  if (i == v.size()) return n;
  size_t unit = std::string_view("kmg").find(static_cast<char>(v[i] | 0x20));  // lower case
  if (unit == std::string_view::npos) return std::nullopt;
  int shift = 10 * static_cast<int>(unit + 1);
  if (n > (std::numeric_limits<uint64_t>::max() >> shift)) return std::nullopt;
  return n << shift;
}

// A number (sizes may have a suffix) from the meta data or the End chunk's totals.
uint64_t number(const std::map<std::string, std::string>& kv, const char* key, uint64_t fallback) {
  auto it = kv.find(key);
  if (it == kv.end()) return fallback;
  return parseBytes(it->second).value_or(fallback);
}

}  // namespace

Settings settingsOf(const Profile& p) {
  Settings s;
  s.useEpoch = number(p.meta, "use.epoch", s.useEpoch);
  s.gcInterval = number(p.meta, "gc.interval", s.gcInterval);
  uint64_t stack = number(p.meta, "stack", s.stack);
  s.stack = stack > std::numeric_limits<uint32_t>::max() ? 0 : static_cast<uint32_t>(stack);
  s.sample = number(p.meta, "sample", 0);
  s.gcBudget = number(p.meta, "gc.budget", s.gcBudget);
  s.gcDeferred = number(p.totals, "gc.deferred", 0);
  auto stacks = p.meta.find("stacks");
  s.useContexts = stacks == p.meta.end() || stacks->second != "off";
  return s;
}

uint64_t weightOf(const ObjectRecord& r, uint64_t sample) {
  if (sample == 0 || r.size == 0) return 1;
  double w = 1.0 / -std::expm1(-static_cast<double>(r.size) / static_cast<double>(sample));
  double whole = std::floor(w);
  // splitmix64 of the id: a uniform draw in [0, 1) that the same record always gets.
  uint64_t z = mixBits(r.id + 0x9E3779B97F4A7C15ull);
  double u = static_cast<double>(z >> 11) * 0x1.0p-53;
  return static_cast<uint64_t>(whole) + (u < w - whole ? 1 : 0);
}

uint64_t epochEnd(uint64_t t, uint64_t epoch) {
  if (epoch == 0) return t;
  uint64_t n = t / epoch + 1;
  if (n > std::numeric_limits<uint64_t>::max() / epoch) return std::numeric_limits<uint64_t>::max();
  return n * epoch;
}

ForcedGcs::ForcedGcs(const std::vector<profile::GcEvent>& gcs) : lastForced_(gcs.size() + 1, 0) {
  for (size_t k = 0; k < gcs.size(); ++k) {
    lastForced_[k + 1] = gcs[k].forced ? gcs[k].time : lastForced_[k];
    if (gcs[k].forced) times_.push_back(gcs[k].time);
  }
  std::sort(times_.begin(), times_.end());
}

uint64_t ForcedGcs::lastSeen(const ObjectRecord& r) const {
  uint64_t seen = 0;
  if (r.deathGc > 0 && !lastForced_.empty()) {
    seen = lastForced_[std::min<size_t>(r.deathGc - 1, lastForced_.size() - 1)];
  } else if (r.deathGc == 0) {
    auto after = std::upper_bound(times_.begin(), times_.end(), r.death);
    if (after != times_.begin()) seen = *std::prev(after);
  }
  return std::max(seen, r.alloc);
}

bool ForcedGcs::anyBetween(uint64_t from, uint64_t to) const {
  auto next = std::upper_bound(times_.begin(), times_.end(), from);
  return next != times_.end() && *next < to;
}

uint64_t Life::dragTime(DragPart d) const {
  if (!used) return 0;
  uint64_t seen = std::max(lastSeen, lastUse);  // lastSeen <= death
  switch (d) {
    case DragPart::Actionable:
      return seen - lastUse;
    case DragPart::BelowPrecision:
      return atEnd ? 0 : death - seen;
    case DragPart::UntilExit:
      return atEnd ? death - seen : 0;
  }
  return 0;
}

uint64_t Life::time(Phase p) const {
  switch (p) {
    case Phase::Lag:
      return used ? firstUse - alloc : 0;
    case Phase::Use:
      return used ? lastUse - firstUse : 0;
    case Phase::Drag:
      return used ? death - lastUse : 0;
    case Phase::Void:
      return used ? 0 : death - alloc;
  }
  return 0;
}

Life lifeOf(const ObjectRecord& r, uint64_t useEpoch) {
  Life l;
  l.alloc = r.alloc;
  l.death = std::max(r.death, r.alloc);
  l.used = r.firstGet != kNoTime;
  if (!l.used) {
    l.firstUse = l.lastUse = l.death;
    return l;
  }
  l.firstUse = std::clamp(r.firstGet, l.alloc, l.death);
  uint64_t last = r.lastGet == kNoTime ? r.firstGet : r.lastGet;
  l.lastUse = std::clamp(std::min(l.death, epochEnd(last, useEpoch)), l.firstUse, l.death);
  return l;
}

Life lifeOf(const ObjectRecord& r, uint64_t useEpoch, const ForcedGcs& gcs) {
  Life l = lifeOf(r, useEpoch);
  l.lastSeen = std::clamp(gcs.lastSeen(r), l.alloc, l.death);
  l.atEnd = r.deathGc == 0;
  l.heldUnused = l.used && gcs.anyBetween(l.alloc, l.firstUse);
  return l;
}

uint64_t Stats::count(Phase p) const {
  switch (p) {
    case Phase::Lag:
      return lagged;
    case Phase::Use:
      return objects - voids;
    case Phase::Drag:
      return dragged;
    case Phase::Void:
      return voids;
  }
  return 0;
}

double Stats::percent(Space part, Space whole) {
  return whole == 0 ? 0.0 : 100.0 * toDouble(part) / toDouble(whole);
}

void Stats::add(const Life& life, uint64_t size, uint64_t weight) {
  ++records;
  objects += weight;
  bytes += size * weight;
  lagged += life.lagged() ? weight : 0;
  dragged += life.dragged() ? weight : 0;
  voids += life.used ? 0 : weight;
  Space scaled = Space{size} * weight;
  total += Space{life.lifetime()} * scaled;
  for (Phase p : kAllPhases) space[static_cast<size_t>(p)] += Space{life.time(p)} * scaled;
  for (DragPart d : kAllDragParts) {
    dragSpace[static_cast<size_t>(d)] += Space{life.dragTime(d)} * scaled;
  }
}

void Stats::add(const Stats& s) {
  records += s.records;
  objects += s.objects;
  lagged += s.lagged;
  dragged += s.dragged;
  voids += s.voids;
  bytes += s.bytes;
  total += s.total;
  for (size_t i = 0; i < kPhases; ++i) space[i] += s.space[i];
  for (size_t i = 0; i < kDragParts; ++i) dragSpace[i] += s.dragSpace[i];
}

bool isLifetimeProfile(const Profile& p) {
  auto it = p.meta.find("mode");
  return it != p.meta.end() && it->second == "lifetime";
}

namespace {

// Deaths: the gap between the last forced GC before the freeing one (or the allocation)
// and the freeing GC, summed an object at a time. Counts and the mean are over the objects
// the records stand for.
class PrecisionSum {
 public:
  PrecisionSum(const Profile& p, const ForcedGcs& forced, uint64_t sample)
      : forced_(forced), sample_(sample) {
    pr_.gcs = p.gcs.size();
    for (const profile::GcEvent& gc : p.gcs) pr_.forcedGcs += gc.forced ? 1 : 0;
  }
  void add(const ObjectRecord& r) {
    uint64_t weight = weightOf(r, sample_);
    if (r.deathGc == 0) {
      pr_.aliveAtEnd += weight;
      return;
    }
    uint64_t from = forced_.lastSeen(r);  // a freed object: the last forced GC before it
    uint64_t gap = r.death > from ? r.death - from : 0;
    pr_.maxGap = std::max(pr_.maxGap, gap);
    sum_ += static_cast<long double>(gap) * static_cast<long double>(weight);
    pr_.freed += weight;
  }
  Precision finish() {
    pr_.meanGap = pr_.freed ? static_cast<double>(sum_ / static_cast<long double>(pr_.freed)) : 0.0;
    return pr_;
  }

 private:
  const ForcedGcs& forced_;
  uint64_t sample_;
  Precision pr_;
  long double sum_ = 0;
};

// The groups as first met, before sorting.
struct RawPattern {
  uint32_t nested = 0;
  PathId firstGet = 0, lastGet = 0;
  Stats stats;
  uint32_t records = 0;  // its objects in the profile (stats counts the ones they stand for)
  uint64_t minId = ~uint64_t{0}, representative = 0;
  Space repSpace = 0;
  ObjectRecord rep;  // the representative's record
};

struct RawNested {
  PathId context = 0;
  uint32_t key = 0, cls = 0, method = 0;
  Stats stats;
  uint64_t minId = ~uint64_t{0};
  std::vector<uint32_t> patterns;  // raw pattern indices
};

struct Grouping {
  Stats filteredOut;
  std::vector<RawNested> nested;
  std::vector<RawPattern> patterns;
  std::vector<ClassGroup> classes;  // unsorted; `nested` filled later
  std::vector<MethodGroup> methods;
  std::vector<uint32_t> objNested, objPattern;  // raw indices per object (Model::indexed)
  uint64_t endTime = 0;
  Precision precision;
  std::vector<uint64_t> deathTimes;
};

class Grouper {
 public:
  Grouper(const Profile& p, const Settings& s, const ForcedGcs& gcs,
          std::vector<std::vector<uint32_t>>& paths, std::vector<ContextSite>& contextSites,
          bool indexed, const ContextFilter& keep)
      : p_(p),
        settings_(s),
        gcs_(gcs),
        paths_(p, s.stack, paths),
        indexed_(indexed),
        keep_(keep),
        precision_(p, gcs, s.sample),
        contextSites_(contextSites) {}

  // One pass over the objects: the groups, and what the model needs of every object.
  Grouping run() {
    if (indexed_) {
      g_.objNested.reserve(p_.objects.size());
      g_.objPattern.reserve(p_.objects.size());
    }
    for (const profile::GcEvent& gc : p_.gcs) g_.endTime = std::max(g_.endTime, gc.time);
    profile::forEachObject(p_, [&](std::span<const ObjectRecord> batch) {
      for (const ObjectRecord& r : batch) {
        add(r);
        precision_.add(r);
        g_.endTime = std::max({g_.endTime, r.death, r.alloc});
        if (r.alloc < r.death && r.death != lastDeath_) deathTimes_.insert(lastDeath_ = r.death);
      }
    });
    g_.precision = precision_.finish();
    g_.deathTimes.assign(deathTimes_.begin(), deathTimes_.end());
    std::sort(g_.deathTimes.begin(), g_.deathTimes.end());
    for (RawNested& n : g_.nested) {
      for (uint32_t pi : n.patterns) {
        n.stats.add(g_.patterns[pi].stats);
        n.minId = std::min(n.minId, g_.patterns[pi].minId);
      }
      g_.classes[n.cls].stats.add(n.stats);
      g_.methods[n.method].stats.add(n.stats);
    }
    return std::move(g_);
  }

 private:
  void add(const ObjectRecord& r) {
    if (keep_ && !keep_(r.thread, r.node)) {
      g_.filteredOut.add(lifeOf(r, settings_.useEpoch, gcs_), r.size,
                         weightOf(r, settings_.sample));
      return;
    }
    uint32_t n = nestedOf(paths_.of(r.thread, r.node), r.key);
    uint32_t pi = patternOf(n, paths_.of(r.firstGetAt), paths_.of(r.lastGetAt));
    RawPattern& pat = g_.patterns[pi];
    Life life = lifeOf(r, settings_.useEpoch, gcs_);
    uint64_t weight = weightOf(r, settings_.sample);
    pat.stats.add(life, r.size, weight);
    addContextSite(r, life, Space{r.size} * weight);
    ++pat.records;
    Space space = Space{life.lifetime()} * r.size;
    if (pat.representative == 0 || space > pat.repSpace ||
        (space == pat.repSpace && r.id < pat.representative)) {
      pat.representative = r.id;
      pat.repSpace = space;
      pat.rep = r;
    }
    pat.minId = std::min(pat.minId, r.id);
    if (!indexed_) return;
    g_.objNested.push_back(n);
    g_.objPattern.push_back(pi);
  }

  void addContextSite(const ObjectRecord& r, const Life& life, Space scaled) {
    unsigned __int128 k =
        static_cast<unsigned __int128>(r.thread) << 64 | uint64_t{r.node} << 32 | r.key;
    auto [index, fresh] = contextIndex_.insert(k, static_cast<uint32_t>(contextSites_.size()));
    if (fresh) contextSites_.push_back({r.thread, r.node, r.key, {}});
    for (Phase p : kAllPhases) {
      contextSites_[index].space[static_cast<size_t>(p)] += Space{life.time(p)} * scaled;
    }
  }

  uint32_t nestedOf(PathId context, uint32_t key) {
    auto [index, fresh] =
        nestedIndex_.insert(uint64_t{context} << 32 | key, static_cast<uint32_t>(g_.nested.size()));
    if (fresh) {
      RawNested n;
      n.context = context;
      n.key = key;
      n.cls = classOf(key);
      n.method = methodOf(key, context);
      g_.nested.push_back(std::move(n));
    }
    return index;
  }

  uint32_t patternOf(uint32_t nested, PathId firstGet, PathId lastGet) {
    unsigned __int128 k =
        static_cast<unsigned __int128>(nested) << 64 | uint64_t{firstGet} << 32 | lastGet;
    auto [index, fresh] = patternIndex_.insert(k, static_cast<uint32_t>(g_.patterns.size()));
    if (fresh) {
      RawPattern pat;
      pat.nested = nested;
      pat.firstGet = firstGet;
      pat.lastGet = lastGet;
      g_.patterns.push_back(pat);
      g_.nested[nested].patterns.push_back(index);
    }
    return index;
  }

  uint32_t classOf(uint32_t key) {
    auto site = p_.sites.find(key);
    std::string name =
        site == p_.sites.end() ? "<unknown>" : contexts::javaTypeName(site->second.type);
    auto [it, fresh] = classIndex_.try_emplace(name, static_cast<uint32_t>(g_.classes.size()));
    if (fresh) g_.classes.push_back(ClassGroup{0, name, {}, {}});
    return it->second;
  }

  // The site's method; for allocations without a bytecode (jvm, jni: method 0) the
  // allocating context's method.
  uint32_t methodOf(uint32_t key, PathId context) {
    auto site = p_.sites.find(key);
    uint32_t id = site == p_.sites.end() ? 0 : site->second.method;
    const std::vector<uint32_t>& path = paths_.keys(context);
    if (id == 0 && !path.empty() && !profile::isAllocKey(path[0])) id = path[0];
    auto [it, fresh] = methodIndex_.try_emplace(id, static_cast<uint32_t>(g_.methods.size()));
    if (fresh) {
      std::string name = id == 0 ? "<unknown>" : contexts::frameName(p_, id, -1);
      g_.methods.push_back(MethodGroup{0, id, name, {}, {}});
    }
    return it->second;
  }

  const Profile& p_;
  const Settings& settings_;
  const ForcedGcs& gcs_;
  PathTable paths_;
  bool indexed_;
  const ContextFilter& keep_;
  PrecisionSum precision_;
  // The GCs' times in a profile the agent wrote (and the end): few.
  std::unordered_set<uint64_t> deathTimes_;
  uint64_t lastDeath_ = 0;  // the latest inserted (neighbours mostly died together)
  std::vector<ContextSite>& contextSites_;
  FlatIndex<unsigned __int128> contextIndex_;  // (thread, node, key)
  Grouping g_;
  FlatIndex<uint64_t> nestedIndex_;            // (context, key)
  FlatIndex<unsigned __int128> patternIndex_;  // (nested, firstGet, lastGet)
  std::map<std::string, uint32_t> classIndex_;
  std::unordered_map<uint32_t, uint32_t> methodIndex_;
};

// The order of `n` items by a "comes first" predicate, and its inverse.
template <class Less>
std::pair<std::vector<uint32_t>, std::vector<uint32_t>> orderBy(size_t n, Less less) {
  std::vector<uint32_t> order(n), rank(n);
  for (uint32_t i = 0; i < n; ++i) order[i] = i;
  std::sort(order.begin(), order.end(), less);
  for (uint32_t i = 0; i < n; ++i) rank[order[i]] = i;
  return {std::move(order), std::move(rank)};
}

// Puts the groups into their final order and numbers them.
class Finisher {
 public:
  Finisher(Grouping& g, Model& m) : g_(g), m_(m), patternSlot_(g.patterns.size(), 0) {}

  void run() {
    auto [classOrder, classRank] = orderBy(g_.classes.size(), [&](uint32_t a, uint32_t b) {
      const ClassGroup &x = g_.classes[a], &y = g_.classes[b];
      return x.stats.total != y.stats.total ? x.stats.total > y.stats.total : x.name < y.name;
    });
    auto [methodOrder, methodRank] = orderBy(g_.methods.size(), [&](uint32_t a, uint32_t b) {
      const MethodGroup &x = g_.methods[a], &y = g_.methods[b];
      if (x.stats.total != y.stats.total) return x.stats.total > y.stats.total;
      return x.name != y.name ? x.name < y.name : x.methodId < y.methodId;
    });
    auto [nestedOrder, nestedRank] = orderBy(g_.nested.size(), [&](uint32_t a, uint32_t b) {
      const RawNested &x = g_.nested[a], &y = g_.nested[b];
      return x.stats.total != y.stats.total ? x.stats.total > y.stats.total : x.minId < y.minId;
    });
    for (uint32_t i : classOrder) m_.classes.push_back(std::move(g_.classes[i]));
    for (uint32_t i : methodOrder) m_.methods.push_back(std::move(g_.methods[i]));
    for (uint32_t i = 0; i < m_.classes.size(); ++i) m_.classes[i].id = i + 1;
    for (uint32_t i = 0; i < m_.methods.size(); ++i) m_.methods[i].id = i + 1;
    for (uint32_t i : nestedOrder) addNested(g_.nested[i], classRank, methodRank);
    placeObjects(nestedRank);
  }

 private:
  void addNested(const RawNested& raw, const std::vector<uint32_t>& classRank,
                 const std::vector<uint32_t>& methodRank) {
    NestedSite s;
    s.id = static_cast<uint32_t>(m_.nested.size()) + 1;
    s.context = raw.context;
    s.key = raw.key;
    s.cls = classRank[raw.cls];
    s.method = methodRank[raw.method];
    s.stats = raw.stats;
    std::vector<uint32_t> pats = raw.patterns;
    std::sort(pats.begin(), pats.end(), [&](uint32_t a, uint32_t b) {
      const RawPattern &x = g_.patterns[a], &y = g_.patterns[b];
      return x.stats.total != y.stats.total ? x.stats.total > y.stats.total : x.minId < y.minId;
    });
    for (uint32_t pi : pats) {
      const RawPattern& rp = g_.patterns[pi];
      patternSlot_[pi] = static_cast<uint32_t>(s.patterns.size());
      Pattern pat;
      pat.id = static_cast<uint32_t>(s.patterns.size()) + 1;
      pat.firstGet = rp.firstGet;
      pat.lastGet = rp.lastGet;
      patternRecords_.push_back(rp.records);
      pat.representative = rp.representative;
      pat.representativeRecord = rp.rep;
      pat.stats = rp.stats;
      s.patterns.push_back(pat);
    }
    uint32_t index = static_cast<uint32_t>(m_.nested.size());
    m_.classes[s.cls].nested.push_back(index);
    m_.methods[s.method].nested.push_back(index);
    m_.nested.push_back(std::move(s));
  }

  // Member ranges (sites in order, patterns in order), then the objects in id order.
  // Without per-object indices the ranges stay empty.
  void placeObjects(const std::vector<uint32_t>& nestedRank) {
    if (!m_.indexed) return;
    uint32_t at = 0;
    size_t k = 0;  // patternRecords_ holds the patterns in this order
    for (NestedSite& s : m_.nested) {
      s.begin = at;
      for (Pattern& pat : s.patterns) {
        pat.begin = pat.end = at;
        at += patternRecords_[k++];
      }
      s.end = at;
    }
    size_t n = g_.objNested.size();
    m_.members.assign(n, 0);
    m_.nestedOf.assign(n, 0);
    m_.patternOf.assign(n, 0);
    for (uint32_t i : m_.byId) {
      uint32_t site = nestedRank[g_.objNested[i]];
      uint32_t slot = patternSlot_[g_.objPattern[i]];
      m_.nestedOf[i] = site;
      m_.patternOf[i] = slot;
      m_.members[m_.nested[site].patterns[slot].end++] = i;
    }
  }

  Grouping& g_;
  Model& m_;
  std::vector<uint32_t> patternSlot_;     // raw pattern -> its index in its site's patterns
  std::vector<uint32_t> patternRecords_;  // records per pattern, in the model's order
};

// Object indices in id order (objectIndex searches them). Ids come from a counter handed
// out in per-thread batches, so they are dense: each index goes straight to its id's slot
// when the largest id is within a few times the count. Otherwise (or with duplicate ids,
// from a damaged file) (id, index) pairs are sorted: contiguous, unlike the records, whose
// scattered reads made a comparison sort of the indices most of a large report's time.
std::vector<uint32_t> indicesById(const std::vector<ObjectRecord>& objects) {
  const size_t n = objects.size();
  uint64_t maxId = 0;
  for (const ObjectRecord& o : objects) maxId = std::max(maxId, o.id);
  std::vector<uint32_t> out;
  out.reserve(n);
  constexpr uint32_t kEmpty = ~uint32_t{0};
  if (maxId <= 4 * uint64_t{n} + (uint64_t{1} << 20)) {
    std::vector<uint32_t> slot(maxId + 1, kEmpty);
    bool unique = true;
    for (uint32_t i = 0; i < n && unique; ++i) {
      uint32_t& s = slot[objects[i].id];
      unique = s == kEmpty;
      s = i;
    }
    if (unique) {
      for (uint32_t s : slot) {
        if (s != kEmpty) out.push_back(s);
      }
      return out;
    }
  }
  std::vector<std::pair<uint64_t, uint32_t>> pairs(n);
  for (uint32_t i = 0; i < n; ++i) pairs[i] = {objects[i].id, i};
  std::sort(pairs.begin(), pairs.end());  // equal ids keep their order: by index
  for (const auto& [id, i] : pairs) out.push_back(i);
  return out;
}

}  // namespace

Model buildModel(const Profile& p, const ContextFilter& keep) {
  Model m;
  m.profile = &p;
  m.settings = settingsOf(p);
  m.indexed = !p.objectChunks && !keep;  // per-object indices are of every object
  if (m.indexed) m.byId = indicesById(p.objects);
  m.forcedGcs = ForcedGcs(p.gcs);
  Grouping g = Grouper(p, m.settings, m.forcedGcs, m.paths, m.contextSites, m.indexed, keep).run();
  m.filteredOut = g.filteredOut;
  m.endTime = g.endTime;
  m.precision = g.precision;
  m.deathTimes = std::move(g.deathTimes);
  for (const RawNested& n : g.nested) m.totals.add(n.stats);
  Finisher(g, m).run();
  return m;
}

const ClassGroup* classById(const Model& m, uint32_t id) {
  return id >= 1 && id <= m.classes.size() ? &m.classes[id - 1] : nullptr;
}

const ClassGroup* classByName(const Model& m, const std::string& javaName) {
  for (const ClassGroup& c : m.classes) {
    if (c.name == javaName) return &c;
  }
  return nullptr;
}

const MethodGroup* methodById(const Model& m, uint32_t id) {
  return id >= 1 && id <= m.methods.size() ? &m.methods[id - 1] : nullptr;
}

const NestedSite* nestedById(const Model& m, uint32_t id) {
  return id >= 1 && id <= m.nested.size() ? &m.nested[id - 1] : nullptr;
}

std::optional<uint32_t> objectIndex(const Model& m, uint64_t objectId) {
  const auto& objects = m.profile->objects;
  auto it = std::lower_bound(m.byId.begin(), m.byId.end(), objectId,
                             [&](uint32_t i, uint64_t id) { return objects[i].id < id; });
  if (it == m.byId.end() || objects[*it].id != objectId) return std::nullopt;
  return *it;
}

const ObjectRecord& object(const Model& m, uint32_t index) { return m.profile->objects[index]; }

Life lifeOf(const Model& m, uint32_t index) {
  return lifeOf(m.profile->objects[index], m.settings.useEpoch, m.forcedGcs);
}

uint64_t weightOf(const Model& m, uint32_t index) {
  return weightOf(m.profile->objects[index], m.settings.sample);
}

std::span<const uint32_t> objectsOf(const Model& m, const NestedSite& s) {
  return std::span<const uint32_t>(m.members).subspan(s.begin, s.end - s.begin);
}

std::span<const uint32_t> objectsOf(const Model& m, const Pattern& p) {
  return std::span<const uint32_t>(m.members).subspan(p.begin, p.end - p.begin);
}

namespace {

std::vector<uint32_t> objectsOfSites(const Model& m, const std::vector<uint32_t>& sites) {
  std::vector<uint32_t> out;
  for (uint32_t s : sites) {
    std::span<const uint32_t> objects = objectsOf(m, m.nested[s]);
    out.insert(out.end(), objects.begin(), objects.end());
  }
  return out;
}

}  // namespace

std::vector<uint32_t> objectsOf(const Model& m, const ClassGroup& c) {
  return objectsOfSites(m, c.nested);
}

std::vector<uint32_t> objectsOf(const Model& m, const MethodGroup& g) {
  return objectsOfSites(m, g.nested);
}

namespace {

std::vector<std::string> keyFrames(const Model& m, const std::vector<uint32_t>& keys) {
  std::vector<std::string> frames;
  for (uint32_t key : keys) {
    if (profile::isAllocKey(key)) {  // built by appending (GCC 12 misreports "[" + s)
      auto site = m.profile->sites.find(key);
      std::string frame = "[";
      frame += site == m.profile->sites.end() ? "?" : contexts::javaTypeName(site->second.type);
      frames.push_back(frame += "]");
    } else {
      frames.push_back(contexts::frameName(*m.profile, key, -1));
    }
  }
  return frames;
}

}  // namespace

std::vector<std::string> pathFrames(const Model& m, PathId path) {
  return keyFrames(m, m.paths.at(path));
}

std::vector<std::string> eventFrames(const Model& m, const profile::EventAt& at) {
  if (at.thread == 0) return {};
  return keyFrames(m, contextKeys(*m.profile, at.thread, at.node, m.settings.stack));
}

std::vector<std::string> nestedFrames(const Model& m, const NestedSite& s) {
  return siteFrames(m, m.paths.at(s.context), s.key);
}

std::vector<std::string> siteFrames(const Model& m, const std::vector<uint32_t>& keys,
                                    uint32_t key) {
  const Profile& p = *m.profile;
  auto site = p.sites.find(key);
  int32_t line = site == p.sites.end() ? -1 : site->second.line;
  std::vector<std::string> frames;
  if (keys.empty() && site != p.sites.end() && site->second.method != 0) {
    frames.push_back(contexts::frameName(p, site->second.method, line));  // context unknown
  }
  for (uint32_t k : keys) {
    frames.push_back(profile::isAllocKey(k) ? std::string("[?]") : contexts::frameName(p, k, line));
    line = -1;  // callers: the call-site line is not recorded
  }
  return frames;
}

const std::string& typeOf(const Model& m, const NestedSite& s) { return m.classes[s.cls].name; }

}  // namespace dragnet::analyses::lifetime
