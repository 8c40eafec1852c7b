// The part of a query tree (query.hpp) SQL decides over the sqlite driver's tables, exactly:
//  - a condition on an indexed path (declared or automatic: sqlite_index_catalog.hpp) whose
//    operand is a number, a string or (for equality and $in) a boolean becomes a lookup in
//    `field_index`, the multikey index that holds, per document, every scalar that
//    query::collect reaches there (array elements one by one), with its type bracket as `rank`;
//  - $ne and $nin on an indexed path with such operands become "no row of the document holds
//    one of them", one probe of the document's rows;
//  - `_key` equality or $in with strings reads the key column (unique index).
// The candidates come from the key column when it is named, else from one lookup (the others
// probed per candidate), or from the scope index in date order (a walk: every lookup probed,
// so a page in date order stops when it is full). sqlite_plan_choice.hpp chooses which.
// Every other condition is left in SqlFilter::rest for the scan (sqlite_scan.hpp), which tests
// it on each candidate's text in one pass with the sort keys.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "opbase/query.hpp"
#include "opbase/store.hpp"
#include "store/sqlite/sqlite_connection.hpp"

namespace opbase::host::sqlite {

// The rows a request reaches: a collection of a namespace, a scope, and a state (nullopt: any).
struct Target {
  std::string_view ns;
  std::string_view collection;
  const store::Scope* scope = nullptr;
  std::optional<store::State> state = store::State::kActive;
};

// A field index a query may use: its path, and the id that names its rows in field_index
// (FieldIndex::id).
struct UsableIndex {
  std::string path;
  int64_t id = 0;
};
using UsableIndexes = std::vector<UsableIndex>;
// The index of `path` among `indexes`, or null.
const UsableIndex* find_index(const UsableIndexes& indexes, std::string_view path);

// One field_index lookup: its path and index, its predicates (on rank and value), and `where`,
// the rows it selects (the target's rows of the index that meet the predicates).
struct Lookup {
  std::string path;
  int64_t index_id = 0;
  std::string predicates;
  std::vector<Bind> predicate_binds;
  std::string where;
  std::vector<Bind> binds;
};

struct SqlFilter {
  std::string where;  // without the WHERE keyword
  std::vector<Bind> binds;
  query::Match rest;                     // the conditions `where` does not decide
  std::vector<std::string> index_paths;  // the field indexes `where` reads
  std::vector<Lookup> lookups;           // in the order of the match's conditions
};

// The last document a bounded walk, newest first, may meet: its date and key.
struct WalkBound {
  Bind created;
  std::string key;
};

// Where a filter's candidates come from when no `_key` condition drives: the lookup numbered
// `lookup` (none when there is no such lookup), or a walk of the scope in date order, which
// `bound` stops at a document.
struct Drive {
  bool date_walk = false;
  std::size_t lookup = 0;
  std::optional<WalkBound> bound;
};

// "SELECT created, key FROM documents ..." giving the document a walk of the target's scope,
// newest first, meets last when it may meet `budget`; no row when the scope holds fewer.
struct BoundQuery {
  std::string sql;
  std::vector<Bind> binds;
};
BoundQuery walk_bound_query(const Target& target, int64_t budget);

// `indexed` holds the target collection's field indexes that queries may use; `plain`, those of
// them known not multikey (sqlite_index_catalog.hpp): the conditions on one such path are
// decided by one lookup, where each condition would read its own rows otherwise.
SqlFilter build_filter(const Target& target, const query::Match& match,
                       const UsableIndexes& indexed, const UsableIndexes& plain = {},
                       const Drive& drive = {});

// A find the field index decides alone, one owner's documents in one state sorted by
// `_created_at` (the default order), either
//  - one equality on an indexed path (number, string or boolean): a document has at most one
//    row of that value, and the rows of one value lie in date order in the index; or
//  - conditions on one path the index decides (ranges, equality, $in), that path known not
//    multikey (`plain`): each document has at most one row there, so the rows that meet the
//    conditions are the matches; SQLite sorts them by date from the index's own columns, and
//    only the page's documents are read. `path_must_stay_plain` says the caller must check the
//    index is still not multikey once the page is read (IndexCatalog), and scan if it is.
//    One $in among them, of at most kMergedRangesMax distinct operands, is read as one range
//    per operand (`arms`), each in date order already, merged: the page is read and no more.
// `where` selects field_index rows; the page is "SELECT doc FROM field_index WHERE <where>
// <order> LIMIT ? OFFSET ?" (document ids in order), or the arms' rows merged in that order;
// `ordered` says the page is read without sorting the matches. The total is the count's plan
// (IndexCount). nullopt when the request has another shape.
inline constexpr std::size_t kMergedRangesMax = 32;
struct IndexArm {
  std::string where;
  std::vector<Bind> binds;
};
struct IndexOnly {
  std::string where;
  std::vector<Bind> binds;
  std::string order;
  std::string path;
  bool path_must_stay_plain = false;
  bool ordered = false;
  std::vector<IndexArm> arms;
};
std::optional<IndexOnly> index_only(const Target& target, const query::Match& match,
                                    const std::vector<query::SortKey>& sort,
                                    const UsableIndexes& indexed, const UsableIndexes& plain = {});

// A count the field index answers alone: every condition is on one indexed path and the index
// decides it; one state. `where` selects field_index rows. A multikey index may hold several
// rows of one document, so the count is "SELECT count(DISTINCT doc)" there and only one
// condition is allowed (two conditions must hold for one row of a document, not for two);
// otherwise "SELECT count(*)". nullopt when the request has another shape.
struct IndexCount {
  std::string where;
  std::vector<Bind> binds;
  std::string path;
  bool single_condition = false;
};
std::optional<IndexCount> index_count(const Target& target, const query::Match& match,
                                      const UsableIndexes& indexed);

// A count whose conditions are all $ne or $nin on one plain indexed path (`plain`), their
// operands numbers, strings or booleans: a document has at most one row there, so the matches
// are the scope's documents (kept: sqlite_scope_counts.hpp) less those whose row holds one of
// the operands (`excluded_where`, on `field_index`). The caller must check the index is still
// not multikey after counting (IndexCatalog). nullopt when the request has another shape.
struct ExcludedCount {
  std::string excluded_where;
  std::vector<Bind> excluded_binds;
  std::string path;
};
std::optional<ExcludedCount> excluded_count(const Target& target, const query::Match& match,
                                            const UsableIndexes& plain);

// A find sorted by one indexed field. While the index is not multikey, every document has one
// row there holding the value the sort reads, or none when that value is null or missing, and
// the index holds the rows in the sort's order (rank is the type bracket of compare_values, and
// SQLite orders numbers and UTF-8 texts as compare_values does), so the page is read in order
// and the read stops when it is full. `where` selects field_index rows of the path (with the
// match's conditions on it) and probes each row's document for the conditions the index decides
// on other paths and for $ne / $nin (`probed` says there are some); `rest` holds the conditions
// left to test on each document's text. When no condition bounds the path, the documents without a
// row (null sorts first) come before the rows ascending and after them descending: `unvalued_where`
// selects them from `documents`, in `_key` order. The caller must check the index is not multikey
// (IndexCatalog).
struct IndexSort {
  std::string where;
  std::vector<Bind> binds;
  std::string order;  // ORDER BY rank, value, key in the sort's direction
  std::string path;
  query::Match rest;
  bool probed = false;
  bool descending = false;
  std::string unvalued_where;  // empty when the match bounds the path
  std::vector<Bind> unvalued_binds;
  std::string unvalued_order;
  // The number of matches when `rest` is empty and nothing is probed (else the count's own plan
  // gives it): the rows of `where` when the match bounds the path, else every document of the
  // scope.
  std::string total_sql;
  std::vector<Bind> total_binds;
};
std::optional<IndexSort> index_sort(const Target& target, const query::Match& match,
                                    const std::vector<query::SortKey>& sort,
                                    const UsableIndexes& indexed);

// The state column's value, and the index rows of a document (rank, value) for one path.
int state_code(store::State state);
struct IndexValue {
  int rank;
  Bind value;
};
std::vector<IndexValue> index_values(const nlohmann::json& doc, const query::FieldPath& path);

}  // namespace opbase::host::sqlite
