// One project's sqlite store (see sqlite_project_store.hpp).
#include "store/sqlite/sqlite_project_store.hpp"

#include <algorithm>
#include <filesystem>
#include <limits>
#include <unordered_map>

#include "log/log.hpp"
#include "opbase/field_error.hpp"
#include "opbase/internal/find_answer.hpp"
#include "opbase/internal/store_codec.hpp"
#include "store/sqlite/sqlite_columns.hpp"
#include "store/sqlite/sqlite_file_mode.hpp"
#include "store/sqlite/sqlite_plan_choice.hpp"
#include "store/sqlite/sqlite_query.hpp"
#include "store/sqlite/sqlite_scan.hpp"
#include "store/sqlite/sqlite_scope_counts.hpp"

namespace opbase::host::sqlite {
namespace {

using nlohmann::json;

constexpr std::string_view kSchema = R"sql(
CREATE TABLE IF NOT EXISTS documents(
  id INTEGER PRIMARY KEY,
  key TEXT NOT NULL UNIQUE,
  ns TEXT NOT NULL,
  coll TEXT NOT NULL,
  owner TEXT,
  state INTEGER NOT NULL DEFAULT 0,
  ref TEXT,
  state_ms INTEGER,
  created,  -- no type: numbers stay numbers, so the column sorts in compare_values order
  doc TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS documents_scope ON documents(ns, coll, owner, state, created, key);
-- The same order whoever owns them: every document's scope (a collection its rules open to all).
CREATE INDEX IF NOT EXISTS documents_any ON documents(ns, coll, state, created, key);
CREATE INDEX IF NOT EXISTS documents_ref ON documents(ref) WHERE ref IS NOT NULL;
CREATE INDEX IF NOT EXISTS documents_state_time ON documents(ns, state, state_ms) WHERE state <> 0;
CREATE TABLE IF NOT EXISTS field_index(
  index_id INTEGER NOT NULL, owner TEXT NOT NULL, state INTEGER NOT NULL, rank INTEGER NOT NULL,
  value NOT NULL, created, key TEXT NOT NULL, doc INTEGER NOT NULL);
CREATE UNIQUE INDEX IF NOT EXISTS field_index_entry ON field_index(doc, index_id, rank, value);
CREATE INDEX IF NOT EXISTS field_index_lookup
  ON field_index(index_id, owner, state, rank, value, created, key, doc);
-- The same rows whoever owns them: lookups of scopes wider than one owner.
CREATE INDEX IF NOT EXISTS field_index_any
  ON field_index(index_id, state, rank, value, created, key, doc);
CREATE TABLE IF NOT EXISTS collections(
  ns TEXT NOT NULL, coll TEXT NOT NULL, PRIMARY KEY(ns, coll)) WITHOUT ROWID;
)sql";

}  // namespace

namespace {

using Row = StoredRow;

// The documents a filter selects, in a column `order`, at most `limit` of them (-1: all).
Result<std::vector<Row>> select_rows(Connection& db, const SqlFilter& filter, std::string order,
                                     int64_t limit) {
  auto answer = scan(db, {&filter, {}, std::move(order), limit, 0, false});
  if (!answer) return answer.status();
  return std::move(answer->page);
}

// count(*) of documents under a filter, or of any other query given as `sql` with `binds`.
Result<int64_t> count_rows(Connection& db, const SqlFilter& filter, const std::string& sql = "",
                           const std::vector<Bind>& binds = {}) {
  auto stmt =
      db.prepare(sql.empty() ? "SELECT count(*) FROM documents WHERE " + filter.where : sql);
  if (!stmt) return stmt.status();
  (*stmt)->bind_all(sql.empty() ? filter.binds : binds);
  const int64_t count = (*stmt)->step() ? (*stmt)->int_at(0) : 0;
  if (!(*stmt)->status()) return (*stmt)->status();
  return count;
}

// Puts the documents of `rows` in `state` (with its ref and time; null for active), in the
// documents and in their field_index rows alike.
Status move_rows(Connection& db, const std::vector<Row>& rows, store::State state, Bind ref,
                 Bind at_ms) {
  const auto code = static_cast<int64_t>(state_code(state));
  for (const Row& row : rows) {
    if (Status s = run(db, "UPDATE documents SET state = ?, ref = ?, state_ms = ? WHERE id = ?",
                       {code, ref, at_ms, row.id});
        !s) {
      return s;
    }
    if (Status s = run(db, "UPDATE field_index SET state = ? WHERE doc = ?", {code, row.id}); !s) {
      return s;
    }
  }
  return Status::ok();
}

// What a state change or a restore did to `rows`, for its events: each document as it was moved
// (its text only when the events keep documents), in the order of their keys.
std::vector<WrittenDocument> moved_documents(const std::vector<Row>& rows,
                                             const WriteEvents* events, std::string_view write) {
  std::vector<WrittenDocument> written;
  if (events == nullptr) return written;
  written.reserve(rows.size());
  for (const Row& row : rows) {
    written.push_back({row.key, false, events->wants_documents() ? row.doc : "", "", write});
  }
  std::sort(written.begin(), written.end(),
            [](const WrittenDocument& a, const WrittenDocument& b) { return a.key < b.key; });
  return written;
}

// An update's report: each document once, as it was before its first step and after its last.
class UpdateReport {
 public:
  explicit UpdateReport(const WriteEvents* events)
      : texts_(events != nullptr && events->wants_documents()) {}
  void changed(const Row& row, const json& after) {
    const auto [at, fresh] = index_.emplace(row.key, written_.size());
    if (fresh) written_.push_back({row.key, false, "", texts_ ? row.doc : ""});
    if (texts_) written_[at->second].document = after.dump();
  }
  const std::vector<WrittenDocument>& written() const { return written_; }

