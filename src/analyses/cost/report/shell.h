// `dragnet shell FILE` on a cost profile: the cost model's rankings one at a time (cb, rac,
// rab), a program node with its instances' costs and dependences (node), a dependence path
// between two nodes (path), the report options changed in the session (set) and `sql QUERY`
// on the tables of sql.h, in the shared command shell (report/shell_session.h: help,
// write FILE, exit, the session loop). docs/SHELL.md describes the commands.
#pragma once

#include <cstddef>
#include <memory>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "analyses/cost/report/report.h"
#include "report/analysis.h"
#include "report/shell_session.h"

namespace dragnet::report {

struct CostShellOptions {
  size_t rows = 20;  // rows of a table without @N
};

class CostShell : public CommandShell {
 public:
  // `p` must outlive the shell; the shell keeps `in` to rebuild the model when `set`
  // changes an option.
  CostShell(const profile::Profile& p, analyses::cost::GraphInput in, analyses::cost::Options o,
            analyses::cost::Recording rec, analyses::cost::Totals totals, std::ostream& out,
            CostShellOptions so = {});
  ~CostShell() override;

  // The commands' synopses, one a line (what `help` prints).
  static const char* help();
  const CostReport& report() const { return report_; }

 private:
  void run(const std::vector<std::string>& words, std::string_view rest,
           std::ostream& out) override;
  void set(const std::vector<std::string>& words, std::ostream& out);

  std::unique_ptr<analyses::cost::CostModel> model_;
  CostReport report_;
  CostShellOptions options_;
};

// The analysis hooks (report::Analysis::shell, exportSqlite) of mode cost.
int costShellOn(const profile::Profile& p, const ShellSettings& s);
bool costExportOn(const profile::Profile& p, const std::string& path, std::string& error);

}  // namespace dragnet::report
