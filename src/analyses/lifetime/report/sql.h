// A lifetime profile's model as SQLite tables (objects, classes, methods, nested, patterns,
// gcs, totals, meta; docs/SHELL.md has the schema): `dragnet shell`'s `sql` command queries
// them in memory, `dragnet export --sqlite` writes them to a file. One schema code for both.
#pragma once

#include <memory>
#include <ostream>
#include <string>
#include <string_view>

#include "analyses/lifetime/model/aggregate.h"

struct sqlite3;

namespace dragnet::report {

// An open SQLite connection, closed with the object.
class SqlDb {
 public:
  // ":memory:" for an in-memory database; nullptr (and `error`) when it cannot be opened.
  static std::unique_ptr<SqlDb> open(const std::string& path, std::string& error);
  ~SqlDb();
  SqlDb(const SqlDb&) = delete;
  SqlDb& operator=(const SqlDb&) = delete;
  sqlite3* handle() const { return db_; }

 private:
  explicit SqlDb(sqlite3* db) : db_(db) {}
  sqlite3* db_;
};

// Creates the tables in `db` and fills them from `m`, in one transaction.
bool writeLifetimeTables(SqlDb& db, const analyses::lifetime::Model& m, std::string& error);

// Runs `sql` (one or more statements separated by ';') and writes each statement's result
// rows as an aligned table (column names, numbers right-aligned, NULL as "NULL") and a
// "(N rows)" line; statements without result columns print nothing.
bool runSqlQuery(SqlDb& db, std::string_view sql, std::ostream& out, std::string& error);

// `dragnet export --sqlite`: the tables into a new database file at `path` (an existing file
// is replaced).
bool exportLifetimeSqlite(const std::string& path, const analyses::lifetime::Model& m,
                          std::string& error);

}  // namespace dragnet::report
