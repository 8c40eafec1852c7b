// The driver side of the document store (docs/plugin-guide.md#the-document-store; the requests
// are the SDK's store.hpp).
// A StoreDriver opens one ProjectStore per project: an isolated store (a SQLite file, a MongoDB
// database). Every method takes the namespace of the calling plugin: collections of different
// namespaces never meet, while `_key` is unique across the whole project store.
//
// Contract every driver keeps (tests/unit/host/store/store_conformance_test.cpp checks it):
//  - queries return exactly what the reference evaluator (query.hpp) returns, in the order of
//    query::compare_for_sort over the sort keys, ties broken by `_key` in the last key's direction;
//  - only documents in the requested state and of the request's scope are seen or changed;
//  - each call is atomic: a failed call changes nothing; a call that returned ok is durable;
//  - a collection exists from its first insert on, whatever happens to its documents later.
// Thread-safety: every method may be called from any thread, concurrently.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "opbase/status.hpp"
#include "opbase/store.hpp"
#include "store/insert_text.hpp"
#include "store/write_events.hpp"

namespace opbase::host {

// A field the operator declared as queried (config `datastore.indexes`): drivers keep an index
// on it for the documents of (ns, collection), per owner, so equality, range and $in conditions
// on it do not scan. Values reached through arrays are indexed element by element (multikey).
struct IndexSpec {
  std::string ns;
  std::string collection;
  query::FieldPath path;
};

class ProjectStore {
 public:
  virtual ~ProjectStore() = default;

  // The writes. `events`, when not null, gets the write's report (WriteEvents::report) inside
  // its transaction, and its records() are inserted in that same transaction, each into its
  // namespace's store::kEventsCollection: the write and its journal records stay together.
  //
  // Inserts documents as the store service gets them: as text (insert_text.hpp). A driver that
  // keeps documents as text stores each as it came and reads from it only the members it files
  // it under. Fails with store::kDuplicateKey (nothing inserted) when a `_key` is taken in the
  // project.
  virtual Status insert(std::string_view ns, const TextInsert& request, WriteEvents* events) = 0;
  virtual Result<store::UpdateAnswer> update(std::string_view ns,
                                             const store::UpdateRequest& request,
                                             WriteEvents* events) = 0;
  virtual Result<store::UpsertAnswer> upsert(std::string_view ns,
                                             const store::UpsertRequest& request,
                                             WriteEvents* events) = 0;
  virtual Result<store::KeysAnswer> change_state(std::string_view ns,
                                                 const store::StateRequest& request,
                                                 WriteEvents* events) = 0;
  virtual Result<store::KeysAnswer> restore(std::string_view ns,
                                            const store::RestoreRequest& request,
                                            WriteEvents* events) = 0;

  // Returns the text the store service sends for store.find (store::encode_find_answer's
  // layout). A driver that keeps documents as text copies them into it, never parsing them.
  virtual Result<std::string> find(std::string_view ns, const store::FindRequest& request) = 0;
  virtual Result<int64_t> count(std::string_view ns, const store::CountRequest& request) = 0;
  virtual Result<int64_t> purge(std::string_view ns, const store::PurgeRequest& request) = 0;
  virtual Result<bool> collection_exists(std::string_view ns, std::string_view collection) = 0;
  // Every collection of `ns` anything was ever inserted into, by name.
  virtual Result<std::vector<std::string>> collections(std::string_view ns) = 0;

  // Whether the store responds now (for /readyz).
  virtual Status ping() = 0;

  // The admin side of indexes (docs/api.md#indexes-and-query-plans). indexes() answers
  // {"indexes": [...], "noticed": [...]}: the indexes of a collection and the fields queries
  // were noticed reading many documents for. add_index answers the index as listed; explain
  // answers how the store reads a find (or, with `count`, the count of its match):
  // {"plan", "index", "rows_read", "matched", "time_ms"}. A store that does not offer them
  // (the tests' reference store) answers VALIDATION_ERROR with details.reason "unsupported"
  // (these defaults).
  virtual Result<nlohmann::json> indexes(std::string_view ns, std::string_view collection);
  virtual Result<nlohmann::json> add_index(std::string_view ns, std::string_view collection,
                                           const query::FieldPath& path);
  virtual Status drop_index(std::string_view ns, std::string_view collection,
                            std::string_view path);
  virtual Result<nlohmann::json> explain(std::string_view ns, const store::FindRequest& request,
                                         bool count);

  // The bytes the project's data takes where the store keeps it (the sqlite file and its
  // write-ahead log), for the opbase_store_size_bytes gauge; nullopt when the store cannot tell
  // (MongoDB shares its database's files between projects; the tests' reference store).
  virtual std::optional<int64_t> size_bytes() const { return std::nullopt; }

  // Conveniences for host code and tests that hold documents as trees. They go through the
  // methods above, so they take the same path as a plugin's call: insert prints each document
  // and decodes the request as the store service does; find_documents parses find's text.
  Status insert(std::string_view ns, const store::InsertRequest& request,
                WriteEvents* events = nullptr);
  Result<store::FindAnswer> find_documents(std::string_view ns, const store::FindRequest& request);

  // The same writes without events.
  Result<store::UpdateAnswer> update(std::string_view ns, const store::UpdateRequest& request) {
    return update(ns, request, nullptr);
  }
  Result<store::UpsertAnswer> upsert(std::string_view ns, const store::UpsertRequest& request) {
    return upsert(ns, request, nullptr);
  }
  Result<store::KeysAnswer> change_state(std::string_view ns, const store::StateRequest& request) {
    return change_state(ns, request, nullptr);
  }
  Result<store::KeysAnswer> restore(std::string_view ns, const store::RestoreRequest& request) {
    return restore(ns, request, nullptr);
  }
};

// find's text for a page held as trees, for drivers that read documents into trees.
std::string find_answer_text(const std::vector<nlohmann::json>& documents, int64_t total);

class StoreDriver {
 public:
  virtual ~StoreDriver() = default;
  virtual std::string_view name() const = 0;  // "sqlite", "mongodb", "memory"
  // Opens (creating when new) the store of one project.
  virtual Result<std::shared_ptr<ProjectStore>> open(std::string_view project_id) = 0;
};

}  // namespace opbase::host
