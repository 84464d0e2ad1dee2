#include "contexts/merge.h"

#include <charconv>
#include <map>
#include <set>
#include <tuple>
#include <unordered_map>

namespace dragnet::contexts {

using profile::Profile;

namespace {

std::string metaOf(const Profile& p, const std::string& key, const std::string& absent = "") {
  auto it = p.meta.find(key);
  return it == p.meta.end() ? absent : it->second;
}

// Why `p` cannot be merged into profiles recorded like `first`; empty if it can.
std::string mismatch(const Profile& first, const Profile& p) {
  for (const char* key : {"mode", "sample", "bytecodes"}) {
    std::string a = metaOf(first, key, "off"), b = metaOf(p, key, "off");  // "off": unset
    if (a != b) {
      return std::string("was recorded with ") + key + "=" + b + ", the first with " + key + "=" +
             a + ": only profiles recorded alike can be merged";
    }
  }
  return {};
}

bool isNumber(const std::string& s, uint64_t& v) {
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  return ec == std::errc() && end == s.data() + s.size() && !s.empty();
}

// Numeric totals add up (classes instrumented, threads, samples, ...); others keep the
// first profile's value.
void addTotals(std::map<std::string, std::string>& into,
               const std::map<std::string, std::string>& totals) {
  for (const auto& [k, v] : totals) {
    auto [it, fresh] = into.try_emplace(k, v);
    uint64_t a = 0, b = 0;
    if (!fresh && isNumber(it->second, a) && isNumber(v, b)) it->second = std::to_string(a + b);
  }
}

class Merger {
 public:
  explicit Merger(Profile& out) : out_(out) {}

  void add(const Profile& p) {
    methodIds_.clear();
    siteKeys_.clear();
    std::map<uint32_t, uint32_t> threadIds;  // p's -> merged
    for (const auto& [id, t] : p.threads) threadIds[id] = addThread(p, t);
    addRates(p, threadIds);
    for (const auto& [at, c] : p.callSites) addCallSite(p, c);
    for (const auto& [cls, size] : p.classSizes) out_.classSizes.try_emplace(cls, size);
    for (const profile::Failure& f : p.failures) {
      if (failures_.insert({f.cls, f.method, f.reason}).second) out_.failures.push_back(f);
    }
    addTotals(out_.totals, p.totals);
    out_.chunks += p.chunks;
    out_.version = std::max(out_.version, p.version);
  }

 private:
  // The merged id of method `id` of `p`; one of its own for a method without definition.
  uint32_t method(const Profile& p, uint32_t id) {
    if (id == 0) return 0;  // no method (a site of the JVM's own allocations)
    auto [local, fresh] = methodIds_.try_emplace(id, 0);
    if (!fresh) return local->second;
    auto def = p.methods.find(id);
    if (def == p.methods.end()) return local->second = nextMethod_++;
    const profile::MethodDef& m = def->second;
    auto [merged, isNew] = methods_.try_emplace({m.cls, m.name, m.descriptor, m.source}, 0);
    if (isNew) {
      merged->second = nextMethod_++;
      profile::MethodDef d = m;
      d.id = merged->second;
      out_.methods.emplace(d.id, std::move(d));
    }
    return local->second = merged->second;
  }

  // The merged key of allocation key `key` of `p` (its element kind kept in the low bits).
  uint32_t site(const Profile& p, uint32_t key) {
    auto [local, fresh] = siteKeys_.try_emplace(key, 0);
    if (!fresh) return local->second;
    uint32_t kind = key & 15;
    auto def = p.sites.find(key);
    if (def == p.sites.end()) return local->second = profile::kAllocBit | nextSite_++ << 4 | kind;
    const profile::SiteDef& s = def->second;
    uint32_t m = method(p, s.method);
    auto [merged, isNew] =
        sites_.try_emplace({m, s.bci, s.line, static_cast<uint8_t>(s.kind), s.type, kind}, 0);
    if (isNew) {
      merged->second = profile::kAllocBit | nextSite_++ << 4 | kind;
      profile::SiteDef d = s;
      d.key = merged->second;
      d.method = m;
      out_.sites.emplace(d.key, std::move(d));
    }
    return local->second = merged->second;
  }

  uint32_t key(const Profile& p, uint32_t k) {
    if (k == profile::kRootKey) return k;
    return profile::isAllocKey(k) ? site(p, k) : method(p, k);
  }

