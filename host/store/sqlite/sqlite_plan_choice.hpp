// The one place the sqlite driver chooses how to read a find and a count. The choice is made
// from what the request's shape allows (sqlite_query.hpp) and two figures read before the plan
// runs: the documents the scope holds (kept exact: sqlite_scope_counts.hpp) and the rows of each
// index lookup, counted up to a cap.
//
// A find in date order can be read two ways when an index decides a condition:
//  - from the index: the lookup's rows are the candidates, sorted by date to pick the page
//    (index_only when the index rows alone decide the match, lookups otherwise); it costs the
//    lookup's rows, or only the page when one equality's rows lie in date order already;
//  - by a walk: the scope's documents in date order, each probed for the conditions, until the
//    page is full; with matches spread evenly it meets page_end * documents / matches of them,
//    each costing about three index rows (a step and a probe).
// The cheaper is taken. A find sorted on an indexed field that probes conditions on other paths
// chooses the same way between reading its index in order (the walk) and the fewest lookup's
// rows sorted. A lookup counted past the cap is cheaper to walk by construction (the
// cap is where both costs meet), so no count goes further than the cap. The walk's estimate
// assumes the matches spread evenly in date order; when they cluster at the far end the walk
// would meet the other documents first, so a walk with a lookup, newest first, is bounded
// (walk_budget; an ascending walk meets the undated documents first, which no bound holds): one
// that has not filled its page within twice the documents it expected gives up, and the page is
// read from the index. Clustered matches cost that bounded walk more than the index alone.
#pragma once

#include <cstdint>
#include <optional>

namespace opbase::host::sqlite {

enum class FindPlan {
  kIndexOnly,   // the index rows of one path decide the match (IndexOnly)
  kIndexOrder,  // a sort on an indexed field, its rows read in order (IndexSort)
  kLookups,     // the fewest lookup's rows are the candidates
  kDateWalk,    // the scope in date order, every condition probed or tested
  kScan,        // the scope's documents, no index condition to drive
};

struct FindFacts {
  bool by_date = true;  // the sort is the date (the default), either direction
  // A scope index gives the date order: of one owner's documents, or of everyone's (not of a
  // shared scope's).
  bool walkable = true;
  bool index_order = false;         // an IndexSort plan exists and its index is plain
  bool index_order_probed = false;  // it probes conditions on other paths (IndexSort::probed)
  bool index_only = false;          // an IndexOnly plan exists
  bool index_only_ordered = false;  // its rows come in date order (IndexOnly::ordered): no sort
  // The rows of the fewest lookup, counted up to lookup_cap(); nullopt: no lookup.
  std::optional<int64_t> fewest_lookup_rows;
  int64_t scope_documents = 0;  // the target's documents
  int64_t page_end = -1;        // offset + limit; -1: every match
  // The page's read must also count every match: the total is wanted and no count plan gives it
  // (CountPlan::kScanCount or kSqlCount with a rest to test).
  bool pass_counts_all = false;
};

// Where counting a lookup's rows stops: the rows at which walking and reading the index cost
// the same (rows^2 = 3 * page_end * documents), and no less than the page.
int64_t lookup_cap(int64_t page_end, int64_t scope_documents);

FindPlan choose_find_plan(const FindFacts& facts);

// The documents a kDateWalk chosen for a lookup may meet before it gives up: twice the
// page_end * documents / rows it expects; at least the page.
int64_t walk_budget(const FindFacts& facts);

enum class CountPlan {
  kKeptCount,      // no condition: the scope's kept count
  kIndexCount,     // every condition on one indexed path: its rows counted (IndexCount)
  kExcludedCount,  // $ne / $nin on one plain path: the kept count less the excluded rows
  kSqlCount,       // SQL decides every condition: count(*) driven by the fewest lookup
  kScanCount,      // conditions to test on the documents' texts
};

struct CountFacts {
  bool no_condition = false;
  bool index_count = false;     // an IndexCount plan exists
  bool excluded_count = false;  // an ExcludedCount plan exists
  bool rest_empty = false;      // SQL decides every condition
};

CountPlan choose_count_plan(const CountFacts& facts);

const char* plan_name(FindPlan plan);
const char* plan_name(CountPlan plan);

}  // namespace opbase::host::sqlite
