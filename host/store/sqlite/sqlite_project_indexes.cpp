// The field indexes of one project's sqlite store: their rows, kept by every write; the
// declared ones, brought in line with the configuration at open; and the background thread that
// adds the indexes the advisor asks for, builds them a chunk at a time and drops the unused
// (see sqlite_project_store.hpp and sqlite_index_catalog.hpp).
#include <algorithm>
#include <optional>

#include "log/log.hpp"
#include "opbase/thread_name.hpp"
#include "store/sqlite/sqlite_columns.hpp"
#include "store/sqlite/sqlite_project_store.hpp"
#include "store/sqlite/sqlite_query.hpp"

namespace opbase::host::sqlite {
namespace {

using nlohmann::json;

// field_index.owner for documents without an owner: no user key is empty.
const std::string kNoOwner;

// Document ids a build step covers: a step is one writer job, so writes wait at most one step
// (about a millisecond per hundred documents of the collection among them).
constexpr int64_t kBuildStepIds = 2000;

// How often last-used times are written to the table (they are kept in memory meanwhile).
constexpr int64_t kSaveLastUsedEveryMs = 60'000;

int64_t now_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

// Whether the document's index rows for `path` are what a plain index keeps: one row holding
// the scalar query::resolve reaches through objects, or none when that is null or missing.
// Anything else (an array or an object there, a value reached through an array, several
// values, a number the index cannot hold) makes the index multikey: its rows no longer give
// each document's sort value.
bool plain(const json& doc, const query::FieldPath& path, std::size_t rows) {
  const json* resolved = query::resolve(doc, path);
  if (rows == 0) return resolved == nullptr || resolved->is_null();
  return rows == 1 && resolved != nullptr && !resolved->is_array() && !resolved->is_object() &&
         !resolved->is_null();
}

Result<int64_t> max_document_id(Connection& db) {
  auto stmt = db.prepare("SELECT coalesce(max(id), 0) FROM documents");
  if (!stmt) return stmt.status();
  const int64_t id = (*stmt)->step() ? (*stmt)->int_at(0) : 0;
  if (!(*stmt)->status()) return (*stmt)->status();
  return id;
}

Status delete_index_rows(Connection& db, const FieldIndex& index) {
  return run(db, "DELETE FROM field_index WHERE index_id = ?", {index.id});
}

}  // namespace

// ---- The rows ----------------------------------------------------------------------------------

// The field_index rows of one document for one path: each scalar reached there, with what
// sorting and scoping need (owner, state, created, key), so a query on the path can be selected,
// sorted and counted from the index alone.
Status SqliteProjectStore::insert_index_rows(Connection& db, const FieldIndex& index, int64_t id,
                                             int64_t state, const json& doc) {
  const Bind owner = owner_bind(doc);
  const std::vector<IndexValue> values = index_values(doc, index.path);
  for (const IndexValue& v : values) {
    if (Status s =
            run(db, "INSERT OR IGNORE INTO field_index VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                {index.id, std::holds_alternative<std::string>(owner) ? owner : Bind(kNoOwner),
                 state, static_cast<int64_t>(v.rank), v.value, created_bind(doc),
                 doc.at("_key").get<std::string>(), id});
        !s) {
      return s;
    }
  }
  if (values.empty() && !index.sparse->load()) {
    if (Status s = catalog_.mark_sparse(db, index); !s) return s;
  }
  if (!index.multikey->load() && !plain(doc, index.path, values.size())) {
    return catalog_.mark_multikey(db, index);
  }
  return Status::ok();
}

bool SqliteProjectStore::has_indexes(std::string_view ns, std::string_view collection) const {
  const auto snapshot = catalog_.snapshot();
  return std::any_of(snapshot->begin(), snapshot->end(), [&](const FieldIndex& index) {
    return index.ns == ns && index.collection == collection && !index.dropping;
  });
}

