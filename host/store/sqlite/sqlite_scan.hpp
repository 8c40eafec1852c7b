// The one way the sqlite driver reads documents for a query: SQL selects the candidate rows (a
// scope, a state, and the conditions an index or the key column decides), and each candidate's
// stored text is read once by a TextQuery that tests the rest of the match and takes the sort
// keys' values. The page and the number of matches come from that one pass; a sort the columns
// cannot give is kept as the best `offset + limit` rows while the scan goes.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "opbase/query.hpp"
#include "opbase/status.hpp"
#include "store/sqlite/sqlite_connection.hpp"
#include "store/sqlite/sqlite_query.hpp"

namespace opbase::host::sqlite {

// A selected document: its row id, `_key` and stored JSON text.
struct StoredRow {
  int64_t id;
  std::string key;
  std::string doc;
};

struct ScanRequest {
  const SqlFilter* filter;
  // The order of the answer: `sort` keys (empty: `_created_at` descending), ties broken by
  // `_key` in the last key's direction, or, when `column_order` is set, that SQL ORDER BY.
  std::vector<query::SortKey> sort;
  std::string column_order;
  int64_t limit = -1;  // -1: every match
  int64_t offset = 0;
  bool count_all = false;  // read past the page to count every match
};

struct ScanAnswer {
  std::vector<StoredRow> page;
  int64_t matched = 0;    // matches seen; every match when count_all or the page was not full
  int64_t rows_read = 0;  // candidate rows the SQL gave
};

Result<ScanAnswer> scan(Connection& db, const ScanRequest& request);

// The same answer for an IndexSort plan: field_index rows in the sort's order, each document
// read by id and tested for the plan's other conditions; the read stops when the page is full
// unless every match must be counted. `unvalued` false leaves out the documents without a row
// (the caller knows there are none).
Result<ScanAnswer> scan_index_order(Connection& db, const IndexSort& plan, int64_t limit,
                                    int64_t offset, bool count_all, bool unvalued);

}  // namespace opbase::host::sqlite
