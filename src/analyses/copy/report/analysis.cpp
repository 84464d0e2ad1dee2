#include "analyses/copy/report/analysis.h"

#include "analyses/copy/model/model.h"
#include "analyses/copy/report/diff.h"
#include "analyses/copy/report/report.h"
#include "analyses/copy/report/shell.h"

namespace dragnet::analyses::copy {
namespace {

constexpr std::string_view kFormats[] = {"text", "json", "html"};

// Not summed: each JVM numbers its allocation sites, and so its objects' tags, on its own.
constexpr bool kMerges = false;

bool write(const profile::Profile& p, std::string_view format, const report::ReportSettings& s,
           std::ostream& out, std::string&) {
  Model m = buildModel(p);
  if (format == "json") {
    report::writeCopyJson(out, m, {});
  } else if (format == "html") {
    report::writeCopyHtml(out, m, {.top = s.top});
  } else {
    report::writeCopyText(out, m, {.top = s.top});
  }
  return true;
}

}  // namespace

report::Analysis reports() {
  report::Analysis a{"copy",
                     isCopyProfile,
                     kFormats,
                     write,
                     nullptr,
                     kMerges,
                     report::copyShellOn,
                     report::copyExportOn};
  a.diff = diffSide;
  return a;
}

}  // namespace dragnet::analyses::copy