// Every index of the collection, building or ready, is kept by the write; only active documents
// are written or changed, so their state is 0.
Status SqliteProjectStore::write_index_rows(Connection& db, std::string_view ns,
                                            std::string_view collection, int64_t id,
                                            const json& doc, bool replace) {
  if (replace) {
    if (Status s = run(db, "DELETE FROM field_index WHERE doc = ?", {id}); !s) return s;
  }
  const auto snapshot = catalog_.snapshot();
  for (const FieldIndex& index : *snapshot) {
    if (index.ns != ns || index.collection != collection || index.dropping) continue;
    if (Status s = insert_index_rows(db, index, id, 0, doc); !s) return s;
  }
  return Status::ok();
}

Result<int64_t> SqliteProjectStore::fill_index(Connection& db, const FieldIndex& index,
                                               int64_t after, int64_t upto) {
  auto stmt = db.prepare(std::string(kBuildStepRows));
  if (!stmt) return stmt.status();
  (*stmt)->bind_all({after, upto, index.ns, index.collection});
  std::vector<std::tuple<int64_t, int64_t, std::string>> rows;
  while ((*stmt)->step()) {
    rows.emplace_back((*stmt)->int_at(0), (*stmt)->int_at(1), std::string((*stmt)->text_at(2)));
  }
  if (!(*stmt)->status()) return (*stmt)->status();
  stmt->reset();
  for (const auto& [id, state, text] : rows) {
    auto doc = parse_doc(text);
    if (!doc) return doc.status();
    if (Status s = insert_index_rows(db, index, id, state, *doc); !s) return s;
  }
  return static_cast<int64_t>(rows.size());
}

// ---- Declared indexes, at open -----------------------------------------------------------------

// In one transaction: an index declared no more is dropped (it would go stale); a newly declared
// path takes over an automatic or an administrator's index of the same path, or gets one; and
// every declared index that is not complete is filled from the stored documents, so declared
// indexes are ready when the store opens, as before there were others.
Status SqliteProjectStore::sync_declared_indexes(Connection& db) {
  if (Status s = db.exec("BEGIN IMMEDIATE"); !s) return s;
  auto fail = [&](Status s) {
    db.exec("ROLLBACK");
    return s;
  };
  const int64_t now = now_ms();
  if (Status s = catalog_.open(db, now); !s) return fail(s);
  const auto declared = [&](const FieldIndex& index) {
    return std::any_of(
        options_.indexes.begin(), options_.indexes.end(),
        [&](const IndexSpec& spec) { return index.is(spec.ns, spec.collection, spec.path.text); });
  };
  // Copies: the catalog changes (and its snapshots go) while they are worked through.
  const std::vector<FieldIndex> loaded = *catalog_.snapshot();
  for (const FieldIndex& index : loaded) {
    if (index.origin != IndexOrigin::kDeclared || declared(index)) continue;
    if (Status s = delete_index_rows(db, index); !s) return fail(s);
    if (Status s = catalog_.remove(db, index); !s) return fail(s);
  }
  for (const IndexSpec& spec : options_.indexes) {
    const std::vector<Bind> key = {spec.ns, spec.collection, spec.path.text};
    if (IndexCatalog::find(catalog_.snapshot(), spec.ns, spec.collection, spec.path.text)) {
      if (Status s = run(db,
                         "UPDATE field_indexes SET origin = 'declared' WHERE ns = ? AND coll = ? "
                         "AND path = ?",
                         key);
          !s) {
        return fail(s);
      }
    } else if (Status s = catalog_.add(db, spec.ns, spec.collection, spec.path,
                                       IndexOrigin::kDeclared, now);
               !s) {
      return fail(s);
    }
  }
  auto upto = max_document_id(db);
  if (!upto) return fail(upto.status());
  const std::vector<FieldIndex> synced = *catalog_.snapshot();
  for (const FieldIndex& index : synced) {
    if (!declared(index) || index.ready) continue;
    if (index.built_upto == 0) {
      if (Status s = delete_index_rows(db, index); !s) return fail(s);
    }
    if (auto filled = fill_index(db, index, index.built_upto, *upto); !filled) {
      return fail(filled.status());
    }
    if (Status s = catalog_.set_progress(db, index, *upto, /*done=*/true); !s) return fail(s);
  }
  if (Status s = db.exec("COMMIT"); !s) return s;
  // The origins changed above and the ready states are read back as committed.
  return catalog_.open(db, now);
}

