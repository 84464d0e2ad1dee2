// SQLite for the analyses' tables (`dragnet shell`'s `sql`, `dragnet export --sqlite`): an
// open connection, a table writer, running a query into an aligned text table, and writing a
// database file. Each analysis fills its own tables (lifetime: analyses/lifetime/report/sql.h,
// copy: analyses/copy/report/sql.h); docs/SHELL.md has their schemas.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <ostream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

struct sqlite3;
struct sqlite3_stmt;

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

// What SqlTable and sqlExec throw: SQLite's message.
struct SqlError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

void sqlExec(sqlite3* db, const std::string& sql);

// Creates a table and inserts its rows value by value, in column order ("name TYPE" each;
// `constraints` such as "PRIMARY KEY (a, b)" follow them).
class SqlTable {
 public:
  SqlTable(sqlite3* db, const std::string& table, const std::vector<std::string>& columns,
           const std::string& constraints = "");
  ~SqlTable();
  SqlTable(const SqlTable&) = delete;
  SqlTable& operator=(const SqlTable&) = delete;

  // Values past 2^63 - 1 (SQLite integers are signed 64 bits) become REALs.
  SqlTable& integer(uint64_t v);
  SqlTable& real(double v);
  SqlTable& text(std::string_view s);
  SqlTable& null();
  void row();

 private:
  sqlite3* db_;
  sqlite3_stmt* stmt_ = nullptr;
  int next_ = 1;
};

// Runs `sql` (one or more statements separated by ';') and writes each statement's result
// rows as an aligned table (column names, numbers right-aligned, NULL as "NULL") and a
// "(N rows)" line; statements without result columns print nothing.
bool runSqlQuery(SqlDb& db, std::string_view sql, std::ostream& out, std::string& error);

// Fills `db` by `fill` (which throws SqlError) in one transaction; false and `error` when it
// fails (nothing is left of it).
bool fillTables(SqlDb& db, const std::function<void(sqlite3*)>& fill, std::string& error);

// `dragnet export --sqlite`: a new database file at `path` (an existing file is replaced)
// filled by `fill`; a failed export leaves no file.
bool writeSqliteFile(const std::string& path, const std::function<void(sqlite3*)>& fill,
                     std::string& error);

}  // namespace dragnet::report
