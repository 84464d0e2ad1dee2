#include "analyses/copy/report/shell.h"

#include <algorithm>
#include <iostream>
#include <limits>

#include "analyses/copy/report/report.h"
#include "analyses/copy/report/sql.h"
#include "report/text_format.h"

namespace dragnet::report {

using analyses::copy::Graph;
using analyses::copy::Model;
using analyses::copy::Naming;
using analyses::copy::View;

namespace {

constexpr const char* kHelp =
    "help                          this list\n"
    "write FILE                    write the output of the next command to FILE\n"
    "stat                          settings, totals, graph sizes, conflict ratios, cut flows\n"
    "copies [flat|cumulative] [@N] copies per method (flat, the default; with its cumulative\n"
    "                              copies and the concentration) or per calling context\n"
    "chains [NAMING] [@N]          hot copy chains by waste factor, with producer and consumer\n"
    "clones [NAMING] [@N]          clone pairs by volume\n"
    "nath [NAMING] [@N]            allocation sites whose objects never reach the heap\n"
    "cuts [@N]                     flows cut at a callee's entry, per callee\n"
    "node [NAMING] ID|NAME [@N]    a node of the copy graph and its in and out edges, most\n"
    "                              frequent first (ID: the nodes table's id; NAME: as the\n"
    "                              tables print it)\n"
    "                              NAMING: sensitive (the default unless slots=1) or\n"
    "                              insensitive; @N: at most N rows (default: --rows, 20;\n"
    "                              @0: all)\n"
    "sql QUERY                     SQL (SQLite) on the tables sites, fields, nodes, edges,\n"
    "                              chains, chain_nodes, clones, nath, methods, contexts, cuts,\n"
    "                              conflict_ratios, totals, meta (docs/SHELL.md)\n"
    "exit                          leave the shell\n";

// The synopsis of each command, for its usage error.
constexpr Synopsis kSynopses[] = {
    {"help", "help"},
    {"stat", "stat"},
    {"copies", "copies [flat|cumulative] [@N]"},
    {"chains", "chains [sensitive|insensitive] [@N]"},
    {"clones", "clones [sensitive|insensitive] [@N]"},
    {"nath", "nath [sensitive|insensitive] [@N]"},
    {"cuts", "cuts [@N]"},
    {"node", "node [sensitive|insensitive] ID|NAME [@N]"},
    {"sql", "sql QUERY"},
    {"exit", "exit"},
};

ShellError usageError(const std::string& cmd) { return report::usageError(kSynopses, cmd); }

bool allDigits(std::string_view s) {
  return !s.empty() && s.size() <= 19 &&
         std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// A command's optional words: a naming, a choice among `choices`, "@N".
struct Args {
  const View* view = nullptr;
  std::string choice;
  size_t rows = 0;
  bool all = false;  // @0
};

Args parseArgs(const std::vector<std::string>& w, const Model& m, size_t rows,
               const std::vector<std::string>& choices, bool naming) {
  Args a;
  a.rows = rows;
  a.view = m.settings.slots == 1 ? &m.insensitive : &m.sensitive;
  bool seenNaming = false, seenChoice = false, seenRows = false;
  for (size_t i = 1; i < w.size(); ++i) {
    const std::string& x = w[i];
    if (naming && !seenNaming && (x == "sensitive" || x == "insensitive")) {
      a.view = x == "sensitive" ? &m.sensitive : &m.insensitive;
      seenNaming = true;
    } else if (!seenChoice && std::find(choices.begin(), choices.end(), x) != choices.end()) {
      a.choice = x;
      seenChoice = true;
    } else if (!seenRows && x.size() > 1 && x[0] == '@' && allDigits(x.substr(1))) {
      a.rows = std::stoull(x.substr(1));
      a.all = a.rows == 0;
      if (a.all) a.rows = std::numeric_limits<size_t>::max();
      seenRows = true;
    } else {
      throw usageError(w[0]);
    }
  }
  return a;
}

const char* namingWord(const View& v) {
  return v.graph.naming() == Naming::Sensitive ? "sensitive" : "insensitive";
}

// The node `key` (an id, or a name as nodeName writes it) of `g`.
uint32_t findNode(const Model& m, const Graph& g, std::string_view key) {
  size_t count = g.nodes().size();
  if (allDigits(key)) {
    uint64_t id = std::stoull(std::string(key));
    if (id >= count) {
      throw ShellError("no node " + std::string(key) + " (ids are 0.." + std::to_string(count - 1) +
                       ")");
    }
    return static_cast<uint32_t>(id);
  }
  for (uint32_t n = 0; n < count; ++n) {
    if (analyses::copy::nodeName(m, g, n) == key) return n;
  }
  throw ShellError("no node named '" + std::string(key) + "' in the " +
                   std::string(g.naming() == Naming::Sensitive ? "sensitive" : "insensitive") +
                   " naming");
}

void edgeRow(std::ostream& out, const Model& m, const Graph& g, uint64_t freq, uint32_t bytes,
             uint32_t other) {
  std::string f = grouped(freq), b = std::to_string(bytes), id = std::to_string(other);
  out << std::string(f.size() < 15 ? 15 - f.size() : 0, ' ') << f
      << std::string(b.size() < 7 ? 7 - b.size() : 0, ' ') << b
      << std::string(id.size() < 7 ? 7 - id.size() : 0, ' ') << id << "  "
      << analyses::copy::nodeName(m, g, other) << "\n";
}

// Edges (frequency, bytes, the other end) by descending frequency (ties: the other end's id),
// at most `rows`.
struct EdgeLine {
  uint64_t freq;
  uint32_t bytes, other;
};

void edgeTable(std::ostream& out, const Model& m, const Graph& g, const char* label,
               const char* end, std::vector<EdgeLine> edges, size_t rows) {
  std::sort(edges.begin(), edges.end(), [](const EdgeLine& a, const EdgeLine& b) {
    return a.freq != b.freq ? a.freq > b.freq : a.other < b.other;
  });
  out << "  " << label << grouped(edges.size()) << "\n";
  if (!edges.empty()) out << "           freq  bytes     id  " << end << "\n";
  size_t shown = std::min(rows, edges.size());
  for (size_t i = 0; i < shown; ++i) {
    edgeRow(out, m, g, edges[i].freq, edges[i].bytes, edges[i].other);
  }
  moreRows(out, edges.size(), shown);
}

void nodeInfo(std::ostream& out, const Model& m, const View& v, uint32_t n, size_t rows) {
  const Graph& g = v.graph;
  const auto& x = g.node(n);
  out << "node " << n << " (" << namingWord(v) << "): " << analyses::copy::nodeName(m, g, n)
      << "\n  kind         " << copyNodeKind(x.kind);
  if (x.kind == analyses::copy::NodeKind::Alloc) out << "; " << grouped(g.births(n)) << " objects";
  out << "\n";
  std::vector<EdgeLine> in, outs;
  for (uint32_t e : g.in(n)) {
    const auto& edge = g.edges()[e];
    in.push_back({edge.freq, edge.bytes, edge.src});
  }
  for (const auto& edge : g.out(n)) outs.push_back({edge.freq, edge.bytes, edge.dst});
  edgeTable(out, m, g, "in edges     ", "from", std::move(in), rows);
  edgeTable(out, m, g, "out edges    ", "to", std::move(outs), rows);
}

// node [NAMING] ID|NAME [@N]: a name may hold spaces, so the key is the rest of the line.
void node(std::ostream& out, const Model& m, const std::vector<std::string>& w,
          std::string_view rest, size_t rows) {
  const View* v = m.settings.slots == 1 ? &m.insensitive : &m.sensitive;
  if (w.size() >= 2 && (w[1] == "sensitive" || w[1] == "insensitive")) {
    v = w[1] == "sensitive" ? &m.sensitive : &m.insensitive;
    rest = trimmed(rest.substr(w[1].size()));
  }
  if (w.size() >= 3 && w.back().size() > 1 && w.back()[0] == '@' &&
      allDigits(std::string_view(w.back()).substr(1))) {
    rows = std::stoull(w.back().substr(1));
    if (rows == 0) rows = std::numeric_limits<size_t>::max();
    rest = trimmed(rest.substr(0, rest.size() - w.back().size()));
  }
  if (rest.empty()) throw usageError("node");
  nodeInfo(out, m, *v, findNode(m, v->graph, rest), rows);
}

}  // namespace

CopyShell::CopyShell(const Model& m, std::ostream& out, CopyShellOptions o)
    : CommandShell(out), m_(m), options_(o) {}

CopyShell::~CopyShell() = default;

const char* CopyShell::help() { return kHelp; }

void CopyShell::run(const std::vector<std::string>& w, std::string_view rest, std::ostream& out) {
  const std::string& cmd = w[0];
  const size_t rows = options_.rows;
  if (cmd == "help" && w.size() == 1) {
    out << kHelp;
  } else if (cmd == "stat" && w.size() == 1) {
    writeCopySummary(out, m_);
  } else if (cmd == "copies") {
    Args a = parseArgs(w, m_, rows, {"flat", "cumulative"}, false);
    if (a.choice == "cumulative") {
      writeCopyContexts(out, m_, a.rows, options_.frames);
      moreRows(out, m_.copies.hottestContexts(std::numeric_limits<size_t>::max()).size(), a.rows);
    } else {
      writeCopyMethods(out, m_, a.rows);
      moreRows(out, m_.copies.methods.size(), a.rows);
    }
  } else if (cmd == "chains") {
    Args a = parseArgs(w, m_, rows, {}, true);
    writeCopyChains(out, m_, *a.view, a.rows);
    moreRows(out, a.view->chains.top.size(), a.rows);
  } else if (cmd == "clones") {
    Args a = parseArgs(w, m_, rows, {}, true);
    writeCopyClones(out, m_, *a.view, a.rows);
    moreRows(out, a.view->clones.top.size(), a.rows);
  } else if (cmd == "nath") {
    Args a = parseArgs(w, m_, rows, {}, true);
    writeCopyNath(out, m_, *a.view, a.rows);
    moreRows(out, a.view->nath.size(), a.rows);
  } else if (cmd == "cuts") {
    Args a = parseArgs(w, m_, rows, {}, false);
    writeCopyCuts(out, m_, a.rows);
    moreRows(out, m_.cuts.size(), a.rows);
  } else if (cmd == "node") {
    node(out, m_, w, rest, rows);
  } else if (cmd == "sql" && !rest.empty()) {
    sql(rest, out, [&](SqlDb& db, std::string& error) { return writeCopyTables(db, m_, error); });
  } else {
    throw usageError(cmd);
  }
}

int copyShellOn(const profile::Profile& p, const ShellSettings& s) {
  Model m = analyses::copy::buildModel(p);
  CopyShell shell(m, std::cout, {.rows = s.rows});
  return runShellSession(shell, "dragnet shell: " + s.input + ": " + grouped(m.copies.total) +
                                    " copies, " + grouped(m.sensitive.graph.edges().size()) +
                                    " copy-graph edges. 'help' lists the commands, 'exit' "
                                    "leaves.\n");
}

bool copyExportOn(const profile::Profile& p, const std::string& path, std::string& error) {
  return exportCopySqlite(path, analyses::copy::buildModel(p), error);
}

}  // namespace dragnet::report
