#include "analyses/cost/report/shell.h"

#include <algorithm>
#include <charconv>
#include <limits>

#include "analyses/cost/report/sql.h"
#include "report/text_format.h"

namespace dragnet::report {

using analyses::cost::CostModel;
using analyses::cost::kNone;

namespace {

constexpr const char* kHelp =
    "help                     this list\n"
    "write FILE               write the output of the next command to FILE\n"
    "stat                     settings, totals, graph size, IPD, IPP, NLD, CR\n"
    "cb [sites|objects] [@N]  the cost-benefit ranking: allocation sites (the default) or\n"
    "                         object structures, with the fields and code of the top ones\n"
    "rac [@N]                 heap locations by RAC (relative abstract cost)\n"
    "rab [@N]                 heap locations by RAB (relative abstract benefit)\n"
    "node ID [@N]             a program node (the nodes table's id): what and where it is, its\n"
    "                         instances with frequency, AC, HRAC and HRAB, what each depends\n"
    "                         on and what its value flows into\n"
    "path A B                 a shortest dependence path from node A's value to node B (e.g.\n"
    "                         from a writer to a reader); A or B as ID or ID:SLOT\n"
    "set [NAME VALUE]         a report option for the rest of the session (consumer-rab K,\n"
    "                         height N; docs/REPORTS.md); without arguments: their values\n"
    "                         @N: at most N rows (default: --rows, 20; @0: all)\n"
    "sql QUERY                SQL (SQLite) on the tables nodes, instances, edges, locations,\n"
    "                         writers, readers, objects, structure_locations, sites, totals,\n"
    "                         meta (docs/SHELL.md)\n"
    "exit                     leave the shell\n";

constexpr Synopsis kSynopses[] = {
    {"help", "help"},
    {"stat", "stat"},
    {"cb", "cb [sites|objects] [@N]"},
    {"rac", "rac [@N]"},
    {"rab", "rab [@N]"},
    {"node", "node ID [@N]"},
    {"path", "path A B (A, B: ID or ID:SLOT)"},
    {"set", "set [consumer-rab K | height N]"},
    {"sql", "sql QUERY"},
    {"exit", "exit"},
};

ShellError usageError(const std::string& cmd) { return report::usageError(kSynopses, cmd); }

bool number(std::string_view s, uint64_t& v) {
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  return !s.empty() && ec == std::errc() && end == s.data() + s.size();
}

// A command's optional words: a choice among `choices` and "@N", in any order.
struct Args {
  std::string choice;
  size_t rows = 0;
};

Args parseArgs(const std::vector<std::string>& w, size_t first, size_t rows,
               const std::vector<std::string>& choices) {
  Args a;
  a.rows = rows;
  bool seenChoice = false, seenRows = false;
  for (size_t i = first; i < w.size(); ++i) {
    const std::string& x = w[i];
    uint64_t n = 0;
    if (!seenChoice && std::find(choices.begin(), choices.end(), x) != choices.end()) {
      a.choice = x;
      seenChoice = true;
    } else if (!seenRows && x.size() > 1 && x[0] == '@' && number(x.substr(1), n)) {
      a.rows = n == 0 ? std::numeric_limits<size_t>::max() : n;
      seenRows = true;
    } else {
      throw usageError(w[0]);
    }
  }
  return a;
}

uint32_t nodeId(const CostModel& m, std::string_view key) {
  uint64_t id = 0;
  if (!number(key, id)) throw ShellError("not a node id: '" + std::string(key) + "'");
  size_t count = m.input().defs.size();
  if (id == 0 || id >= count) {
    throw ShellError("no node " + std::string(key) +
                     (count <= 1 ? std::string(" (the graph has no program nodes)")
                                 : " (ids are 1.." + std::to_string(count - 1) + ")"));
  }
  return static_cast<uint32_t>(id);
}

// The instances of node `n`, ascending (instances are in (node, slot) order).
std::vector<uint32_t> instancesOf(const CostModel& m, uint32_t n) {
  const auto& g = m.graph();
  std::vector<uint32_t> out;
  uint32_t lo = 0, hi = g.size();
  while (lo < hi) {
    uint32_t mid = lo + (hi - lo) / 2;
    if (g.inst(mid).node < n) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  for (uint32_t v = lo; v < g.size() && g.inst(v).node == n; ++v) out.push_back(v);
  return out;
}

// "ID" (every instance of the node) or "ID:SLOT" (that one).
std::vector<uint32_t> instancesNamed(const CostModel& m, std::string_view key) {
  size_t colon = key.find(':');
  uint32_t n = nodeId(m, key.substr(0, colon));
  if (colon == std::string_view::npos) {
    std::vector<uint32_t> all = instancesOf(m, n);
    if (all.empty()) throw ShellError("node " + std::to_string(n) + " has no instance");
    return all;
  }
  uint64_t slot = 0;
  if (!number(key.substr(colon + 1), slot) || slot > std::numeric_limits<uint32_t>::max()) {
    throw ShellError("not a slot: '" + std::string(key.substr(colon + 1)) + "'");
  }
  uint32_t v = m.graph().find(m.graph().canonical({n, static_cast<uint32_t>(slot)}));
  if (v == kNone) throw ShellError("node " + std::string(key) + " has no instance in that slot");
  return {v};
}

// "node 12 slot 4  freq 1,000  iadd  A.foo(A.java:8)".
std::string instanceLine(const CostReport& r, const CostNames& names, uint32_t v) {
  const auto& g = r.model->graph();
  return "node " + std::to_string(g.inst(v).node) + " slot " + std::to_string(g.inst(v).slot) +
         "  freq " + grouped(g.freq(v)) + "  " + names.what(g.def(v)) + "  " + names.code(g.def(v));
}

void neighbours(std::ostream& out, const CostReport& r, const CostNames& names, const char* label,
                std::span<const uint32_t> vs, size_t rows) {
  out << "    " << label << " " << grouped(vs.size()) << "\n";
  size_t shown = std::min(rows, vs.size());
  for (size_t i = 0; i < shown; ++i) out << "      " << instanceLine(r, names, vs[i]) << "\n";
  if (vs.size() > shown) out << "      ... " << grouped(vs.size() - shown) << " more\n";
}

void nodeInfo(std::ostream& out, const CostReport& r, uint32_t n, size_t rows) {
  const CostModel& m = *r.model;
  CostNames names(r);
  const auto& d = m.input().defs[n];
  out << "node " << n << " (" << costNodeKind(d.kind) << "): " << names.what(d) << "\n"
      << "  code         " << names.code(d) << ", method " << d.method << ", bci " << d.index
      << "\n";
  std::vector<uint32_t> insts = instancesOf(m, n);
  out << "  instances    " << grouped(insts.size()) << "\n";
  size_t shown = std::min(rows, insts.size());
  for (size_t i = 0; i < shown; ++i) {
    uint32_t v = insts[i];
    auto b = m.relativeBenefit(v);
    out << "  slot " << m.graph().inst(v).slot << ": freq " << grouped(m.graph().freq(v)) << ", AC "
        << grouped(m.absoluteCost(v)) << ", HRAC " << grouped(m.relativeCost(v)) << ", HRAB "
        << grouped(b.value) << (b.consumed ? " (reaches a consumer)" : "") << "\n";
    neighbours(out, r, names, "depends on", m.graph().preds(v), rows);
    neighbours(out, r, names, "flows into", m.graph().succs(v), rows);
  }
  moreRows(out, insts.size(), shown);
}

// Breadth-first along successors (where values flow) from every instance of `from` to the
// first instance of `to` reached: a shortest path.
void path(std::ostream& out, const CostReport& r, const std::vector<uint32_t>& from,
          const std::vector<uint32_t>& to) {
  const auto& g = r.model->graph();
  std::vector<uint32_t> parent(g.size(), kNone);
  std::vector<uint32_t> queue;
  for (uint32_t v : from) {
    parent[v] = v;
    queue.push_back(v);
  }
  uint32_t end = kNone;
  for (size_t head = 0; head < queue.size() && end == kNone; ++head) {
    uint32_t v = queue[head];
    if (std::binary_search(to.begin(), to.end(), v)) {
      end = v;
      break;
    }
    for (uint32_t s : g.succs(v)) {
      if (parent[s] != kNone) continue;
      parent[s] = v;
      queue.push_back(s);
    }
  }
  CostNames names(r);
  if (end == kNone) {
    out << "no dependence path: the value of " << instanceLine(r, names, from[0])
        << (from.size() > 1 ? " (or another instance)" : "") << " does not flow into "
        << instanceLine(r, names, to[0]) << (to.size() > 1 ? " (or another instance)" : "") << "\n";
    return;
  }
  std::vector<uint32_t> steps{end};
  while (parent[steps.back()] != steps.back()) steps.push_back(parent[steps.back()]);
  std::reverse(steps.begin(), steps.end());
  out << "path of " << steps.size() - 1 << " dependence edge" << (steps.size() == 2 ? "" : "s")
      << "\n";
  for (size_t i = 0; i < steps.size(); ++i) {
    out << (i ? "  -> " : "     ") << instanceLine(r, names, steps[i]) << "\n";
  }
}

}  // namespace

CostShell::CostShell(const profile::Profile& p, analyses::cost::GraphInput in,
                     analyses::cost::Options o, analyses::cost::Recording rec,
                     analyses::cost::Totals totals, std::ostream& out, CostShellOptions so)
    : CommandShell(out),
      model_(std::make_unique<CostModel>(std::move(in), o)),
      report_{&p, model_.get(), rec, totals},
      options_(so) {}

CostShell::~CostShell() = default;

const char* CostShell::help() { return kHelp; }

void CostShell::set(const std::vector<std::string>& w, std::ostream& out) {
  analyses::cost::Options o = model_->options();
  if (w.size() == 3) {
    std::string error;
    if (!costOptionsOf({{w[1], w[2]}}, o, error)) throw ShellError(error);
    // The model keeps its input: a copy rebuilds it with the new options.
    model_ = std::make_unique<CostModel>(model_->input(), o);
    report_.model = model_.get();
    resetSql();
  } else if (w.size() != 1) {
    throw usageError("set");
  }
  out << "consumer-rab " << o.consumerRab << (o.consumerRab ? "" : " (the rule off)") << "\nheight "
      << o.height << "\n";
}

void CostShell::run(const std::vector<std::string>& w, std::string_view rest, std::ostream& out) {
  const std::string& cmd = w[0];
  const size_t rows = options_.rows;
  const CostModel& m = *model_;
  if (cmd == "help" && w.size() == 1) {
    out << kHelp;
  } else if (cmd == "stat" && w.size() == 1) {
    writeCostSummary(out, report_);
  } else if (cmd == "cb") {
    Args a = parseArgs(w, 1, rows, {"sites", "objects"});
    if (a.choice == "objects") {
      writeCostObjects(out, report_, a.rows, std::min<size_t>(a.rows, 5));
      moreRows(out, m.objects().size(), a.rows);
    } else {
      writeCostSites(out, report_, a.rows);
      moreRows(out, m.sites().size(), a.rows);
    }
  } else if (cmd == "rac" || cmd == "rab") {
    Args a = parseArgs(w, 1, rows, {});
    writeCostLocations(out, report_, cmd == "rab", a.rows);
    moreRows(out, m.locations().size(), a.rows);
  } else if (cmd == "node" && w.size() >= 2) {
    Args a = parseArgs(w, 2, rows, {});
    nodeInfo(out, report_, nodeId(m, w[1]), a.rows);
  } else if (cmd == "path" && w.size() == 3) {
    std::vector<uint32_t> from = instancesNamed(m, w[1]);  // A's error first
    path(out, report_, from, instancesNamed(m, w[2]));
  } else if (cmd == "set") {
    set(w, out);
  } else if (cmd == "sql" && !rest.empty()) {
    sql(rest, out,
        [&](SqlDb& db, std::string& error) { return writeCostTables(db, report_, error); });
  } else {
    throw usageError(cmd);
  }
}

}  // namespace dragnet::report
