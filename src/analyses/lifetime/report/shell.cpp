#include "analyses/lifetime/report/shell.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <optional>
#include <stdexcept>

#include "analyses/lifetime/model/heap.h"
#include "analyses/lifetime/report/sql.h"
#include "analyses/lifetime/report/text.h"
#include "report/text_format.h"

namespace dragnet::report {

using analyses::lifetime::ClassGroup;
using analyses::lifetime::kAllPhases;
using analyses::lifetime::Life;
using analyses::lifetime::MethodGroup;
using analyses::lifetime::Model;
using analyses::lifetime::NestedSite;
using analyses::lifetime::Phase;
using analyses::lifetime::phaseName;
using analyses::lifetime::Space;
using analyses::lifetime::Stats;
namespace lt = lifetime_text;

namespace {

constexpr const char* kHelp =
    "help                            this list\n"
    "write FILE                      write the output of the next command to FILE\n"
    "stat [long]                     settings, totals of lag, use, drag and void space, group\n"
    "                                counts (long: the reachable heap after each GC)\n"
    "obj ID [long]                   an object: class, sites, pattern, times, spaces (long: the\n"
    "                                stacks of its allocation and first and last get and put)\n"
    "class ID|NAME [long]            a class: counts and spaces (long: its lagged, dragged and\n"
    "                                void objects)\n"
    "method ID [long]                an allocation site (method), likewise\n"
    "nested ID [long]                a nested allocation site, likewise\n"
    "lag|drag|void class [ID] [@N]   classes by that space; with ID the class's nested sites\n"
    "lag|drag|void method [ID] [@N]  methods by that space; with ID the method's nested sites\n"
    "lag|drag|void nested [ID] [@N]  nested sites by that space; with ID the site's lifetime\n"
    "                                patterns (each with a representative object)\n"
    "                                @N: at most N rows (default: --rows, 20; @0: all)\n"
    "sql QUERY                       SQL (SQLite) on the tables objects, classes, methods,\n"
    "                                nested, patterns, gcs, totals, meta (docs/SHELL.md)\n"
    "exit                            leave the shell\n";

// The synopsis of each command, for its usage error.
constexpr Synopsis kSynopses[] = {
    {"help", "help"},
    {"stat", "stat [long]"},
    {"obj", "obj ID [long]"},
    {"class", "class ID|NAME [long]"},
    {"method", "method ID [long]"},
    {"nested", "nested ID [long]"},
    {"sql", "sql QUERY"},
    {"exit", "exit"},
    {"lag", "lag|drag|void class|method|nested [ID] [@N]"},
    {"drag", "lag|drag|void class|method|nested [ID] [@N]"},
    {"void", "lag|drag|void class|method|nested [ID] [@N]"},
};

ShellError usageError(const std::string& cmd) { return report::usageError(kSynopses, cmd); }

std::string num(uint64_t v) { return grouped(v); }

bool allDigits(std::string_view s) {
  return !s.empty() && s.size() <= 19 &&
         std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

uint64_t parseNumber(const std::string& word, const char* what) {
  if (!allDigits(word)) throw ShellError("not " + std::string(what) + ": '" + word + "'");
  return std::stoull(word);
}

// The 1-based group id `word`; the error names the valid range.
uint32_t parseGroupId(const std::string& word, const char* what, size_t count) {
  uint64_t id = parseNumber(word, "an id");
  if (id < 1 || id > count) {
    std::string range = count == 0 ? "there are none" : "ids are 1.." + std::to_string(count);
    throw ShellError("no " + std::string(what) + " " + word + " (" + range + ")");
  }
  return static_cast<uint32_t>(id);
}

// The command's words after the first `fixed` ones: nothing, or "long".
bool longFlag(const std::vector<std::string>& w, size_t fixed) {
  if (w.size() == fixed) return false;
  if (w.size() == fixed + 1 && w[fixed] == "long") return true;
  throw usageError(w[0]);
}

// "  label        value": the report's field layout.
void field(std::ostream& out, const char* label, const std::string& value) {
  char head[32];
  std::snprintf(head, sizeof head, "  %-12s ", label);
  out << head << value << "\n";
}

// Words (object ids) under a label, wrapped at about 100 columns; "none" without any.
void writeIds(std::ostream& out, const char* label, const std::vector<std::string>& ids) {
  char head[32];
  std::snprintf(head, sizeof head, "  %-16s ", label);
  out << head;
  if (ids.empty()) out << "none";
  size_t column = 19;
  for (size_t i = 0; i < ids.size(); ++i) {
    std::string id = ids[i] + (i + 1 < ids.size() ? "," : "");
    if (i > 0 && column + 1 + id.size() > 100) {
      out << "\n" << std::string(19, ' ');
      column = 19;
    } else if (i > 0) {
      out << " ";
      ++column;
    }
    out << id;
    column += id.size();
  }
  out << "\n";
}

// `long`: the ids of a group's lagged, dragged and void objects (HUP A.3). In a sampled
// profile they are the tracked records, each with the objects it stands for ("3 (x4)"), so
// that a list's weights add up to the group's count.
void writeObjectsByKind(std::ostream& out, const Model& m, std::vector<uint32_t> objects) {
  std::sort(objects.begin(), objects.end(), [&](uint32_t a, uint32_t b) {
    return analyses::lifetime::object(m, a).id < analyses::lifetime::object(m, b).id;
  });
  const bool sampled = m.settings.sample != 0;
  std::vector<std::string> lagged, dragged, voids;
  for (uint32_t i : objects) {
    Life life = analyses::lifetime::lifeOf(m, i);
    std::string id = std::to_string(analyses::lifetime::object(m, i).id);
    if (sampled) id += " (x" + num(analyses::lifetime::weightOf(m, i)) + ")";
    if (life.lagged()) lagged.push_back(id);
    if (life.dragged()) dragged.push_back(id);
    if (!life.used) voids.push_back(id);
  }
  writeIds(out, sampled ? "lagged records" : "lagged objects", lagged);
  writeIds(out, sampled ? "dragged records" : "dragged objects", dragged);
  writeIds(out, sampled ? "void records" : "void objects", voids);
}

std::string nestedIds(const std::vector<uint32_t>& indices) {
  std::string s;
  for (uint32_t i : indices) s += (s.empty() ? "" : ", ") + std::to_string(i + 1);
  return s.empty() ? "none" : s;
}

// ---- stat

void writeHeapAtGcs(std::ostream& out, const Model& m) {
  out << "\nReachable heap just after each GC (bytes)\n";
  const char* format = "  %-6s %16s %6s %14s %14s %14s %14s %14s\n";
  char line[160];
  std::snprintf(line, sizeof line, format, "gc", "time", "forced", "heap", "in use", "lag", "drag",
                "void");
  out << line;
  for (const auto& h : analyses::lifetime::heapAtGcs(m)) {
    auto bytes = [&](Phase p) { return num(h.bytes[static_cast<size_t>(p)]); };
    std::snprintf(line, sizeof line, format, std::to_string(h.gc).c_str(), num(h.time).c_str(),
                  h.forced ? "yes" : "no", num(h.total()).c_str(), bytes(Phase::Use).c_str(),
                  bytes(Phase::Lag).c_str(), bytes(Phase::Drag).c_str(),
                  bytes(Phase::Void).c_str());
    out << line;
  }
}

void stat(std::ostream& out, const Model& m, bool detailed) {
  lt::writeSummary(out, m);
  size_t patterns = 0;
  for (const NestedSite& s : m.nested) patterns += s.patterns.size();
  field(out, "groups",
        num(m.classes.size()) + " classes, " + num(m.methods.size()) + " methods, " +
            num(m.nested.size()) + " nested sites, " + num(patterns) + " lifetime patterns");
  if (detailed) writeHeapAtGcs(out, m);
}

// ---- obj

std::string timeOrNever(uint64_t t) { return t == profile::kNoTime ? "never" : num(t); }

// The object's phase times (scale 1) or spaces (scale: its size, times its weight for all
// the objects a sampled record stands for).
std::string phases(const Life& life, Space scale) {
  auto amount = [&](Phase p) { return grouped(Space{life.time(p)} * scale); };
  if (!life.used) return "void " + amount(Phase::Void);
  return "lag " + amount(Phase::Lag) + ", in use " + amount(Phase::Use) + ", drag " +
         amount(Phase::Drag);
}

std::string spaces(const Life& life, Space scale) {
  return phases(life, scale) + "; total " + grouped(Space{life.lifetime()} * scale);
}

void writeEventStacks(std::ostream& out, const Model& m, const profile::ObjectRecord& r,
                      const NestedSite& site) {
  field(out, "allocated at", lt::joined(analyses::lifetime::nestedFrames(m, site), 0));
  struct Event {
    const char* label;
    uint64_t time;
    const profile::EventAt& at;
  };
  for (const Event& e : {Event{"first get at", r.firstGet, r.firstGetAt},
                         Event{"last get at", r.lastGet, r.lastGetAt},
                         Event{"first put at", r.firstPut, r.firstPutAt},
                         Event{"last put at", r.lastPut, r.lastPutAt}}) {
    if (e.time != profile::kNoTime) {
      field(out, e.label, lt::joined(analyses::lifetime::eventFrames(m, e.at), 0));
    }
  }
}

void obj(std::ostream& out, const Model& m, const std::string& word, bool detailed) {
  std::optional<uint32_t> index =
      analyses::lifetime::objectIndex(m, parseNumber(word, "an object id"));
  if (!index) throw ShellError("no object " + word);
  const profile::ObjectRecord& r = analyses::lifetime::object(m, *index);
  const NestedSite& site = m.nested[m.nestedOf[*index]];
  Life life = analyses::lifetime::lifeOf(m, *index);
  out << "object " << r.id << ": " << analyses::lifetime::typeOf(m, site) << ", " << num(r.size)
      << " bytes\n";
  // A sampled record stands for `weight` objects: said first, and (when more than one)
  // their spaces, the ones its groups count, after its own.
  const uint64_t weight = m.settings.sample ? analyses::lifetime::weightOf(m, *index) : 0;
  if (weight) {
    field(out, "sampled",
          "a tracked record that stands for " + num(weight) +
              (weight == 1 ? " object" : " objects") +
              " of its size (the times and spaces below are one object's)");
  }
  field(out, "groups",
        "class " + std::to_string(site.cls + 1) + ", method " + std::to_string(site.method + 1) +
            ", nested site " + std::to_string(site.id) + ", pattern " +
            std::to_string(m.patternOf[*index] + 1));
  field(out, "alloc", num(r.alloc) + " (thread " + std::to_string(r.thread) + ")");
  field(out, "first get", timeOrNever(r.firstGet));
  if (life.used) {
    field(out, "last get", timeOrNever(r.lastGet));
    field(out, "last use", num(life.lastUse));
  }
  field(out, "first put", timeOrNever(r.firstPut));
  field(out, "last put", timeOrNever(r.lastPut));
  field(out, "death",
        num(life.death) + (r.deathGc ? " (GC " + std::to_string(r.deathGc) + ")"
                                     : std::string(" (alive at the end)")));
  field(out, "times", phases(life, 1) + "; lifetime " + num(life.lifetime()));
  field(out, "spaces", spaces(life, r.size));
  if (weight > 1) {
    field(out, ("spaces x " + num(weight)).c_str(), spaces(life, Space{r.size} * weight));
  }
  if (detailed) writeEventStacks(out, m, r, site);
}

// ---- class, method, nested

const ClassGroup& findClass(const Model& m, const std::string& word) {
  if (allDigits(word)) return m.classes[parseGroupId(word, "class", m.classes.size()) - 1];
  const ClassGroup* c = analyses::lifetime::classByName(m, word);
  if (!c) throw ShellError("no class named '" + word + "'");
  return *c;
}

const MethodGroup& findMethod(const Model& m, const std::string& word) {
  return m.methods[parseGroupId(word, "method", m.methods.size()) - 1];
}

const NestedSite& findNested(const Model& m, const std::string& word) {
  return m.nested[parseGroupId(word, "nested site", m.nested.size()) - 1];
}

void classInfo(std::ostream& out, const Model& m, const std::string& word, bool detailed) {
  const ClassGroup& c = findClass(m, word);
  out << "class " << c.id << ": " << c.name << "\n";
  lt::writeStats(out, c.stats, m.endTime);
  field(out, "nested sites", nestedIds(c.nested));
  if (detailed) writeObjectsByKind(out, m, analyses::lifetime::objectsOf(m, c));
}

void methodInfo(std::ostream& out, const Model& m, const std::string& word, bool detailed) {
  const MethodGroup& g = findMethod(m, word);
  out << "method " << g.id << ": " << g.name;
  auto def = m.profile->methods.find(g.methodId);
  if (def != m.profile->methods.end()) out << " " << def->second.descriptor;
  out << "\n";
  lt::writeStats(out, g.stats, m.endTime);
  field(out, "nested sites", nestedIds(g.nested));
  if (detailed) writeObjectsByKind(out, m, analyses::lifetime::objectsOf(m, g));
}

void nestedInfo(std::ostream& out, const Model& m, const std::string& word, bool detailed) {
  const NestedSite& s = findNested(m, word);
  out << "nested " << s.id << ": " << lt::nestedName(m, s, 0) << "\n";
  lt::writeStats(out, s.stats, m.endTime);
  field(out, "groups",
        "class " + std::to_string(s.cls + 1) + ", method " + std::to_string(s.method + 1) + ", " +
            num(s.patterns.size()) + " lifetime patterns");
  if (detailed) {
    std::span<const uint32_t> objects = analyses::lifetime::objectsOf(m, s);
    writeObjectsByKind(out, m, {objects.begin(), objects.end()});
  }
}

// ---- lag|drag|void class|method|nested [ID] [@N]

struct RankArgs {
  Phase phase = Phase::Drag;
  std::string kind;
  std::optional<std::string> id;
  size_t limit = 0;  // 0: all
};

RankArgs parseRank(const std::vector<std::string>& w, size_t defaultRows) {
  RankArgs a;
  a.phase = w[0] == "lag" ? Phase::Lag : w[0] == "void" ? Phase::Void : Phase::Drag;
  if (w.size() < 2 || w.size() > 4) throw usageError(w[0]);
  a.kind = w[1];
  if (a.kind != "class" && a.kind != "method" && a.kind != "nested") {
    throw ShellError("not class, method or nested: '" + a.kind + "'");
  }
  a.limit = defaultRows;
  bool limited = false;
  for (size_t i = 2; i < w.size(); ++i) {
    if (w[i].starts_with("@") && !limited) {
      a.limit = parseNumber(w[i].substr(1), "a row count after @");
      limited = true;
    } else if (!w[i].starts_with("@") && !a.id && !limited) {
      a.id = w[i];
    } else {
      throw usageError(w[0]);
    }
  }
  return a;
}

// Cuts `rows` to the limit; returns how many were cut.
size_t cut(std::vector<uint32_t>& rows, size_t limit) {
  if (limit == 0 || rows.size() <= limit) return 0;
  size_t more = rows.size() - limit;
  rows.resize(limit);
  return more;
}

void writeMore(std::ostream& out, size_t more) { moreRows(out, more, 0); }

void rankAll(std::ostream& out, const Model& m, const RankArgs& a, size_t frames) {
  using analyses::lifetime::rankBy;
  Phase p = a.phase;
  std::vector<uint32_t> rows;
  size_t more = 0;
  if (a.kind == "class") {
    rows = rankBy(m.classes, p);
    more = cut(rows, a.limit);
    lt::writeRanking(out, m, lt::byPhase("Classes", p), "class", p, lt::groupRows(m.classes, rows));
  } else if (a.kind == "method") {
    rows = rankBy(m.methods, p);
    more = cut(rows, a.limit);
    lt::writeRanking(out, m, lt::byPhase("Allocation sites", p), "method", p,
                     lt::groupRows(m.methods, rows));
  } else {
    rows = rankBy(m.nested, p);
    more = cut(rows, a.limit);
    lt::writeRanking(out, m, lt::byPhase("Nested allocation sites", p), "type at stack", p,
                     lt::nestedRows(m, rows, frames));
  }
  writeMore(out, more);
}

// The nested sites of a class or method, ranked.
void rankSites(std::ostream& out, const Model& m, const RankArgs& a, const std::string& owner,
               const std::vector<uint32_t>& sites, size_t frames) {
  std::vector<uint32_t> rows = analyses::lifetime::rankBy(m.nested, sites, a.phase);
  size_t more = cut(rows, a.limit);
  lt::writeRanking(out, m, lt::byPhase("Nested allocation sites of " + owner, a.phase),
                   "type at stack", a.phase, lt::nestedRows(m, rows, frames));
  writeMore(out, more);
}

void rankPatterns(std::ostream& out, const Model& m, const RankArgs& a, const NestedSite& s) {
  auto all = static_cast<size_t>(std::ranges::count_if(
      s.patterns, [&](const analyses::lifetime::Pattern& p) { return p.stats[a.phase] > 0; }));
  size_t shown = a.limit == 0 ? all : std::min(all, a.limit);
  out << lt::byPhase(
             "Lifetime patterns (first get, last get) of nested site " + std::to_string(s.id),
             a.phase)
      << "\n";
  lt::writeSitePatterns(out, m, s, a.phase, shown, 0);
  if (all == 0) out << "    (none)\n";
  writeMore(out, all - shown);
}

void rank(std::ostream& out, const Model& m, const RankArgs& a, size_t frames) {
  if (!a.id) return rankAll(out, m, a, frames);
  if (a.kind == "class") {
    const ClassGroup& c = findClass(m, *a.id);
    std::string owner = "class " + std::to_string(c.id) + " (" + c.name + ")";
    rankSites(out, m, a, owner, c.nested, frames);
  } else if (a.kind == "method") {
    const MethodGroup& g = findMethod(m, *a.id);
    std::string owner = "method " + std::to_string(g.id) + " (" + g.name + ")";
    rankSites(out, m, a, owner, g.nested, frames);
  } else {
    rankPatterns(out, m, a, findNested(m, *a.id));
  }
}

}  // namespace

LifetimeShell::LifetimeShell(const Model& m, std::ostream& out, ShellOptions o)
    : CommandShell(out), m_(m), options_(o) {}

LifetimeShell::~LifetimeShell() = default;

const char* LifetimeShell::help() { return kHelp; }

void LifetimeShell::run(const std::vector<std::string>& w, std::string_view rest,
                        std::ostream& out) {
  const std::string& cmd = w[0];
  if (cmd == "help" && w.size() == 1) {
    out << kHelp;
  } else if (cmd == "stat") {
    stat(out, m_, longFlag(w, 1));
  } else if (cmd == "obj" && w.size() >= 2) {
    obj(out, m_, w[1], longFlag(w, 2));
  } else if (cmd == "class" && w.size() >= 2) {
    classInfo(out, m_, w[1], longFlag(w, 2));
  } else if (cmd == "method" && w.size() >= 2) {
    methodInfo(out, m_, w[1], longFlag(w, 2));
  } else if (cmd == "nested" && w.size() >= 2) {
    nestedInfo(out, m_, w[1], longFlag(w, 2));
  } else if (cmd == "lag" || cmd == "drag" || cmd == "void") {
    rank(out, m_, parseRank(w, options_.rows), options_.frames);
  } else if (cmd == "sql" && !rest.empty()) {
    sql(rest, out,
        [&](SqlDb& db, std::string& error) { return writeLifetimeTables(db, m_, error); });
  } else {
    throw usageError(cmd);
  }
}

}  // namespace dragnet::report
