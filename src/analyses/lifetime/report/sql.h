// A lifetime profile's model as SQLite tables (objects, classes, methods, nested, patterns,
// gcs, totals, meta; docs/SHELL.md has the schema): `dragnet shell`'s `sql` command queries
// them in memory, `dragnet export --sqlite` writes them to a file. One schema code for both.
#pragma once

#include <memory>
#include <ostream>
#include <string>
#include <string_view>

#include "analyses/lifetime/model/aggregate.h"
#include "report/sql_db.h"

namespace dragnet::report {

// Creates the tables in `db` and fills them from `m`, in one transaction.
bool writeLifetimeTables(SqlDb& db, const analyses::lifetime::Model& m, std::string& error);

// `dragnet export --sqlite`: the tables into a new database file at `path` (an existing file
// is replaced).
bool exportLifetimeSqlite(const std::string& path, const analyses::lifetime::Model& m,
                          std::string& error);

}  // namespace dragnet::report
