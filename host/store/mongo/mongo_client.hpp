// The libmongoc side of the mongodb driver: the client pool and the few calls the project store
// makes, each returning a Status or Result. libmongoc's errors become INTERNAL_ERROR with
// libmongoc's message, from which the URI's password is removed (an error may quote the URI).
// Nothing here throws (other than std::bad_alloc).
// Thread-safety: a ClientPool is shared by every thread; a Collection belongs to one call.
#pragma once

#include <mongoc/mongoc.h>

#include <atomic>
#include <cstdint>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "opbase/status.hpp"
#include "store/mongo/bson_query.hpp"

namespace opbase::host::mongo {

class ClientPool {
 public:
  // Parses the URI and makes the pool; connects lazily, on the first call.
  static Result<std::shared_ptr<ClientPool>> create(const std::string& uri);
  ~ClientPool();
  ClientPool(const ClientPool&) = delete;
  ClientPool& operator=(const ClientPool&) = delete;

  mongoc_client_t* pop();  // blocks while every client is out (the pool's maxPoolSize)
  void push(mongoc_client_t* client);

  // Which server this is, asked once with buildInfo (kUnknown while it cannot be asked): FerretDB
  // names a ferretdbVersion there. FerretDB differs where it matters (docs/operations.md,
  // "MongoDB-compatible servers"): it keeps no Decimal128, and it does not apply concurrent
  // updates of one document atomically, which the first ask logs as a warning.
  enum class Server { kUnknown, kMongoDb, kFerretDb };
  Server server();
  // Whether the server keeps Decimal128 values, where the driver puts an integer above int64
  // (bson_query.hpp): MongoDB does; FerretDB does not, and drops the connection on one. True
  // while the server cannot be asked.
  bool keeps_decimal128() { return server() != Server::kFerretDb; }

  // `message` with the URI's password replaced by "***".
  std::string redact(std::string message) const;
  // INTERNAL_ERROR "mongodb <what>: <libmongoc's message, redacted>".
  Status failure(std::string_view what, const bson_error_t& error) const;

 private:
  ClientPool(mongoc_uri_t* uri, mongoc_client_pool_t* pool, std::string password);
  mongoc_uri_t* uri_;
  mongoc_client_pool_t* pool_;
  std::string password_;
  std::atomic<Server> server_{Server::kUnknown};
};

// One collection of one database on a client leased from the pool for the length of a call.
class Collection {
 public:
  Collection(ClientPool& pool, const std::string& database, const char* name);
  ~Collection();
  Collection(const Collection&) = delete;
  Collection& operator=(const Collection&) = delete;

  // The `doc` subdocuments of the records found, as JSON, in the cursor's order.
  Result<std::vector<nlohmann::json>> find_docs(const bson_t* filter, const bson_t* options);
  // The `_id`s (strings) of the records found, in `_id` order.
  Result<std::vector<std::string>> find_keys(const bson_t* filter);
  Result<int64_t> count(const bson_t* filter, const bson_t* options = nullptr);

  // An ordered insert. On failure `inserted` says how many records went in (the first ones)
  // and `duplicate_index` the record whose `_id` was taken (-1: another failure).
  struct InsertOutcome {
    Status status;
    int64_t inserted = 0;
    int64_t duplicate_index = -1;
  };
  InsertOutcome insert_many(const std::vector<BsonDoc>& records);

  // The number of records matched.
  Result<int64_t> update_many(const bson_t* filter, const bson_t* update);
  Result<int64_t> replace_one(const bson_t* filter, const bson_t* replacement);
  // Tried again once on a duplicate key: a racing upsert of the same new _id made the document.
  Status upsert_one(const bson_t* filter, const bson_t* update);
  Result<int64_t> delete_many(const bson_t* filter);  // the number deleted

  // A command on the collection's database (dropIndexes).
  Status database_command(const bson_t* command);
  // A createIndexes command on the collection's database, less the indexes the collection has
  // by those names already (nothing is sent when it has them all). MongoDB takes an index it has
  // as a no-op, but FerretDB 1.24 fails on it, dropping the connection.
  Status create_indexes(const bson_t* command);
  // A read command on the collection's database (explain), its reply as relaxed extended JSON.
  Result<nlohmann::json> read_command(const bson_t* command);
  // The names of the collection's indexes (listIndexes).
  Result<std::vector<std::string>> index_names();
  // {ping: 1} on admin.
  Status ping();

 private:
  // A write's failure: VALIDATION_ERROR when the server refuses a value it cannot keep (code 2,
  // BadValue: FerretDB's answer to an array inside an array), else the pool's failure().
  Status write_failure(std::string_view what, const bson_error_t& error) const;

  ClientPool& pool_;
  mongoc_client_t* client_;
  mongoc_collection_t* collection_;
  std::string database_;
};

}  // namespace opbase::host::mongo
