// A copy profile's model as SQLite tables (sites, fields, nodes, edges, chains, chain_nodes,
// clones, nath, methods, contexts, cuts, conflict_ratios, totals, meta; docs/SHELL.md has the
// schema): `dragnet shell`'s `sql` command queries them in memory, `dragnet export --sqlite`
// writes them to a file. One schema code for both.
#pragma once

#include <string>

#include "analyses/copy/model/model.h"
#include "report/sql_db.h"

namespace dragnet::report {

// Creates the tables in `db` and fills them from `m`, in one transaction.
bool writeCopyTables(SqlDb& db, const analyses::copy::Model& m, std::string& error);

// `dragnet export --sqlite`: the tables into a new database file at `path` (an existing file
// is replaced).
bool exportCopySqlite(const std::string& path, const analyses::copy::Model& m, std::string& error);

}  // namespace dragnet::report