// ---- Reads -------------------------------------------------------------------------------------

UsableIndexes SqliteProjectStore::usable_indexes(const IndexCatalog::Snapshot& snapshot,
                                                 std::string_view ns, std::string_view collection) {
  UsableIndexes indexes;
  for (const FieldIndex& index : *snapshot) {
    if (index.ns == ns && index.collection == collection && index.ready && !index.dropping) {
      indexes.push_back({index.path.text, index.id});
    }
  }
  return indexes;
}

UsableIndexes SqliteProjectStore::plain_indexes(const IndexCatalog::Snapshot& snapshot,
                                                std::string_view ns, std::string_view collection) {
  UsableIndexes indexes;
  for (const UsableIndex& index : usable_indexes(snapshot, ns, collection)) {
    if (!IndexCatalog::find(snapshot, ns, collection, index.path)->multikey->load()) {
      indexes.push_back(index);
    }
  }
  return indexes;
}

bool SqliteProjectStore::any_multikey(const IndexCatalog::Snapshot& snapshot, std::string_view ns,
                                      std::string_view collection, const UsableIndexes& indexes) {
  return std::any_of(indexes.begin(), indexes.end(), [&](const UsableIndex& index) {
    return IndexCatalog::find(snapshot, ns, collection, index.path)->multikey->load();
  });
}

void SqliteProjectStore::note_query(std::string_view ns, std::string_view collection,
                                    const SqlFilter& filter,
                                    const std::vector<query::SortKey>& sort, int64_t rows_read,
                                    std::chrono::steady_clock::time_point started) {
  if (!filter.index_paths.empty()) {
    const int64_t now = now_ms();
    const auto snapshot = catalog_.snapshot();
    for (const std::string& path : filter.index_paths) {
      if (const FieldIndex* index = IndexCatalog::find(snapshot, ns, collection, path)) {
        // Seconds are enough for a policy counted in days; fewer stores, less cache traffic.
        if (now - index->last_used_ms->load(std::memory_order_relaxed) >= 1000) {
          index->last_used_ms->store(now, std::memory_order_relaxed);
        }
      }
    }
  }
  if (rows_read < advisor_.policy().costly_rows || !advisor_.policy().enabled) return;
  const auto elapsed = std::chrono::duration_cast<std::chrono::microseconds>(
      std::chrono::steady_clock::now() - started);
  // The conditions an index decided are not in `rest`; a sort path with an index is not noted.
  const auto snapshot = catalog_.snapshot();
  const auto fields = index_candidates(filter.rest, sort, [&](const std::string& path) {
    return IndexCatalog::find(snapshot, ns, collection, path) != nullptr;
  });
  for (const std::string& path :
       advisor_.note(ns, collection, fields, rows_read, elapsed.count())) {
    request_index(ns, collection, path);
  }
}

// ---- The admin side ----------------------------------------------------------------------------

namespace {

json index_json(const FieldIndex& index) {
  return {{"field", index.path.text},
          {"origin", origin_name(index.origin)},
          {"state", index.dropping ? "dropping"
                    : index.ready  ? "ready"
                                   : "building"},
          {"multikey", index.multikey->load()},
          {"created_ms", index.created_ms},
          {"last_used_ms", index.last_used_ms->load()}};
}

}  // namespace

Result<json> SqliteProjectStore::indexes(std::string_view ns, std::string_view collection) {
  json listed = json::array();
  const auto snapshot = catalog_.snapshot();
  for (const FieldIndex& index : *snapshot) {
    if (index.ns == ns && index.collection == collection) listed.push_back(index_json(index));
  }
  json noticed = advisor_.noticed(ns, collection);
  return json{{"indexes", std::move(listed)}, {"noticed", std::move(noticed)}};
}

