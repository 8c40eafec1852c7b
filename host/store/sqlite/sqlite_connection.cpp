// SQLite connections and statements for the sqlite driver.
#include "store/sqlite/sqlite_connection.hpp"

#include <mutex>

namespace opbase::host::sqlite {
namespace {

// SQLite keeps memory statistics under one process-wide mutex taken on every allocation, which
// the reader connections of a busy daemon fight over; opbase never reads those statistics. The
// setting must come before SQLite initialises (a later call is refused, harmlessly).
void turn_off_memory_statistics() {
  static std::once_flag once;
  std::call_once(once, [] { sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0); });
}

// Statements differ by query shape; the cache is bounded so unusual shapes cannot grow it.
constexpr std::size_t kStatementCacheSize = 256;

}  // namespace

Status sqlite_error(sqlite3* db, std::string_view what) {
  return Status::internal("sqlite: " + std::string(what) + ": " + sqlite3_errmsg(db));
}

Statement::~Statement() {
  sqlite3_reset(stmt_);
  sqlite3_clear_bindings(stmt_);
}

void Statement::bind(int index, const Bind& value) {
  if (std::holds_alternative<int64_t>(value)) {
    sqlite3_bind_int64(stmt_, index, std::get<int64_t>(value));
  } else if (std::holds_alternative<double>(value)) {
    sqlite3_bind_double(stmt_, index, std::get<double>(value));
  } else if (std::holds_alternative<std::string>(value)) {
    const std::string& text = std::get<std::string>(value);
    sqlite3_bind_text(stmt_, index, text.data(), static_cast<int>(text.size()), SQLITE_TRANSIENT);
  } else {
    sqlite3_bind_null(stmt_, index);
  }
}

void Statement::bind_all(const std::vector<Bind>& values) {
  for (std::size_t i = 0; i < values.size(); ++i) bind(static_cast<int>(i + 1), values[i]);
}

bool Statement::step() {
  const int rc = sqlite3_step(stmt_);
  if (rc == SQLITE_ROW) return true;
  if (rc != SQLITE_DONE && status_.is_ok()) {
    error_code_ = sqlite3_extended_errcode(sqlite3_db_handle(stmt_));
    status_ = sqlite_error(sqlite3_db_handle(stmt_), "step");
  }
  return false;
}

Bind Statement::value_at(int column) const {
  switch (sqlite3_column_type(stmt_, column)) {
    case SQLITE_INTEGER:
      return int_at(column);
    case SQLITE_FLOAT:
      return sqlite3_column_double(stmt_, column);
    case SQLITE_NULL:
      return nullptr;
    default:
      return std::string(text_at(column));
  }
}

std::string_view Statement::text_at(int column) const {
  const auto* text = reinterpret_cast<const char*>(sqlite3_column_text(stmt_, column));
  if (text == nullptr) return {};
  return {text, static_cast<std::size_t>(sqlite3_column_bytes(stmt_, column))};
}

Result<std::unique_ptr<Connection>> Connection::open(const std::string& path, bool create,
                                                     bool synchronous_full) {
  turn_off_memory_statistics();
  sqlite3* db = nullptr;
  const int flags = SQLITE_OPEN_READWRITE | (create ? SQLITE_OPEN_CREATE : 0) | SQLITE_OPEN_NOMUTEX;
  if (sqlite3_open_v2(path.c_str(), &db, flags, nullptr) != SQLITE_OK) {
    Status status = Status::internal("sqlite: cannot open " + path + ": " +
                                     (db ? sqlite3_errmsg(db) : "out of memory"));
    sqlite3_close(db);
    return status;
  }
  std::unique_ptr<Connection> connection(new Connection(db));
  sqlite3_extended_result_codes(db, 1);
  // Readers wait for a checkpoint or the schema set-up instead of failing with SQLITE_BUSY.
  sqlite3_busy_timeout(db, 10'000);
  const std::string pragmas = std::string("PRAGMA journal_mode=WAL; PRAGMA synchronous=") +
                              (synchronous_full ? "FULL" : "NORMAL") +
                              "; PRAGMA foreign_keys=OFF; PRAGMA temp_store=MEMORY;"
                              // A safety net only: the Checkpointer keeps the WAL short.
                              " PRAGMA wal_autocheckpoint=20000;";
  if (Status s = connection->exec(pragmas); !s) return s;
  return connection;
}

Connection::~Connection() {
  for (auto& [sql, stmt] : cache_) sqlite3_finalize(stmt);
  sqlite3_close_v2(db_);
}

Status Connection::exec(std::string_view sql) {
  char* message = nullptr;
  const std::string text(sql);
  if (sqlite3_exec(db_, text.c_str(), nullptr, nullptr, &message) != SQLITE_OK) {
    Status status = Status::internal("sqlite: " + std::string(message ? message : "error"));
    sqlite3_free(message);
    return status;
  }
  return Status::ok();
}

Status Connection::run_cached(const std::string& sql) {
  auto stmt = prepare(sql);
  if (!stmt) return stmt.status();
  while ((*stmt)->step()) {
  }
  return (*stmt)->status();
}

Result<std::unique_ptr<Statement>> Connection::prepare(const std::string& sql) {
  auto it = cache_.find(sql);
  if (it == cache_.end()) {
    if (cache_.size() >= kStatementCacheSize) {
      for (auto& [text, stmt] : cache_) sqlite3_finalize(stmt);
      cache_.clear();
    }
    sqlite3_stmt* stmt = nullptr;
    if (sqlite3_prepare_v3(db_, sql.c_str(), static_cast<int>(sql.size()),
                           SQLITE_PREPARE_PERSISTENT, &stmt, nullptr) != SQLITE_OK) {
      return sqlite_error(db_, "prepare");
    }
    it = cache_.emplace(sql, stmt).first;
  }
  return std::make_unique<Statement>(it->second);
}

Result<bool> Connection::any_row(const std::string& sql) {
  auto stmt = prepare(sql);
  if (!stmt) return stmt.status();
  const bool found = (*stmt)->step();
  if (!(*stmt)->status()) return (*stmt)->status();
  return found;
}

}  // namespace opbase::host::sqlite
