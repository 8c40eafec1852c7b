// The field indexes of one sqlite store (see sqlite_index_catalog.hpp).
#include "store/sqlite/sqlite_index_catalog.hpp"

#include <algorithm>
#include <chrono>
#include <thread>

#include "opbase/store.hpp"
#include "store/sqlite/sqlite_columns.hpp"

namespace opbase::host::sqlite {
namespace {

constexpr std::string_view kTable = R"sql(
CREATE TABLE IF NOT EXISTS field_indexes(
  ns TEXT NOT NULL, coll TEXT NOT NULL, path TEXT NOT NULL, origin TEXT NOT NULL,
  ready INTEGER NOT NULL, built_upto INTEGER NOT NULL, multikey INTEGER NOT NULL,
  created_ms INTEGER NOT NULL, last_used_ms INTEGER NOT NULL, sparse INTEGER NOT NULL DEFAULT 1,
  id INTEGER NOT NULL DEFAULT 0, PRIMARY KEY(ns, coll, path)) WITHOUT ROWID;
)sql";

constexpr std::string_view kColumns =
    "ns, coll, path, origin, ready, built_upto, multikey, created_ms, last_used_ms, sparse, id";

Result<bool> has_column(Connection& db, const char* name) {
  return db.any_row(std::string("SELECT 1 FROM pragma_table_info('field_indexes') WHERE name = '") +
                    name + "'");
}

// A table from before `sparse` was kept gets the column; whether its indexes' documents all
// have a value is not known, so they are taken as sparse (the column's default).
Status add_sparse_column(Connection& db) {
  auto present = has_column(db, "sparse");
  if (!present) return present.status();
  if (*present) return Status::ok();
  return db.exec("ALTER TABLE field_indexes ADD COLUMN sparse INTEGER NOT NULL DEFAULT 1");
}

// A table from before the ids gets the column, numbered 1, 2, ... in key order. Its rows in
// field_index were named by texts; the store dropped them before (drop_text_keyed_rows), so no
// row names an id yet.
Status add_id_column(Connection& db) {
  auto present = has_column(db, "id");
  if (!present) return present.status();
  if (*present) return Status::ok();
  return db.exec(
      "ALTER TABLE field_indexes ADD COLUMN id INTEGER NOT NULL DEFAULT 0;"
      "UPDATE field_indexes SET id = (SELECT count(*) FROM field_indexes AS e"
      " WHERE (e.ns, e.coll, e.path) <= (field_indexes.ns, field_indexes.coll,"
      " field_indexes.path));");
}

std::vector<Bind> key_of(const FieldIndex& index) {
  return {index.ns, index.collection, index.path.text};
}

IndexOrigin origin_from(std::string_view name) {
  if (name == "declared") return IndexOrigin::kDeclared;
  if (name == "admin") return IndexOrigin::kAdmin;
  return IndexOrigin::kAuto;
}

}  // namespace

std::string_view origin_name(IndexOrigin origin) {
  switch (origin) {
    case IndexOrigin::kDeclared:
      return "declared";
    case IndexOrigin::kAdmin:
      return "admin";
    default:
      return "auto";
  }
}

Status IndexCatalog::open(Connection& db, int64_t now_ms) {
  if (Status s = db.exec(kTable); !s) return s;
  if (Status s = add_sparse_column(db); !s) return s;
  if (Status s = add_id_column(db); !s) return s;
  // The earlier table of declarations: its indexes are complete. Whether any document was
  // multikey was not kept, so they are taken as multikey.
  auto migrate = db.any_row("SELECT 1 FROM sqlite_master WHERE name = 'declared_indexes'");
  if (!migrate) return migrate.status();
  if (*migrate) {
    if (Status s = run(db,
                       "INSERT OR IGNORE INTO field_indexes(" + std::string(kColumns) +
                           ") SELECT ns, coll, path, 'declared', 1, 0, 1, ?, ?, 1, "
                           "(SELECT coalesce(max(id), 0) FROM field_indexes) + row_number() "
                           "OVER (ORDER BY ns, coll, path) FROM declared_indexes",
                       {now_ms, now_ms});
        !s) {
      return s;
    }
    if (Status s = db.exec("DROP TABLE declared_indexes"); !s) return s;
  }
  auto stmt =
      db.prepare("SELECT " + std::string(kColumns) + " FROM field_indexes ORDER BY ns, coll, path");
  if (!stmt) return stmt.status();
  std::vector<FieldIndex> loaded;
  while ((*stmt)->step()) {
    auto path = query::parse_path((*stmt)->text_at(2), opbase::store::wire_parse_options());
    if (!path) continue;  // written by this code, so always a path; skipped rather than fatal
    FieldIndex index;
    index.ns = std::string((*stmt)->text_at(0));
    index.collection = std::string((*stmt)->text_at(1));
    index.path = std::move(*path);
    index.origin = origin_from((*stmt)->text_at(3));
    index.ready = (*stmt)->int_at(4) != 0;
    index.built_upto = (*stmt)->int_at(5);
    index.multikey->store((*stmt)->int_at(6) != 0);
    index.created_ms = (*stmt)->int_at(7);
    index.last_used_ms->store((*stmt)->int_at(8));
    index.sparse->store((*stmt)->int_at(9) != 0);
    index.id = (*stmt)->int_at(10);
    loaded.push_back(std::move(index));
  }
  if (!(*stmt)->status()) return (*stmt)->status();
  publish(std::move(loaded));
  return Status::ok();
}

IndexCatalog::Snapshot IndexCatalog::snapshot() const {
  std::lock_guard lock(mutex_);
  return current_;
}