Result<json> SqliteProjectStore::add_index(std::string_view ns, std::string_view collection,
                                           const query::FieldPath& path) {
  if (Status s = add_index(ns, collection, path, IndexOrigin::kAdmin); !s) return s;
  const auto snapshot = catalog_.snapshot();
  const FieldIndex* index = IndexCatalog::find(snapshot, ns, collection, path.text);
  if (index == nullptr) return Status::internal("sqlite: an index just added is not listed");
  return index_json(*index);
}

// ---- The background thread ---------------------------------------------------------------------

void SqliteProjectStore::want_list_indexes(std::string_view ns, std::string_view collection,
                                           const store::Scope& scope) {
  if (!scope.shares()) return;
  const auto snapshot = catalog_.snapshot();
  for (const std::string& list : scope.lists) {
    if (IndexCatalog::find(snapshot, ns, collection, list) == nullptr) {
      request_index(ns, collection, list);
    }
  }
}

void SqliteProjectStore::request_index(std::string_view ns, std::string_view collection,
                                       const std::string& path) {
  {
    std::lock_guard lock(maintain_mutex_);
    requested_.emplace_back(std::string(ns), std::string(collection), path);
  }
  wake_maintainer_.notify_all();
}

Status SqliteProjectStore::add_index(std::string_view ns, std::string_view collection,
                                     const query::FieldPath& path, IndexOrigin origin) {
  bool added = false;
  Status status = writer_->run([&](Connection& db) -> Status {
    const auto snapshot = catalog_.snapshot();
    if (IndexCatalog::find(snapshot, ns, collection, path.text)) return Status::ok();
    if (origin == IndexOrigin::kAuto) {
      const auto automatic = std::count_if(snapshot->begin(), snapshot->end(), [](const auto& i) {
        return i.origin == IndexOrigin::kAuto;
      });
      if (automatic >= advisor_.policy().max_per_project) return Status::ok();
    }
    added = true;
    return catalog_.add(db, std::string(ns), std::string(collection), path, origin, now_ms());
  });
  if (!status) {
    // The row did not commit: the catalog in memory is read back from the table.
    writer_->run([&](Connection& db) { return catalog_.open(db, now_ms()); });
    return status;
  }
  if (added) {
    log::info("sqlite", "indexing " + std::string(collection) + "." + path.text + " (namespace " +
                            std::string(ns) + ", " + std::string(origin_name(origin)) + ")");
  }
  wake_maintainer_.notify_all();
  return Status::ok();
}

Status SqliteProjectStore::drop_index(std::string_view ns, std::string_view collection,
                                      std::string_view path) {
  // A copy: this thread must not hold a snapshot while it waits for the readers' to go.
  std::optional<FieldIndex> index;
  {
    const auto snapshot = catalog_.snapshot();
    if (const FieldIndex* found = IndexCatalog::find(snapshot, ns, collection, path)) {
      index = *found;
    }
  }
  if (!index) {
    return Status::validation("there is no index on '" + std::string(path) + "' of '" +
                              std::string(collection) + "'");
  }
  if (index->origin == IndexOrigin::kDeclared) {
    return Status::validation("the index on '" + std::string(path) +
                              "' is declared in datastore.indexes: remove it there");
  }
  if (Status s = writer_->run([&](Connection& db) { return catalog_.retire(db, *index); }); !s) {
    return s;
  }
  return finish_drop(*index);
}

// Runs once the index is retired: no query starts using it; the ones that did end first.
Status SqliteProjectStore::finish_drop(const FieldIndex& index) {
  catalog_.wait_for_readers();
  return writer_->run([&](Connection& db) -> Status {
    if (Status s = delete_index_rows(db, index); !s) return s;
    return catalog_.remove(db, index);
  });
}

