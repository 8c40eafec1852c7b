// The field indexes of one sqlite store: which paths of which collections field_index holds
// rows for, and in which state. Declared (config datastore.indexes), automatic (index_advisor.hpp)
// and added by an administrator, they are one kind of index with one table:
//   field_indexes(ns, coll, path, origin, ready, built_upto, multikey, created_ms, last_used_ms,
//                 sparse, id)
// `id` names the index's rows in field_index: a small integer where three texts would be
// compared at every row a lookup steps over.
// An index is maintained by every write from the moment it is added; a background build fills
// it for the documents written before (ids below built_upto are done); queries use it once it
// is ready. `multikey` turns on, for good, when some document has at that path anything other
// than null, nothing, or one scalar the index holds reached through objects: until then the
// index has one row per document with a value there and none for the others (which sort as
// null), in the order a sort on the path gives, so it can count and sort alone. `sparse` turns
// on, for good, when some document has no row there (null or nothing at the path, or no value
// the index holds): until then a sort on the path has no document without a value to place.
//
// Visibility rules that keep answers exact while indexes come and go:
//  - add() publishes inside the writer job that inserts the table row, so every later write
//    maintains the index;
//  - set_ready() is called after the commit that finished the build, so a reader that sees the
//    index ready starts its transaction after every row is in;
//  - a reader holds its snapshot for the whole read; a drop retires the index first (queries
//    stop using it, writes still maintain it) and waits until no reader holds a snapshot in
//    which it was ready, before its rows are deleted;
//  - mark_multikey() and mark_sparse() are called before the write's commit, so a reader that
//    checks a flag after its first statement knows whether any document it sees is so.
// Thread-safety: every method may be called from any thread, concurrently; the ones that take
// a Connection run in the writer's job on the writer's connection.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "opbase/query.hpp"
#include "opbase/status.hpp"
#include "store/sqlite/sqlite_connection.hpp"

namespace opbase::host::sqlite {

enum class IndexOrigin { kDeclared, kAuto, kAdmin };
std::string_view origin_name(IndexOrigin origin);  // "declared", "auto", "admin"

struct FieldIndex {
  std::string ns;
  std::string collection;
  query::FieldPath path;
  IndexOrigin origin = IndexOrigin::kAuto;
  int64_t id = 0;  // field_index.index_id of its rows
  bool ready = false;
  bool dropping = false;   // retired: being dropped, no longer built or used
  int64_t built_upto = 0;  // the build has filled the rows of documents with smaller ids
  int64_t created_ms = 0;
  // Shared by every snapshot the index appears in.
  std::shared_ptr<std::atomic<bool>> multikey = std::make_shared<std::atomic<bool>>(false);
  std::shared_ptr<std::atomic<bool>> sparse = std::make_shared<std::atomic<bool>>(false);
  std::shared_ptr<std::atomic<int64_t>> last_used_ms = std::make_shared<std::atomic<int64_t>>(0);

  bool is(std::string_view n, std::string_view c, std::string_view p) const {
    return ns == n && collection == c && path.text == p;
  }
};

class IndexCatalog {
 public:
  using Snapshot = std::shared_ptr<const std::vector<FieldIndex>>;

  // Creates the table, takes over the declarations of the earlier declared_indexes table, and
  // loads the indexes.
  Status open(Connection& db, int64_t now_ms);

  Snapshot snapshot() const;
  // The index of a path of a collection in `snapshot`, or null.
  static const FieldIndex* find(const Snapshot& snapshot, std::string_view ns,
                                std::string_view collection, std::string_view path);

  // Adds an index in the building state (its table row and, at once, in memory).
  Status add(Connection& db, const std::string& ns, const std::string& collection,
             const query::FieldPath& path, IndexOrigin origin, int64_t now_ms);
  // Records how far the build went (in the table and in memory).
  Status set_progress(Connection& db, const FieldIndex& index, int64_t built_upto, bool done);
  // After the commit of the build's last step: queries may use the index.
  void set_ready(const FieldIndex& index);
  Status mark_multikey(Connection& db, const FieldIndex& index);
  Status mark_sparse(Connection& db, const FieldIndex& index);
  // Takes the index out of queries' use, and, in the table, makes a restart rebuild it from
  // nothing should the drop not finish.
  Status retire(Connection& db, const FieldIndex& index);
  // Returns once no reader holds a snapshot older than the current one (bounded: a read
  // holds one for the length of one request).
  void wait_for_readers() const;
  // Deletes the index's row and removes it from memory (its field_index rows are the caller's).
  Status remove(Connection& db, const FieldIndex& index);
  // Writes the last-used times queries left in memory.
  Status save_last_used(Connection& db);

 private:
  void publish(std::vector<FieldIndex> next);

  mutable std::mutex mutex_;
  Snapshot current_ = std::make_shared<const std::vector<FieldIndex>>();
  mutable std::vector<std::weak_ptr<const std::vector<FieldIndex>>> retired_;
};

}  // namespace opbase::host::sqlite