  // Objects' bytes from this JVM's class sizes (another JVM may lay a class out
  // differently): the model takes bytes already given as they are.
  static void objectBytes(const Profile& p, uint32_t key, profile::Counters& c) {
    if (!profile::isAllocKey(key) || (key & 15) != 0 || c.bytes != 0 || c.count == 0) return;
    auto s = p.sites.find(key);
    if (s == p.sites.end()) return;
    auto size = p.classSizes.find(s->second.type);
    if (size != p.classSizes.end()) c.bytes = c.count * size->second;
  }

  // A method's call sites as numbered in the first profile; where another numbers them
  // otherwise (a sampled profile numbers them as its stacks show them) the method keeps
  // none, so that no slot names a wrong one (its callers' lines are then unknown).
  void addCallSite(const Profile& p, const profile::CallSite& c) {
    profile::CallSite d = c;
    d.method = method(p, c.method);
    if (d.method == 0 || callConflicts_.count(d.method)) return;
    auto [it, fresh] = out_.callSites.try_emplace({d.method, d.number}, d);
    if (fresh || it->second == d) return;
    callConflicts_.insert(d.method);
    auto first = out_.callSites.lower_bound({d.method, 0});
    auto last = out_.callSites.lower_bound({d.method + 1, 0});
    out_.callSites.erase(first, last);
  }

  uint32_t addThread(const Profile& p, const profile::ThreadTree& t) {
    profile::ThreadTree m = t;
    m.id = nextThread_++;
    for (size_t i = 0; i < m.nodes.size(); ++i) {
      if (i < m.counters.size()) objectBytes(p, t.nodes[i].key, m.counters[i]);
      m.nodes[i].key = key(p, t.nodes[i].key);
    }
    out_.threads.emplace(m.id, std::move(m));
    return nextThread_ - 1;
  }

  // The Rate chunks of p's threads, renumbered like them (times stay each JVM's own: from
  // its start); those of a thread without a tree (a corrupt profile) are left out, as the
  // tree's counts are.
  void addRates(const Profile& p, const std::map<uint32_t, uint32_t>& threadIds) {
    for (const profile::RateChunk& r : p.rates) {
      auto id = threadIds.find(r.thread);
      if (id == threadIds.end()) continue;
      profile::RateChunk m = r;
      m.thread = id->second;
      for (auto& [k, c] : m.keys) {
        objectBytes(p, k, c);
        k = key(p, k);
      }
      out_.rates.push_back(std::move(m));
    }
  }

  Profile& out_;
  std::map<std::tuple<std::string, std::string, std::string, std::string>, uint32_t> methods_;
  std::map<std::tuple<uint32_t, uint32_t, int32_t, uint8_t, std::string, uint32_t>, uint32_t>
      sites_;
  std::set<std::tuple<std::string, std::string, std::string>> failures_;
  std::set<uint32_t> callConflicts_;  // merged methods whose call sites are left out
  std::unordered_map<uint32_t, uint32_t> methodIds_, siteKeys_;  // the current profile's
  uint32_t nextMethod_ = 1, nextSite_ = 1, nextThread_ = 1;
};

}  // namespace

bool mergeProfiles(const std::vector<Profile>& parts, const std::vector<std::string>& names,
                   Profile& out, std::string& error) {
  out = Profile{};
  if (parts.empty()) return true;
  for (size_t i = 0; i < parts.size(); ++i) {
    std::string why = mismatch(parts[0], parts[i]);
    if (!why.empty()) {
      error = "cannot merge the profiles: " + names[i] + " " + why;
      return false;
    }
  }
  out.meta = parts[0].meta;
  out.complete = true;
  Merger merger(out);
  std::string pids;
  for (size_t i = 0; i < parts.size(); ++i) {
    const Profile& p = parts[i];
    merger.add(p);
    out.complete &= p.complete;
    if (!p.truncation.empty()) {
      out.truncation += (out.truncation.empty() ? "" : "; ") + names[i] + ": " + p.truncation;
    }
    if (i > 0) pids += (i == 1 ? ", merged with " : ", ") + metaOf(p, "pid", names[i]);
  }
  out.meta["pid"] = metaOf(parts[0], "pid", names[0]) + pids;
  out.meta["merged"] = std::to_string(parts.size());
  return true;
}

}  // namespace dragnet::contexts
