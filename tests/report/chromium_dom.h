// Headless Chromium for the HTML report tests (tests/report/html_report_test.cpp,
// tests/lifetime/lifetime_html_test.cpp): render a page with `--dump-dom` after its script
// ran, and read the DOM back (an element's text, attributes, a table's rows) without a DOM
// library. Skipped tests when no Chromium is installed (scripts/install-deps.sh installs
// Debian's `chromium`; DRAGNET_CHROMIUM names another binary).
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace dragnet::test {

inline std::string findChromium() {
  if (const char* env = std::getenv("DRAGNET_CHROMIUM"); env && *env) return env;
  const char* path = std::getenv("PATH");
  std::stringstream dirs(path ? path : "");
  for (std::string dir; std::getline(dirs, dir, ':');) {
    for (const char* name : {"chromium", "chromium-browser", "google-chrome"}) {
      std::filesystem::path p = std::filesystem::path(dir) / name;
      if (!dir.empty() && ::access(p.c_str(), X_OK) == 0) return p.string();
    }
  }
  return "";
}

inline std::string slurp(const std::filesystem::path& p) {
  std::ifstream f(p, std::ios::binary);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

inline std::string decodeEntities(std::string s) {
  const std::pair<const char*, const char*> entities[] = {
      {"&lt;", "<"},  {"&gt;", ">"},   {"&quot;", "\""},
      {"&#39;", "'"}, {"&nbsp;", " "}, {"&amp;", "&"}};  // last: "&amp;lt;" is the text "&lt;"
  for (const auto& [from, to] : entities) {
    for (size_t at = 0; (at = s.find(from, at)) != std::string::npos; at += std::strlen(to)) {
      s.replace(at, std::strlen(from), to);
    }
  }
  return s;
}

// The text of the markup `html`: tags removed, entities decoded.
inline std::string stripTags(const std::string& html) {
  std::string out;
  bool inTag = false;
  for (char c : html) {
    if (c == '<') inTag = true;
    if (!inTag) out += c;
    if (c == '>') inTag = false;
  }
  return decodeEntities(out);
}

// The inner markup of the element with id `id` (elements of the same tag nested inside are
// matched up).
inline std::string innerHtml(const std::string& dom, const std::string& id) {
  size_t attr = dom.find("id=\"" + id + "\"");
  if (attr == std::string::npos) return "[missing #" + id + "]";
  size_t open = dom.rfind('<', attr);
  size_t nameEnd = dom.find_first_of(" >", open);
  std::string tag = dom.substr(open + 1, nameEnd - open - 1);
  size_t start = dom.find('>', attr) + 1;
  int depth = 1;
  for (size_t at = start; at < dom.size(); ++at) {
    if (dom.compare(at, tag.size() + 2, "</" + tag) == 0 && --depth == 0) {
      return dom.substr(start, at - start);
    }
    if (dom.compare(at, tag.size() + 1, "<" + tag) == 0) ++depth;
  }
  return "[unclosed #" + id + "]";
}

inline std::string textOf(const std::string& dom, const std::string& id) {
  return stripTags(innerHtml(dom, id));
}

// The start tag of the element with id `id`, e.g. to read its attributes.
inline std::string tagOf(const std::string& dom, const std::string& id) {
  size_t attr = dom.find("id=\"" + id + "\"");
  if (attr == std::string::npos) return "";
  size_t open = dom.rfind('<', attr);
  return dom.substr(open, dom.find('>', attr) + 1 - open);
}

inline bool pressed(const std::string& dom, const std::string& id) {
  return tagOf(dom, id).find("aria-pressed=\"true\"") != std::string::npos;
}

// The body rows of a table, each as its cells' text joined by " | ".
inline std::vector<std::string> rowsOf(const std::string& dom, const std::string& id) {
  std::string body = innerHtml(dom, id);
  body = body.substr(std::min(body.size(), body.find("<tbody")));
  std::vector<std::string> rows;
  for (size_t at = 0; (at = body.find("<tr", at)) != std::string::npos;) {
    size_t end = body.find("</tr>", at);
    std::string row, tr = body.substr(at, end - at);
    for (size_t c = 0; (c = tr.find("<td", c)) != std::string::npos;) {
      size_t open = tr.find('>', c) + 1, close = tr.find("</td>", open);
      row += (row.empty() ? "" : " | ") + stripTags(tr.substr(open, close - open));
      c = close;
    }
    rows.push_back(row);
    at = end;
  }
  return rows;
}

// The DOM of `html` (with `hash`) after its script ran, at 1200x900, written into `dir` as
// dom<N>.html; empty without Chromium.
// `flags` are more command-line flags (e.g. "--enable-logging=stderr --v=0", which writes
// the page's console messages and uncaught errors to dir/chromium.log as ":CONSOLE" lines).
inline std::string renderDom(const std::filesystem::path& html, const std::filesystem::path& dir,
                             int n, const std::string& hash = "", const std::string& flags = "") {
  std::string chromium = findChromium();
  if (chromium.empty()) return "";
  std::filesystem::path dom = dir / ("dom" + std::to_string(n) + ".html");
  std::string cmd = "'" + chromium + "' --headless --no-sandbox --disable-gpu " +
                    "--disable-dev-shm-usage " + flags + " --user-data-dir='" +
                    (dir / "chromium").string() + "' --window-size=1200,900 --dump-dom 'file://" +
                    html.string() + (hash.empty() ? "" : "#" + hash) + "' > '" + dom.string() +
                    "' 2> '" + (dir / "chromium.log").string() + "'";
  EXPECT_EQ(std::system(cmd.c_str()), 0) << cmd << "\n" << slurp(dir / "chromium.log");
  return slurp(dom);
}

#define REQUIRE_CHROMIUM()                                                              \
  if (dragnet::test::findChromium().empty()) {                                          \
    GTEST_SKIP() << "no chromium on PATH (scripts/install-deps.sh installs it; or set " \
                    "DRAGNET_CHROMIUM)";                                                \
  }

}  // namespace dragnet::test
