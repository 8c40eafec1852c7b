// One project's sqlite store: a database file in WAL mode, one Writer (group commit) and a pool
// of reader connections. Tables:
//   documents(id, key UNIQUE, ns, coll, owner, state, ref, state_ms, created, doc)
//     doc is the document's JSON text; the other columns are what queries select and sort by.
//   field_index(ns, coll, path, owner, state, rank, value, created, key, doc)   the multikey
//     index of the declared paths (sqlite_query.hpp), with the columns that let a query on one
//     path be sorted by date and counted without reading documents; rebuilt for a path when its
//     declaration first appears.
//   collections(ns, coll)             every collection that ever held a document.
//   declared_indexes(ns, coll, path)  the declarations field_index is complete for.
// Thread-safety: every method may be called from any thread, concurrently.
#pragma once

#include <condition_variable>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "store/project_store.hpp"
#include "store/sqlite/sqlite_checkpointer.hpp"
#include "store/sqlite/sqlite_connection.hpp"
#include "store/sqlite/sqlite_scan.hpp"
#include "store/sqlite/sqlite_writer.hpp"

namespace opbase::host::sqlite {

struct StoreOptions {
  std::string path;
  int readers = 4;
  bool synchronous_full = true;
  std::vector<IndexSpec> indexes;
};

class SqliteProjectStore : public ProjectStore {
 public:
  // Opens or creates the file, creates the schema, and brings field_index in line with the
  // declared indexes.
  static Result<std::shared_ptr<SqliteProjectStore>> open(StoreOptions options);
  ~SqliteProjectStore() override;

  using ProjectStore::change_state;
  using ProjectStore::insert;
  using ProjectStore::restore;
  using ProjectStore::update;
  using ProjectStore::upsert;
  Status insert(std::string_view ns, const TextInsert& request, WriteEvents* events) override;
  Result<std::string> find(std::string_view ns, const store::FindRequest& request) override;
  Result<int64_t> count(std::string_view ns, const store::CountRequest& request) override;
  Result<store::UpdateAnswer> update(std::string_view ns, const store::UpdateRequest& request,
                                     WriteEvents* events) override;
  Result<store::UpsertAnswer> upsert(std::string_view ns, const store::UpsertRequest& request,
                                     WriteEvents* events) override;
  Result<store::KeysAnswer> change_state(std::string_view ns, const store::StateRequest& request,
                                         WriteEvents* events) override;
  Result<store::KeysAnswer> restore(std::string_view ns, const store::RestoreRequest& request,
                                    WriteEvents* events) override;
  Result<int64_t> purge(std::string_view ns, const store::PurgeRequest& request) override;
  Result<bool> collection_exists(std::string_view ns, std::string_view collection) override;
  Status ping() override;

 private:
  explicit SqliteProjectStore(StoreOptions options);

  // A reader connection for the length of one read transaction.
  class Reader;
  Result<std::unique_ptr<Connection>> take_reader();
  void give_back(std::unique_ptr<Connection> connection);
  template <typename F>
  auto read(F&& body) -> decltype(body(std::declval<Connection&>()));

  std::vector<std::string> indexed_paths(std::string_view ns, std::string_view collection) const;
  Status write_index_rows(Connection& db, std::string_view ns, std::string_view collection,
                          int64_t id, const nlohmann::json& doc, bool replace);
  Status insert_index_rows(Connection& db, const IndexSpec& spec, int64_t id, int64_t state,
                           const nlohmann::json& doc);
  // Reports the write to `events` and inserts its journal records, inside the write's job.
  Status journal(Connection& db, WriteEvents* events, const std::vector<std::string>& inserted,
                 const std::vector<std::string>& changed);
  // A document's row, without its field_index rows; returns the row's id.
  Result<int64_t> insert_row(Connection& db, std::string_view ns, std::string_view collection,
                             const std::string& key, Bind owner, Bind created, std::string text);
  // `text` is `doc` printed (done before the writer's turn, off its thread).
  Status insert_one(Connection& db, std::string_view ns, std::string_view collection,
                    const nlohmann::json& doc, std::string text);
  Status note_collection(Connection& db, std::string_view ns, std::string_view collection);
  Status store_change(Connection& db, std::string_view ns, std::string_view collection,
                      const StoredRow& row, const nlohmann::json& doc);
  Status sync_declared_indexes(Connection& db);

  StoreOptions options_;
  std::unique_ptr<Writer> writer_;
  std::unique_ptr<Checkpointer> checkpointer_;
  std::mutex readers_mutex_;
  std::condition_variable reader_free_;
  std::vector<std::unique_ptr<Connection>> idle_readers_;
  int open_readers_ = 0;
};

}  // namespace opbase::host::sqlite
