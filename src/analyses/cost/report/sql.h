// A cost profile's model as SQLite tables (nodes, instances, edges, locations, writers,
// readers, objects, structure_locations, sites, totals, meta; docs/SHELL.md has the schema):
// `dragnet shell`'s `sql` command queries them in memory, `dragnet export --sqlite` writes
// them to a file. One schema code for both.
#pragma once

#include <string>

#include "analyses/cost/report/report.h"
#include "report/sql_db.h"

namespace dragnet::report {

// Creates the tables in `db` and fills them from `r`, in one transaction.
bool writeCostTables(SqlDb& db, const CostReport& r, std::string& error);

// `dragnet export --sqlite`: the tables into a new database file at `path` (an existing file
// is replaced).
bool exportCostSqlite(const std::string& path, const CostReport& r, std::string& error);

}  // namespace dragnet::report