const FieldIndex* IndexCatalog::find(const Snapshot& snapshot, std::string_view ns,
                                     std::string_view collection, std::string_view path) {
  for (const FieldIndex& index : *snapshot) {
    if (index.is(ns, collection, path)) return &index;
  }
  return nullptr;
}

void IndexCatalog::publish(std::vector<FieldIndex> next) {
  std::lock_guard lock(mutex_);
  retired_.erase(std::remove_if(retired_.begin(), retired_.end(),
                                [](const auto& old) { return old.expired(); }),
                 retired_.end());
  retired_.push_back(current_);
  current_ = std::make_shared<const std::vector<FieldIndex>>(std::move(next));
}

Status IndexCatalog::add(Connection& db, const std::string& ns, const std::string& collection,
                         const query::FieldPath& path, IndexOrigin origin, int64_t now_ms) {
  std::vector<FieldIndex> next = *snapshot();
  // Every index is in memory, and adds run one at a time on the writer: one past the largest is
  // free. A removed index's id may come back; its rows went in the transaction that removed it.
  int64_t id = 1;
  for (const FieldIndex& other : next) id = std::max(id, other.id + 1);
  if (Status s =
          run(db,
              "INSERT INTO field_indexes(" + std::string(kColumns) +
                  ") VALUES (?, ?, ?, ?, 0, 0, 0, ?, ?, 0, ?)",
              {ns, collection, path.text, std::string(origin_name(origin)), now_ms, now_ms, id});
      !s) {
    return s;
  }
  FieldIndex index;
  index.id = id;
  index.ns = ns;
  index.collection = collection;
  index.path = path;
  index.origin = origin;
  index.created_ms = now_ms;
  index.last_used_ms->store(now_ms);
  next.push_back(std::move(index));
  publish(std::move(next));
  return Status::ok();
}

Status IndexCatalog::set_progress(Connection& db, const FieldIndex& index, int64_t built_upto,
                                  bool done) {
  std::vector<Bind> binds = {built_upto};
  const std::vector<Bind> key = key_of(index);
  binds.insert(binds.end(), key.begin(), key.end());
  if (Status s = run(db,
                     std::string("UPDATE field_indexes SET built_upto = ?") +
                         (done ? ", ready = 1" : "") + " WHERE ns = ? AND coll = ? AND path = ?",
                     binds);
      !s) {
    return s;
  }
  std::vector<FieldIndex> next = *snapshot();
  for (FieldIndex& entry : next) {
    if (entry.is(index.ns, index.collection, index.path.text)) entry.built_upto = built_upto;
  }
  publish(std::move(next));
  return Status::ok();
}

void IndexCatalog::set_ready(const FieldIndex& index) {
  std::vector<FieldIndex> next = *snapshot();
  for (FieldIndex& entry : next) {
    if (entry.is(index.ns, index.collection, index.path.text)) entry.ready = true;
  }
  publish(std::move(next));
}

Status IndexCatalog::mark_multikey(Connection& db, const FieldIndex& index) {
  index.multikey->store(true);
  return run(db, "UPDATE field_indexes SET multikey = 1 WHERE ns = ? AND coll = ? AND path = ?",
             key_of(index));
}

Status IndexCatalog::mark_sparse(Connection& db, const FieldIndex& index) {
  index.sparse->store(true);
  return run(db, "UPDATE field_indexes SET sparse = 1 WHERE ns = ? AND coll = ? AND path = ?",
             key_of(index));
}

Status IndexCatalog::retire(Connection& db, const FieldIndex& index) {
  if (Status s = run(db,
                     "UPDATE field_indexes SET ready = 0, built_upto = 0 WHERE ns = ? AND coll = "
                     "? AND path = ?",
                     key_of(index));
      !s) {
    return s;
  }
  std::vector<FieldIndex> next = *snapshot();
  for (FieldIndex& entry : next) {
    if (entry.is(index.ns, index.collection, index.path.text)) {
      entry.ready = false;
      entry.dropping = true;
      entry.built_upto = 0;
    }
  }
  publish(std::move(next));
  return Status::ok();
}

void IndexCatalog::wait_for_readers() const {
  // Reads are bounded by a request's length; a minute is far past any.
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::minutes(1);
  while (std::chrono::steady_clock::now() < deadline) {
    {
      std::lock_guard lock(mutex_);
      retired_.erase(std::remove_if(retired_.begin(), retired_.end(),
                                    [](const auto& old) { return old.expired(); }),
                     retired_.end());
      if (retired_.empty()) return;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
}

Status IndexCatalog::remove(Connection& db, const FieldIndex& index) {
  if (Status s = run(db, "DELETE FROM field_indexes WHERE ns = ? AND coll = ? AND path = ?",
                     key_of(index));
      !s) {
    return s;
  }
  std::vector<FieldIndex> next = *snapshot();
  next.erase(std::remove_if(next.begin(), next.end(),
                            [&](const FieldIndex& entry) {
                              return entry.is(index.ns, index.collection, index.path.text);
                            }),
             next.end());
  publish(std::move(next));
  return Status::ok();
}

Status IndexCatalog::save_last_used(Connection& db) {
  for (const FieldIndex& index : *snapshot()) {
    std::vector<Bind> binds = {index.last_used_ms->load()};
    const std::vector<Bind> key = key_of(index);
    binds.insert(binds.end(), key.begin(), key.end());
    if (Status s = run(db,
                       "UPDATE field_indexes SET last_used_ms = ? WHERE ns = ? AND coll = ? AND "
                       "path = ?",
                       binds);
        !s) {
      return s;
    }
  }
  return Status::ok();
}

}  // namespace opbase::host::sqlite