 private:
  const bool texts_;
  std::unordered_map<std::string, size_t> index_;
  std::vector<WrittenDocument> written_;
};

std::vector<std::string> sorted_keys(const std::vector<Row>& rows) {
  std::vector<std::string> keys;
  keys.reserve(rows.size());
  for (const Row& row : rows) keys.push_back(row.key);
  std::sort(keys.begin(), keys.end());
  return keys;
}

// The second layout of the field index named each row's index by its ns, coll and path texts
// (field_index.ns present): its rows are dropped and every index is marked unbuilt, in one
// transaction, so the builds fill the current layout (declared indexes at this open, the others
// in the background; queries read without them meanwhile). Declarations of the table before
// field_indexes are forgotten, as for field_values: the sync at open declares them again.
Status drop_text_keyed_rows(Connection& db) {
  auto text_keyed = db.any_row("SELECT 1 FROM pragma_table_info('field_index') WHERE name = 'ns'");
  if (!text_keyed) return text_keyed.status();
  if (!*text_keyed) return Status::ok();
  auto catalog = db.any_row("SELECT 1 FROM sqlite_master WHERE name = 'field_indexes'");
  if (!catalog) return catalog.status();
  return db.exec(
      std::string("BEGIN IMMEDIATE; DROP TABLE field_index; DELETE FROM declared_indexes;") +
      (*catalog ? " UPDATE field_indexes SET ready = 0, built_upto = 0;" : "") + " COMMIT;");
}

}  // namespace

// ---- Opening -----------------------------------------------------------------------------------

SqliteProjectStore::SqliteProjectStore(StoreOptions options)
    : options_(std::move(options)), advisor_(options_.auto_indexes) {}

// The index thread stops first (a build step under way finishes: the store stays consistent at
// every step); the checkpointer next; the writer then finishes its queue; readers close last.
SqliteProjectStore::~SqliteProjectStore() {
  {
    std::lock_guard lock(maintain_mutex_);
    stopping_ = true;
  }
  wake_maintainer_.notify_all();
  if (maintainer_.joinable()) maintainer_.join();
  checkpointer_.reset();
  writer_.reset();
}

Result<std::shared_ptr<SqliteProjectStore>> SqliteProjectStore::open(StoreOptions options) {
  // Before SQLite first opens the file: the -wal and -shm it creates take the database's mode.
  // A file system that keeps no modes, or a file of another user, is no reason not to serve.
  if (Status s = keep_store_files_private(options.path); !s) {
    log::warn("sqlite", s.message() + "; the store's files may be readable by others");
  }
  auto connection = Connection::open(options.path, /*create=*/true, options.synchronous_full);
  if (!connection) return connection.status();
  // The first layout of the field index (field_values) lacked state, created and key: drop it and
  // forget the declarations, so the sync below rebuilds the index in the current layout.
  if (Status s = (*connection)
                     ->exec("CREATE TABLE IF NOT EXISTS declared_indexes(ns TEXT NOT NULL, coll "
                            "TEXT NOT NULL,"
                            " path TEXT NOT NULL, PRIMARY KEY(ns, coll, path)) WITHOUT ROWID;"
                            "DELETE FROM declared_indexes WHERE EXISTS (SELECT 1 FROM sqlite_master"
                            " WHERE name = 'field_values');"
                            "DROP TABLE IF EXISTS field_values;");
      !s) {
    return s;
  }
  if (Status s = drop_text_keyed_rows(**connection); !s) return s;
  if (Status s = (*connection)->exec(kSchema); !s) return s;
  if (Status s = keep_scope_counts(**connection); !s) return s;
  std::shared_ptr<SqliteProjectStore> store(new SqliteProjectStore(std::move(options)));
  if (Status s = store->sync_declared_indexes(**connection); !s) return s;
  store->writer_ = std::make_unique<Writer>(std::move(connection).value());
  auto checkpoints =
      Connection::open(store->options_.path, /*create=*/false, store->options_.synchronous_full);
  if (!checkpoints) return checkpoints.status();
  store->checkpointer_ = std::make_unique<Checkpointer>(std::move(checkpoints).value(),
                                                        std::chrono::milliseconds(100));
  store->maintainer_ = std::thread([raw = store.get()] { raw->maintain_indexes(); });
  return store;
}

// ---- Readers -----------------------------------------------------------------------------------

Result<std::unique_ptr<Connection>> SqliteProjectStore::take_reader() {
  std::unique_lock lock(readers_mutex_);
  reader_free_.wait(lock, [&] {
    return !idle_readers_.empty() || open_readers_ < std::max(1, options_.readers);
  });
  if (!idle_readers_.empty()) {
    auto connection = std::move(idle_readers_.back());
    idle_readers_.pop_back();
    return connection;
  }
  ++open_readers_;
  lock.unlock();
  auto connection = Connection::open(options_.path, /*create=*/false, options_.synchronous_full);
  if (!connection) {
    lock.lock();
    --open_readers_;
    reader_free_.notify_one();
  }
  return connection;
}

void SqliteProjectStore::give_back(std::unique_ptr<Connection> connection) {
  {
    std::lock_guard lock(readers_mutex_);
    idle_readers_.push_back(std::move(connection));
  }
  reader_free_.notify_one();
}

// Runs `body` in one read transaction (one snapshot) on a pooled reader.
template <typename F>
auto SqliteProjectStore::read(F&& body) -> decltype(body(std::declval<Connection&>())) {
  auto connection = take_reader();
  if (!connection) return connection.status();
  Connection& db = **connection;
  if (Status s = db.run_cached("BEGIN"); !s) {
    give_back(std::move(*connection));
    return s;
  }
  auto answer = body(db);
  db.run_cached("COMMIT");
  give_back(std::move(*connection));
  return answer;
}

// ---- Writes ------------------------------------------------------------------------------------

// A collection exists from its first insert on (collection_exists).
Status SqliteProjectStore::note_collection(Connection& db, std::string_view ns,
                                           std::string_view collection) {
  return run(db, "INSERT OR IGNORE INTO collections VALUES (?, ?)",
             {std::string(ns), std::string(collection)});
}

Result<int64_t> SqliteProjectStore::insert_row(Connection& db, std::string_view ns,
                                               std::string_view collection, const std::string& key,
                                               Bind owner, Bind created, std::string text) {
  auto stmt = db.prepare(
      "INSERT INTO documents(key, ns, coll, owner, state, created, doc) "
      "VALUES (?, ?, ?, ?, 0, ?, ?)");
  if (!stmt) return stmt.status();
  (*stmt)->bind_all({key, std::string(ns), std::string(collection), std::move(owner),
                     std::move(created), std::move(text)});
  (*stmt)->step();
  if (!(*stmt)->status()) {
    if ((*stmt)->extended_error() == SQLITE_CONSTRAINT_UNIQUE) {
      return Status(store::kDuplicateKey, "the _key '" + key + "' is taken", {{"_key", key}});
    }
    return (*stmt)->status();
  }
  stmt->reset();
  return sqlite3_last_insert_rowid(db.handle());
}

Status SqliteProjectStore::insert_one(Connection& db, std::string_view ns,
                                      std::string_view collection, const json& doc,
                                      std::string text) {
  auto id = insert_row(db, ns, collection, doc.at("_key").get<std::string>(), owner_bind(doc),
                       created_bind(doc), std::move(text));
  if (!id) return id.status();
  return write_index_rows(db, ns, collection, *id, doc, /*replace=*/false);
}

Status SqliteProjectStore::store_change(Connection& db, std::string_view ns,
                                        std::string_view collection, const Row& row,
                                        const json& doc) {
  // The key column is the document's identity (and unique across the project): a change that
  // moves `_key` is refused rather than leaving the column and the document apart.
  const auto it = doc.find("_key");
  if (it == doc.end() || !it->is_string() || it->get_ref<const std::string&>() != row.key) {
    return field_error("_key", "a change cannot alter _key");
  }
  if (Status s = run(db, "UPDATE documents SET doc = ?, owner = ?, created = ? WHERE id = ?",
                     {doc.dump(), owner_bind(doc), created_bind(doc), row.id});
      !s) {
    return s;
  }
  return write_index_rows(db, ns, collection, row.id, doc, /*replace=*/true);
}

Status SqliteProjectStore::journal(Connection& db, WriteEvents* events,
                                   const std::vector<WrittenDocument>& written) {
  if (events == nullptr) return Status::ok();
  events->report(written);
  std::vector<std::string> subscribers;  // each noted once, not once per event
  for (const JournalRecord& record : events->records()) {
    if (Status s = insert_one(db, record.ns, store::kEventsCollection, record.document,
                              record.document.dump());
        !s) {
      return s;
    }
    if (std::find(subscribers.begin(), subscribers.end(), record.ns) == subscribers.end()) {
      if (Status s = note_collection(db, record.ns, store::kEventsCollection); !s) return s;
      subscribers.push_back(record.ns);
    }
  }
  return Status::ok();
}

// Stored as they came: nothing to print. A collection with declared indexes needs each
// document's values for its field_index rows, so its documents are parsed, here on the caller's
// thread: the one writer thread does only what must be serial.
Status SqliteProjectStore::insert(std::string_view ns, const TextInsert& request,
                                  WriteEvents* events) {
  std::vector<json> trees;
  const auto parse_all = [&] {
    trees.reserve(request.documents.size());
    for (const TextDocument& doc : request.documents) trees.push_back(json::parse(doc.text));
  };
  if (has_indexes(ns, request.collection)) parse_all();
  return writer_->run([&](Connection& db) {
    // An index added since is kept from this write on: its build may have passed these ids.
    if (trees.empty() && has_indexes(ns, request.collection)) parse_all();
    std::vector<WrittenDocument> written;
    written.reserve(events != nullptr ? request.documents.size() : 0);
    const bool texts = events != nullptr && events->wants_documents();
    for (std::size_t i = 0; i < request.documents.size(); ++i) {
      const TextDocument& doc = request.documents[i];
      auto id = insert_row(db, ns, request.collection, doc.key, owner_value_bind(doc.owner),
                           created_value_bind(doc.created), std::string(doc.text));
      if (!id) return id.status();
      if (!trees.empty()) {
        if (Status s = write_index_rows(db, ns, request.collection, *id, trees[i], false); !s) {
          return s;
        }
      }
      if (events != nullptr) {
        written.push_back({doc.key, true, texts ? std::string(doc.text) : std::string(), ""});
      }
    }
    if (Status s = note_collection(db, ns, request.collection); !s) return s;
    return events ? journal(db, events, written) : Status::ok();
  });
}

Result<store::UpdateAnswer> SqliteProjectStore::update(std::string_view ns,
                                                       const store::UpdateRequest& request,
                                                       WriteEvents* events) {
  store::UpdateAnswer answer;
  // Held until the write is done: an index is not dropped under a query that uses it.
  const auto snapshot = catalog_.snapshot();
  const auto indexed = usable_indexes(snapshot, ns, request.collection);
  Status status = writer_->run([&](Connection& db) {
    answer.documents.clear();
    UpdateReport report(events);
    for (const store::UpdateStep& step : request.steps) {
      const Target target{ns, request.collection, &request.scope, store::State::kActive};
      auto rows = select_rows(db, build_filter(target, step.match, indexed), "ORDER BY key", -1);
      if (!rows) return rows.status();
      for (const Row& row : *rows) {
        auto doc = parse_doc(row.doc);
        if (!doc) return doc.status();
        if (Status s = store::apply_change(*doc, step.change); !s) return s;
        if (Status s = store_change(db, ns, request.collection, row, *doc); !s) return s;
        report.changed(row, *doc);
        answer.documents.push_back(std::move(*doc));
      }
    }
    return events ? journal(db, events, report.written()) : Status::ok();
  });
  if (!status) return status;
  return answer;
}

Result<store::UpsertAnswer> SqliteProjectStore::upsert(std::string_view ns,
                                                       const store::UpsertRequest& request,
                                                       WriteEvents* events) {
  store::UpsertAnswer answer;
  const auto snapshot = catalog_.snapshot();  // held: see update
  const auto indexed = usable_indexes(snapshot, ns, request.collection);
  Status status = writer_->run([&](Connection& db) -> Status {
    const Target target{ns, request.collection, &request.scope, store::State::kActive};
    auto rows = select_rows(db, build_filter(target, request.match, indexed),
                            "ORDER BY created DESC, key DESC", 1);
    if (!rows) return rows.status();
    if (rows->empty()) {
      answer = {request.insert, true};
      if (Status s = insert_one(db, ns, request.collection, request.insert, request.insert.dump());
          !s) {
        return s;
      }
      if (Status s = note_collection(db, ns, request.collection); !s) return s;
      const bool texts = events != nullptr && events->wants_documents();
      return journal(db, events,
                     {{request.insert.at("_key").get<std::string>(), true,
                       texts ? request.insert.dump() : "", ""}});
    }
    auto doc = parse_doc(rows->front().doc);
    if (!doc) return doc.status();
    if (Status s = store::apply_change(*doc, request.change); !s) return s;
    answer = {*doc, false};
    if (Status s = store_change(db, ns, request.collection, rows->front(), *doc); !s) return s;
    UpdateReport report(events);
    report.changed(rows->front(), *doc);
    return journal(db, events, report.written());
  });
  if (!status) return status;
  return answer;
}

Result<store::KeysAnswer> SqliteProjectStore::change_state(std::string_view ns,
                                                           const store::StateRequest& request,
                                                           WriteEvents* events) {
  store::KeysAnswer answer;
  const auto snapshot = catalog_.snapshot();  // held: see update
  const auto indexed = usable_indexes(snapshot, ns, request.collection);
  Status status = writer_->run([&](Connection& db) -> Status {
    const Target target{ns, request.collection, &request.scope, request.from};
    auto rows = select_rows(db, build_filter(target, request.match, indexed), "ORDER BY id", -1);
    if (!rows) return rows.status();
    if (Status s = move_rows(db, *rows, request.to, request.ref, request.at_ms); !s) return s;
    answer.keys = sorted_keys(*rows);
    return journal(db, events, moved_documents(*rows, events, write_of_move(request.to)));
  });
  if (!status) return status;
  return answer;
}

Result<store::KeysAnswer> SqliteProjectStore::restore(std::string_view ns,
                                                      const store::RestoreRequest& request,
                                                      WriteEvents* events) {
  store::KeysAnswer answer;
  Status status = writer_->run([&](Connection& db) -> Status {
    const Target target{ns, request.collection, &request.scope, std::nullopt};
    SqlFilter filter = build_filter(target, {}, {});
    filter.where += " AND ref = ? AND state <> 0";
    filter.binds.push_back(request.ref);
    auto rows = select_rows(db, filter, "ORDER BY id", -1);
    if (!rows) return rows.status();
    if (Status s = move_rows(db, *rows, store::State::kActive, nullptr, nullptr); !s) return s;
    answer.keys = sorted_keys(*rows);
    return journal(db, events, moved_documents(*rows, events, "restore"));
  });
  if (!status) return status;
  return answer;
}

Result<int64_t> SqliteProjectStore::purge(std::string_view ns, const store::PurgeRequest& request) {
  int64_t removed = 0;
  Status status = writer_->run([&](Connection& db) -> Status {
    const std::vector<Bind> binds = {
        std::string(ns), static_cast<int64_t>(state_code(request.state)), request.before_ms};
    const std::string selected = "ns = ? AND state = ? AND state <> 0 AND state_ms < ?";
    if (Status s = run(db,
                       "DELETE FROM field_index WHERE doc IN (SELECT id FROM documents WHERE " +
                           selected + ")",
                       binds);
        !s) {
      return s;
    }
    if (Status s = run(db, "DELETE FROM documents WHERE " + selected, binds); !s) return s;
    removed = db.changes();
    return Status::ok();
  });
  if (!status) return status;
  return removed;
}

// ---- Reads -------------------------------------------------------------------------------------

namespace {

// The texts of documents by id, in the order of `ids`.
Result<std::vector<std::string>> documents_by_id(Connection& db, const std::vector<int64_t>& ids) {
  std::vector<std::string> texts;
  texts.reserve(ids.size());
  for (int64_t id : ids) {
    auto stmt = db.prepare("SELECT doc FROM documents WHERE id = ?");
    if (!stmt) return stmt.status();
    (*stmt)->bind(1, id);
    if (!(*stmt)->step()) {
      if (!(*stmt)->status()) return (*stmt)->status();
      return Status::internal("sqlite: the field index names a missing document");
    }
    texts.emplace_back((*stmt)->text_at(0));
  }
  return texts;
}

// The page from the field index alone (IndexOnly), documents read by id; its total is the
// count's own plan (count_in).
Result<std::vector<std::string>> index_only_page(Connection& db, const IndexOnly& plan,
                                                 int64_t limit, int64_t offset) {
  std::string sql = "SELECT doc FROM field_index WHERE " + plan.where;
  std::vector<Bind> binds = plan.binds;
  if (!plan.arms.empty()) {
    // A compound SELECT with an ORDER BY is a merge of its arms (each read in index order),
    // which the LIMIT stops.
    sql.clear();
    binds.clear();
    for (const IndexArm& arm : plan.arms) {
      sql += (sql.empty() ? "" : " UNION ALL ") +
             std::string("SELECT doc, created, key FROM field_index WHERE ") + arm.where;
      binds.insert(binds.end(), arm.binds.begin(), arm.binds.end());
    }
  }
  auto stmt = db.prepare(sql + " " + plan.order + " LIMIT ? OFFSET ?");
  if (!stmt) return stmt.status();
  (*stmt)->bind_all(binds);
  (*stmt)->bind(static_cast<int>(binds.size() + 1), limit);
  (*stmt)->bind(static_cast<int>(binds.size() + 2), offset);
  std::vector<int64_t> ids;
  while ((*stmt)->step()) ids.push_back((*stmt)->int_at(0));
  if (!(*stmt)->status()) return (*stmt)->status();
  stmt->reset();
  return documents_by_id(db, ids);
}

}  // namespace

// The stored texts are valid JSON objects (printed by nlohmann, or checked by json_text as they
// came), so they are copied as they are.
Result<std::string> SqliteProjectStore::find(std::string_view ns,
                                             const store::FindRequest& request) {
  QueryReport report;
  return find_reported(ns, request, &report);
}

namespace {

std::string joined(const std::vector<std::string>& paths) {
  std::string out;
  for (const std::string& path : paths) out += (out.empty() ? "" : ",") + path;
  return out;
}

}  // namespace

namespace {

// The target's documents, from the kept counts.
Result<int64_t> scope_documents(Connection& db, const Target& target) {
  const KeptCount kept = kept_count(target);
  return count_rows(db, {}, kept.sql, kept.binds);
}

// The lookup of `filter` with the fewest rows, and its rows: each lookup's rows are counted up
// to `cap`, and past the fewest so far (more would not change the choice).
struct FewestLookup {
  std::size_t lookup = 0;
  int64_t rows = 0;
};
Result<FewestLookup> fewest_lookup(Connection& db, const SqlFilter& filter, int64_t cap) {
  FewestLookup fewest{0, cap};
  for (std::size_t i = 0; i < filter.lookups.size(); ++i) {
    std::vector<Bind> binds = filter.lookups[i].binds;
    binds.push_back(fewest.rows);
    auto rows = count_rows(db, {},
                           "SELECT count(*) FROM (SELECT 1 FROM field_index WHERE " +
                               filter.lookups[i].where + " LIMIT ?)",
                           binds);
    if (!rows) return rows.status();
    if (i == 0 || *rows < fewest.rows) fewest = {i, *rows};
  }
  return fewest;
}

// The count of an IndexCount plan; nullopt when the index turned out multikey and the plan has
// two conditions (the caller counts another way then). The multikey flag is read after the
// count: its statement fixed the read's snapshot, and a write that made the index multikey set
// the flag before its commit, so a flag still off means no document this read sees is multikey.
Result<std::optional<int64_t>> count_by_index(Connection& db, const IndexCount& plan,
                                              const FieldIndex& index) {
  const bool multikey_before = index.multikey->load();
  if (multikey_before && !plan.single_condition) return std::optional<int64_t>();
  const std::string what = multikey_before ? "count(DISTINCT doc)" : "count(*)";
  auto counted =
      count_rows(db, {}, "SELECT " + what + " FROM field_index WHERE " + plan.where, plan.binds);
  if (!counted) return counted.status();
  if (multikey_before || !index.multikey->load()) return std::optional<int64_t>(*counted);
  if (!plan.single_condition) return std::optional<int64_t>();
  auto distinct = count_rows(
      db, {}, "SELECT count(DISTINCT doc) FROM field_index WHERE " + plan.where, plan.binds);
  if (!distinct) return distinct.status();
  return std::optional<int64_t>(*distinct);
}

// The count of an ExcludedCount plan: the scope's kept count less the rows holding an excluded
// value; nullopt when the index turned out multikey (read after the counts, as above).
Result<std::optional<int64_t>> count_excluded(Connection& db, const Target& target,
                                              const ExcludedCount& plan, const FieldIndex& index) {
  auto scope = scope_documents(db, target);
  if (!scope) return scope.status();
  auto held = count_rows(db, {}, "SELECT count(*) FROM field_index WHERE " + plan.excluded_where,
                         plan.excluded_binds);
  if (!held) return held.status();
  if (index.multikey->load()) return std::optional<int64_t>();
  return std::optional<int64_t>(*scope - *held);
}

// Where a walk of `budget` documents, newest first, stops: the last document it may meet; nullopt
// when the scope holds no more than that (the whole walk is within budget) or that document has no
// date (a row value with a null never compares, so that walk is not bounded).
Result<std::optional<WalkBound>> walk_bound(Connection& db, const Target& target, int64_t budget) {
  const BoundQuery query = walk_bound_query(target, budget);
  auto stmt = db.prepare(query.sql);
  if (!stmt) return stmt.status();
  (*stmt)->bind_all(query.binds);
  if (!(*stmt)->step()) {
    if (!(*stmt)->status()) return (*stmt)->status();
    return std::optional<WalkBound>();
  }
  if ((*stmt)->null_at(0)) return std::optional<WalkBound>();
  return std::optional<WalkBound>(
      WalkBound{(*stmt)->value_at(0), std::string((*stmt)->text_at(1))});
}

bool sorted_by_date(const std::vector<query::SortKey>& sort) {
  return sort.empty() || (sort.size() == 1 && sort.front().path.text == "_created_at");
}

}  // namespace

Result<int64_t> SqliteProjectStore::count_in(Connection& db, std::string_view ns,
                                             const store::CountRequest& request,
                                             const IndexCatalog::Snapshot& snapshot,
                                             QueryReport* report, int64_t* rows_read) {
  const Target target{ns, request.collection, &request.scope, request.state};
  const auto indexed = usable_indexes(snapshot, ns, request.collection);
  const auto plain = plain_indexes(snapshot, ns, request.collection);
  const auto by_index = index_count(target, request.match, indexed);
  const auto excluded = excluded_count(target, request.match, plain);
  SqlFilter filter = build_filter(target, request.match, indexed, plain);
  // The kept counts are per owner: a shared scope is counted by SQL.
  const CountPlan plan =
      choose_count_plan({request.match.empty() && !request.scope.shares(), by_index.has_value(),
                         excluded.has_value(), filter.rest.empty()});
  *report = {plan_name(plan), "", 0, 0};
  const auto answered = [&](const std::string& index, int64_t count) -> Result<int64_t> {
    report->index = index;
    report->matched = count;
    return count;
  };
  if (plan == CountPlan::kKeptCount) {
    auto counted = scope_documents(db, target);
    if (!counted) return counted.status();
    return answered("", *counted);
  }
  if (plan == CountPlan::kIndexCount) {
    auto counted = count_by_index(
        db, *by_index, *IndexCatalog::find(snapshot, ns, request.collection, by_index->path));
    if (!counted) return counted.status();
    if (*counted) return answered(by_index->path, **counted);
  }
  if (plan == CountPlan::kExcludedCount) {
    auto counted =
        count_excluded(db, target, *excluded,
                       *IndexCatalog::find(snapshot, ns, request.collection, excluded->path));
    if (!counted) return counted.status();
    if (*counted) return answered(excluded->path, **counted);
  }
  // SQL with the fewest lookup driving, and the scan for conditions left to the texts.
  const auto count_matches = [&](const UsableIndexes& shared) -> Result<int64_t> {
    SqlFilter f = build_filter(target, request.match, indexed, shared);
    if (f.lookups.size() > 1) {
      auto fewest = fewest_lookup(db, f, std::numeric_limits<int64_t>::max());
      if (!fewest) return fewest.status();
      f = build_filter(target, request.match, indexed, shared,
                       {false, fewest->lookup, std::nullopt});
    }
    *report = {f.rest.empty()          ? "index_lookup_count"
               : f.index_paths.empty() ? "scan"
                                       : "index_lookup",
               joined(f.index_paths), 0, 0};
    if (f.rest.empty()) {
      auto counted = count_rows(db, f);
      if (counted) report->matched = *counted;
      return counted;
    }
    auto scanned = scan(db, {&f, {}, "", 0, 0, true});
    if (!scanned) return scanned.status();
    *rows_read = scanned->rows_read;
    report->rows_read = scanned->rows_read;
    report->matched = scanned->matched;
    return scanned->matched;
  };
  auto counted = count_matches(plain);
  if (!counted || !any_multikey(snapshot, ns, request.collection, plain)) return counted;
  // A document this read sees made an index multikey: one lookup per condition (see find).
  return count_matches({});
}

Result<std::string> SqliteProjectStore::find_reported(std::string_view ns,
                                                      const store::FindRequest& request,
                                                      QueryReport* report) {
  const auto started = std::chrono::steady_clock::now();
  want_list_indexes(ns, request.collection, request.scope);
  const Target target{ns, request.collection, &request.scope, request.state};
  const auto snapshot = catalog_.snapshot();  // held for the read: see IndexCatalog
  const auto indexed = usable_indexes(snapshot, ns, request.collection);
  const auto plain = plain_indexes(snapshot, ns, request.collection);
  const auto only = index_only(target, request.match, request.sort, indexed, plain);
  const FieldIndex* only_index =
      only ? IndexCatalog::find(snapshot, ns, request.collection, only->path) : nullptr;
  const auto in_order = index_sort(target, request.match, request.sort, indexed);
  const FieldIndex* order_index =
      in_order ? IndexCatalog::find(snapshot, ns, request.collection, in_order->path) : nullptr;
  const SqlFilter filter = build_filter(target, request.match, indexed, plain);
  const int64_t page_end = request.limit < 0 ? -1 : request.offset + request.limit;
  const bool by_date = sorted_by_date(request.sort);
  // A total SQL decides comes from the count's own plan; a rest to test is counted in the pass.
  const bool pass_counts_all = request.with_total && !filter.rest.empty();
  // The scope indexes give the date order of one owner's documents, or of everyone's.
  const bool walkable = !request.scope.shares();
  int64_t rows_read = 0;
  auto answer = read([&](Connection& db) -> Result<std::string> {
    FindFacts facts{
        by_date,
        walkable,
        order_index != nullptr && !order_index->multikey->load(),
        in_order && in_order->probed,
        only.has_value() && (!only->path_must_stay_plain || !only_index->multikey->load()),
        only.has_value() && only->ordered,
        std::nullopt,
        0,
        page_end,
        pass_counts_all};
    FewestLookup fewest;
    if (!filter.lookups.empty()) {
      // A scope index gives the date order (one owner's documents, or everyone's) in one state;
      // rows already in date order (one equality, or a $in merged) beat any walk, so nothing needs
      // counting for them.
      // A sort on an indexed field walks that index, probing the other conditions.
      const bool may_walk = page_end >= 0 && !pass_counts_all &&
                            (by_date ? walkable && !facts.index_only_ordered
                                     : facts.index_order && facts.index_order_probed);
      int64_t cap = std::numeric_limits<int64_t>::max();
      if (may_walk) {
        auto documents = scope_documents(db, target);
        if (!documents) return documents.status();
        facts.scope_documents = *documents;
        cap = lookup_cap(page_end, *documents);
      }
      if (may_walk || filter.lookups.size() > 1) {
        auto counted = fewest_lookup(db, filter, cap);
        if (!counted) return counted.status();
        fewest = *counted;
      }
      facts.fewest_lookup_rows = fewest.rows;  // 0 when not counted: no walk was possible
    }
    FindPlan plan = choose_find_plan(facts);
    // A page by SQL and the scan: a walk, the lookups, or the scope alone.
    const auto page_by = [&](const Drive& drive) -> Result<ScanAnswer> {
      const auto page_with = [&](const UsableIndexes& shared) {
        const SqlFilter f = build_filter(target, request.match, indexed, shared, drive);
        return scan(db, {&f, request.sort, "", request.limit, request.offset, pass_counts_all});
      };
      auto answer = page_with(plain);
      if (!answer || !any_multikey(snapshot, ns, request.collection, plain)) return answer;
      // A document read here made an index multikey: the shared lookups no longer hold.
      return page_with({});
    };
    std::optional<ScanAnswer> scanned;
    // Newest first only: ascending, the documents without a date come first, and a row value
    // bound cannot hold them (a null never compares), so that walk goes unbounded.
    const bool descending = request.sort.empty() || request.sort.front().descending;
    if (plan == FindPlan::kDateWalk && !filter.lookups.empty() && descending) {
      auto bound = walk_bound(db, target, walk_budget(facts));
      if (!bound) return bound.status();
      if (*bound) {
        auto walked = page_by({true, 0, **bound});
        if (!walked) return walked.status();
        if (static_cast<int64_t>(walked->page.size()) == request.limit) {
          scanned = std::move(*walked);
          *report = {"date_walk", joined(filter.index_paths), 0, 0};
        } else {
          // The matches lie further in the date order than they seemed: read the index.
          plan = facts.index_only ? FindPlan::kIndexOnly : FindPlan::kLookups;
        }
      }
    }
    std::vector<std::string> texts;
    if (plan == FindPlan::kIndexOnly) {
      auto page = index_only_page(db, *only, request.limit, request.offset);
      if (!page) return page.status();
      // Read after the page's statement, as count_by_index does: still off, every document
      // this read sees has at most one row there, so the rows were the matches.
      if (!only->path_must_stay_plain || !only_index->multikey->load()) {
        texts = std::move(*page);
        rows_read = static_cast<int64_t>(texts.size());
        *report = {"index_only", only->path, rows_read, 0};
      } else {
        plan = FindPlan::kLookups;
      }
    }
    if (plan == FindPlan::kIndexOrder) {
      // Every document having a row there (the flag read after a statement, as multikey is),
      // there is none without a value to place: the phase that looks for them, probing each
      // document of the scope, is left out.
      bool unvalued = !in_order->unvalued_where.empty();
      if (unvalued) {
        auto documents = scope_documents(db, target);
        if (!documents) return documents.status();
        unvalued = order_index->sparse->load();
      }
      auto ordered =
          scan_index_order(db, *in_order, request.limit, request.offset,
                           request.with_total && (pass_counts_all || !in_order->probed), unvalued);
      if (!ordered) return ordered.status();
      // Read after the first statement, as count_by_index does: still off, the order holds.
      if (!order_index->multikey->load()) {
        scanned = std::move(*ordered);
        *report = {"index_order", in_order->path, 0, 0};
      } else {
        plan = filter.lookups.empty() ? FindPlan::kScan : FindPlan::kLookups;
      }
    }
    const bool by_sql =
        plan == FindPlan::kLookups || plan == FindPlan::kDateWalk || plan == FindPlan::kScan;
    if (!scanned && by_sql) {
      auto answer = page_by({plan == FindPlan::kDateWalk, fewest.lookup, std::nullopt});
      if (!answer) return answer.status();
      scanned = std::move(*answer);
      // Index paths without lookups: probes on a walk of the scope, or a shared scope's lists,
      // whose index gave the candidates.
      const bool probes_only = plan == FindPlan::kScan && !filter.index_paths.empty() && by_date;
      const FindPlan reported = !probes_only             ? plan
                                : request.scope.shares() ? FindPlan::kLookups
                                                         : FindPlan::kDateWalk;
      *report = {plan_name(reported), joined(filter.index_paths), 0, 0};
    }
    int64_t total = -1;
    if (scanned) {
      for (Row& row : scanned->page) texts.push_back(std::move(row.doc));
      rows_read = scanned->rows_read;
      total = scanned->matched;
    }
    // The total: from the pass when it counted every match; from the page when it ended before
    // its limit (the matches ran out there); else by the count's own plan.
    const bool counted_in_pass =
        pass_counts_all || (plan == FindPlan::kIndexOrder && !in_order->probed);
    const auto short_total = store::total_of_short_page(request.offset, request.limit,
                                                        static_cast<int64_t>(texts.size()));
    if (request.with_total && !counted_in_pass && short_total) {
      total = *short_total;
    } else if (request.with_total && !counted_in_pass) {
      QueryReport count_report;
      int64_t count_rows_read = 0;
      auto counted =
          count_in(db, ns, {request.collection, request.scope, request.state, request.match},
                   snapshot, &count_report, &count_rows_read);
      if (!counted) return counted.status();
      total = *counted;
      rows_read += count_rows_read;
    }
    report->rows_read = rows_read;
    report->matched = total;
    return store::encode_find_answer(texts, request.with_total ? total : -1);
  });
  if (answer) note_query(ns, request.collection, filter, request.sort, rows_read, started);
  return answer;
}

Result<int64_t> SqliteProjectStore::count(std::string_view ns, const store::CountRequest& request) {
  QueryReport report;
  return count_reported(ns, request, &report);
}

Result<int64_t> SqliteProjectStore::count_reported(std::string_view ns,
                                                   const store::CountRequest& request,
                                                   QueryReport* report) {
  const auto started = std::chrono::steady_clock::now();
  want_list_indexes(ns, request.collection, request.scope);
  const auto snapshot = catalog_.snapshot();  // held for the read: see IndexCatalog
  int64_t rows_read = 0;
  auto answer = read([&](Connection& db) -> Result<int64_t> {
    return count_in(db, ns, request, snapshot, report, &rows_read);
  });
  if (answer) {
    const Target target{ns, request.collection, &request.scope, request.state};
    const auto indexed = usable_indexes(snapshot, ns, request.collection);
    note_query(ns, request.collection, build_filter(target, request.match, indexed), {}, rows_read,
               started);
  }
  return answer;
}

Result<json> SqliteProjectStore::explain(std::string_view ns, const store::FindRequest& request,
                                         bool count) {
  const auto started = std::chrono::steady_clock::now();
  QueryReport report;
  Status status;
  if (count) {
    status = count_reported(ns, {request.collection, request.scope, request.state, request.match},
                            &report)
                 .status();
  } else {
    store::FindRequest counted = request;
    counted.with_total = true;  // so `matched` is every match, not those seen for the page
    status = find_reported(ns, counted, &report).status();
  }
  if (!status) return status;
  const auto elapsed = std::chrono::duration_cast<std::chrono::microseconds>(
      std::chrono::steady_clock::now() - started);
  return json{{"plan", report.plan},
              {"index", report.index.empty() ? json() : json(report.index)},
              {"rows_read", report.rows_read},
              {"matched", report.matched},
              {"time_ms", static_cast<double>(elapsed.count()) / 1000.0}};
}

Result<bool> SqliteProjectStore::collection_exists(std::string_view ns,
                                                   std::string_view collection) {
  return read([&](Connection& db) -> Result<bool> {
    auto stmt = db.prepare("SELECT 1 FROM collections WHERE ns = ? AND coll = ?");
    if (!stmt) return stmt.status();
    (*stmt)->bind_all({std::string(ns), std::string(collection)});
    const bool exists = (*stmt)->step();
    if (!(*stmt)->status()) return (*stmt)->status();
    return exists;
  });
}

std::optional<int64_t> SqliteProjectStore::size_bytes() const {
  int64_t total = 0;
  for (const std::string& file : {options_.path, options_.path + "-wal"}) {
    std::error_code error;
    const auto size = std::filesystem::file_size(file, error);
    if (!error) total += static_cast<int64_t>(size);
  }
  return total;
}

Result<std::vector<std::string>> SqliteProjectStore::collections(std::string_view ns) {
  return read([&](Connection& db) -> Result<std::vector<std::string>> {
    auto stmt = db.prepare("SELECT coll FROM collections WHERE ns = ? ORDER BY coll");
    if (!stmt) return stmt.status();
    (*stmt)->bind_all({std::string(ns)});
    std::vector<std::string> names;
    while ((*stmt)->step()) names.emplace_back((*stmt)->text_at(0));
    if (!(*stmt)->status()) return (*stmt)->status();
    return names;
  });
}

Status SqliteProjectStore::ping() {
  return read([&](Connection& db) -> Result<bool> {
           auto stmt = db.prepare("SELECT 1");
           if (!stmt) return stmt.status();
           (*stmt)->step();
           if (!(*stmt)->status()) return (*stmt)->status();
           return true;
         })
      .status();
}

}  // namespace opbase::host::sqlite
