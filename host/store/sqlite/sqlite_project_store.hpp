// One project's sqlite store: a database file in WAL mode, one Writer (group commit) and a pool
// of reader connections. Tables:
//   documents(id, key UNIQUE, ns, coll, owner, state, ref, state_ms, created, doc)
//     doc is the document's JSON text; the other columns are what queries select and sort by.
//   field_index(index_id, owner, state, rank, value, created, key, doc)   the multikey index of
//     the field indexes' paths (sqlite_query.hpp), each row named by its index's id
//     (sqlite_index_catalog.hpp), with the columns that let a query on one path be sorted by
//     date and counted without reading documents.
//   field_indexes(...)                which paths field_index holds (sqlite_index_catalog.hpp):
//     declared ones are built at open; automatic ones (index_advisor.hpp) and an
//     administrator's are built by a background thread, a chunk per writer job.
//   collections(ns, coll)             every collection that ever held a document.
// Thread-safety: every method may be called from any thread, concurrently.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>
#include <tuple>
#include <vector>

#include "store/index_advisor.hpp"
#include "store/project_store.hpp"
#include "store/sqlite/sqlite_checkpointer.hpp"
#include "store/sqlite/sqlite_connection.hpp"
#include "store/sqlite/sqlite_index_catalog.hpp"
#include "store/sqlite/sqlite_scan.hpp"
#include "store/sqlite/sqlite_writer.hpp"

namespace opbase::host::sqlite {

struct StoreOptions {
  std::string path;
  int readers = 4;
  bool synchronous_full = true;
  std::vector<IndexSpec> indexes;
  AutoIndexPolicy auto_indexes;
};

class SqliteProjectStore : public ProjectStore {
 public:
  // Opens or creates the file, creates the schema, brings field_index in line with the
  // declared indexes, and starts building the indexes an earlier run left unfinished.
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
  std::optional<int64_t> size_bytes() const override;
  Result<std::vector<std::string>> collections(std::string_view ns) override;
  Status ping() override;

  Result<nlohmann::json> indexes(std::string_view ns, std::string_view collection) override;
  // An administrator's index (IndexOrigin::kAdmin).
  Result<nlohmann::json> add_index(std::string_view ns, std::string_view collection,
                                   const query::FieldPath& path) override;
  // Drops the index of a path: queries stop using it at once, its rows go after the reads that
  // used it end. VALIDATION_ERROR when there is none, or when it is declared (the
  // configuration would build it again at the next start).
  Status drop_index(std::string_view ns, std::string_view collection,
                    std::string_view path) override;
  Result<nlohmann::json> explain(std::string_view ns, const store::FindRequest& request,
                                 bool count) override;

  // The field indexes, as queries see them now.
  IndexCatalog::Snapshot index_snapshot() const { return catalog_.snapshot(); }
  // Adds an index on a path of a collection and builds it in the background; ok and nothing
  // done when there is one.
  Status add_index(std::string_view ns, std::string_view collection, const query::FieldPath& path,
                   IndexOrigin origin);
  // Waits until no index is building (for tests and for the shutdown of tools); bounded.
  void wait_for_builds(std::chrono::milliseconds at_most);

  // The documents of one build step, read by their id range. NOT INDEXED: without it sqlite
  // picks the scope index for ns and coll, and every step would walk the whole collection to
  // find its few ids: a build over n documents would read all n at each of its n / 2,000 steps.
  static constexpr std::string_view kBuildStepRows =
      "SELECT id, state, doc FROM documents NOT INDEXED "
      "WHERE id > ? AND id <= ? AND ns = ? AND coll = ?";

 private:
  explicit SqliteProjectStore(StoreOptions options);

  // A reader connection for the length of one read transaction.
  class Reader;
  Result<std::unique_ptr<Connection>> take_reader();
  void give_back(std::unique_ptr<Connection> connection);
  template <typename F>
  auto read(F&& body) -> decltype(body(std::declval<Connection&>()));

