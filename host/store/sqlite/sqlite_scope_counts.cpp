// Kept counts of each scope's documents (see sqlite_scope_counts.hpp).
#include "store/sqlite/sqlite_scope_counts.hpp"

namespace opbase::host::sqlite {
namespace {

// A document without an owner is counted under an empty blob: never equal to a text, so no
// owner's key can share its row. `document_count` may reach 0; the row stays.
constexpr std::string_view kTriggers = R"sql(
CREATE TRIGGER IF NOT EXISTS scope_counts_insert AFTER INSERT ON documents BEGIN
  INSERT INTO scope_counts VALUES (new.ns, new.coll, coalesce(new.owner, x''), new.state, 1)
    ON CONFLICT DO UPDATE SET document_count = document_count + 1;
END;
CREATE TRIGGER IF NOT EXISTS scope_counts_delete AFTER DELETE ON documents BEGIN
  UPDATE scope_counts SET document_count = document_count - 1
    WHERE ns = old.ns AND coll = old.coll AND owner = coalesce(old.owner, x'') AND state = old.state;
END;
CREATE TRIGGER IF NOT EXISTS scope_counts_move AFTER UPDATE OF ns, coll, owner, state ON documents
  WHEN old.ns IS NOT new.ns OR old.coll IS NOT new.coll OR old.owner IS NOT new.owner
    OR old.state IS NOT new.state BEGIN
  UPDATE scope_counts SET document_count = document_count - 1
    WHERE ns = old.ns AND coll = old.coll AND owner = coalesce(old.owner, x'') AND state = old.state;
  INSERT INTO scope_counts VALUES (new.ns, new.coll, coalesce(new.owner, x''), new.state, 1)
    ON CONFLICT DO UPDATE SET document_count = document_count + 1;
END;
)sql";

constexpr std::string_view kTable = R"sql(
CREATE TABLE scope_counts(
  ns TEXT NOT NULL, coll TEXT NOT NULL, owner NOT NULL, state INTEGER NOT NULL,
  document_count INTEGER NOT NULL, PRIMARY KEY(ns, coll, owner, state)) WITHOUT ROWID;
INSERT INTO scope_counts
  SELECT ns, coll, coalesce(owner, x''), state, count(*) FROM documents GROUP BY 1, 2, 3, 4;
)sql";

Result<bool> has_table(Connection& db) {
  auto stmt = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?");
  if (!stmt) return stmt.status();
  (*stmt)->bind_all({std::string("scope_counts")});
  const bool found = (*stmt)->step();
  if (!(*stmt)->status()) return (*stmt)->status();
  return found;
}

}  // namespace

Status keep_scope_counts(Connection& db) {
  // Immediate: no write can come between the check, the fill and the triggers.
  if (Status s = db.exec("BEGIN IMMEDIATE"); !s) return s;
  Status status = [&]() -> Status {
    auto exists = has_table(db);
    if (!exists) return exists.status();
    if (!*exists) {
      if (Status s = db.exec(kTable); !s) return s;
    }
    return db.exec(kTriggers);
  }();
  if (!status) {
    db.exec("ROLLBACK");
    return status;
  }
  return db.exec("COMMIT");
}

KeptCount kept_count(const Target& target) {
  KeptCount out;
  out.sql = "SELECT coalesce(sum(document_count), 0) FROM scope_counts WHERE ns = ? AND coll = ?";
  out.binds = {std::string(target.ns), std::string(target.collection)};
  if (target.scope != nullptr && target.scope->owner) {
    out.sql += " AND owner = ?";
    out.binds.push_back(*target.scope->owner);
  }
  if (target.state) {
    out.sql += " AND state = ?";
    out.binds.push_back(static_cast<int64_t>(state_code(*target.state)));
  }
  return out;
}

}  // namespace opbase::host::sqlite
