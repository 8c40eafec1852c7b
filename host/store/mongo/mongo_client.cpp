// The libmongoc calls of the mongodb driver (see mongo_client.hpp).
#include "store/mongo/mongo_client.hpp"

#include <mutex>
#include <set>
#include <utility>

#include "log/log.hpp"

namespace opbase::host::mongo {

namespace {

using nlohmann::json;

// The password as written in the URI ("mongodb://user:pw@host/..."), or "" when none.
std::string uri_password(std::string_view uri) {
  const auto scheme = uri.find("://");
  if (scheme == std::string_view::npos) return {};
  std::string_view rest = uri.substr(scheme + 3);
  // The userinfo ends at the last '@' before the options (a raw '/' may sit in a password).
  const auto at = rest.rfind('@', rest.find('?'));
  if (at == std::string_view::npos) return {};
  const std::string_view userinfo = rest.substr(0, at);
  const auto colon = userinfo.find(':');
  return colon == std::string_view::npos ? std::string() : std::string(userinfo.substr(colon + 1));
}

void replace_all(std::string& text, const std::string& secret) {
  if (secret.empty()) return;
  for (auto at = text.find(secret); at != std::string::npos; at = text.find(secret, at + 3)) {
    text.replace(at, secret.size(), "***");
  }
}

int64_t reply_number(const bson_t* reply, const char* field) {
  bson_iter_t iter;
  if (bson_iter_init_find(&iter, reply, field) && BSON_ITER_HOLDS_NUMBER(&iter)) {
    return bson_iter_as_int64(&iter);
  }
  return 0;
}

// The server's code for a value it refuses to store (BadValue), which FerretDB gives for an
// array inside an array: the request's fault, not the store's.
constexpr uint32_t kBadValue = 2;

// The index of the first write error whose code is 11000 (duplicate key), or -1.
int64_t duplicate_write_error(const bson_t* reply) {
  bson_iter_t iter;
  bson_iter_t errors;
  if (!bson_iter_init_find(&iter, reply, "writeErrors") || !BSON_ITER_HOLDS_ARRAY(&iter) ||
      !bson_iter_recurse(&iter, &errors)) {
    return -1;
  }
  while (bson_iter_next(&errors)) {
    bson_iter_t error;
    if (!BSON_ITER_HOLDS_DOCUMENT(&errors) || !bson_iter_recurse(&errors, &error)) continue;
    int64_t index = -1;
    int64_t code = 0;
    while (bson_iter_next(&error)) {
      const std::string_view key = bson_iter_key(&error);
      if (key == "index" && BSON_ITER_HOLDS_NUMBER(&error)) index = bson_iter_as_int64(&error);
      if (key == "code" && BSON_ITER_HOLDS_NUMBER(&error)) code = bson_iter_as_int64(&error);
    }
    if (code == MONGOC_ERROR_DUPLICATE_KEY) return index;
  }
  return -1;
}

// libmongoc checks keys client-side by default (no '.' or leading '$', which MongoDB 5.0+
// stores); documents are checked by the store, so the server decides.
BsonDoc unvalidated(bool upsert = false) {
  BsonDoc options;
  BSON_APPEND_BOOL(options.get(), "validate", false);
  if (upsert) BSON_APPEND_BOOL(options.get(), "upsert", true);
  return options;
}

Result<json> record_doc(const bson_t* record) {
  bson_iter_t iter;
  if (!bson_iter_init_find(&iter, record, "doc") || !BSON_ITER_HOLDS_DOCUMENT(&iter)) {
    return Status::internal("mongodb: a record without its document");
  }
  uint32_t length = 0;
  const uint8_t* data = nullptr;
  bson_iter_document(&iter, &length, &data);
  bson_t doc;
  if (!bson_init_static(&doc, data, length)) return Status::internal("mongodb: corrupt record");
  return bson_to_json(&doc);
}

// Any "scheme://user:password@" in `text` with the password replaced by "***" (libmongoc's log
// lines have no access to the pool's password, so they are scrubbed by shape).
std::string scrub_userinfo(std::string text) {
  for (auto scheme = text.find("://"); scheme != std::string::npos;
       scheme = text.find("://", scheme + 3)) {
    const auto end = text.find_first_of(" \t\n\"'", scheme + 3);
    const auto at = text.rfind('@', end == std::string::npos ? std::string::npos : end - 1);
    if (at == std::string::npos || at < scheme + 3) continue;
    const auto colon = text.find(':', scheme + 3);
    if (colon == std::string::npos || colon > at) continue;
    text.replace(colon + 1, at - colon - 1, "***");
  }
  return text;
}

// libmongoc's log lines into the host's log (its default handler writes to stdout/stderr
// whatever the host's log settings); trace lines are dropped.
void log_handler(mongoc_log_level_t level, const char* domain, const char* message, void*) {
  log::Level to = log::Level::kDebug;
  switch (level) {
    case MONGOC_LOG_LEVEL_ERROR:
    case MONGOC_LOG_LEVEL_CRITICAL:
      to = log::Level::kError;
      break;
    case MONGOC_LOG_LEVEL_WARNING:
      to = log::Level::kWarning;
      break;
    case MONGOC_LOG_LEVEL_MESSAGE:
    case MONGOC_LOG_LEVEL_INFO:
      to = log::Level::kInfo;
      break;
    case MONGOC_LOG_LEVEL_DEBUG:
      break;
    case MONGOC_LOG_LEVEL_TRACE:
      return;
  }
  if (!log::enabled(to)) return;
  log::write(to, std::string("mongoc ") + (domain != nullptr ? domain : ""),
             scrub_userinfo(message != nullptr ? message : ""));
}

}  // namespace

Result<std::shared_ptr<ClientPool>> ClientPool::create(const std::string& uri) {
  static std::once_flag init;
  std::call_once(init, [] {  // once per process; never cleaned up
    mongoc_log_set_handler(log_handler, nullptr);
    mongoc_init();
  });
  const std::string password = uri_password(uri);
  bson_error_t error;
  mongoc_uri_t* parsed = mongoc_uri_new_with_error(uri.c_str(), &error);
  if (parsed == nullptr) {
    std::string message =
        std::string("mongodb: storage.mongodb.uri is not valid: ") + error.message;
    replace_all(message, password);
    return Status::internal(std::move(message));
  }
  mongoc_client_pool_t* pool = mongoc_client_pool_new(parsed);
  if (pool == nullptr) {
    mongoc_uri_destroy(parsed);
    return Status::internal("mongodb: cannot make a client pool for storage.mongodb.uri");
  }
  mongoc_client_pool_set_error_api(pool, MONGOC_ERROR_API_VERSION_2);
  mongoc_client_pool_set_appname(pool, "opbase");
  return std::shared_ptr<ClientPool>(new ClientPool(parsed, pool, password));
}

ClientPool::ClientPool(mongoc_uri_t* uri, mongoc_client_pool_t* pool, std::string password)
    : uri_(uri), pool_(pool), password_(std::move(password)) {}

ClientPool::~ClientPool() {
  mongoc_client_pool_destroy(pool_);
  mongoc_uri_destroy(uri_);
}

mongoc_client_t* ClientPool::pop() { return mongoc_client_pool_pop(pool_); }

void ClientPool::push(mongoc_client_t* client) { mongoc_client_pool_push(pool_, client); }

ClientPool::Server ClientPool::server() {
  if (const Server known = server_.load(); known != Server::kUnknown) return known;
  BsonDoc command;
  BSON_APPEND_INT32(command.get(), "buildInfo", 1);
  bson_t reply;
  bson_error_t error;
  mongoc_client_t* client = pop();
  const bool ok =
      mongoc_client_command_simple(client, "admin", command.get(), nullptr, &reply, &error);
  push(client);
  Server found = Server::kUnknown;
  if (ok) {
    bson_iter_t iter;
    found = bson_iter_init_find(&iter, &reply, "ferretdbVersion") ? Server::kFerretDb
                                                                  : Server::kMongoDb;
    // Once per pool, however many threads asked at the same moment.
    if (server_.exchange(found) == Server::kUnknown && found == Server::kFerretDb) {
      log::warn("mongodb",
                "the server is FerretDB, which does not apply concurrent updates of one "
                "document atomically and reads every query by a full scan: racing requests "
                "through several daemons can pass the rate limits and quotas, spend a one-time "
                "code twice or end a session by refreshing it at once, and a webhook message or "
                "a mail can be sent twice (docs/operations.md, MongoDB-compatible servers)");
    }
  }
  bson_destroy(&reply);
  return found;
}

std::string ClientPool::redact(std::string message) const {
  replace_all(message, password_);
  if (const char* decoded = mongoc_uri_get_password(uri_); decoded != nullptr) {
    replace_all(message, decoded);
  }
  return message;
}

Status ClientPool::failure(std::string_view what, const bson_error_t& error) const {
  return Status::internal(redact("mongodb " + std::string(what) + ": " + error.message));
}

Status Collection::write_failure(std::string_view what, const bson_error_t& error) const {
  if (error.code != kBadValue) return pool_.failure(what, error);
  return Status::validation(std::string("the MongoDB server cannot keep this document: ") +
                            error.message);
}

Collection::Collection(ClientPool& pool, const std::string& database, const char* name)
    : pool_(pool),
      client_(pool.pop()),
      collection_(mongoc_client_get_collection(client_, database.c_str(), name)),
      database_(database) {}

Collection::~Collection() {
  mongoc_collection_destroy(collection_);
  pool_.push(client_);
}

Result<std::vector<json>> Collection::find_docs(const bson_t* filter, const bson_t* options) {
  mongoc_cursor_t* cursor = mongoc_collection_find_with_opts(collection_, filter, options, nullptr);
  std::vector<json> out;
  Status status;
  const bson_t* record = nullptr;
  while (status.is_ok() && mongoc_cursor_next(cursor, &record)) {
    auto doc = record_doc(record);
    if (doc.is_ok()) {
      out.push_back(std::move(*doc));
    } else {
      status = doc.status();
    }
  }
  bson_error_t error;
  if (status.is_ok() && mongoc_cursor_error(cursor, &error)) status = pool_.failure("find", error);
  mongoc_cursor_destroy(cursor);
  if (!status) return status;
  return out;
}

Result<std::vector<std::string>> Collection::find_keys(const bson_t* filter) {
  BsonDoc options;
  bson_t child;
  BSON_APPEND_DOCUMENT_BEGIN(options.get(), "projection", &child);
  BSON_APPEND_INT32(&child, "_id", 1);
  bson_append_document_end(options.get(), &child);
  BSON_APPEND_DOCUMENT_BEGIN(options.get(), "sort", &child);
  BSON_APPEND_INT32(&child, "_id", 1);
  bson_append_document_end(options.get(), &child);
  mongoc_cursor_t* cursor =
      mongoc_collection_find_with_opts(collection_, filter, options.get(), nullptr);
  std::vector<std::string> keys;
  Status status;
  const bson_t* record = nullptr;
  while (status.is_ok() && mongoc_cursor_next(cursor, &record)) {
    bson_iter_t iter;
    if (bson_iter_init_find(&iter, record, "_id") && BSON_ITER_HOLDS_UTF8(&iter)) {
      uint32_t length = 0;
      const char* key = bson_iter_utf8(&iter, &length);
      keys.emplace_back(key, length);
    } else {
      status = Status::internal("mongodb: a record whose _id is not a string");
    }
  }
  bson_error_t error;
  if (status.is_ok() && mongoc_cursor_error(cursor, &error)) status = pool_.failure("find", error);
  mongoc_cursor_destroy(cursor);
  if (!status) return status;
  return keys;
}

Result<int64_t> Collection::count(const bson_t* filter, const bson_t* options) {
  bson_error_t error;
  const int64_t n =
      mongoc_collection_count_documents(collection_, filter, options, nullptr, nullptr, &error);
  if (n < 0) return pool_.failure("count", error);
  return n;
}

Collection::InsertOutcome Collection::insert_many(const std::vector<BsonDoc>& records) {
  BsonDoc options = unvalidated();
  bson_t reply;
  bson_error_t error;
  InsertOutcome outcome;
  // A plain array: libmongoc takes `const bson_t**` (and bson_t's alignment attribute makes
  // std::vector<const bson_t*> warn).
  auto** documents = static_cast<const bson_t**>(bson_malloc(sizeof(bson_t*) * records.size()));
  for (std::size_t i = 0; i < records.size(); ++i) documents[i] = records[i].get();
  if (!mongoc_collection_insert_many(collection_, documents, records.size(), options.get(), &reply,
                                     &error)) {
    outcome.status = write_failure("insert", error);
    outcome.inserted = reply_number(&reply, "insertedCount");
    outcome.duplicate_index = duplicate_write_error(&reply);
    if (outcome.duplicate_index < 0 && error.code == MONGOC_ERROR_DUPLICATE_KEY) {
      outcome.duplicate_index = outcome.inserted;  // ordered: the first one not inserted
    }
  } else {
    outcome.inserted = static_cast<int64_t>(records.size());
  }
  bson_free(static_cast<void*>(documents));
  bson_destroy(&reply);
  return outcome;
}

Result<int64_t> Collection::update_many(const bson_t* filter, const bson_t* update) {
  bson_t reply;
  bson_error_t error;
  const bool ok =
      mongoc_collection_update_many(collection_, filter, update, nullptr, &reply, &error);
  const int64_t matched = reply_number(&reply, "matchedCount");
  bson_destroy(&reply);
  if (!ok) return write_failure("update", error);
  return matched;
}

Result<int64_t> Collection::replace_one(const bson_t* filter, const bson_t* replacement) {
  BsonDoc options = unvalidated();
  bson_t reply;
  bson_error_t error;
  const bool ok = mongoc_collection_replace_one(collection_, filter, replacement, options.get(),
                                                &reply, &error);
  const int64_t matched = reply_number(&reply, "matchedCount");
  bson_destroy(&reply);
  if (!ok) return write_failure("update", error);
  return matched;
}

Status Collection::upsert_one(const bson_t* filter, const bson_t* update) {
  BsonDoc options = unvalidated(/*upsert=*/true);
  bson_error_t error;
  // Two upserts of one new _id racing both find nothing and both insert; the loser's insert is
  // a duplicate key (FerretDB always; MongoDB in the cases it does not retry itself). The
  // document is there now, so the second attempt updates it.
  for (int attempt = 0; attempt < 2; ++attempt) {
    bson_t reply;
    const bool ok =
        mongoc_collection_update_one(collection_, filter, update, options.get(), &reply, &error);
    bson_destroy(&reply);
    if (ok) return Status::ok();
    if (error.code != MONGOC_ERROR_DUPLICATE_KEY) break;
  }
  return write_failure("update", error);
}

Result<int64_t> Collection::delete_many(const bson_t* filter) {
  bson_t reply;
  bson_error_t error;
  const bool ok = mongoc_collection_delete_many(collection_, filter, nullptr, &reply, &error);
  const int64_t deleted = reply_number(&reply, "deletedCount");
  bson_destroy(&reply);
  if (!ok) return pool_.failure("delete", error);
  return deleted;
}

Status Collection::database_command(const bson_t* command) {
  mongoc_database_t* database = mongoc_client_get_database(client_, database_.c_str());
  bson_t reply;
  bson_error_t error;
  const bool ok =
      mongoc_database_write_command_with_opts(database, command, nullptr, &reply, &error);
  bson_destroy(&reply);
  mongoc_database_destroy(database);
  return ok ? Status::ok() : pool_.failure("command", error);
}

Result<json> Collection::read_command(const bson_t* command) {
  mongoc_database_t* database = mongoc_client_get_database(client_, database_.c_str());
  bson_t reply;
  bson_error_t error;
  const bool ok = mongoc_database_command_simple(database, command, nullptr, &reply, &error);
  mongoc_database_destroy(database);
  if (!ok) {
    bson_destroy(&reply);
    return pool_.failure("command", error);
  }
  char* text = bson_as_relaxed_extended_json(&reply, nullptr);
  bson_destroy(&reply);
  json parsed = json::parse(text ? text : "", nullptr, false);
  bson_free(text);
  if (parsed.is_discarded()) return Status::internal("mongodb: a reply that is not JSON");
  return parsed;
}

Result<std::vector<std::string>> Collection::index_names() {
  mongoc_cursor_t* cursor = mongoc_collection_find_indexes_with_opts(collection_, nullptr);
  std::vector<std::string> names;
  const bson_t* index = nullptr;
  while (mongoc_cursor_next(cursor, &index)) {
    bson_iter_t iter;
    if (bson_iter_init_find(&iter, index, "name") && BSON_ITER_HOLDS_UTF8(&iter)) {
      names.emplace_back(bson_iter_utf8(&iter, nullptr));
    }
  }
  bson_error_t error;
  const bool failed = mongoc_cursor_error(cursor, &error);
  mongoc_cursor_destroy(cursor);
  if (failed) return pool_.failure("listIndexes", error);
  return names;
}

Status Collection::create_indexes(const bson_t* command) {
  auto existing = index_names();
  if (!existing) return existing.status();
  const std::set<std::string> have(existing->begin(), existing->end());
  BsonDoc missing_only;
  bson_t* out = missing_only.get();
  std::uint32_t kept = 0;
  bson_iter_t field;
  if (!bson_iter_init(&field, command)) return Status::internal("mongodb: a bad createIndexes");
  while (bson_iter_next(&field)) {
    if (std::string_view(bson_iter_key(&field)) != "indexes" || !BSON_ITER_HOLDS_ARRAY(&field)) {
      bson_append_iter(out, nullptr, 0, &field);
      continue;
    }
    bson_t indexes;
    bson_append_array_begin(out, "indexes", 7, &indexes);
    bson_iter_t index;
    bson_iter_recurse(&field, &index);
    while (bson_iter_next(&index)) {
      bson_iter_t name;
      if (bson_iter_recurse(&index, &name) && bson_iter_find(&name, "name") &&
          BSON_ITER_HOLDS_UTF8(&name) && have.contains(bson_iter_utf8(&name, nullptr))) {
        continue;
      }
      const char* key = nullptr;
      char buffer[16];
      const std::size_t length = bson_uint32_to_string(kept++, &key, buffer, sizeof buffer);
      bson_append_iter(&indexes, key, static_cast<int>(length), &index);
    }
    bson_append_array_end(out, &indexes);
  }
  if (kept == 0) return Status::ok();
  return database_command(out);
}

Status Collection::ping() {
  BsonDoc command;
  BSON_APPEND_INT32(command.get(), "ping", 1);
  bson_t reply;
  bson_error_t error;
  const bool ok =
      mongoc_client_command_simple(client_, "admin", command.get(), nullptr, &reply, &error);
  bson_destroy(&reply);
  return ok ? Status::ok() : pool_.failure("ping", error);
}

}  // namespace opbase::host::mongo