  // How a read was answered, for explain.
  struct QueryReport {
    std::string plan;   // scan, index_lookup, index_only, index_order, index_count, ...
    std::string index;  // the indexed paths it read, comma-separated
    int64_t rows_read = 0;
    int64_t matched = 0;
  };
  Result<std::string> find_reported(std::string_view ns, const store::FindRequest& request,
                                    QueryReport* report);
  Result<int64_t> count_reported(std::string_view ns, const store::CountRequest& request,
                                 QueryReport* report);
  // The count inside a read, by the plan choose_count_plan takes (sqlite_plan_choice.hpp);
  // `rows_read` gets the documents a scan read for it.
  Result<int64_t> count_in(Connection& db, std::string_view ns, const store::CountRequest& request,
                           const IndexCatalog::Snapshot& snapshot, QueryReport* report,
                           int64_t* rows_read);
  // The ready indexes of a collection in `snapshot`.
  static UsableIndexes usable_indexes(const IndexCatalog::Snapshot& snapshot, std::string_view ns,
                                      std::string_view collection);
  // Those of them no document has made multikey so far, and whether one of those has been
  // since: read after a read's first statement, the answer covers everything that read sees.
  static UsableIndexes plain_indexes(const IndexCatalog::Snapshot& snapshot, std::string_view ns,
                                     std::string_view collection);
  static bool any_multikey(const IndexCatalog::Snapshot& snapshot, std::string_view ns,
                           std::string_view collection, const UsableIndexes& indexes);
  // Whether the writes to a collection maintain any index.
  bool has_indexes(std::string_view ns, std::string_view collection) const;
  // Tells the index catalog which indexes a query used, and the advisor what it scanned for.
  void note_query(std::string_view ns, std::string_view collection, const SqlFilter& filter,
                  const std::vector<query::SortKey>& sort, int64_t rows_read,
                  std::chrono::steady_clock::time_point started);
  // Asks for the field indexes of a shared scope's lists that the collection lacks, so its
  // queries read the shared documents from the index instead of every document's text.
  void want_list_indexes(std::string_view ns, std::string_view collection,
                         const store::Scope& scope);
  Status write_index_rows(Connection& db, std::string_view ns, std::string_view collection,
                          int64_t id, const nlohmann::json& doc, bool replace);
  Status insert_index_rows(Connection& db, const FieldIndex& index, int64_t id, int64_t state,
                           const nlohmann::json& doc);
  // Fills the index's rows of the documents with ids in (after, upto]; returns the documents
  // read.
  Result<int64_t> fill_index(Connection& db, const FieldIndex& index, int64_t after, int64_t upto);
  // Reports the write to `events` and inserts its journal records, inside the write's job.
  Status journal(Connection& db, WriteEvents* events, const std::vector<WrittenDocument>& written);
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

  // The background thread of the indexes: adds what the advisor asked for, builds, drops.
  void maintain_indexes();
  void request_index(std::string_view ns, std::string_view collection, const std::string& path);
  Status build_step(const FieldIndex& index);
  Status finish_drop(const FieldIndex& index);
  void drop_unused_indexes(int64_t now_ms);

  StoreOptions options_;
  IndexCatalog catalog_;
  IndexAdvisor advisor_;
  std::unique_ptr<Writer> writer_;
  std::unique_ptr<Checkpointer> checkpointer_;
  std::mutex readers_mutex_;
  std::condition_variable reader_free_;
  std::vector<std::unique_ptr<Connection>> idle_readers_;
  int open_readers_ = 0;

  std::mutex maintain_mutex_;
  std::condition_variable wake_maintainer_;
  std::vector<std::tuple<std::string, std::string, std::string>> requested_;  // ns, coll, path
  std::atomic<bool> stopping_{false};
  bool adding_ = false;  // requests taken, not yet added
  std::thread maintainer_;
};

}  // namespace opbase::host::sqlite
