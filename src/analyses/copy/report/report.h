// Reports of a copy-mode profile (Xu et al. sec. 3): text (settings and totals, the flat
// and cumulative copy profiles with the copy concentration, then per naming the hot copy
// chains, the clone pairs, NATH and fan-out, the context conflict ratios and the cut
// flows), JSON (the same, every list up to the model's kept rows) and HTML (the same, with
// the top chains drawn as a graph); docs/REPORTS.md.
#pragma once

#include <cstddef>
#include <functional>
#include <nlohmann/json.hpp>
#include <ostream>
#include <span>
#include <string>

#include "analyses/copy/model/model.h"
#include "common/embedded.h"

namespace dragnet {
// The HTML page's own body, style and script (templates/page.*), embedded at build time.
std::span<const EmbeddedFile> copyPageFiles();
}  // namespace dragnet

namespace dragnet::report {

struct CopyTextOptions {
  size_t top = 20;    // rows per table
  size_t frames = 4;  // frames of a context shown, innermost first (0: all)
};

void writeCopyText(std::ostream& out, const analyses::copy::Model& m, const CopyTextOptions& o);

// The text report's parts, which the shell shows one by one (at most `top` rows each).
void writeCopySummary(std::ostream& out, const analyses::copy::Model& m);  // heading, settings
void writeCopyMethods(std::ostream& out, const analyses::copy::Model& m, size_t top);
void writeCopyContexts(std::ostream& out, const analyses::copy::Model& m, size_t top,
                       size_t frames);
void writeCopyChains(std::ostream& out, const analyses::copy::Model& m,
                     const analyses::copy::View& v, size_t top);
void writeCopyClones(std::ostream& out, const analyses::copy::Model& m,
                     const analyses::copy::View& v, size_t top);
void writeCopyNath(std::ostream& out, const analyses::copy::Model& m, const analyses::copy::View& v,
                   size_t top);
void writeCopyCuts(std::ostream& out, const analyses::copy::Model& m, size_t top);

struct CopyJsonOptions {
  size_t top = 1000;  // rows per list (methods, contexts, edges, chains, pairs, NATH)
};

// The JSON report's header: format, completeness, settings and totals.
nlohmann::ordered_json copyHeader(const analyses::copy::Model& m);
// The JSON report: {"format": "dragnet-copy", ...} (docs/REPORTS.md, "copy json").
nlohmann::ordered_json copyJson(const analyses::copy::Model& m, const CopyJsonOptions& o);
void writeCopyJson(std::ostream& out, const analyses::copy::Model& m, const CopyJsonOptions& o);
// A node as the JSON report writes it: {"name", "kind", "site", "context", "field"}.
nlohmann::ordered_json copyNodeJson(const analyses::copy::Model& m, const analyses::copy::Graph& g,
                                    uint32_t node);
// The copy profiles: {"methods", "concentration", "contexts"}, the top rows of each; a
// context's frames as `frame` writes a method's name (the text, or the HTML page's string id).
nlohmann::ordered_json copyProfilesJson(
    const analyses::copy::Model& m, size_t top,
    const std::function<nlohmann::ordered_json(const std::string&)>& frame);
// "consumer", "alloc", "field" or "static".
const char* copyNodeKind(analyses::copy::NodeKind k);

struct CopyHtmlOptions {
  size_t top = 20;     // rows per table shown before "Show all"
  size_t rows = 1000;  // rows embedded per list
  size_t graph = 5;    // chains drawn in the graph at first (the page can draw up to 20)
};

// The HTML page's data (docs/REPORTS.md, "copy html"), JSON passed through scriptSafe.
std::string copyHtmlData(const analyses::copy::Model& m, const CopyHtmlOptions& o);
// One self-contained page: src/analyses/copy/templates/page.{html,css,js} in the shared frame.
void writeCopyHtml(std::ostream& out, const analyses::copy::Model& m, const CopyHtmlOptions& o);

}  // namespace dragnet::report
