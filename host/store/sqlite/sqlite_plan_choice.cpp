// How the sqlite driver reads a query (see sqlite_plan_choice.hpp).
#include "store/sqlite/sqlite_plan_choice.hpp"

#include <algorithm>
#include <cmath>

namespace opbase::host::sqlite {
namespace {

// What a document the walk meets costs, in index rows read: a step of the scope index and a
// probe of the document's index rows (a correlated subquery each) took about 1.5 us where an
// index row read and sorted took 0.5 us (SQLite 3.40, 10,000 documents, this machine).
constexpr int64_t kWalkStepCost = 3;

// What a candidate costs a find sorted on a field, in index rows: its text read and parsed for
// the sort key (about 3 us for a small document) where a date sort reads a column.
constexpr int64_t kFieldSortReadCost = 6;

}  // namespace

int64_t lookup_cap(int64_t page_end, int64_t scope_documents) {
  const auto meeting = static_cast<int64_t>(
      std::sqrt(static_cast<double>(kWalkStepCost * std::max<int64_t>(page_end, 0)) *
                static_cast<double>(std::max<int64_t>(scope_documents, 0))));
  return std::max(page_end, meeting) + 1;
}

namespace {

// A walk (in date or in index order, probing each document until the page is full) or a read
// of the fewest lookup's rows at `read_cost` each, whichever costs less.
FindPlan walk_or_read(const FindFacts& facts, FindPlan walk, FindPlan read, int64_t read_cost) {
  // Every match is read anyway, or all of them are wanted: the index reads fewer.
  if (facts.pass_counts_all || facts.page_end < 0) return read;
  const int64_t rows = *facts.fewest_lookup_rows;
  const int64_t documents = facts.scope_documents;
  // Counted to the cap: the walk costs less at any read cost, by the cap's definition.
  if (rows >= lookup_cap(facts.page_end, documents)) return walk;
  const int64_t met =
      rows <= 0 ? documents : std::min(documents, (facts.page_end * documents + rows - 1) / rows);
  return rows * read_cost <= kWalkStepCost * met ? read : walk;
}

}  // namespace

FindPlan choose_find_plan(const FindFacts& facts) {
  if (!facts.by_date) {
    if (!facts.index_order) return facts.fewest_lookup_rows ? FindPlan::kLookups : FindPlan::kScan;
    // Nothing to probe: the rows in order are the matches, or the texts decide the rest.
    if (!facts.index_order_probed || !facts.fewest_lookup_rows) return FindPlan::kIndexOrder;
    return walk_or_read(facts, FindPlan::kIndexOrder, FindPlan::kLookups, kFieldSortReadCost);
  }
  if (!facts.fewest_lookup_rows) return FindPlan::kScan;
  const FindPlan from_index = facts.index_only ? FindPlan::kIndexOnly : FindPlan::kLookups;
  if (!facts.walkable) return from_index;  // the scope index has no date order to walk
  if (facts.index_only && facts.index_only_ordered) return FindPlan::kIndexOnly;  // the page only
  return walk_or_read(facts, FindPlan::kDateWalk, from_index, 1);
}

int64_t walk_budget(const FindFacts& facts) {
  const int64_t rows = std::max<int64_t>(facts.fewest_lookup_rows.value_or(1), 1);
  const int64_t expected = (facts.page_end * facts.scope_documents + rows - 1) / rows;
  return std::max(2 * expected, facts.page_end);
}

CountPlan choose_count_plan(const CountFacts& facts) {
  if (facts.no_condition) return CountPlan::kKeptCount;
  if (facts.index_count) return CountPlan::kIndexCount;
  if (facts.excluded_count) return CountPlan::kExcludedCount;
  return facts.rest_empty ? CountPlan::kSqlCount : CountPlan::kScanCount;
}

const char* plan_name(FindPlan plan) {
  switch (plan) {
    case FindPlan::kIndexOnly:
      return "index_only";
    case FindPlan::kIndexOrder:
      return "index_order";
    case FindPlan::kLookups:
      return "index_lookup";
    case FindPlan::kDateWalk:
      return "date_walk";
    case FindPlan::kScan:
      return "scan";
  }
  return "scan";
}

const char* plan_name(CountPlan plan) {
  switch (plan) {
    case CountPlan::kKeptCount:
      return "kept_count";
    case CountPlan::kIndexCount:
      return "index_count";
    case CountPlan::kExcludedCount:
      return "index_count";
    case CountPlan::kSqlCount:
      return "index_lookup_count";
    case CountPlan::kScanCount:
      return "scan";
  }
  return "scan";
}

}  // namespace opbase::host::sqlite
