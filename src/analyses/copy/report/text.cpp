// The text report of a copy profile. The heading comes from the JSON header (writeHeading),
// so that the text says what the JSON says about a corrupt or incomplete profile.
#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "analyses/copy/report/report.h"
#include "report/text_format.h"

namespace dragnet::report {

using analyses::copy::Model;
using analyses::copy::Naming;
using analyses::copy::View;

namespace {

std::string num(uint64_t v) { return grouped(v); }

std::string fixed(double v, const char* format) {
  char buf[32];
  std::snprintf(buf, sizeof buf, format, v);
  return buf;
}

std::string percent(uint64_t part, uint64_t whole) {
  return fixed(whole == 0 ? 0.0 : 100.0 * static_cast<double>(part) / static_cast<double>(whole),
               "%6.2f%%");
}

// Right-aligned in `width` characters.
std::string right(const std::string& s, size_t width) {
  return s.size() >= width ? s : std::string(width - s.size(), ' ') + s;
}

std::string method(const Model& m, uint32_t id) { return contexts::frameName(*m.profile, id, -1); }

const char* namingName(Naming n) {
  return n == Naming::Sensitive ? "1-object-sensitive" : "context-insensitive";
}

void writeSettings(std::ostream& out, const Model& m) {
  const auto& s = m.settings;
  out << "  naming       ";
  if (s.slots == 0) {
    out << "1-object-sensitive with exact contexts (slots=0), and context-insensitive\n";
  } else if (s.slots == 1) {
    out << "context-insensitive (slots=1)\n";
  } else {
    out << "1-object-sensitive with " << s.slots << " context slots, and context-insensitive\n";
  }
  out << "  copies       " << num(m.copies.total) << " heap-to-heap copies";
  if (m.copies.lost) out << " (" << num(m.copies.lost) << " in contexts missing from the tree)";
  out << "; " << num(m.totals.births) << " objects allocated; references of " << s.refBytes
      << " bytes\n";
  for (const View* v : {&m.insensitive, &m.sensitive}) {
    if (v == &m.sensitive && s.slots == 1) break;
    out << "  graph        " << namingName(v->graph.naming()) << ": "
        << num(v->graph.nodes().size()) << " nodes, " << num(v->graph.edges().size())
        << " edges, average fan-out " << fixed(v->fanOut.average, "%.2f") << "\n";
  }
  if (m.graphStats.dropped || m.graphStats.unknownEdges) {
    out << "  edges        " << num(m.graphStats.dropped)
        << " recorded edges dropped (no copy-graph edge), " << num(m.graphStats.unknownEdges)
        << " with an end in an unknown object\n";
  }
  out << "  conflicts   ";
  for (const auto& [slots, ratio] : m.conflictRatios) {
    out << " CCR-" << slots << " " << fixed(ratio, "%.3f");
  }
  out << " (average over " << num(m.contexts.size()) << " allocation sites)\n";
  out << "  cut flows    " << num(m.totals.cuts)
      << " at callee entries (an uninstrumented frame between caller and callee); "
      << num(m.totals.unknownTags) << " accesses to objects without a tag\n";
}

}  // namespace

void writeCopyMethods(std::ostream& out, const Model& m, size_t top) {
  const auto& c = m.copies;
  out << "Copies per method (flat: copies it stored; cumulative: with its callees)\n";
  out << "         self        %   cumulative  method\n";
  size_t rows = 0;
  for (const auto& x : c.methods) {
    if (rows++ == top) break;
    out << right(num(x.self), 13) << " " << percent(x.self, c.total) << right(num(x.total), 13)
        << "  " << method(m, x.method) << "\n";
  }
  if (!c.concentration.empty()) {
    out << "  concentration: the top method does " << fixed(100 * c.share(1), "%.2f")
        << "% of the copies, the top 5 " << fixed(100 * c.share(5), "%.2f") << "%, the top 10 "
        << fixed(100 * c.share(10), "%.2f") << "%\n";
  }
}

void writeCopyContexts(std::ostream& out, const Model& m, size_t top, size_t frames) {
  const auto& c = m.copies;
  out << "Copies per calling context (cumulative), innermost frame first\n"
      << "   cumulative         self  context\n";
  for (uint32_t n : c.hottestContexts(top)) {
    out << right(num(c.contexts[n].total), 13) << right(num(c.contexts[n].self), 13) << "  ";
    size_t shown = 0;
    for (uint32_t x = n; x != 0; x = m.tree.nodes[x].parent) {
      if (frames && shown == frames) {
        out << " < ...";
        break;
      }
      out << (shown++ ? " < " : "") << method(m, m.tree.nodes[x].key);
    }
    out << "\n";
  }
}

void writeCopyChains(std::ostream& out, const Model& m, const View& v, size_t top) {
  const auto& ch = v.chains;
  const auto& g = v.graph;
  out << "Hot copy chains, " << namingName(g.naming()) << " (" << num(ch.total)
      << " chains of at most " << m.options.chainMax << " copies";
  if (ch.cut) out << "; " << num(ch.cut) << " extensions not followed (limit)";
  out << ")\n             WF        freq  bytes  length  chain\n";
  size_t rows = 0;
  for (const auto& c : ch.top) {
    if (rows++ == top) break;
    out << right(num(c.wf), 15) << right(num(c.freq), 12) << right(std::to_string(c.bytes), 7)
        << right(std::to_string(c.length()), 8) << "  ";
    for (size_t i = 0; i < c.nodes.size(); ++i) {
      out << (i ? " -> " : "") << analyses::copy::nodeName(m, g, c.nodes[i]);
    }
    out << "\n"
        << std::string(44, ' ') << "produced by "
        << (c.producer == analyses::copy::kNoNode ? std::string("no allocation")
                                                  : analyses::copy::nodeName(m, g, c.producer))
        << (c.producers > 1 ? " (and " + num(c.producers - 1) + " more)" : std::string())
        << (c.consumed ? "; consumed " + num(c.consumed) + " times"
                       : std::string("; never consumed"))
        << "\n";
  }
}

void writeCopyClones(std::ostream& out, const Model& m, const View& v, size_t top) {
  const auto& g = v.graph;
  out << "Clone pairs, " << namingName(g.naming()) << " (bytes copied from the first's structure "
      << "to the second's, within " << m.options.cloneDepth << " references";
  if (v.clones.cut) out << "; " << num(v.clones.cut) << " smallest flows left out (limit)";
  if (v.clones.truncated) out << "; " << num(v.clones.truncated) << " searches cut short";
  out << ")\n"
      << "         volume       direct  from -> to\n";
  size_t rows = 0;
  for (const auto& p : v.clones.top) {
    if (rows++ == top) break;
    out << right(num(p.volume), 15) << right(num(p.direct), 13) << "  "
        << analyses::copy::nodeName(m, g, p.from) << " -> " << analyses::copy::nodeName(m, g, p.to)
        << "\n";
  }
}

void writeCopyNath(std::ostream& out, const Model& m, const View& v, size_t top) {
  const auto& g = v.graph;
  out << "Not assigned to heap, " << namingName(g.naming())
      << " (objects whose references no field or element received)\n"
      << "        objects     consumed  allocation\n";
  size_t rows = 0;
  for (const auto& r : v.nath) {
    if (rows++ == top) break;
    out << right(num(r.births), 15) << right(num(r.consumed), 13) << "  "
        << analyses::copy::nodeName(m, g, r.node) << "\n";
  }
}

void writeCopyCuts(std::ostream& out, const Model& m, size_t top) {
  out << "Flows cut at a callee's entry (its caller's arguments did not reach it)\n"
      << "          count  callee\n";
  size_t rows = 0;
  for (const auto& [id, count] : m.cuts) {
    if (rows++ == top) break;
    out << right(num(count), 15) << "  " << method(m, id) << "\n";
  }
}

void writeCopySummary(std::ostream& out, const Model& m) {
  writeHeading(out, copyHeader(m), "copy");
  writeSettings(out, m);
}

void writeCopyText(std::ostream& out, const Model& m, const CopyTextOptions& o) {
  writeCopySummary(out, m);
  out << "\n";
  writeCopyMethods(out, m, o.top);
  out << "\n";
  writeCopyContexts(out, m, o.top, o.frames);
  for (const View* v : {&m.sensitive, &m.insensitive}) {
    if (v == &m.sensitive && m.settings.slots == 1) continue;  // the same graph
    out << "\n";
    writeCopyChains(out, m, *v, o.top);
    out << "\n";
    writeCopyClones(out, m, *v, o.top);
    out << "\n";
    writeCopyNath(out, m, *v, o.top);
  }
  if (!m.cuts.empty()) {
    out << "\n";
    writeCopyCuts(out, m, o.top);
  }
  writeNotRewritten(out, *m.profile, o.top);
}

}  // namespace dragnet::report
