// One SQLite connection with its prepared-statement cache, and a prepared statement's cursor.
// A Connection is used by one thread at a time (the writer thread, or a reader taken from the
// pool); SQLite is built thread-safe, but a statement must not be shared.
#pragma once

#include <sqlite3.h>

#include <cstdint>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <unordered_map>
#include <variant>
#include <vector>

#include "opbase/status.hpp"

namespace opbase::host::sqlite {

// A value bound to a `?` of a statement.
using Bind = std::variant<std::nullptr_t, int64_t, double, std::string>;

class Statement {
 public:
  explicit Statement(sqlite3_stmt* stmt) : stmt_(stmt) {}
  ~Statement();  // resets the statement for its next use (the cache owns it)
  Statement(const Statement&) = delete;
  Statement& operator=(const Statement&) = delete;

  void bind(int index, const Bind& value);
  void bind_all(const std::vector<Bind>& values);  // ?1, ?2, ... in order

  // Steps once: true when a row is ready, false when done; a failure sets `status()`.
  bool step();
  const Status& status() const { return status_; }

  int64_t int_at(int column) const { return sqlite3_column_int64(stmt_, column); }
  std::string_view text_at(int column) const;
  bool null_at(int column) const { return sqlite3_column_type(stmt_, column) == SQLITE_NULL; }
  Bind value_at(int column) const;  // a column of any type, as it would be bound back
  int extended_error() const { return error_code_; }

 private:
  sqlite3_stmt* stmt_;
  Status status_;
  int error_code_ = SQLITE_OK;
};

class Connection {
 public:
  // Opens (creating when `create`) the database file and sets WAL and the sync level.
  static Result<std::unique_ptr<Connection>> open(const std::string& path, bool create,
                                                  bool synchronous_full);
  ~Connection();
  Connection(const Connection&) = delete;
  Connection& operator=(const Connection&) = delete;

  Status exec(std::string_view sql);
  // One statement without parameters through the statement cache: for the writer's per-job
  // SAVEPOINT / RELEASE / COMMIT, which sqlite3_exec would compile again each time.
  Status run_cached(const std::string& sql);
  // A cached prepared statement; INTERNAL_ERROR when the SQL does not compile.
  Result<std::unique_ptr<Statement>> prepare(const std::string& sql);
  // Whether a query without parameters gives a row: what the schema checks at open ask
  // ("SELECT 1 FROM pragma_table_info(...) WHERE name = ...").
  Result<bool> any_row(const std::string& sql);
  int64_t changes() const { return sqlite3_changes64(db_); }
  sqlite3* handle() { return db_; }

 private:
  explicit Connection(sqlite3* db) : db_(db) {}
  sqlite3* db_;
  std::unordered_map<std::string, sqlite3_stmt*> cache_;
};

// "sqlite: <what>: <sqlite's message>" as INTERNAL_ERROR.
Status sqlite_error(sqlite3* db, std::string_view what);

}  // namespace opbase::host::sqlite