// One step of an index's build: the rows of the next kBuildStepIds document ids, in one writer
// job. The step that reaches the newest document marks it ready after its commit (later
// documents are kept by their writes).
Status SqliteProjectStore::build_step(const FieldIndex& index) {
  bool done = false;
  Status status = writer_->run([&](Connection& db) -> Status {
    auto newest = max_document_id(db);
    if (!newest) return newest.status();
    if (index.built_upto == 0) {
      if (Status s = delete_index_rows(db, index); !s) return s;
    }
    const int64_t upto = std::min(*newest, index.built_upto + kBuildStepIds);
    if (auto filled = fill_index(db, index, index.built_upto, upto); !filled) {
      return filled.status();
    }
    done = upto >= *newest;
    return catalog_.set_progress(db, index, upto, done);
  });
  if (status && done) catalog_.set_ready(index);
  return status;
}

void SqliteProjectStore::drop_unused_indexes(int64_t now) {
  const int64_t limit_ms = advisor_.policy().drop_unused_after_s * 1000;
  const std::vector<FieldIndex> indexes = *catalog_.snapshot();  // a copy: see drop_index
  for (const FieldIndex& index : indexes) {
    if (index.origin != IndexOrigin::kAuto || !index.ready || index.dropping) continue;
    if (now - index.last_used_ms->load() < limit_ms) continue;
    if (Status s = drop_index(index.ns, index.collection, index.path.text); !s) {
      log::warn("sqlite", "dropping the unused index on " + index.collection + "." +
                              index.path.text + " failed: " + s.message());
    } else {
      log::info("sqlite", "dropped the automatic index on " + index.collection + "." +
                              index.path.text + ": unused for " +
                              std::to_string(advisor_.policy().drop_unused_after_s) + " s");
    }
  }
}

void SqliteProjectStore::maintain_indexes() {
  name_this_thread("sqlite-index");
  int64_t last_saved = now_ms();
  while (!stopping_) {
    std::vector<std::tuple<std::string, std::string, std::string>> requested;
    {
      std::unique_lock lock(maintain_mutex_);
      wake_maintainer_.wait_for(lock, std::chrono::seconds(1),
                                [&] { return stopping_ || !requested_.empty(); });
      requested.swap(requested_);
      adding_ = !requested.empty();
    }
    if (stopping_) break;
    for (const auto& [ns, collection, path] : requested) {
      auto parsed = query::parse_path(path, store::wire_parse_options());  // `_` names too
      if (!parsed) continue;
      if (Status s = add_index(ns, collection, *parsed, IndexOrigin::kAuto); !s) {
        log::warn("sqlite", "adding an automatic index on " + collection + "." + path +
                                " failed: " + s.message());
      }
    }
    {
      std::lock_guard lock(maintain_mutex_);
      adding_ = false;
    }
    // Builds go a step at a time, each index in turn, until none is left or the store stops.
    bool building = true;
    while (building && !stopping_) {
      building = false;
      const std::vector<FieldIndex> indexes = *catalog_.snapshot();  // a copy: see drop_index
      for (const FieldIndex& index : indexes) {
        if (index.ready) continue;
        building = true;
        const Status s = index.dropping ? finish_drop(index) : build_step(index);
        if (!s) {
          log::warn("sqlite", "building the index on " + index.collection + "." + index.path.text +
                                  " failed: " + s.message());
          building = false;  // tried again at the next tick
          break;
        }
      }
    }
    const int64_t now = now_ms();
    drop_unused_indexes(now);
    if (now - last_saved >= kSaveLastUsedEveryMs) {
      writer_->run([&](Connection& db) { return catalog_.save_last_used(db); });
      last_saved = now;
    }
  }
}

void SqliteProjectStore::wait_for_builds(std::chrono::milliseconds at_most) {
  const auto deadline = std::chrono::steady_clock::now() + at_most;
  while (std::chrono::steady_clock::now() < deadline) {
    {
      std::lock_guard lock(maintain_mutex_);
      const auto snapshot = catalog_.snapshot();
      const bool idle = requested_.empty() && !adding_ &&
                        std::all_of(snapshot->begin(), snapshot->end(),
                                    [](const FieldIndex& index) { return index.ready; });
      if (idle) return;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
}

}  // namespace opbase::host::sqlite
