// The number of documents each scope holds, kept exact by the database itself: a table of
// (ns, coll, owner, state) -> documents that triggers on `documents` change in the same
// transaction as every insert, delete and move, whichever code path made it. A count with no
// condition (and the scope part of a $ne count, and the pagination total of such finds) reads
// one row there instead of every document of the scope, and the query planner
// (sqlite_plan_choice.hpp) learns how many documents a walk in date order may meet.
#pragma once

#include <string>
#include <vector>

#include "opbase/status.hpp"
#include "store/sqlite/sqlite_connection.hpp"
#include "store/sqlite/sqlite_query.hpp"

namespace opbase::host::sqlite {

// Creates the table and its triggers; a store file that had no table yet (made by an older
// version) has it filled from its documents, in the same transaction.
Status keep_scope_counts(Connection& db);

// "SELECT ..." giving the number of the target's documents (every owner when the scope has
// none, every state when the target has none), with its binds.
struct KeptCount {
  std::string sql;
  std::vector<Bind> binds;
};
KeptCount kept_count(const Target& target);

}  // namespace opbase::host::sqlite
