// One project's database copied with the online backup API (see sqlite_snapshot.hpp).
#include "store/sqlite/sqlite_snapshot.hpp"

#include <sqlite3.h>

#include <chrono>
#include <memory>
#include <thread>

namespace opbase::host::sqlite {
namespace {

// How long the copy waits for a lock the daemon holds for a moment (a WAL reset, a schema
// change), in all.
constexpr auto kBusyWait = std::chrono::seconds(30);
constexpr int kBusyTimeoutMs = 5'000;

using Db = std::unique_ptr<sqlite3, int (*)(sqlite3*)>;

Status error_of(sqlite3* db, const std::string& what) {
  return Status::internal("sqlite: " + what + ": " + (db ? sqlite3_errmsg(db) : "out of memory"));
}

Result<Db> open_db(const std::string& path, int flags) {
  sqlite3* raw = nullptr;
  const int rc = sqlite3_open_v2(path.c_str(), &raw, flags | SQLITE_OPEN_NOMUTEX, nullptr);
  Db db(raw, &sqlite3_close);
  if (rc != SQLITE_OK) return error_of(raw, "cannot open " + path);
  sqlite3_extended_result_codes(raw, 1);
  sqlite3_busy_timeout(raw, kBusyTimeoutMs);
  return db;
}

// Every page in one step: the whole copy is one read transaction of the source, one snapshot.
Status copy_pages(sqlite3* from, sqlite3* to, const std::string& source) {
  const auto deadline = std::chrono::steady_clock::now() + kBusyWait;
  while (true) {
    sqlite3_backup* backup = sqlite3_backup_init(to, "main", from, "main");
    if (backup == nullptr) return error_of(to, "cannot start the copy of " + source);
    const int stepped = sqlite3_backup_step(backup, -1);
    const int finished = sqlite3_backup_finish(backup);
    if (stepped == SQLITE_DONE && finished == SQLITE_OK) return Status::ok();
    const bool busy = stepped == SQLITE_BUSY || stepped == SQLITE_LOCKED;
    if (!busy || std::chrono::steady_clock::now() >= deadline) {
      return Status::internal("sqlite: cannot copy " + source + ": " +
                              sqlite3_errstr(stepped != SQLITE_DONE ? stepped : finished));
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
}

Status quick_check(sqlite3* db, const std::string& path) {
  sqlite3_stmt* stmt = nullptr;
  if (sqlite3_prepare_v2(db, "PRAGMA quick_check", -1, &stmt, nullptr) != SQLITE_OK) {
    return error_of(db, "cannot check " + path);
  }
  std::string verdict;
  int rc = SQLITE_OK;
  while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
    const auto* text = reinterpret_cast<const char*>(sqlite3_column_text(stmt, 0));
    if (verdict.empty() && text != nullptr) verdict = text;
  }
  sqlite3_finalize(stmt);
  if (rc != SQLITE_DONE) return error_of(db, "cannot check " + path);
  if (verdict != "ok")
    return Status::internal("sqlite: the copy " + path + " is damaged: " + verdict);
  return Status::ok();
}

}  // namespace

Status snapshot_database(const std::string& source, const std::string& destination) {
  // Read-write, as the daemon's own readers open it: a reader of a WAL database may need to
  // rebuild the shared index (after a crash). It never writes the source.
  auto from = open_db(source, SQLITE_OPEN_READWRITE);
  if (!from) return from.status();
  auto to = open_db(destination, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE);
  if (!to) return to.status();
  // The copy is a new file: no journal to keep, and it is synced as part of the backup.
  char* message = nullptr;
  if (sqlite3_exec(to->get(), "PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF;", nullptr, nullptr,
                   &message) != SQLITE_OK) {
    Status status = Status::internal("sqlite: " + destination + ": " +
                                     (message ? message : "cannot set it up"));
    sqlite3_free(message);
    return status;
  }
  if (Status copied = copy_pages(from->get(), to->get(), source); !copied) return copied;
  from->reset();
  return quick_check(to->get(), destination);
}

}  // namespace opbase::host::sqlite
