#include "report/sql_db.h"

#include <sqlite3.h>

#include <algorithm>
#include <filesystem>
#include <limits>

namespace dragnet::report {

namespace {

void check(sqlite3* db, int rc, int expected = SQLITE_OK) {
  if (rc != expected) throw SqlError(sqlite3_errmsg(db));
}

// Finalizes a prepared statement when it goes out of scope.
struct Statement {
  sqlite3_stmt* stmt = nullptr;
  ~Statement() { sqlite3_finalize(stmt); }
};

struct ResultTable {
  std::vector<std::string> columns;
  std::vector<std::vector<std::string>> rows;
  std::vector<bool> numeric;  // per column: right-aligned (every non-NULL value a number)
};

ResultTable collect(sqlite3* db, sqlite3_stmt* st) {
  ResultTable t;
  int n = sqlite3_column_count(st);
  for (int c = 0; c < n; ++c) t.columns.emplace_back(sqlite3_column_name(st, c));
  t.numeric.assign(n, true);
  int rc;
  while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
    std::vector<std::string>& row = t.rows.emplace_back();
    for (int c = 0; c < n; ++c) {
      int type = sqlite3_column_type(st, c);
      const unsigned char* text = sqlite3_column_text(st, c);
      row.emplace_back(type == SQLITE_NULL ? "NULL" : reinterpret_cast<const char*>(text));
      if (type == SQLITE_TEXT || type == SQLITE_BLOB) t.numeric[c] = false;
    }
  }
  check(db, rc, SQLITE_DONE);
  return t;
}

// The columns a cell takes on a terminal: its characters, not its bytes (names are UTF-8).
size_t columnsOf(const std::string& cell) {
  return static_cast<size_t>(
      std::count_if(cell.begin(), cell.end(), [](char c) { return (c & 0xC0) != 0x80; }));
}

void writeResult(std::ostream& out, const ResultTable& t) {
  std::vector<size_t> width(t.columns.size());
  for (size_t c = 0; c < width.size(); ++c) {
    width[c] = columnsOf(t.columns[c]);
    for (const auto& row : t.rows) width[c] = std::max(width[c], columnsOf(row[c]));
  }
  auto line = [&](const std::vector<std::string>& cells) {
    std::string s = " ";
    for (size_t c = 0; c < cells.size(); ++c) {
      std::string pad(width[c] - columnsOf(cells[c]), ' ');
      bool right = t.numeric[c];  // numbers and their column titles
      bool last = c + 1 == cells.size();
      s += " " + (right ? pad + cells[c] : last ? cells[c] : cells[c] + pad) + (last ? "" : " ");
    }
    out << s << "\n";
  };
  line(t.columns);
  std::vector<std::string> rules;
  for (size_t w : width) rules.emplace_back(w, '-');
  line(rules);
  for (const auto& row : t.rows) line(row);
  out << "(" << t.rows.size() << (t.rows.size() == 1 ? " row)\n" : " rows)\n");
}

}  // namespace

std::unique_ptr<SqlDb> SqlDb::open(const std::string& path, std::string& error) {
  sqlite3* db = nullptr;
  if (sqlite3_open(path.c_str(), &db) != SQLITE_OK) {
    error = "cannot open " + path + ": " + (db ? sqlite3_errmsg(db) : "out of memory");
    sqlite3_close(db);
    return nullptr;
  }
  return std::unique_ptr<SqlDb>(new SqlDb(db));
}

SqlDb::~SqlDb() { sqlite3_close(db_); }

void sqlExec(sqlite3* db, const std::string& sql) {
  char* message = nullptr;
  if (sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &message) != SQLITE_OK) {
    std::string text = message ? message : sqlite3_errmsg(db);
    sqlite3_free(message);
    throw SqlError(text + " (in: " + sql + ")");
  }
}

SqlTable::SqlTable(sqlite3* db, const std::string& table, const std::vector<std::string>& columns,
                   const std::string& constraints)
    : db_(db) {
  std::string create = "CREATE TABLE " + table + " (";
  std::string insert = "INSERT INTO " + table + " VALUES (";
  for (size_t i = 0; i < columns.size(); ++i) {
    create += (i ? ", " : "") + columns[i];
    insert += i ? ", ?" : "?";
  }
  if (!constraints.empty()) create += ", " + constraints;
  sqlExec(db, create + ")");
  check(db, sqlite3_prepare_v2(db, (insert + ")").c_str(), -1, &stmt_, nullptr));
}

SqlTable::~SqlTable() { sqlite3_finalize(stmt_); }

SqlTable& SqlTable::integer(uint64_t v) {
  if (v <= static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) {
    check(db_, sqlite3_bind_int64(stmt_, next_++, static_cast<int64_t>(v)));
  } else {
    check(db_, sqlite3_bind_double(stmt_, next_++, static_cast<double>(v)));
  }
  return *this;
}

SqlTable& SqlTable::real(double v) {
  check(db_, sqlite3_bind_double(stmt_, next_++, v));
  return *this;
}

SqlTable& SqlTable::text(std::string_view s) {
  check(db_,
        sqlite3_bind_text(stmt_, next_++, s.data(), static_cast<int>(s.size()), SQLITE_TRANSIENT));
  return *this;
}

SqlTable& SqlTable::null() {
  check(db_, sqlite3_bind_null(stmt_, next_++));
  return *this;
}

void SqlTable::row() {
  check(db_, sqlite3_step(stmt_), SQLITE_DONE);
  check(db_, sqlite3_reset(stmt_));
  next_ = 1;
}

bool runSqlQuery(SqlDb& db, std::string_view sql, std::ostream& out, std::string& error) {
  sqlite3* h = db.handle();
  const char* at = sql.data();
  const char* end = sql.data() + sql.size();
  try {
    while (at < end) {
      Statement st;
      const char* next = nullptr;
      check(h, sqlite3_prepare_v2(h, at, static_cast<int>(end - at), &st.stmt, &next));
      at = next;
      if (st.stmt == nullptr) continue;  // white space or a comment
      ResultTable t = collect(h, st.stmt);
      if (!t.columns.empty()) writeResult(out, t);
    }
    return true;
  } catch (const SqlError& e) {
    error = e.what();
    return false;
  }
}

bool fillTables(SqlDb& db, const std::function<void(sqlite3*)>& fill, std::string& error) {
  sqlite3* h = db.handle();
  try {
    sqlExec(h, "BEGIN");
    fill(h);
    sqlExec(h, "COMMIT");
    return true;
  } catch (const SqlError& e) {
    sqlite3_exec(h, "ROLLBACK", nullptr, nullptr, nullptr);
    error = e.what();
    return false;
  }
}

bool writeSqliteFile(const std::string& path, const std::function<void(sqlite3*)>& fill,
                     std::string& error) {
  std::error_code ec;
  std::filesystem::remove(path, ec);
  if (ec) {
    error = "cannot replace " + path + ": " + ec.message();
    return false;
  }
  std::unique_ptr<SqlDb> db = SqlDb::open(path, error);
  if (!db) return false;
  // A fresh file written once: no journal needed (a failed export is removed below).
  sqlite3_exec(db->handle(), "PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF", nullptr, nullptr,
               nullptr);
  if (fillTables(*db, fill, error)) return true;
  db.reset();
  std::filesystem::remove(path, ec);
  return false;
}

}  // namespace dragnet::report
