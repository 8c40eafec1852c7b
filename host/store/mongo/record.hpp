// The layout of the mongodb driver's data in a project's database, and the commands that address
// it: pure functions over values, no server, so the layout is tested down to the BSON text
// (tests/unit/host/store/mongo/mongo_driver_test.cpp). Nothing here throws (other than
// std::bad_alloc).
//
// Collection `documents` holds one record per document of every plugin namespace:
//   {_id: <_key>, ns, collection, owner: <_userkey> | null, state: "active" | "deleted" |
//    "archived", created: <_created_at> | null, doc: {...the whole document...},
//    ref, state_ms (set by change_state, removed by restore)}
// `_id = _key` makes `_key` unique across the project. `owner` is a copy of the document's
// `_userkey` when a string, `created` of its `_created_at` when a string or a number, else null
// (as the sqlite driver's columns), so scope and the default order use an index. null rather
// than "" for a missing `_created_at`: null sorts as the reference sorts a missing field
// (docs/query.md).
// Collection `collections` holds {_id: "<ns>/<name>"} for every collection that ever received a
// document (collection_exists).
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "opbase/query.hpp"
#include "opbase/status.hpp"
#include "opbase/store.hpp"
#include "store/mongo/bson_query.hpp"
#include "store/project_store.hpp"

namespace opbase::host::mongo {

inline constexpr const char* kDocuments = "documents";
inline constexpr const char* kCollections = "collections";
// Where a record keeps the user's document; user paths are addressed as "doc.<path>".
inline constexpr std::string_view kDocPrefix = "doc.";

std::string_view state_value(store::State state);  // the record's `state` value

// The `_key` of a document (VALIDATION_ERROR unless an object with a string `_key`).
Result<std::string> document_key(const nlohmann::json& document);

// The active record of `document` (validated as by document_key).
Result<BsonDoc> make_record(std::string_view ns, std::string_view collection,
                            const nlohmann::json& document);

// Appends the scope's condition to a filter of records of (ns, collection, state): nothing for
// every document, {owner} for one owner's, and for a shared scope an $or of {owner} and each
// list holding a principal ({doc.<list>: {$in: principals}}), each arm with ns, collection and
// `state` (none when empty) so that it is planned on its own index.
void append_scope(bson_t* filter, std::string_view ns, std::string_view collection,
                  std::string_view state, const store::Scope& scope);

// The records a request may see: {ns, collection, state[, owner]} and the match on `doc.`,
// plus {_id: ...} when the match tests `_key` by equality, $in or a range from a string (the
// same condition, stated on the unique index so the server need not scan the owner's documents).
Result<BsonDoc> selection_filter(std::string_view ns, std::string_view collection,
                                 const store::Scope& scope, store::State state,
                                 const query::Match& match);

// The sort of find: each key on its record field (`_key` -> _id, `_created_at` -> created,
// `_userkey` -> owner, others doc.<path>), a repeated field once (it cannot change the order),
// empty keys meaning `_created_at desc`, and `_id` last in the last key's direction so that
// ties have the reference's order and paging is stable.
Result<BsonDoc> record_sort(const std::vector<query::SortKey>& keys);

// The options of a find over records: the sort, skip/limit (0 and -1: none) and a projection
// to `doc` only.
BsonDoc find_options(const bson_t* sort, int64_t offset, int64_t limit);

// {_id: {$in: keys}} ANDed into a copy of `filter`.
BsonDoc with_keys(const bson_t* filter, const std::vector<std::string>& keys);

// The createIndexes command of `documents` (idempotent on the server): the scope and default
// order {ns, collection, owner, state, created, _id}; the same without the owner (every
// document's scope) {ns, collection, state, created, _id}; {ref} (sparse: only non-active records
// have one); purge {ns, state, state_ms}; and {ns, collection, owner, state, doc.<path>} for
// every declared path (one index per path: ns and collection lead the key, so it serves every
// collection that declared the path).
// `prefix` starts the names of the path indexes: "field_" for declared paths, "auto_" for
// automatic ones (mongo_auto_indexes.hpp), so each kind is found by its name.
BsonDoc index_command(const std::vector<IndexSpec>& indexes, std::string_view prefix = "field_");

// The name of the index of a path ("<prefix><path>", or a hash when too long).
std::string index_name(const query::FieldPath& path, std::string_view prefix = "field_");

// {dropIndexes: "documents", index: <name>}
BsonDoc drop_index_command(std::string_view name);

// {explain: {find: "documents", filter, sort} | {count: "documents", query: filter},
//  verbosity: "executionStats"}: the whole match, without paging, so its figures are every
// match's.
BsonDoc explain_command(const bson_t* filter, const bson_t* sort, bool count);

// What collection.explain reports, read from MongoDB's explain reply: `plan` is "scan" when the
// winning plan reads the records of the scope (a collection scan, or the scope index),
// "index_count" for a COUNT_SCAN, else "index_lookup" with `index` the field of the field index it
// reads (declared, automatic or an administrator's); the documents examined and returned, the time.
struct ExplainedPlan {
  std::string plan;
  std::string index;
  int64_t docs_examined = 0;
  int64_t returned = 0;
  double time_ms = 0;
};
ExplainedPlan read_explain(const nlohmann::json& reply);

// The createIndexes command of a sharing list's index {ns, collection, state, doc.<list>},
// named "list_<list>" (a list holds several principals: the index is multikey).
BsonDoc list_index_command(std::string_view list);

}  // namespace opbase::host::mongo
