// `dragnet diff -f html`: one self-contained page, diff_templates/page.* in the shared frame.
#include "report/diff.h"
#include "report/html_page.h"
#include "report/json_text.h"
#include "report/templates.h"

namespace dragnet::report {

void writeDiffHtml(std::ostream& out, const Diff& d, const DiffOptions& o) {
  writePage(out, diffPageFiles(), "dragnet diff",
            scriptSafe(jsonText(diffJson(d, o, /*html=*/true), -1)));
}

}  // namespace dragnet::report
